//! A convolution as one matrix product over the whole batch, for training on the CPU.
//!
//! burn-flex runs a convolution as one small product per sample (docs/performance.md): on
//! oxo's small grids (ultimate's 3x3 block grid, extreme's 4x4) each product has 9 or 16
//! columns, so the kernels run part-empty and packing is paid once per sample, in the forward
//! pass and in both of the backward's. [`conv2d`] writes every output cell's receptive field
//! as one row (im2col) of a `[batch * cells, inputs * kernel]` matrix and multiplies it by the
//! kernel once; the backward pass is two more whole-batch products and the rows' scatter back
//! onto the input (col2im). Rows hold channels last, and so may the activations ([`Layout`]):
//! training keeps its trunk channels last, so a layer's output is the next layer's input
//! without a transpose in either direction.
//!
//! It is a burn backend extension ([`BatchConv`]): the forward pass on burn-flex's tensors and,
//! for `Autodiff<Flex>`, a backward pass written here. Other backends (the GPUs) keep burn's
//! convolution; [`conv2d`] says so by returning `None`.
//!
//! The products call `gemm` (burn-flex's own matrix kernels) directly: on transposed operands
//! by their strides rather than copies, into buffers this module owns, where burn-flex's
//! matmul zeroes its output and copies it once more into an aligned allocation.
//!
//! The rows, nine times the size of a 3x3 convolution's input, are built a chunk of the batch
//! at a time ([`Plan::chunks`]) in a scratch matrix each thread keeps ([`with_scratch`]), and
//! built again in the backward pass from the input rather than kept for it: a whole batch's
//! rows kept per layer were megabytes written to memory and read back, where a chunk's stay
//! in the core's cache between being built and being multiplied.

use burn::backend::autodiff::Autodiff;
use burn::backend::autodiff::checkpoint::{base::Checkpointer, strategy::CheckpointStrategy};
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::tensor::FloatTensor;
use burn::backend::{Dispatch, Flex, backend_extension};
use burn::tensor::{DType, Device, Shape, Tensor, TensorData};
use burn_flex::FlexTensor;
use std::borrow::Cow;
use std::cell::Cell;
use std::mem::MaybeUninit;
use std::ops::Range;
use std::thread::LocalKey;

/// A 2-D convolution's geometry (one group, no dilation): kernel, stride and padding, each
/// `[rows, columns]`, the padding on both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Kernel size.
    pub kernel: [usize; 2],
    /// Stride.
    pub stride: [usize; 2],
    /// Zero padding, before and after alike.
    pub padding: [usize; 2],
}

/// How a 4-D activation is laid out: burn's `[B, C, H, W]`, or `[B, H, W, C]`, the layout of
/// the convolution's rows ([`Plan`]). Training on the CPU keeps the trunk channels last, so
/// that consecutive layers hand each other their rows' layout without transposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `[B, C, H, W]`.
    ChannelsFirst,
    /// `[B, H, W, C]`.
    ChannelsLast,
}

/// The convolution of [`conv2d`] as a burn backend operation.
#[backend_extension(Flex, Autodiff)]
pub trait BatchConv: burn::backend::Backend {
    /// `x` `[B, Ci, H, W]` convolved with `weight` `[Co, Ci, kh, kw]` (no bias), as one
    /// product over the batch; `[B, Co, Ho, Wo]`. Channels last, `x` `[B, H, W, Ci]` and
    /// `[B, Ho, Wo, Co]`.
    fn batch_conv2d(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        geometry: Geometry,
        layout: Layout,
    ) -> FloatTensor<Self>;
}

/// `x` `[B, Ci, H, W]` convolved with `weight` `[Co, Ci, kh, kw]` (no bias) as one matrix
/// product over the batch: the same function as burn's `conv2d` with one group and no
/// dilation, faster to train on the CPU (docs/performance.md); with `layout` channels last,
/// `x` `[B, H, W, Ci]` gives `[B, Ho, Wo, Co]`. `None` off the CPU (flex) backend, where
/// burn's convolution is the one to use.
pub fn conv2d(
    x: Tensor<4>,
    weight: Tensor<4>,
    geometry: Geometry,
    layout: Layout,
) -> Option<Tensor<4>> {
    if !on_flex(&x.device()) {
        return None;
    }
    let y = <Dispatch as BatchConv>::batch_conv2d(
        x.into_dispatch(),
        weight.into_dispatch(),
        geometry,
        layout,
    );
    Some(Tensor::from_dispatch(y))
}

impl BatchConv for Flex {
    fn batch_conv2d(
        x: FlexTensor,
        weight: FlexTensor,
        geometry: Geometry,
        layout: Layout,
    ) -> FlexTensor {
        let plan = Plan::new(&x, &weight, geometry, layout);
        plan.forward(&x, &plan.kernel_rows(&weight))
    }
}

impl<C: CheckpointStrategy> BatchConv for Autodiff<Flex, C> {
    fn batch_conv2d(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        geometry: Geometry,
        layout: Layout,
    ) -> FloatTensor<Self> {
        let plan = Plan::new(x.primitive(), weight.primitive(), geometry, layout);
        match ConvBackward
            .prepare::<C>([x.node(), weight.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let kernel = plan.kernel_rows(weight.primitive());
                let output = plan.forward(x.primitive(), &kernel);
                prep.finish((plan, x.primitive().clone(), kernel), output)
            }
            OpsKind::UnTracked(prep) => {
                let kernel = plan.kernel_rows(weight.primitive());
                prep.finish(plan.forward(x.primitive(), &kernel))
            }
        }
    }
}

/// The backward pass of [`BatchConv::batch_conv2d`]: the kernel's gradient is the output's
/// gradient (as rows) times the forward's rows, built again from the input; the input's, the
/// output's gradient times the kernel, scattered back from rows onto the input.
#[derive(Debug)]
struct ConvBackward;

impl Backward<Flex, 2> for ConvBackward {
    /// The plan, the forward's input and the kernel as rows `[Co, K]`
    /// ([`Plan::kernel_rows`]).
    type State = (Plan, FlexTensor, Vec<f32>);

    fn backward(self, ops: Ops<Self::State, 2>, grads: &mut Gradients, _: &mut Checkpointer) {
        let [node_x, node_weight] = ops.parents;
        let grad = grads.consume::<Flex>(&ops.node);
        let (plan, x, kernel) = ops.state;
        let grad = grad.to_contiguous();
        let grad_rows = plan.output_rows(&grad);
        let (co, k) = (plan.outputs, plan.row_len());
        if let Some(node) = node_weight {
            let x = x.to_contiguous();
            let cells = plan.cells_last(&x);
            // [Co, N] x [N, K]: the kernel's gradient, in the rows' column order, summed
            // over the batch's chunks.
            let mut grad_kernel = vec![0.0f32; co * k];
            with_scratch(&ROWS, |rows| {
                for samples in plan.chunks() {
                    plan.fill_rows(&cells, samples.clone(), rows);
                    let out_rows = plan.out_rows(samples);
                    product_add(
                        [co, k, out_rows.len()],
                        Operand::transposed(&grad_rows[out_rows.start * co..out_rows.end * co], co),
                        Operand::rows(rows, k),
                        &mut grad_kernel,
                    );
                }
            });
            grads.register::<Flex>(node.id, plan.kernel_from_rows(&grad_kernel));
        }
        if let Some(node) = node_x {
            // [N, Co] x [Co, K]: each row's gradient, then scattered onto the input, chunk
            // by chunk.
            let mut grad_cells = vec![0.0f32; plan.batch * plan.cells() * plan.inputs];
            with_scratch(&ROW_GRADS, |row_grads| {
                for samples in plan.chunks() {
                    let out_rows = plan.out_rows(samples.clone());
                    product_over(
                        [out_rows.len(), k, co],
                        Operand::rows(&grad_rows[out_rows.start * co..out_rows.end * co], co),
                        Operand::rows(&kernel, k),
                        row_grads,
                    );
                    plan.scatter_rows(row_grads, samples, &mut grad_cells);
                }
            });
            grads.register::<Flex>(node.id, plan.laid_out(grad_cells, plan.inputs, plan.grid));
        }
    }
}

thread_local! {
    /// This thread's scratch matrix for a convolution's rows ([`Plan::fill_rows`]).
    static ROWS: Cell<Vec<f32>> = const { Cell::new(Vec::new()) };
    /// This thread's scratch matrix for the rows' gradient in the backward pass.
    static ROW_GRADS: Cell<Vec<f32>> = const { Cell::new(Vec::new()) };
}

/// `f` on this thread's scratch matrix `scratch`, lent out for the call and kept afterwards
/// with whatever capacity it grew to. A call nested inside `f` (a rayon job stolen while a
/// product waits) finds the slot empty and works in a fresh matrix.
fn with_scratch<R>(
    scratch: &'static LocalKey<Cell<Vec<f32>>>,
    f: impl FnOnce(&mut Vec<f32>) -> R,
) -> R {
    let mut matrix = scratch.take();
    let result = f(&mut matrix);
    scratch.set(matrix);
    result
}

/// One convolution's sizes, and for every (output cell, kernel tap) the input cell it reads.
///
/// Rows hold channels last: row `(b, q)` (sample `b`, output cell `q`) is, tap by tap, the
/// `Ci` channels of the input cell the tap reads (zeros in the padding), so building a row
/// copies whole channel vectors. The kernel is reordered to match ([`Plan::kernel_rows`]).
#[derive(Clone, Debug)]
struct Plan {
    /// The layout of the input and the output.
    layout: Layout,
    batch: usize,
    inputs: usize,
    outputs: usize,
    /// The input grid, `[H, W]`.
    grid: [usize; 2],
    /// The output grid, `[Ho, Wo]`.
    out_grid: [usize; 2],
    /// `[kh, kw]`.
    kernel: [usize; 2],
    /// `reads[q * taps + t]`: the input cell (row-major) tap `t` of output cell `q` reads,
    /// `None` in the padding.
    reads: Vec<Option<usize>>,
}

impl Plan {
    /// The plan of convolving `x` with `weight`.
    ///
    /// # Panics
    ///
    /// If the shapes do not fit each other and `geometry`, as burn's convolution would.
    fn new(x: &FlexTensor, weight: &FlexTensor, geometry: Geometry, layout: Layout) -> Self {
        let [batch, inputs, height, width] = match (layout, dims(x)) {
            (Layout::ChannelsFirst, dims) => dims,
            (Layout::ChannelsLast, [batch, height, width, inputs]) => {
                [batch, inputs, height, width]
            }
        };
        let [outputs, weight_inputs, kh, kw] = dims(weight);
        assert_eq!(x.dtype(), DType::F32, "batch_conv2d: f32 only");
        assert_eq!(inputs, weight_inputs, "batch_conv2d: input channels");
        assert_eq!(geometry.kernel, [kh, kw], "batch_conv2d: kernel size");
        let size = |side: usize, axis: usize| {
            let padded = side + 2 * geometry.padding[axis];
            assert!(
                padded >= geometry.kernel[axis],
                "batch_conv2d: kernel larger than input"
            );
            (padded - geometry.kernel[axis]) / geometry.stride[axis] + 1
        };
        let out_grid = [size(height, 0), size(width, 1)];
        let mut reads = Vec::with_capacity(out_grid[0] * out_grid[1] * kh * kw);
        for oy in 0..out_grid[0] {
            for ox in 0..out_grid[1] {
                for ky in 0..kh {
                    for kx in 0..kw {
                        let y = (oy * geometry.stride[0] + ky).checked_sub(geometry.padding[0]);
                        let x = (ox * geometry.stride[1] + kx).checked_sub(geometry.padding[1]);
                        reads.push(match (y, x) {
                            (Some(y), Some(x)) if y < height && x < width => Some(y * width + x),
                            _ => None,
                        });
                    }
                }
            }
        }
        Plan {
            layout,
            batch,
            inputs,
            outputs,
            grid: [height, width],
            out_grid,
            kernel: [kh, kw],
            reads,
        }
    }

    fn taps(&self) -> usize {
        self.kernel[0] * self.kernel[1]
    }

    fn cells(&self) -> usize {
        self.grid[0] * self.grid[1]
    }

    fn out_cells(&self) -> usize {
        self.out_grid[0] * self.out_grid[1]
    }

    /// Length of a row: every tap's input channels.
    fn row_len(&self) -> usize {
        self.inputs * self.taps()
    }

    /// The convolution of `x` by the kernel as rows ([`Plan::kernel_rows`]), chunk by chunk
    /// of the batch, each chunk's rows built in this thread's scratch matrix.
    fn forward(&self, x: &FlexTensor, kernel: &[f32]) -> FlexTensor {
        let x = x.to_contiguous();
        let cells = self.cells_last(&x);
        let (co, k) = (self.outputs, self.row_len());
        let n = self.batch * self.out_cells();
        let mut out = Vec::with_capacity(n * co);
        with_scratch(&ROWS, |rows| {
            for samples in self.chunks() {
                self.fill_rows(&cells, samples.clone(), rows);
                let out_rows = self.out_rows(samples);
                product_into(
                    [out_rows.len(), co, k],
                    Operand::rows(rows, k),
                    Operand::transposed(kernel, k),
                    &mut out.spare_capacity_mut()[out_rows.start * co..out_rows.end * co],
                );
            }
        });
        // SAFETY: the chunks cover every sample, and each chunk's product wrote its rows.
        unsafe { out.set_len(n * co) };
        self.laid_out(out, co, self.out_grid)
    }

    /// Consecutive ranges of samples that together cover the batch, each small enough that
    /// its rows stay in a core's cache while gemm reads them.
    fn chunks(&self) -> impl Iterator<Item = Range<usize>> + use<> {
        let per_sample = self.out_cells() * self.row_len();
        let chunk = (CHUNK_FLOATS / per_sample).max(1);
        let batch = self.batch;
        (0..batch)
            .step_by(chunk)
            .map(move |start| start..(start + chunk).min(batch))
    }

    /// The rows (output cells over the batch) of `samples`.
    fn out_rows(&self, samples: Range<usize>) -> Range<usize> {
        samples.start * self.out_cells()..samples.end * self.out_cells()
    }

    /// `x` (contiguous, in the plan's layout) as `[B, cells, Ci]`, channels last.
    fn cells_last<'a>(&self, x: &'a FlexTensor) -> Cow<'a, [f32]> {
        match self.layout {
            Layout::ChannelsLast => Cow::Borrowed(x.storage()),
            Layout::ChannelsFirst => {
                Cow::Owned(transpose_blocks(x.storage(), self.inputs, self.cells()))
            }
        }
    }

    /// im2col: the rows `[samples * Ho * Wo, kh * kw * Ci]` (see [`Plan`]) of `samples`,
    /// from the batch's channels-last `cells`, written over `rows`.
    fn fill_rows(&self, cells: &[f32], samples: Range<usize>, rows: &mut Vec<f32>) {
        let (channels, row_len) = (self.inputs, self.row_len());
        // Filled slot by slot (no zeroing first: most slots are copies).
        rows.clear();
        rows.reserve(samples.len() * self.out_cells() * row_len);
        for b in samples {
            let sample = &cells[b * self.cells() * channels..][..self.cells() * channels];
            for read in &self.reads {
                match read {
                    Some(cell) => rows.extend_from_slice(&sample[cell * channels..][..channels]),
                    None => rows.resize(rows.len() + channels, 0.0),
                }
            }
        }
    }

    /// col2im, the transpose of [`Plan::fill_rows`]: the rows of `samples`, each row's values
    /// added back onto the input cells they were read from, in the batch's channels-last
    /// `cells`.
    fn scatter_rows(&self, rows: &[f32], samples: Range<usize>, cells: &mut [f32]) {
        let (taps, channels, row_len) = (self.taps(), self.inputs, self.row_len());
        let sample_len = self.cells() * channels;
        let cells = &mut cells[samples.start * sample_len..samples.end * sample_len];
        for (index, row) in rows.chunks_exact(row_len).enumerate() {
            let (b, q) = (index / self.out_cells(), index % self.out_cells());
            let sample = &mut cells[b * sample_len..][..sample_len];
            let reads = &self.reads[q * taps..][..taps];
            for (slot, read) in row.chunks_exact(channels).zip(reads) {
                if let Some(cell) = read {
                    let target = &mut sample[cell * channels..][..channels];
                    target.iter_mut().zip(slot).for_each(|(t, v)| *t += v);
                }
            }
        }
    }

    /// The kernel `[Co, Ci, kh, kw]` as `[Co, kh * kw * Ci]`, in the rows' column order.
    fn kernel_rows(&self, weight: &FlexTensor) -> Vec<f32> {
        transpose_blocks(weight.to_contiguous().storage(), self.inputs, self.taps())
    }

    /// The inverse of [`Plan::kernel_rows`]: `[Co, kh * kw * Ci]` back to `[Co, Ci, kh, kw]`.
    fn kernel_from_rows(&self, rows: &[f32]) -> FlexTensor {
        let kernel = transpose_blocks(rows, self.taps(), self.inputs);
        tensor(
            kernel,
            [self.outputs, self.inputs, self.kernel[0], self.kernel[1]],
        )
    }

    /// The output's gradient (contiguous, in the plan's layout) as rows `[N, Co]`, the layout
    /// of the forward's product: channels last already, or transposed into it.
    fn output_rows<'a>(&self, grad: &'a FlexTensor) -> Cow<'a, [f32]> {
        match self.layout {
            Layout::ChannelsLast => Cow::Borrowed(grad.storage()),
            Layout::ChannelsFirst => Cow::Owned(transpose_blocks(
                grad.storage(),
                self.outputs,
                self.out_cells(),
            )),
        }
    }

    /// `[B, cells, channels]` values on a `grid` as a tensor in the plan's layout.
    fn laid_out(&self, cells: Vec<f32>, channels: usize, grid: [usize; 2]) -> FlexTensor {
        let [height, width] = grid;
        match self.layout {
            Layout::ChannelsLast => tensor(cells, [self.batch, height, width, channels]),
            Layout::ChannelsFirst => tensor(
                transpose_blocks(&cells, height * width, channels),
                [self.batch, channels, height, width],
            ),
        }
    }
}

/// A matrix operand of [`product`]: values and the distance between consecutive rows and
/// between consecutive columns.
#[derive(Clone, Copy)]
struct Operand<'a> {
    values: &'a [f32],
    row_stride: usize,
    column_stride: usize,
}

impl<'a> Operand<'a> {
    /// A row-major matrix of rows `width` long.
    fn rows(values: &'a [f32], width: usize) -> Self {
        Operand {
            values,
            row_stride: width,
            column_stride: 1,
        }
    }

    /// The transpose of a row-major matrix of rows `width` long, read in place.
    fn transposed(values: &'a [f32], width: usize) -> Self {
        Operand {
            values,
            row_stride: 1,
            column_stride: width,
        }
    }

    /// Whether a `rows x columns` matrix read this way stays inside `values`.
    fn holds(&self, rows: usize, columns: usize) -> bool {
        rows == 0
            || columns == 0
            || (rows - 1) * self.row_stride + (columns - 1) * self.column_stride < self.values.len()
    }
}

/// `lhs` `[m, k]` times `rhs` `[k, n]` for `[m, n, k]`, written as a row-major `[m, n]`
/// matrix over `out` (`m * n` long), by `gemm`, on all of the current rayon pool's threads
/// when the product is large (as burn-flex's matmul decides; a data-parallel replica's pool
/// has one).
///
/// # Panics
///
/// If an operand does not hold its matrix or `out` is not `m * n` long.
fn product_into(dims: [usize; 3], lhs: Operand, rhs: Operand, out: &mut [MaybeUninit<f32>]) {
    // SAFETY: read_dst false: gemm writes every value of `out` and reads none.
    unsafe { gemm_checked(dims, lhs, rhs, out.as_mut_ptr().cast(), out.len(), false) }
}

/// [`product_into`] written over `out`'s values, which keeps its allocation where it is large
/// enough.
fn product_over(dims: [usize; 3], lhs: Operand, rhs: Operand, out: &mut Vec<f32>) {
    let len = dims[0] * dims[1];
    out.clear();
    out.reserve(len);
    product_into(dims, lhs, rhs, &mut out.spare_capacity_mut()[..len]);
    // SAFETY: product_into wrote all `len` values.
    unsafe { out.set_len(len) };
}

/// [`product_into`], the product added onto `out`.
fn product_add(dims: [usize; 3], lhs: Operand, rhs: Operand, out: &mut [f32]) {
    // SAFETY: `out` is initialised, so gemm may read it.
    unsafe { gemm_checked(dims, lhs, rhs, out.as_mut_ptr(), out.len(), true) }
}

/// `gemm` into `dst`, `len` values long, after checking the operands and `len`; adds the
/// product onto `dst` if `accumulate`, else overwrites it.
///
/// # Safety
///
/// `dst` must be valid for `len` writes, and initialised if `accumulate`.
unsafe fn gemm_checked(
    [m, n, k]: [usize; 3],
    lhs: Operand,
    rhs: Operand,
    dst: *mut f32,
    len: usize,
    accumulate: bool,
) {
    assert!(
        lhs.holds(m, k) && rhs.holds(k, n),
        "product: operands too small"
    );
    assert_eq!(len, m * n, "product: output size");
    let parallelism = match m * n * k >= 192 * 192 * 192 {
        true => gemm::Parallelism::Rayon(0),
        false => gemm::Parallelism::None,
    };
    let stride = |s: usize| s as isize;
    // SAFETY: `dst` holds the `m * n` values (checked above; the caller vouches for the
    // pointer), and both operands were checked to hold their matrices, so every read is in
    // bounds.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst,
            1,
            stride(n),
            accumulate,
            lhs.values.as_ptr(),
            stride(lhs.column_stride),
            stride(lhs.row_stride),
            rhs.values.as_ptr(),
            stride(rhs.column_stride),
            stride(rhs.row_stride),
            if accumulate { 1.0 } else { 0.0 },
            1.0,
            false,
            false,
            false,
            parallelism,
        );
    }
}

/// The most values of rows a chunk of the batch makes ([`Plan::chunks`]): 512 KiB, within a
/// core's L2 cache on the CPUs measured (1-2 MiB) beside gemm's packed operands. Chunks of
/// this size trained extreme's net 7-9% faster than the whole batch's rows at once (4.7 MB a
/// layer) on one core; 1 MiB did as well here.
const CHUNK_FLOATS: usize = 1 << 17;

/// `values` as consecutive `rows x cols` blocks (row-major), each transposed to `cols x rows`.
///
/// Tile by tile, so that the lines a tile reads and the lines it writes stay in the cache: a
/// plain element-by-element transpose of a 64-channel activation was a fifth of a training
/// step.
fn transpose_blocks(values: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    const TILE: usize = 16;
    let size = rows * cols;
    if size == 0 {
        return Vec::new();
    }
    assert_eq!(values.len() % size, 0, "transpose_blocks: whole blocks");
    let mut out = Vec::with_capacity(values.len());
    let slots = &mut out.spare_capacity_mut()[..values.len()];
    for (block, out_block) in values.chunks_exact(size).zip(slots.chunks_exact_mut(size)) {
        for r0 in (0..rows).step_by(TILE) {
            for c0 in (0..cols).step_by(TILE) {
                let c_end = (c0 + TILE).min(cols);
                for r in r0..(r0 + TILE).min(rows) {
                    let source = &block[r * cols + c0..r * cols + c_end];
                    for (c, &value) in (c0..c_end).zip(source) {
                        out_block[c * rows + r].write(value);
                    }
                }
            }
        }
    }
    // SAFETY: every slot of every block was written above: each block's tiles cover all of
    // its `rows x cols` (row, column) pairs, and pair (r, c) writes slot `c * rows + r`.
    unsafe { out.set_len(values.len()) };
    out
}

/// Whether `device` is the CPU (flex) backend's, with or without autodiff: where oxo's
/// training extensions (this module's, `batch_norm`'s, `adamw`'s) run.
pub(crate) fn on_flex(device: &Device) -> bool {
    *device == Device::flex() || *device == Device::flex().autodiff()
}

/// A flex tensor of `values` with `shape`.
pub(crate) fn tensor(values: Vec<f32>, shape: impl Into<Shape>) -> FlexTensor {
    FlexTensor::from_data(TensorData::new(values, shape))
}

/// A 4-D tensor's dimensions.
fn dims(tensor: &FlexTensor) -> [usize; 4] {
    let shape = tensor.layout().shape();
    assert_eq!(shape.num_dims(), 4, "batch_conv2d: 4-D tensors");
    [shape[0], shape[1], shape[2], shape[3]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::Distribution;
    use burn::tensor::module::conv2d as burn_conv2d;
    use burn::tensor::ops::ConvOptions;

    /// The largest absolute element of `tensor`.
    fn largest(tensor: Tensor<4>) -> f32 {
        tensor.abs().max().into_scalar()
    }

    /// Outputs and both gradients agree with burn's convolution for every geometry oxo's nets
    /// use (3x3 trunks on 3x3 and 4x4 grids, patch stems, 1x1 heads) and some they do not
    /// (odd grids, a kernel wider than its padding covers, strides that leave cells unread),
    /// in both layouts.
    #[test]
    fn it_is_burns_convolution() {
        let cases = [
            ([3, 3], [1, 1], [1, 1], [3, 3]),
            ([3, 3], [1, 1], [1, 1], [4, 4]),
            ([3, 3], [1, 1], [1, 1], [6, 7]),
            ([3, 3], [1, 1], [1, 1], [1, 5]),
            ([3, 3], [1, 1], [1, 1], [1, 1]),
            ([3, 3], [3, 3], [0, 0], [9, 9]),
            ([4, 4], [4, 4], [0, 0], [16, 16]),
            ([1, 1], [1, 1], [0, 0], [4, 4]),
            ([2, 3], [1, 2], [0, 1], [5, 6]),
            ([3, 3], [2, 2], [0, 0], [6, 6]),
        ];
        for (kernel, stride, padding, grid) in cases {
            let geometry = Geometry {
                kernel,
                stride,
                padding,
            };
            for layout in [Layout::ChannelsFirst, Layout::ChannelsLast] {
                matches_burn(geometry, grid, [3, 5], layout);
            }
        }
    }

    /// A batch whose rows span several chunks, the last one short, is convolved as one.
    #[test]
    fn a_batch_of_several_chunks_is_burns_convolution() {
        let geometry = Geometry {
            kernel: [3, 3],
            stride: [1, 1],
            padding: [1, 1],
        };
        // 7 samples of 64 channels on 8x8 cells.
        let (batch, inputs, grid) = (7, 64, [8, 8]);
        let x = tensor(
            vec![0.0; batch * inputs * 64],
            [batch, inputs, grid[0], grid[1]],
        );
        let weight = tensor(vec![0.0; 7 * inputs * 9], [7, inputs, 3, 3]);
        let plan = Plan::new(&x, &weight, geometry, Layout::ChannelsFirst);
        let chunks: Vec<_> = plan.chunks().map(|samples| samples.len()).collect();
        assert_eq!(chunks, [3, 3, 1]);
        for layout in [Layout::ChannelsFirst, Layout::ChannelsLast] {
            matches_burn(geometry, grid, [batch, inputs], layout);
        }
    }

    /// [`conv2d`] in `layout` against burn's convolution of a random `[batch, inputs, grid]`
    /// input with a random `[7, inputs, kernel]` kernel: outputs and both gradients.
    fn matches_burn(
        geometry: Geometry,
        [height, width]: [usize; 2],
        [batch, inputs]: [usize; 2],
        layout: Layout,
    ) {
        let device = Device::flex().autodiff();
        let normal = Distribution::Normal(0.0, 1.0);
        let [kh, kw] = geometry.kernel;
        let weight = Tensor::<4>::random([7, inputs, kh, kw], normal, &device).require_grad();
        let input =
            Tensor::<4>::random([batch, inputs, height, width], normal, &device).require_grad();
        let options = ConvOptions::new(geometry.stride, geometry.padding, [1, 1], 1);
        let expected = burn_conv2d(input.clone(), weight.clone(), None, options);
        // Channels last: the input's permuted view in, the output permuted back.
        let got = match layout {
            Layout::ChannelsFirst => conv2d(input.clone(), weight.clone(), geometry, layout),
            Layout::ChannelsLast => conv2d(
                input.clone().permute([0, 2, 3, 1]),
                weight.clone(),
                geometry,
                layout,
            )
            .map(|y| y.permute([0, 3, 1, 2])),
        }
        .expect("on flex");
        let what = format!("{geometry:?} {layout:?}");
        assert_eq!(got.dims(), expected.dims(), "{what}");
        let difference = largest(got.clone() - expected.clone());
        assert!(difference < 1e-4, "{what}: outputs differ by {difference}");
        // Gradients of a loss that weighs every output differently.
        let weights = Tensor::<4>::random(expected.dims(), normal, &device);
        let mut grads = (expected * weights.clone()).sum().backward();
        let input_grad = input.grad_remove(&mut grads).unwrap();
        let kernel_grad = weight.grad_remove(&mut grads).unwrap();
        let mut grads = (got * weights).sum().backward();
        let input_difference = largest(input.grad_remove(&mut grads).unwrap() - input_grad);
        let kernel_difference = largest(weight.grad_remove(&mut grads).unwrap() - kernel_grad);
        assert!(
            input_difference < 1e-3 && kernel_difference < 1e-3,
            "{what}: gradients differ by {input_difference} and {kernel_difference}"
        );
    }

    /// Without autodiff the same function runs, untracked.
    #[test]
    fn it_runs_without_autodiff() {
        let device = Device::flex();
        let normal = Distribution::Normal(0.0, 1.0);
        let weight = Tensor::<4>::random([4, 2, 3, 3], normal, &device);
        let input = Tensor::<4>::random([2, 2, 4, 4], normal, &device);
        let geometry = Geometry {
            kernel: [3, 3],
            stride: [1, 1],
            padding: [1, 1],
        };
        let options = ConvOptions::new([1, 1], [1, 1], [1, 1], 1);
        let expected = burn_conv2d(input.clone(), weight.clone(), None, options);
        let got = conv2d(input, weight, geometry, Layout::ChannelsFirst).expect("on flex");
        assert!(largest(got - expected) < 1e-4);
    }
}

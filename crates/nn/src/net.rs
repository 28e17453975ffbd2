//! The residual policy/value network as a burn [`Module`], and the shapes it is built for.

use burn::module::{Module, Param, RunningState};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::{relu, tanh};
use burn::tensor::module::conv2d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Int, Tensor, TensorData};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::batch_conv::{self, Geometry, Layout};
use crate::batch_norm;
use crate::config::NetConfig;
use oxo_encode::Encode;

pub use oxo_encode::WDL;

/// The input and output shapes a network is built for: they follow from the variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetShape {
    /// The variant's name (`Game::NAME`), so a model is never run on another variant.
    pub variant: String,
    /// Input planes (`Encode::PLANES`).
    pub planes: usize,
    /// Grid height (`Game::HEIGHT`).
    pub height: usize,
    /// Grid width (`Game::WIDTH`).
    pub width: usize,
    /// Policy outputs (`Game::NUM_ACTIONS`): cells, then the variant's extra actions.
    pub actions: usize,
}

impl NetShape {
    /// The shapes of variant `G`.
    pub fn of<G: Encode>() -> Self {
        NetShape {
            variant: G::NAME.to_string(),
            planes: G::PLANES,
            height: G::HEIGHT,
            width: G::WIDTH,
            actions: G::NUM_ACTIONS,
        }
    }

    /// Floats in one encoded position.
    pub fn input_size(&self) -> usize {
        self.planes * self.height * self.width
    }

    /// Checks that `inputs` holds `batch` encoded positions, as every evaluation needs.
    ///
    /// # Panics
    ///
    /// If it does not, or `batch` is 0: a caller's bug, named in the message.
    pub fn check_batch(&self, inputs: &[f32], batch: usize) {
        assert!(batch > 0, "evaluate needs at least one position");
        assert_eq!(
            inputs.len(),
            batch * self.input_size(),
            "evaluate: inputs hold {} floats, {batch} positions of {} need {}",
            inputs.len(),
            self.variant,
            batch * self.input_size()
        );
    }

    /// Grid cells.
    fn cells(&self) -> usize {
        self.height * self.width
    }

    /// Whether a stem of `patch x patch` blocks fits this shape: 1 (a vector per cell) fits
    /// every shape; larger blocks must tile the grid, and every action be a cell (the policy
    /// head gives logits to the blocks' cells only).
    pub fn fits_patch(&self, patch: usize) -> bool {
        patch == 1
            || (patch > 1
                && self.height.is_multiple_of(patch)
                && self.width.is_multiple_of(patch)
                && self.actions == self.cells())
    }
}

/// A convolution (without bias: the batch norm's shift replaces it) followed by batch norm.
#[derive(Module, Debug)]
struct ConvNorm {
    conv: Conv2d,
    norm: BatchNorm,
    /// Whether `norm` is already folded into `conv` ([`ConvNorm::folded`], inference copies
    /// only), so `forward` skips it. Not saved: files always hold the unfolded layer.
    folded: bool,
}

impl ConvNorm {
    /// A `kernel x kernel` convolution from `input` to `output` channels, padded to keep the
    /// grid's size.
    fn new(input: usize, output: usize, kernel: usize, device: &Device) -> Self {
        let pad = kernel / 2;
        Self::from_conv(
            Conv2dConfig::new([input, output], [kernel, kernel])
                .with_padding(PaddingConfig2d::Explicit(pad, pad, pad, pad)),
            output,
            device,
        )
    }

    /// A convolution with kernel and stride `patch`, no padding: one output vector per
    /// `patch x patch` block of the grid (see [`NetConfig::patch`]).
    fn patchify(input: usize, output: usize, patch: usize, device: &Device) -> Self {
        Self::from_conv(
            Conv2dConfig::new([input, output], [patch, patch]).with_stride([patch, patch]),
            output,
            device,
        )
    }

    /// The layer of `conv` (without bias) and a batch norm of its `output` channels.
    fn from_conv(conv: Conv2dConfig, output: usize, device: &Device) -> Self {
        ConvNorm {
            conv: conv.with_bias(false).init(device),
            norm: BatchNormConfig::new(output).init(device),
            folded: false,
        }
    }

    /// The same layer for inference with the batch norm's running statistics folded into
    /// the convolution: weights scaled per output channel by `gamma / sqrt(var + eps)` and
    /// `beta - mean * that scale` as the bias. One convolution replaces a convolution and the
    /// norm's four passes over the activations; the outputs agree to rounding.
    fn folded(&self) -> Self {
        let norm = &self.norm;
        let scale = norm.gamma.val() / norm.running_var.value().add_scalar(norm.epsilon).sqrt();
        let shift = norm.beta.val() - norm.running_mean.value() * scale.clone();
        let [outputs, ..] = self.conv.weight.dims();
        let mut conv = self.conv.clone();
        conv.weight = Param::from_tensor(conv.weight.val() * scale.reshape([outputs, 1, 1, 1]));
        conv.bias = Some(Param::from_tensor(shift));
        ConvNorm {
            conv,
            norm: norm.clone(),
            folded: true,
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = self.conv.forward(x);
        if self.folded { y } else { self.norm.forward(y) }
    }

    /// The layer as `pass` runs it: [`ConvNorm::forward`] for inference; for training, on the
    /// CPU the convolution as one product over the batch ([`batch_conv::conv2d`]) and the
    /// norm in one pass each way ([`batch_norm::batch_norm`]), on activations in the pass's
    /// layout. Not for inference: the ONNX export traces [`ConvNorm::forward`], and
    /// onnxruntime's convolutions are fast as they are.
    fn run(&self, x: Tensor<4>, pass: Pass) -> Tensor<4> {
        match pass {
            Pass::Inference => self.forward(x),
            Pass::Training(layout) => {
                norm_training(&self.norm, conv_training(&self.conv, x, layout), layout)
            }
        }
    }
}

/// How a forward pass runs its layers.
#[derive(Clone, Copy, Debug)]
enum Pass {
    /// burn's layers on `[B, C, H, W]`, as the ONNX export traces them.
    Inference,
    /// Training's layers ([`ConvNorm::run`]) on activations in this layout.
    Training(Layout),
}

impl Pass {
    /// The pass of a forward pass on `device`: for training on the CPU, activations channels
    /// last, the layout of the convolution's rows, so that no layer turns them around;
    /// channels first elsewhere, as burn's layers take them.
    fn on(device: &Device, training: bool) -> Self {
        match (training, batch_conv::on_flex(device)) {
            (false, _) => Pass::Inference,
            (true, true) => Pass::Training(Layout::ChannelsLast),
            (true, false) => Pass::Training(Layout::ChannelsFirst),
        }
    }

    /// The pass's layout of activations.
    fn layout(self) -> Layout {
        match self {
            Pass::Inference => Layout::ChannelsFirst,
            Pass::Training(layout) => layout,
        }
    }
}

/// `x` `[B, C, H, W]` in `layout` (a permuted view: burn copies it where an op needs it
/// contiguous).
fn laid_out(x: Tensor<4>, layout: Layout) -> Tensor<4> {
    match layout {
        Layout::ChannelsFirst => x,
        Layout::ChannelsLast => x.permute([0, 2, 3, 1]),
    }
}

/// `x` in `layout` as `[B, C, H, W]`: the inverse of [`laid_out`].
fn channels_first(x: Tensor<4>, layout: Layout) -> Tensor<4> {
    match layout {
        Layout::ChannelsFirst => x,
        Layout::ChannelsLast => x.permute([0, 3, 1, 2]),
    }
}

/// Two 3x3 conv + batch-norm layers with a skip connection around them.
#[derive(Module, Debug)]
struct ResBlock {
    first: ConvNorm,
    second: ConvNorm,
}

impl ResBlock {
    fn forward(&self, x: Tensor<4>, pass: Pass) -> Tensor<4> {
        let y = relu(self.first.run(x.clone(), pass));
        relu(self.second.run(y, pass) + x)
    }
}

/// What one forward pass returns for a batch of `B` positions.
pub(crate) struct Heads {
    /// Policy logits, `[B, actions]`.
    pub policy: Tensor<2>,
    /// Win/draw/loss logits, `[B, 3]`.
    pub wdl: Tensor<2>,
    /// Predicted score margin, `[B, 1]`, when the net has a score head.
    pub score: Option<Tensor<2>>,
    /// Predicted final owner of every cell, `[B, cells]` in `[-1, 1]` (+1: the mover), when
    /// the net has an ownership head and the caller asked for it (training only).
    pub ownership: Option<Tensor<2>>,
}

/// The AlphaZero-style residual network: a 3x3 stem, a trunk of residual blocks, a policy
/// head (1x1 conv, then a linear layer to every action's logit) and a value head (1x1 conv,
/// a hidden layer, then win/draw/loss logits and optionally a score margin), and optionally an
/// ownership head (a 1x1 conv to one plane, tanh) that only training reads.
///
/// With a patch stem ([`NetConfig::patch`] `p > 1`) the stem makes one vector per `p x p`
/// block, the trunk and the value head run on the block grid, and the policy head's linear
/// layer maps each block's vector to the logits of its own `p * p` cells (the same weights
/// for every block).
#[derive(Module, Debug)]
pub(crate) struct ResNet {
    /// Side of the stem's blocks (1: a vector per cell).
    patch: usize,
    stem: ConvNorm,
    blocks: Vec<ResBlock>,
    policy_conv: ConvNorm,
    policy_out: Linear,
    value_conv: ConvNorm,
    value_hidden: Linear,
    wdl_out: Linear,
    score_out: Option<Linear>,
    ownership_conv: Option<Conv2d>,
}

impl ResNet {
    /// A freshly initialised network of `config`'s size for inputs and outputs of `shape`.
    ///
    /// # Panics
    ///
    /// If `config`'s patch does not fit `shape` ([`NetShape::fits_patch`]), or a patch stem
    /// is asked for with an ownership head (which needs a vector per cell); run configs are
    /// validated before they get here.
    pub fn new(shape: &NetShape, config: &NetConfig, device: &Device) -> Self {
        let (c, patch) = (config.channels, config.patch);
        assert!(
            shape.fits_patch(patch),
            "a {patch}x{patch} patch stem does not fit {}",
            shape.variant
        );
        assert!(
            patch == 1 || !config.ownership_head,
            "a patch stem has no per-cell trunk for an ownership head"
        );
        let cells = shape.cells() / (patch * patch);
        let (stem, policy_out) = if patch == 1 {
            (
                ConvNorm::new(shape.planes, c, 3, device),
                LinearConfig::new(config.policy_channels * cells, shape.actions),
            )
        } else {
            (
                ConvNorm::patchify(shape.planes, c, patch, device),
                LinearConfig::new(config.policy_channels, patch * patch),
            )
        };
        ResNet {
            patch,
            stem,
            blocks: (0..config.blocks)
                .map(|_| ResBlock {
                    first: ConvNorm::new(c, c, 3, device),
                    second: ConvNorm::new(c, c, 3, device),
                })
                .collect(),
            policy_conv: ConvNorm::new(c, config.policy_channels, 1, device),
            policy_out: policy_out.init(device),
            value_conv: ConvNorm::new(c, config.value_channels, 1, device),
            value_hidden: LinearConfig::new(config.value_channels * cells, config.value_hidden)
                .init(device),
            wdl_out: LinearConfig::new(config.value_hidden, WDL).init(device),
            score_out: config
                .score_head
                .then(|| LinearConfig::new(config.value_hidden, 1).init(device)),
            ownership_conv: config
                .ownership_head
                .then(|| Conv2dConfig::new([c, 1], [1, 1]).init(device)),
        }
    }

    /// The same net for inference with every batch norm folded into its convolution
    /// ([`ConvNorm::folded`]): what [`crate::Net`] evaluates with. Never saved.
    pub fn folded(&self) -> Self {
        ResNet {
            stem: self.stem.folded(),
            blocks: self
                .blocks
                .iter()
                .map(|block| ResBlock {
                    first: block.first.folded(),
                    second: block.second.folded(),
                })
                .collect(),
            policy_conv: self.policy_conv.folded(),
            value_conv: self.value_conv.folded(),
            ..self.clone()
        }
    }

    /// A copy for one replica of data-parallel training: the same weights as fresh autodiff
    /// leaves (no op recorded, no copy made) and running statistics of its own, so that
    /// replicas on different threads share no autodiff graph and no lock. Its running
    /// statistics come back with [`ResNet::take_running_statistics`].
    pub fn replica(&self) -> Self {
        self.valid().train()
    }

    /// Sets every batch norm's running statistics to the mean of `replicas`' (copies of this
    /// net made by [`ResNet::replica`] that each trained on a shard of one batch): what one
    /// net's running state holds when every shard updates it from its own thread. Layers are
    /// merged in parallel on the caller's rayon pool: with 16 replicas a layer reads 32 small
    /// tensors back.
    ///
    /// # Panics
    ///
    /// If `replicas` is empty.
    pub fn take_running_statistics(&self, replicas: &[ResNet]) {
        assert!(!replicas.is_empty(), "no replica to take statistics from");
        let norms: Vec<Vec<&BatchNorm>> = replicas.iter().map(ResNet::norms).collect();
        self.norms()
            .into_par_iter()
            .enumerate()
            .for_each(|(layer, norm)| {
                let device = norm.gamma.device();
                let mean = |running: fn(&BatchNorm) -> &RunningState<Tensor<1>>| {
                    let mut sum = vec![0.0f32; norm.gamma.dims()[0]];
                    for replica in &norms {
                        let value = running(replica[layer]).valid().value().into_data();
                        let value = value.as_slice::<f32>().expect("running statistics are f32");
                        sum.iter_mut()
                            .zip(value)
                            .for_each(|(sum, value)| *sum += value);
                    }
                    sum.iter_mut().for_each(|sum| *sum /= replicas.len() as f32);
                    let len = sum.len();
                    Tensor::from_data(TensorData::new(sum, [len]), &device)
                };
                norm.running_mean.update(mean(|norm| &norm.running_mean));
                norm.running_var.update(mean(|norm| &norm.running_var));
            });
    }

    /// Every batch norm of the net, in a fixed order.
    fn norms(&self) -> Vec<&BatchNorm> {
        let layers = self
            .blocks
            .iter()
            .flat_map(|block| [&block.first, &block.second]);
        std::iter::once(&self.stem)
            .chain(layers)
            .chain([&self.policy_conv, &self.value_conv])
            .map(|layer| &layer.norm)
            .collect()
    }

    /// The same net without its ownership head: what ONNX export traces, so the exported
    /// file carries no weights that none of its outputs use.
    pub fn without_ownership(&self) -> Self {
        ResNet {
            ownership_conv: None,
            ..self.clone()
        }
    }

    /// Runs a batch `[B, planes, height, width]` through the net: the heads search reads
    /// (no ownership).
    pub fn forward(&self, input: Tensor<4>) -> Heads {
        self.heads(input, false)
    }

    /// Runs a batch through the net with every head it has, the ownership head included:
    /// what training needs.
    pub fn forward_training(&self, input: Tensor<4>) -> Heads {
        self.heads(input, true)
    }

    /// The trunk, then the heads; for training (`training`: the ownership head too, and every
    /// layer as [`ConvNorm::run`] runs it for training) or for inference. The heads' 1x1
    /// layers run in the pass's layout; what follows them reads channels first.
    fn heads(&self, input: Tensor<4>, training: bool) -> Heads {
        let pass = Pass::on(&input.device(), training);
        self.run(input, pass)
    }

    /// The trunk, then the heads, as `pass` runs them.
    fn run(&self, input: Tensor<4>, pass: Pass) -> Heads {
        let layout = pass.layout();
        let mut x = relu(self.stem.run(laid_out(input, layout), pass));
        for block in &self.blocks {
            x = block.forward(x, pass);
        }
        let ownership = match (&self.ownership_conv, pass) {
            (Some(conv), Pass::Training(layout)) => {
                let owners = tanh(conv_training(conv, x.clone(), layout));
                Some(channels_first(owners, layout).flatten::<2>(1, 3))
            }
            _ => None,
        };
        let features = |head: &ConvNorm, x| channels_first(relu(head.run(x, pass)), layout);
        let policy = self.policy(features(&self.policy_conv, x.clone()));
        let value = features(&self.value_conv, x).flatten::<2>(1, 3);
        let hidden = relu(self.value_hidden.forward(value));
        Heads {
            policy,
            wdl: self.wdl_out.forward(hidden.clone()),
            score: self.score_out.as_ref().map(|out| out.forward(hidden)),
            ownership,
        }
    }

    /// The policy logits `[B, actions]` from the policy head's features `[B, channels, h, w]`.
    /// A vector per cell: one linear layer over all of them. Blocks of `p x p`: each block's
    /// vector gives its own cells' logits (the linear layer applied as a 1x1 convolution),
    /// which then go back to their places on the grid ([`blocks_to_grid`]).
    ///
    /// Reordering goes through `select` (ONNX `Gather`) rather than transposes: burn's ONNX
    /// export has no transpose, and it keeps the batch axis dynamic only through reshapes
    /// that leave a single axis to infer.
    fn policy(&self, features: Tensor<4>) -> Tensor<2> {
        let p = self.patch;
        if p == 1 {
            return self.policy_out.forward(features.flatten::<2>(1, 3));
        }
        let [inputs, outputs] = self.policy_out.weight.dims();
        // The linear layer's weight [inputs, outputs] as a convolution's [outputs, inputs, 1, 1].
        let transposed = (0..outputs)
            .flat_map(|out| (0..inputs).map(move |input| (input * outputs + out) as i64))
            .collect();
        let weight = self.policy_out.weight.val().reshape([inputs * outputs]);
        let device = weight.device();
        let weight = weight
            .select(0, index_tensor(transposed, &device))
            .reshape([outputs, inputs, 1, 1]);
        let bias = self.policy_out.bias.as_ref().map(|bias| bias.val());
        let logits = conv2d(
            features,
            weight,
            bias,
            ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
        );
        blocks_to_grid(logits, p)
    }
}

/// `conv` applied to `x` (in `layout`) for training: on the CPU as one product over the
/// batch ([`batch_conv::conv2d`], the bias added after), elsewhere or for a geometry that does
/// not run as burn's own. Not for inference: the ONNX export traces `conv.forward`, and
/// onnxruntime's convolutions are fast as they are.
fn conv_training(conv: &Conv2d, x: Tensor<4>, layout: Layout) -> Tensor<4> {
    let Some(y) = conv_geometry(conv)
        .and_then(|geometry| batch_conv::conv2d(x.clone(), conv.weight.val(), geometry, layout))
    else {
        return laid_out(conv.forward(channels_first(x, layout)), layout);
    };
    match &conv.bias {
        Some(bias) => {
            let [outputs] = bias.dims();
            let shape = match layout {
                Layout::ChannelsFirst => [1, outputs, 1, 1],
                Layout::ChannelsLast => [1, 1, 1, outputs],
            };
            y + bias.val().reshape(shape)
        }
        None => y,
    }
}

/// `norm` applied to `x` (in `layout`) for training, as `norm.forward` does it (the batch's
/// statistics, and the running ones moved towards them by the momentum). Channels last, the
/// activations are a `[B * H * W, C]` matrix to it.
fn norm_training(norm: &BatchNorm, x: Tensor<4>, layout: Layout) -> Tensor<4> {
    match layout {
        Layout::ChannelsFirst => norm_rows(norm, x),
        Layout::ChannelsLast => {
            let [batch, height, width, channels] = x.dims();
            let rows = x.reshape([batch * height * width, channels]);
            norm_rows(norm, rows).reshape([batch, height, width, channels])
        }
    }
}

/// `norm` applied to `x` `[N, C, ...]` for training: on the CPU in one pass each way
/// ([`batch_norm::batch_norm`]); elsewhere, or where the layer is frozen or the device has no
/// autodiff, `norm.forward` itself.
fn norm_rows<const D: usize>(norm: &BatchNorm, x: Tensor<D>) -> Tensor<D> {
    if !x.device().is_autodiff() || !norm.training.is_enabled() {
        return norm.forward(x);
    }
    let Some(normalized) =
        batch_norm::batch_norm(x.clone(), norm.gamma.val(), norm.beta.val(), norm.epsilon)
    else {
        return norm.forward(x);
    };
    let momentum = norm.momentum;
    let follow = |running: &RunningState<Tensor<1>>, batch: Tensor<1>| {
        let previous = running.value_sync().to_device(&batch.device());
        let moved = previous.mul_scalar(1.0 - momentum) + batch.detach().mul_scalar(momentum);
        running.update(moved.detach());
    };
    follow(&norm.running_mean, normalized.mean);
    follow(&norm.running_var, normalized.variance);
    normalized.output
}

/// `conv`'s geometry for [`batch_conv::conv2d`] (which leaves the bias to its caller): `None`
/// for a convolution it does not run (groups, dilation, or padding that differs between
/// sides).
fn conv_geometry(conv: &Conv2d) -> Option<Geometry> {
    if conv.groups != 1 || conv.dilation != [1, 1] {
        return None;
    }
    let padding = match conv.padding {
        PaddingConfig2d::Valid => [0, 0],
        PaddingConfig2d::Explicit(top, left, bottom, right) if top == bottom && left == right => {
            [top, left]
        }
        _ => return None,
    };
    Some(Geometry {
        kernel: conv.kernel_size,
        stride: conv.stride,
        padding,
    })
}

/// An integer tensor of the indices `indices`, for `select`.
fn index_tensor(indices: Vec<i64>, device: &Device) -> Tensor<1, Int> {
    let len = indices.len();
    Tensor::from_data(TensorData::new(indices, [len]), device)
}

/// Puts per-block cell values `[B, p * p, h, w]` (channel `r * p + c`: cell `(r, c)` of the
/// block) back on the grid they came from, one row per position `[B, h * p * w * p]` in cell
/// order: the value of cell `r * p + c` of block `(i, j)` lands at grid cell
/// `(i * p + r, j * p + c)`.
fn blocks_to_grid(values: Tensor<4>, p: usize) -> Tensor<2> {
    let [batch, channels, h, w] = values.dims();
    let width = w * p;
    let sources = (0..h * p * width)
        .map(|cell| {
            let (row, col) = (cell / width, cell % width);
            let channel = (row % p) * p + col % p;
            (channel * h * w + (row / p) * w + col / p) as i64
        })
        .collect();
    let device = values.device();
    values
        .reshape([batch, channels * h * w])
        .select(1, index_tensor(sources, &device))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::module::RunningState;
    use burn::tensor::Distribution;

    /// A conv + batch norm with trained-looking statistics (not the identity a fresh norm is),
    /// so folding has something to get wrong.
    fn trained_layer(device: &Device) -> ConvNorm {
        let mut layer = ConvNorm::new(5, 7, 3, device);
        let uniform =
            |low, high| Tensor::<1>::random([7], Distribution::Uniform(low, high), device);
        layer.norm.gamma = Param::from_tensor(uniform(0.5, 2.0));
        layer.norm.beta = Param::from_tensor(uniform(-1.0, 1.0));
        layer.norm.running_mean = RunningState::new(uniform(-0.5, 0.5));
        layer.norm.running_var = RunningState::new(uniform(0.2, 3.0));
        layer
    }

    #[test]
    fn block_values_go_back_to_their_cells() {
        let (p, h, w) = (2, 2, 3);
        // Each value names its block (i, j) and its cell (r, c) within it.
        let mut values = Vec::new();
        for r in 0..p {
            for c in 0..p {
                for i in 0..h {
                    for j in 0..w {
                        values.push((1000 * i + 100 * j + 10 * r + c) as f32);
                    }
                }
            }
        }
        let device = Device::flex();
        let input = Tensor::<4>::from_data(TensorData::new(values, [1, p * p, h, w]), &device);
        let grid: Vec<f32> = blocks_to_grid(input, p).try_into_vec_as().unwrap();
        let width = w * p;
        for (cell, &value) in grid.iter().enumerate() {
            let (row, col) = (cell / width, cell % width);
            let expected = 1000 * (row / p) + 100 * (col / p) + 10 * (row % p) + col % p;
            assert_eq!(value, expected as f32, "grid cell ({row}, {col})");
        }
    }

    /// An 8x8 board of 3 input planes and a move per cell.
    fn board_8x8() -> NetShape {
        NetShape {
            variant: "test".into(),
            planes: 3,
            height: 8,
            width: 8,
            actions: 64,
        }
    }

    #[test]
    fn a_patch_stem_gives_every_cell_a_logit() {
        let device = Device::flex();
        let shape = board_8x8();
        let config = NetConfig::new(1, 8).with_patch(4).with_score_head(true);
        let net = ResNet::new(&shape, &config, &device);
        let input = Tensor::<4>::random([5, 3, 8, 8], Distribution::Normal(0.0, 1.0), &device);
        let heads = net.forward(input);
        assert_eq!(heads.policy.dims(), [5, 64]);
        assert_eq!(heads.wdl.dims(), [5, WDL]);
        assert_eq!(heads.score.map(|s| s.dims()), Some([5, 1]));
    }

    /// Training's convolutions and batch norms are the layers' own, in both layouts: a trunk
    /// layer and a patch stem give the outputs and running statistics burn's layers give on
    /// the training device ([`ConvNorm::forward`], its batch norm in training mode), a layer
    /// with a bias (the ownership head's) the outputs of its `forward`, and a grouped one is
    /// left to burn.
    #[test]
    fn training_convolutions_are_the_layers() {
        let device = Device::flex().autodiff();
        let normal = Distribution::Normal(0.0, 1.0);
        let largest = |t: Tensor<4>| t.abs().max().into_scalar::<f32>();
        for layout in [Layout::ChannelsFirst, Layout::ChannelsLast] {
            let training = |layer: &ConvNorm, input: Tensor<4>| {
                let output = layer.run(laid_out(input, layout), Pass::Training(layout));
                channels_first(output, layout)
            };
            for (layer, side) in [
                (ConvNorm::new(5, 7, 3, &device), 4),
                (ConvNorm::patchify(5, 7, 3, &device), 9),
            ] {
                let input = Tensor::<4>::random([3, 5, side, side], normal, &device);
                // Two copies that share no running statistics.
                let copy = layer.clone().load_record(layer.clone().into_record());
                let difference = largest(training(&layer, input.clone()) - copy.forward(input));
                assert!(
                    difference < 1e-4,
                    "{layout:?}: outputs differ by {difference}"
                );
                for (got, expected) in [
                    (&layer.norm.running_mean, &copy.norm.running_mean),
                    (&layer.norm.running_var, &copy.norm.running_var),
                ] {
                    let moved = (got.value() - expected.value())
                        .abs()
                        .max()
                        .into_scalar::<f32>();
                    assert!(
                        moved < 1e-5,
                        "{layout:?}: running statistics differ by {moved}"
                    );
                }
            }
            let with_bias = Conv2dConfig::new([5, 1], [1, 1]).init(&device);
            assert!(with_bias.bias.is_some());
            let input = Tensor::<4>::random([3, 5, 4, 4], normal, &device);
            let got = conv_training(&with_bias, laid_out(input.clone(), layout), layout);
            let difference = largest(channels_first(got, layout) - with_bias.forward(input));
            assert!(
                difference < 1e-4,
                "{layout:?}: biased outputs differ by {difference}"
            );
        }
        let grouped = Conv2dConfig::new([2, 2], [3, 3])
            .with_groups(2)
            .init(&device);
        assert_eq!(conv_geometry(&grouped), None);
    }

    /// A training pass with activations channels last (the CPU's) gives every head and every
    /// weight's gradient that the pass channels first gives: a per-cell net with score and
    /// ownership heads, and a patch-stem net.
    #[test]
    fn both_layouts_train_the_same_net() {
        let device = Device::flex().autodiff();
        let normal = Distribution::Normal(0.0, 1.0);
        let shape = board_8x8();
        let per_cell = NetConfig::new(2, 8)
            .with_score_head(true)
            .with_ownership_head(true);
        for config in [per_cell, NetConfig::new(2, 8).with_patch(4)] {
            let net = ResNet::new(&shape, &config, &device);
            let input = Tensor::<4>::random([5, 3, 8, 8], normal, &device);
            let [first, last] = [Layout::ChannelsFirst, Layout::ChannelsLast].map(|layout| {
                // A copy that shares no running statistics with the other layout's.
                let net = net.clone().load_record(net.clone().into_record());
                let heads = net.run(input.clone(), Pass::Training(layout));
                let outputs = [
                    Some(heads.policy),
                    Some(heads.wdl),
                    heads.score,
                    heads.ownership,
                ];
                let loss = outputs
                    .iter()
                    .flatten()
                    .fold(Tensor::<1>::zeros([1], &device), |sum, head| {
                        sum + (head.clone() * head.clone()).sum()
                    });
                let mut grads = loss.backward();
                let stem = net.stem.conv.weight.grad_remove(&mut grads).unwrap();
                let block = net.blocks[1]
                    .second
                    .conv
                    .weight
                    .grad_remove(&mut grads)
                    .unwrap();
                (outputs, stem, block)
            });
            for (got, expected) in last.0.iter().zip(&first.0) {
                if let (Some(got), Some(expected)) = (got, expected) {
                    let difference = (got.clone() - expected.clone()).abs().max();
                    assert!(
                        difference.into_scalar::<f32>() < 1e-4,
                        "{config:?}: heads differ"
                    );
                }
            }
            for (got, expected) in [(last.1, first.1), (last.2, first.2)] {
                let difference = (got - expected).abs().max().into_scalar::<f32>();
                assert!(
                    difference < 1e-3,
                    "{config:?}: gradients differ by {difference}"
                );
            }
        }
    }

    #[test]
    fn folding_the_batch_norm_keeps_the_outputs() {
        let device = Device::flex();
        let layer = trained_layer(&device);
        let input = Tensor::<4>::random([3, 5, 9, 9], Distribution::Normal(0.0, 1.0), &device);
        let expected = layer.forward(input.clone());
        let folded = layer.folded();
        let got = folded.forward(input);
        let difference: f32 = (got - expected).abs().max().into_scalar();
        assert!(difference < 1e-4, "folded layer differs by {difference}");
        assert!(
            !layer.folded && folded.folded,
            "only the copy is marked folded"
        );
    }
}

//! Batch normalisation in training, in one pass over the activations each way, for the CPU.
//!
//! burn's training batch norm is built from tensor operations: the statistics by swapping the
//! batch and channel axes (a strided copy) and reducing, the output and each gradient by
//! broadcast arithmetic, each a pass over the activations and a fresh buffer. On oxo's small
//! grids the layer's activations are as large as the convolution's, so those passes were a
//! tenth of a training step (docs/performance.md). [`batch_norm`] computes the same function
//! with a channel's values read where they lie: the mean and variance in two reads, the output
//! in one write; the backward pass in two reads and one write.
//!
//! It is a burn backend extension ([`TrainingNorm`]) like [`crate::batch_conv`]: burn-flex's
//! tensors forward, and for `Autodiff<Flex>` a backward pass written here. [`batch_norm`]
//! returns `None` off the CPU backend, where burn's own is the one to use.

use burn::backend::autodiff::Autodiff;
use burn::backend::autodiff::checkpoint::{base::Checkpointer, strategy::CheckpointStrategy};
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::tensor::FloatTensor;
use burn::backend::{AutodiffBackend, Dispatch, Flex, backend_extension};
use burn::tensor::{DType, Tensor};
use burn_flex::FlexTensor;

use crate::batch_conv::{on_flex, tensor};

/// Training's batch norm as a burn backend operation.
#[backend_extension(Flex, Autodiff)]
pub trait TrainingNorm: burn::backend::Backend {
    /// `x` `[B, C, ...]` normalised per channel by the batch's statistics, then scaled by
    /// `gamma` `[C]` and shifted by `beta` `[C]`: the output, and the batch's mean and biased
    /// variance `[C]` (untracked), as burn's `batch_norm_train` returns them.
    fn training_batch_norm(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>);
}

/// What [`batch_norm`] returns: the output, and the batch's statistics for the running ones.
pub struct Normalized<const D: usize> {
    /// The normalised, scaled and shifted input.
    pub output: Tensor<D>,
    /// Each channel's mean over the batch, `[C]`.
    pub mean: Tensor<1>,
    /// Each channel's biased variance over the batch, `[C]`.
    pub variance: Tensor<1>,
}

/// burn's `batch_norm_train` (the same output, statistics and gradients) in one pass each
/// way; `None` off the CPU (flex) backend.
pub fn batch_norm<const D: usize>(
    x: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    epsilon: f64,
) -> Option<Normalized<D>> {
    if !on_flex(&x.device()) {
        return None;
    }
    let (output, mean, variance) = <Dispatch as TrainingNorm>::training_batch_norm(
        x.into_dispatch(),
        gamma.into_dispatch(),
        beta.into_dispatch(),
        epsilon,
    );
    Some(Normalized {
        output: Tensor::from_dispatch(output),
        mean: Tensor::from_dispatch(mean),
        variance: Tensor::from_dispatch(variance),
    })
}

impl TrainingNorm for Flex {
    fn training_batch_norm(
        x: FlexTensor,
        gamma: FlexTensor,
        beta: FlexTensor,
        epsilon: f64,
    ) -> (FlexTensor, FlexTensor, FlexTensor) {
        let statistics = Statistics::of(&x, epsilon);
        let output = statistics.normalize(&x, &gamma, &beta);
        (output, statistics.mean(), statistics.variance())
    }
}

impl<C: CheckpointStrategy> TrainingNorm for Autodiff<Flex, C> {
    fn training_batch_norm(
        x: FloatTensor<Self>,
        gamma: FloatTensor<Self>,
        beta: FloatTensor<Self>,
        epsilon: f64,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>) {
        let statistics = Statistics::of(x.primitive(), epsilon);
        let output = statistics.normalize(x.primitive(), gamma.primitive(), beta.primitive());
        let (mean, variance) = (statistics.mean(), statistics.variance());
        let output = match NormBackward
            .prepare::<C>([x.node(), gamma.node(), beta.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => {
                let state = (x.primitive().clone(), gamma.primitive().clone(), statistics);
                prep.finish(state, output)
            }
            OpsKind::UnTracked(prep) => prep.finish(output),
        };
        (output, Self::from_inner(mean), Self::from_inner(variance))
    }
}

/// The backward pass of [`TrainingNorm::training_batch_norm`]: with `x̂` the normalised input
/// and `g` the output's gradient, `beta`'s gradient is `Σ g`, `gamma`'s `Σ g x̂`, and the
/// input's `gamma / σ (g - mean(g) - x̂ mean(g x̂))`, sums and means per channel.
#[derive(Debug)]
struct NormBackward;

impl Backward<Flex, 3> for NormBackward {
    /// The input, `gamma` and the batch's statistics.
    type State = (FlexTensor, FlexTensor, Statistics);

    fn backward(self, ops: Ops<Self::State, 3>, grads: &mut Gradients, _: &mut Checkpointer) {
        let [node_x, node_gamma, node_beta] = ops.parents;
        let grad = grads.consume::<Flex>(&ops.node);
        let (x, gamma, statistics) = ops.state;
        let gradients = statistics.gradients(&x, &gamma, &grad);
        if let Some(node) = node_x {
            grads.register::<Flex>(node.id, gradients.x);
        }
        if let Some(node) = node_gamma {
            grads.register::<Flex>(node.id, gradients.gamma);
        }
        if let Some(node) = node_beta {
            grads.register::<Flex>(node.id, gradients.beta);
        }
    }
}

/// The gradients of [`NormBackward`].
struct NormGradients {
    x: FlexTensor,
    gamma: FlexTensor,
    beta: FlexTensor,
}

/// A batch's per-channel statistics, and its layout: `batch` blocks of `channels` runs of
/// `run` values (a channel's values in one sample).
#[derive(Clone, Debug)]
struct Statistics {
    batch: usize,
    channels: usize,
    run: usize,
    mean: Vec<f32>,
    variance: Vec<f32>,
    /// `1 / sqrt(variance + epsilon)`.
    inverse_deviation: Vec<f32>,
}

impl Statistics {
    /// The mean and biased variance of each channel of `x` `[B, C, ...]` (two passes, the
    /// variance from the centred values, for accuracy).
    ///
    /// # Panics
    ///
    /// If `x` is not f32 or has fewer than two axes.
    fn of(x: &FlexTensor, epsilon: f64) -> Self {
        assert_eq!(x.dtype(), DType::F32, "batch_norm: f32 only");
        let shape = x.layout().shape();
        assert!(shape.num_dims() >= 2, "batch_norm: [batch, channels, ...]");
        let (batch, channels) = (shape[0], shape[1]);
        let run = shape.num_elements() / (batch * channels).max(1);
        let x = x.to_contiguous();
        let values: &[f32] = x.storage();
        let mut statistics = Statistics {
            batch,
            channels,
            run,
            mean: vec![0.0; channels],
            variance: vec![0.0; channels],
            inverse_deviation: vec![0.0; channels],
        };
        let count = statistics.count();
        let sums = statistics.channel_sums(values, values, |_, v, _| v);
        statistics.mean = sums.iter().map(|&sum| sum / count).collect();
        let mean = &statistics.mean;
        let squares = statistics.channel_sums(values, values, |c, v, _| (v - mean[c]).powi(2));
        statistics.variance = squares.iter().map(|&square| square / count).collect();
        statistics.inverse_deviation = statistics
            .variance
            .iter()
            .map(|&variance| (1.0 / (variance as f64 + epsilon).sqrt()) as f32)
            .collect();
        statistics
    }

    /// How many values each channel has: batch times run.
    fn count(&self) -> f32 {
        (self.batch * self.run) as f32
    }

    /// For each channel `c`, the sum of `term(c, v, w)` over its values `v` in `values` and
    /// `w`, the values in the same places of `others` (of the same layout): each sample's
    /// block added slot by slot onto one block of sums (the inner loops run along contiguous
    /// values, so they vectorise), whose runs are then summed per channel.
    fn channel_sums(
        &self,
        values: &[f32],
        others: &[f32],
        term: impl Fn(usize, f32, f32) -> f32,
    ) -> Vec<f32> {
        let mut block = vec![0.0f32; self.channels * self.run];
        let samples = values
            .chunks_exact(block.len())
            .zip(others.chunks_exact(block.len()));
        for (sample, other) in samples {
            if self.run == 1 {
                // One value a channel (a 2-D input, or activations channels last): a sample is
                // a row of channels, summed in one loop along it.
                for (c, ((sum, &v), &w)) in block.iter_mut().zip(sample).zip(other).enumerate() {
                    *sum += term(c, v, w);
                }
                continue;
            }
            let runs = sample
                .chunks_exact(self.run)
                .zip(other.chunks_exact(self.run));
            for (c, (sums, (run, other_run))) in
                block.chunks_exact_mut(self.run).zip(runs).enumerate()
            {
                for ((sum, &v), &w) in sums.iter_mut().zip(run).zip(other_run) {
                    *sum += term(c, v, w);
                }
            }
        }
        block
            .chunks_exact(self.run)
            .map(|sums| sums.iter().sum())
            .collect()
    }

    /// `f(c, v, w)` for every value `v` of `values` (channel `c`) and `w` of `others` in its
    /// place, in `values`' layout `shape`.
    fn map(
        &self,
        values: &[f32],
        others: &[f32],
        shape: Vec<usize>,
        f: impl Fn(usize, f32, f32) -> f32,
    ) -> FlexTensor {
        let mut out = Vec::with_capacity(values.len());
        if self.run == 1 {
            // Rows of channels, mapped in one loop along each.
            let rows = values
                .chunks_exact(self.channels)
                .zip(others.chunks_exact(self.channels));
            for (row, other_row) in rows {
                let mapped = row.iter().zip(other_row).enumerate();
                out.extend(mapped.map(|(c, (&v, &w))| f(c, v, w)));
            }
            return tensor(out, shape);
        }
        for (run_index, (run, other_run)) in values
            .chunks_exact(self.run)
            .zip(others.chunks_exact(self.run))
            .enumerate()
        {
            let c = run_index % self.channels;
            out.extend(run.iter().zip(other_run).map(|(&v, &w)| f(c, v, w)));
        }
        tensor(out, shape)
    }

    /// `(x - mean) / σ * gamma + beta`, each channel by its own.
    fn normalize(&self, x: &FlexTensor, gamma: &FlexTensor, beta: &FlexTensor) -> FlexTensor {
        let x = x.to_contiguous();
        let (gamma, beta) = (gamma.to_contiguous(), beta.to_contiguous());
        let (gamma, beta): (&[f32], &[f32]) = (gamma.storage(), beta.storage());
        let scale: Vec<f32> = (0..self.channels)
            .map(|c| gamma[c] * self.inverse_deviation[c])
            .collect();
        let shift: Vec<f32> = (0..self.channels)
            .map(|c| beta[c] - self.mean[c] * scale[c])
            .collect();
        let values: &[f32] = x.storage();
        self.map(values, values, x.layout().shape().to_vec(), |c, v, _| {
            v * scale[c] + shift[c]
        })
    }

    /// The gradients of the input, `gamma` and `beta` given the output's, `grad`.
    fn gradients(&self, x: &FlexTensor, gamma: &FlexTensor, grad: &FlexTensor) -> NormGradients {
        let (x, grad, gamma) = (
            x.to_contiguous(),
            grad.to_contiguous(),
            gamma.to_contiguous(),
        );
        let (values, grads, gamma): (&[f32], &[f32], &[f32]) =
            (x.storage(), grad.storage(), gamma.storage());
        let count = self.count();
        let (mean, inverse) = (&self.mean, &self.inverse_deviation);
        let grad_sum = self.channel_sums(grads, grads, |_, g, _| g);
        // Σ g x̂, with x̂ = (v - mean) / σ.
        let grad_normalized_sum: Vec<f32> = self
            .channel_sums(grads, values, |c, g, v| g * (v - mean[c]))
            .iter()
            .zip(inverse)
            .map(|(sum, inverse)| sum * inverse)
            .collect();
        let x_grad = self.map(values, grads, x.layout().shape().to_vec(), |c, v, g| {
            let normalized = (v - mean[c]) * inverse[c];
            let centred = g - grad_sum[c] / count - normalized * grad_normalized_sum[c] / count;
            gamma[c] * inverse[c] * centred
        });
        NormGradients {
            x: x_grad,
            gamma: tensor(grad_normalized_sum, vec![self.channels]),
            beta: tensor(grad_sum, vec![self.channels]),
        }
    }

    /// The batch's means as a tensor `[C]`.
    fn mean(&self) -> FlexTensor {
        tensor(self.mean.clone(), vec![self.channels])
    }

    /// The batch's biased variances as a tensor `[C]`.
    fn variance(&self) -> FlexTensor {
        tensor(self.variance.clone(), vec![self.channels])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::module::batch_norm_train;
    use burn::tensor::{Device, Distribution};

    /// The largest absolute element of `tensor`.
    fn largest<const D: usize>(tensor: Tensor<D>) -> f32 {
        tensor.abs().max().into_scalar()
    }

    /// Output, statistics and all three gradients agree with burn's training batch norm, on
    /// the grids oxo's nets use and on a 2-D input (no grid), with an offset and scale far
    /// from the normal's.
    #[test]
    fn it_is_burns_batch_norm() {
        let device = Device::flex().autodiff();
        let normal = Distribution::Normal(3.0, 2.0);
        for dims in [[5, 7, 3, 3], [3, 4, 4, 4], [2, 3, 11, 11], [4, 6, 1, 1]] {
            let input = Tensor::<4>::random(dims, normal, &device).require_grad();
            let gamma = Tensor::<1>::random([dims[1]], normal, &device).require_grad();
            let beta = Tensor::<1>::random([dims[1]], normal, &device).require_grad();
            let expected = batch_norm_train(input.clone(), gamma.clone(), beta.clone(), 1e-5);
            let got =
                batch_norm(input.clone(), gamma.clone(), beta.clone(), 1e-5).expect("on flex");
            assert!(
                largest(got.output.clone() - expected.output.clone()) < 1e-4,
                "{dims:?}"
            );
            assert!(largest(got.mean - expected.mean) < 1e-4, "{dims:?} mean");
            assert!(
                largest(got.variance - expected.variance) < 1e-3,
                "{dims:?} variance"
            );
            let weights = Tensor::<4>::random(dims, normal, &device);
            let mut grads = (expected.output * weights.clone()).sum().backward();
            let expected_grads = [
                input.grad_remove(&mut grads).unwrap().flatten::<1>(0, 3),
                gamma.grad_remove(&mut grads).unwrap(),
                beta.grad_remove(&mut grads).unwrap(),
            ];
            let mut grads = (got.output * weights).sum().backward();
            let got_grads = [
                input.grad_remove(&mut grads).unwrap().flatten::<1>(0, 3),
                gamma.grad_remove(&mut grads).unwrap(),
                beta.grad_remove(&mut grads).unwrap(),
            ];
            for (name, (got, expected)) in ["x", "gamma", "beta"]
                .iter()
                .zip(got_grads.into_iter().zip(expected_grads))
            {
                let scale = largest(expected.clone()).max(1.0);
                let difference = largest(got - expected) / scale;
                assert!(
                    difference < 1e-4,
                    "{dims:?}: {name}'s gradient differs by {difference}"
                );
            }
        }
        let flat = Tensor::<2>::random([6, 5], normal, &device);
        let gamma = Tensor::<1>::ones([5], &device);
        let beta = Tensor::<1>::zeros([5], &device);
        let expected = batch_norm_train(flat.clone(), gamma.clone(), beta.clone(), 1e-5);
        let got = batch_norm(flat, gamma, beta, 1e-5).expect("on flex");
        assert!(largest(got.output - expected.output) < 1e-4, "2-D");
    }

    /// Without autodiff the same function runs, untracked.
    #[test]
    fn it_runs_without_autodiff() {
        let device = Device::flex();
        let normal = Distribution::Normal(0.0, 1.0);
        let input = Tensor::<4>::random([3, 2, 4, 4], normal, &device);
        let (gamma, beta) = (
            Tensor::<1>::ones([2], &device),
            Tensor::<1>::zeros([2], &device),
        );
        let expected = batch_norm_train(input.clone(), gamma.clone(), beta.clone(), 1e-5);
        let got = batch_norm(input, gamma, beta, 1e-5).expect("on flex");
        assert!(largest(got.output - expected.output) < 1e-4);
    }
}

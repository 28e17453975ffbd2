//! AdamW with each parameter's update in one pass, for the CPU.
//!
//! burn's AdamW updates a parameter with a dozen tensor operations (the two moments, their
//! bias corrections, the square root, the step, the decay), each a pass over the parameter
//! and a fresh buffer. On oxo's nets that was a tenth of a one-thread training step, and with
//! data-parallel replicas it runs once per step on one thread while the others wait
//! (docs/performance.md). [`FusedAdamW`] computes the same update reading the weight, the
//! gradient and both moments once and writing the new three once, in place where no other
//! tensor shares their buffers.
//!
//! It keeps burn's state type ([`AdamWState`]), so checkpoints written with burn's AdamW load
//! and go on; off the CPU backend it is burn's AdamW.

use burn::backend::tensor::FloatTensor;
use burn::backend::{Dispatch, Flex, backend_extension};
use burn::optim::{
    AdamW, AdamWConfig, AdamWState, AdaptiveMomentumState, LearningRate, ModuleOptimizer, Optimizer,
};
use burn::tensor::{DType, Device, Tensor};
use burn_flex::FlexTensor;
use rayon::prelude::*;

use crate::batch_conv::on_flex;

/// burn's AdamW defaults, which oxo's runs have always used.
const BETA_1: f32 = 0.9;
const BETA_2: f32 = 0.999;
const EPSILON: f32 = 1e-5;

/// One update's coefficients, as burn's AdamW computes them.
#[derive(Clone, Copy, Debug)]
pub struct Update {
    /// The learning rate times the weight decay: the share of each weight taken away.
    pub decay: f64,
    /// The learning rate.
    pub learning_rate: f64,
    /// The update's number, from 1: the moments' bias corrections depend on it.
    pub time: usize,
}

/// The fused update as a burn backend operation.
#[backend_extension(Flex)]
pub trait AdamWUpdate: burn::backend::Backend {
    /// `param` after one AdamW step on `grad`, with the moments before it (zeros before the
    /// first step); the new parameter, first and second moments.
    fn adamw_update(
        param: FloatTensor<Self>,
        grad: FloatTensor<Self>,
        moment_1: FloatTensor<Self>,
        moment_2: FloatTensor<Self>,
        update: Update,
    ) -> (FloatTensor<Self>, FloatTensor<Self>, FloatTensor<Self>);
}

impl AdamWUpdate for Flex {
    fn adamw_update(
        param: FlexTensor,
        grad: FlexTensor,
        moment_1: FlexTensor,
        moment_2: FlexTensor,
        update: Update,
    ) -> (FlexTensor, FlexTensor, FlexTensor) {
        let len = param.layout().num_elements();
        let owned = |tensor: FlexTensor| {
            assert_eq!(tensor.dtype(), DType::F32, "adamw_update: f32 only");
            assert_eq!(tensor.layout().num_elements(), len, "adamw_update: shapes");
            // A contiguous tensor comes back sharing its buffer; dropping the original leaves
            // it the buffer's only owner, so the update below writes in place.
            let contiguous = tensor.to_contiguous();
            drop(tensor);
            contiguous
        };
        let (mut param, grad) = (owned(param), owned(grad));
        let (mut moment_1, mut moment_2) = (owned(moment_1), owned(moment_2));
        // `storage_mut` copies a buffer another tensor still shares.
        Step::new(update).apply_in_chunks(
            &mut param.storage_mut::<f32>()[..len],
            &grad.storage::<f32>()[..len],
            &mut moment_1.storage_mut::<f32>()[..len],
            &mut moment_2.storage_mut::<f32>()[..len],
        );
        (param, moment_1, moment_2)
    }
}

/// Floats of a parameter one thread updates at a time in [`Step::apply_in_chunks`].
const CHUNK: usize = 8192;

/// One update's per-element arithmetic, its constants worked out once.
struct Step {
    correction_1: f32,
    correction_2: f32,
    learning_rate: f32,
    /// What each weight keeps of itself after the decay.
    keep: f32,
}

impl Step {
    fn new(update: Update) -> Self {
        let time = update.time as i32;
        Step {
            correction_1: 1.0 - BETA_1.powi(time),
            correction_2: 1.0 - BETA_2.powi(time),
            learning_rate: update.learning_rate as f32,
            // burn skips the decay at a rate of 0; multiplying by exactly 1 is the same.
            keep: if update.decay == 0.0 {
                1.0
            } else {
                (1.0 - update.decay) as f32
            },
        }
    }

    /// [`Step::apply`], in chunks shared out over the caller's rayon threads where the
    /// parameter is long enough: a data-parallel trainer's step ends with the update, run
    /// by the caller while the replicas' threads would wait (docs/performance.md).
    fn apply_in_chunks(&self, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32]) {
        if w.len() < 2 * CHUNK || rayon::current_num_threads() == 1 {
            return self.apply(w, g, m, v);
        }
        w.par_chunks_mut(CHUNK)
            .zip(g.par_chunks(CHUNK))
            .zip(m.par_chunks_mut(CHUNK))
            .zip(v.par_chunks_mut(CHUNK))
            .for_each(|(((w, g), m), v)| self.apply(w, g, m, v));
    }

    /// Updates weights `w` and moments `m`, `v` on gradient `g`, all of one length, in place.
    ///
    /// A function of its own: written inline, over slices borrowed from the tensors in the
    /// same function, the loop ran 2.5 times slower (1.1 against 0.45 ms a step on ultimate's
    /// net, one thread), presumably because there the compiler could not tell that the slices
    /// do not overlap, which arguments tell it, and so did not vectorise the loop.
    fn apply(&self, w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32]) {
        let len = w.len();
        let (g, m, v) = (&g[..len], &mut m[..len], &mut v[..len]);
        for i in 0..len {
            m[i] = m[i] * BETA_1 + g[i] * (1.0 - BETA_1);
            v[i] = v[i] * BETA_2 + g[i] * g[i] * (1.0 - BETA_2);
            let delta = (m[i] / self.correction_1) / ((v[i] / self.correction_2).sqrt() + EPSILON);
            w[i] = w[i] * self.keep - delta * self.learning_rate;
        }
    }
}

/// AdamW (burn's defaults: betas 0.9 and 0.999, epsilon 1e-5, no AMSGrad) with the given
/// weight decay, fused on the CPU.
#[derive(Clone)]
pub struct FusedAdamW {
    weight_decay: f32,
    /// burn's AdamW of the same settings, for other backends.
    reference: AdamW,
}

impl FusedAdamW {
    /// AdamW with `weight_decay`, as a module optimizer.
    pub fn optimizer(weight_decay: f32) -> ModuleOptimizer {
        ModuleOptimizer::from(FusedAdamW {
            weight_decay,
            reference: AdamWConfig::new()
                .with_beta_1(BETA_1)
                .with_beta_2(BETA_2)
                .with_epsilon(EPSILON)
                .with_weight_decay(weight_decay)
                .build(),
        })
    }
}

impl Optimizer for FusedAdamW {
    type State<const D: usize> = AdamWState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<Self::State<D>>,
    ) -> (Tensor<D>, Option<Self::State<D>>) {
        let fused = on_flex(&tensor.device())
            && state
                .as_ref()
                .is_none_or(|s| s.momentum.max_moment_2.is_none());
        if !fused {
            return self.reference.step(lr, tensor, grad, state);
        }
        let (moment_1, moment_2, time) = match state {
            Some(state) => (
                state.momentum.moment_1,
                state.momentum.moment_2,
                state.momentum.time + 1,
            ),
            None => {
                let zeros = Tensor::zeros(tensor.shape(), &tensor.device());
                (zeros.clone(), zeros, 1)
            }
        };
        let update = Update {
            decay: lr * self.weight_decay as f64,
            learning_rate: lr,
            time,
        };
        let (tensor, moment_1, moment_2) = <Dispatch as AdamWUpdate>::adamw_update(
            tensor.into_dispatch(),
            grad.into_dispatch(),
            moment_1.into_dispatch(),
            moment_2.into_dispatch(),
            update,
        );
        let momentum = AdaptiveMomentumState::new(
            time,
            Tensor::from_dispatch(moment_1),
            Tensor::from_dispatch(moment_2),
        );
        (
            Tensor::from_dispatch(tensor),
            Some(AdamWState::new(momentum)),
        )
    }

    fn to_device<const D: usize>(state: Self::State<D>, device: &Device) -> Self::State<D> {
        <AdamW as Optimizer>::to_device(state, device)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::nn::{Linear, LinearConfig};
    use burn::optim::GradientsParams;
    use burn::tensor::TensorData;

    /// `steps` steps of `optim` on `linear` from step `first`, each minimising a quadratic of
    /// its output on inputs that change with the step.
    fn train(
        mut linear: Linear,
        optim: &mut ModuleOptimizer,
        first: usize,
        steps: usize,
    ) -> Linear {
        let device = Device::flex().autodiff();
        for step in first..first + steps {
            let values = (0..48).map(|i| ((i * 7 + step * 3) % 11) as f32 / 5.0 - 1.0);
            let input = Tensor::<2>::from_data(TensorData::new(values.collect(), [8, 6]), &device);
            let loss = (linear.forward(input) - step as f32 * 0.1)
                .powi_scalar(2)
                .mean();
            let grads = GradientsParams::from_grads(loss.backward(), &linear);
            linear = optim.step(0.01, linear, grads);
        }
        linear
    }

    /// The fused optimizer takes burn's AdamW's steps (same random inputs, same weights, the
    /// same decay), and goes on from burn's AdamW's saved state as burn's AdamW would.
    #[test]
    fn it_steps_as_burns_adamw_and_resumes_its_state() {
        let device = Device::flex().autodiff();
        let start = LinearConfig::new(6, 4).init(&device);
        let burns = || AdamWConfig::new().with_weight_decay(0.01).init();
        let compare = |got: &Linear, expected: &Linear, what: &str| {
            let difference = (got.weight.val() - expected.weight.val())
                .abs()
                .max()
                .into_scalar::<f32>();
            assert!(difference < 1e-6, "{what}: weights differ by {difference}");
        };
        let mut expected_optim = burns();
        let expected = train(start.clone(), &mut expected_optim, 0, 5);
        let mut got_optim = FusedAdamW::optimizer(0.01);
        let got = train(start.clone(), &mut got_optim, 0, 5);
        compare(&got, &expected, "five steps");

        // Both go on from burn's optimiser's saved state.
        let saved = expected_optim.into_bytes().unwrap();
        let mut resumed = FusedAdamW::optimizer(0.01)
            .from_bytes(saved.clone())
            .unwrap();
        let mut reference = burns().from_bytes(saved).unwrap();
        let got = train(expected.clone(), &mut resumed, 5, 3);
        let expected = train(expected, &mut reference, 5, 3);
        compare(&got, &expected, "resumed");
    }

    /// Shared out over threads, the update is the one-thread update, to the bit, at the
    /// chunks' edges too.
    #[test]
    fn the_update_in_chunks_is_the_update() {
        let len = 5 * CHUNK + 17;
        let data = |k: usize| -> Vec<f32> {
            (0..len)
                .map(|i| ((i * k) % 13) as f32 / 7.0 - 0.9)
                .collect()
        };
        let step = Step::new(Update {
            decay: 1e-4,
            learning_rate: 1e-3,
            time: 3,
        });
        let gradient = data(3);
        let (mut w1, mut m1) = (data(5), data(7));
        let mut v1: Vec<f32> = data(11).iter().map(|x| x.abs()).collect();
        let (mut w2, mut m2, mut v2) = (w1.clone(), m1.clone(), v1.clone());
        step.apply(&mut w1, &gradient, &mut m1, &mut v1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| step.apply_in_chunks(&mut w2, &gradient, &mut m2, &mut v2));
        assert_eq!((w1, m1, v1), (w2, m2, v2));
    }

    /// The update writes in place only into buffers no other tensor holds: a copy of the
    /// weights taken before a step (as the trainer's inference copies are) keeps its values.
    #[test]
    fn a_step_leaves_copies_of_the_weights_unchanged() {
        let device = Device::flex().autodiff();
        let start = LinearConfig::new(6, 4).init(&device);
        let before = start.weight.val().into_data();
        let copy = start.clone();
        let mut optim = FusedAdamW::optimizer(0.01);
        let stepped = train(start, &mut optim, 0, 2);
        assert_eq!(copy.weight.val().into_data(), before);
        assert_ne!(stepped.weight.val().into_data(), before);
    }
}

//! The training step: AdamW on policy cross-entropy + win/draw/loss cross-entropy + score
//! squared error + ownership squared error, and checkpoints that restore the optimiser with
//! the weights.

use std::path::Path;

use burn::module::Module;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};

use crate::config::{NetConfig, TrainConfig};
use crate::error::NnError;
use crate::file;
use crate::infer::Net;
use crate::net::{NetShape, ResNet, WDL};
use oxo_encode::Encode;

/// One batch of training examples, row-major by position.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a> {
    /// Positions in the batch.
    pub size: usize,
    /// Encoded positions, `size * input_size` floats.
    pub inputs: &'a [f32],
    /// Target move distributions (visit counts normalised to sum 1), `size * actions`.
    pub policy: &'a [f32],
    /// Target win/draw/loss distributions from the mover's point of view, `size * 3`: one-hot
    /// game results, or softer targets.
    pub wdl: &'a [f32],
    /// Target score margins, `size` floats, already scaled to about `[-1, 1]`; used only when
    /// the net has a score head.
    pub score: Option<&'a [f32]>,
    /// Target final owners of every cell from the mover's point of view (+1 mover, -1
    /// opponent, 0 nobody), `size * cells`; used only when the net has an ownership head.
    pub ownership: Option<&'a [f32]>,
}

/// The loss of one training step, before the update, averaged over the batch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// What was minimised: `policy + value + score_weight * score + ownership_weight *
    /// ownership`.
    pub total: f32,
    /// Policy cross-entropy against the target distribution.
    pub policy: f32,
    /// Win/draw/loss cross-entropy against the target distribution.
    pub value: f32,
    /// Score-margin mean squared error (0 without a score head or score targets).
    pub score: f32,
    /// Ownership squared error, averaged over cells (0 without an ownership head or
    /// ownership targets).
    pub ownership: f32,
}

/// A network being trained: its weights on an autodiff device, AdamW's state and the step
/// count. Hands out inference copies with [`Trainer::net`].
pub struct Trainer {
    model: ResNet,
    optim: ModuleOptimizer,
    shape: NetShape,
    net_config: NetConfig,
    train_config: TrainConfig,
    steps: u64,
    device: Device,
}

/// AdamW as `config` sets it up.
fn optimizer(config: &TrainConfig) -> ModuleOptimizer {
    AdamWConfig::new()
        .with_weight_decay(config.weight_decay)
        .init()
}

impl Trainer {
    /// A randomly initialised network for variant `G`, to be trained on `device`
    /// (`Device::flex()` for the CPU; autodiff is added here).
    pub fn new<G: Encode>(net: &NetConfig, train: &TrainConfig, device: &Device) -> Self {
        let shape = NetShape::of::<G>();
        let model = ResNet::new(&shape, net, &device.clone().autodiff());
        Trainer {
            model,
            optim: optimizer(train),
            shape,
            net_config: net.clone(),
            train_config: train.clone(),
            steps: 0,
            device: device.clone(),
        }
    }

    /// The variant and shapes the net is built for.
    pub fn shape(&self) -> &NetShape {
        &self.shape
    }

    /// Training steps taken, across checkpoints.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Changes the learning rate from the next step on (for schedules). The weight decay is
    /// fixed when the trainer is created or loaded.
    pub fn set_learning_rate(&mut self, learning_rate: f64) {
        self.train_config.learning_rate = learning_rate;
    }

    /// An inference copy of the current weights on the trainer's device, without autodiff.
    pub fn net(&self) -> Net {
        Net::from_parts(
            self.model.valid(),
            self.shape.clone(),
            self.net_config.clone(),
            self.device.clone(),
        )
    }

    /// One AdamW step on `batch`; returns the loss before the update.
    ///
    /// # Panics
    ///
    /// If a slice of `batch` does not hold `batch.size` rows of the right width, or
    /// `batch.size` is 0.
    pub fn train_step(&mut self, batch: &Batch) -> Losses {
        let shape = &self.shape;
        let n = batch.size;
        assert!(n > 0, "train_step needs at least one position");
        let check = |what: &str, len: usize, width: usize| {
            assert_eq!(
                len,
                n * width,
                "train_step: {what} holds {len} floats, expected {n} x {width}"
            );
        };
        check("inputs", batch.inputs.len(), shape.input_size());
        check("policy", batch.policy.len(), shape.actions);
        check("wdl", batch.wdl.len(), WDL);
        if let Some(score) = batch.score {
            check("score", score.len(), 1);
        }
        let cells = shape.height * shape.width;
        if let Some(ownership) = batch.ownership {
            check("ownership", ownership.len(), cells);
        }
        let device = self.device.clone().autodiff();
        let tensor = |data: &[f32], dims: [usize; 2]| {
            Tensor::<2>::from_data(TensorData::new(data.to_vec(), dims), &device)
        };
        let inputs = Tensor::<4>::from_data(
            TensorData::new(
                batch.inputs.to_vec(),
                [n, shape.planes, shape.height, shape.width],
            ),
            &device,
        );
        let heads = self.model.forward_training(inputs);
        let cross_entropy = |logits: Tensor<2>, target: Tensor<2>| {
            (log_softmax(logits, 1) * target).sum_dim(1).mean().neg()
        };
        let policy = cross_entropy(heads.policy, tensor(batch.policy, [n, shape.actions]));
        let value = cross_entropy(heads.wdl, tensor(batch.wdl, [n, WDL]));
        let mut total = policy.clone() + value.clone();
        let mut squared_error = |predicted: Option<Tensor<2>>, target, width, weight: f32| {
            let (predicted, target) = predicted.zip(target)?;
            let error = (predicted - tensor(target, [n, width]))
                .powi_scalar(2)
                .mean();
            total = total.clone() + error.clone().mul_scalar(weight);
            Some(error)
        };
        let score = squared_error(heads.score, batch.score, 1, self.train_config.score_weight);
        let ownership = squared_error(
            heads.ownership,
            batch.ownership,
            cells,
            self.train_config.ownership_weight,
        );
        let read = |t: &Tensor<1>| t.clone().into_scalar::<f32>();
        let losses = Losses {
            total: read(&total),
            policy: read(&policy),
            value: read(&value),
            score: score.as_ref().map_or(0.0, read),
            ownership: ownership.as_ref().map_or(0.0, read),
        };
        let grads = GradientsParams::from_grads(total.backward(), &self.model);
        self.model = self
            .optim
            .step(self.train_config.learning_rate, self.model.clone(), grads);
        self.steps += 1;
        losses
    }

    /// Saves weights, optimiser state and step count to one checkpoint file, atomically.
    pub fn save(&self, path: &Path) -> Result<(), NnError> {
        file::save_checkpoint(
            path,
            &self.model,
            &self.optim,
            &self.shape,
            &self.net_config,
            self.steps,
        )
    }

    /// Starts training from the weights of a model file or checkpoint for variant `G` (a warm
    /// start: a fresh optimiser and step count). The file must hold a network of size `net`;
    /// errors, never panics, on a missing, corrupt or foreign file.
    pub fn from_model<G: Encode>(
        path: &Path,
        net: &NetConfig,
        train: &TrainConfig,
        device: &Device,
    ) -> Result<Trainer, NnError> {
        let mut trainer = Trainer::new::<G>(net, train, device);
        let autodiff = device.clone().autodiff();
        let (model, _) = file::load_model(path, &trainer.shape, Some(net), |config| {
            ResNet::new(&trainer.shape, config, &autodiff)
        })?;
        trainer.model = model;
        Ok(trainer)
    }

    /// Resumes training from a checkpoint saved for variant `G` with network size `net`.
    /// `train` sets the learning rate and weight decay from here on. Errors, never panics, on
    /// a missing, corrupt or foreign file (another variant, shape or size, or a model file).
    pub fn load<G: Encode>(
        path: &Path,
        net: &NetConfig,
        train: &TrainConfig,
        device: &Device,
    ) -> Result<Trainer, NnError> {
        let mut trainer = Trainer::new::<G>(net, train, device);
        let checkpoint =
            file::load_checkpoint(path, &trainer.shape, net, trainer.model, optimizer(train))?;
        trainer.model = checkpoint.model;
        trainer.optim = checkpoint.optim;
        trainer.steps = checkpoint.steps;
        Ok(trainer)
    }
}

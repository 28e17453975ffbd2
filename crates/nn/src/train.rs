//! The training step: AdamW on policy cross-entropy + win/draw/loss cross-entropy + score
//! squared error + ownership squared error, and checkpoints that restore the optimiser with
//! the weights.

use std::ops::Range;
use std::path::Path;

use burn::module::Module;
use burn::optim::{GradientsAccumulator, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};

use crate::adamw::FusedAdamW;
use crate::config::{NetConfig, TrainConfig};
use crate::error::NnError;
use crate::file;
use crate::infer::Net;
use crate::net::{NetShape, ResNet, WDL};
use oxo_encode::Encode;
use rayon::prelude::*;

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
    /// The weights; `None` only while AdamW updates them ([`Trainer::train_step`]), when it
    /// owns them alone and so writes their buffers in place instead of copying them.
    model: Option<ResNet>,
    optim: ModuleOptimizer,
    shape: NetShape,
    net_config: NetConfig,
    train_config: TrainConfig,
    steps: u64,
    device: Device,
    /// One single-thread pool per replica of data-parallel training; empty: one replica on
    /// the caller's threads ([`Trainer::set_threads`]).
    replicas: Vec<rayon::ThreadPool>,
}

/// AdamW as `config` sets it up (fused on the CPU: [`FusedAdamW`]).
fn optimizer(config: &TrainConfig) -> ModuleOptimizer {
    FusedAdamW::optimizer(config.weight_decay)
}

impl Trainer {
    /// A randomly initialised network for variant `G`, to be trained on `device`
    /// (`Device::flex()` for the CPU; autodiff is added here).
    pub fn new<G: Encode>(net: &NetConfig, train: &TrainConfig, device: &Device) -> Self {
        let shape = NetShape::of::<G>();
        let model = ResNet::new(&shape, net, &device.clone().autodiff());
        Trainer {
            model: Some(model),
            optim: optimizer(train),
            shape,
            net_config: net.clone(),
            train_config: train.clone(),
            steps: 0,
            device: device.clone(),
            replicas: Vec::new(),
        }
    }

    /// Trains on `threads` threads from the next step on, data-parallel: each step splits its
    /// batch into `threads` shards, one replica of the net on its own thread computes each
    /// shard's gradients, and their sum (each shard's loss weighted by its share of the batch)
    /// is the whole batch's gradient, applied once. The batch size and learning rate are the
    /// step's, as on one thread (a run's trainer gives each replica a full batch and raises
    /// the rate: `ReplicaRule` in `oxo-train`); batch norm's statistics are each shard's (as
    /// in PyTorch's DistributedDataParallel without synchronised batch norm). burn-flex
    /// spreads each op of these small nets over threads for little gain
    /// (docs/performance.md); a replica per thread runs each at one thread's speed. 1 (the
    /// default) trains on the caller's rayon pool.
    ///
    /// # Panics
    ///
    /// If a thread cannot be started.
    pub fn set_threads(&mut self, threads: usize) {
        self.replicas = if threads <= 1 {
            Vec::new()
        } else {
            (0..threads)
                .map(|_| {
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .expect("a training thread starts")
                })
                .collect()
        };
    }

    /// The threads it trains on: one replica each, or 1 ([`Trainer::set_threads`]).
    pub fn threads(&self) -> usize {
        self.replicas.len().max(1)
    }

    /// The learning rate of the next step.
    pub fn learning_rate(&self) -> f64 {
        self.train_config.learning_rate
    }

    /// The weights being trained.
    fn model(&self) -> &ResNet {
        self.model
            .as_ref()
            .expect("the trainer holds its weights outside an update")
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
            self.model().valid(),
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
        if let Some(ownership) = batch.ownership {
            check("ownership", ownership.len(), shape.height * shape.width);
        }
        let (losses, grads) = if self.replicas.is_empty() {
            let device = self.device.clone().autodiff();
            shard_gradients(self.model(), &self.shard(batch, 0..n), &device)
        } else {
            self.parallel_gradients(batch)
        };
        let model = self.model.take().expect("the trainer holds its weights");
        self.model = Some(
            self.optim
                .step(self.train_config.learning_rate, model, grads),
        );
        self.steps += 1;
        losses
    }

    /// Rows `rows` of `batch`, as one replica trains on them.
    fn shard<'a>(&'a self, batch: &'a Batch<'a>, rows: Range<usize>) -> Shard<'a> {
        let slice = |data: &'a [f32], width: usize| &data[rows.start * width..rows.end * width];
        let shape = &self.shape;
        let cells = shape.height * shape.width;
        Shard {
            batch: Batch {
                size: rows.len(),
                inputs: slice(batch.inputs, shape.input_size()),
                policy: slice(batch.policy, shape.actions),
                wdl: slice(batch.wdl, WDL),
                score: batch.score.map(|score| slice(score, 1)),
                ownership: batch.ownership.map(|owners| slice(owners, cells)),
            },
            share: rows.len() as f32 / batch.size as f32,
            shape,
            config: &self.train_config,
        }
    }

    /// The whole batch's losses and gradients, from one replica per thread of
    /// [`Trainer::set_threads`] on its shard of the batch. The replicas start as jobs of the
    /// caller's rayon pool (no thread is created per step), and each makes its copy of the
    /// net on its own thread ([`ResNet::replica`]): both were serial work that the other
    /// threads waited for. A copy shares no autodiff graph and no running statistics with
    /// the others: shared, every batch norm's update locked and merged tensors across
    /// threads in the middle of the forward pass (docs/performance.md); the statistics are
    /// merged once, after.
    fn parallel_gradients(&self, batch: &Batch) -> (Losses, GradientsParams) {
        let n = batch.size;
        let replicas = self.replicas.len().min(n);
        let device = self.device.clone().autodiff();
        let (losses, grads, models) = self.replicas[..replicas]
            .par_iter()
            .enumerate()
            .map(|(i, pool)| {
                let shard = self.shard(batch, i * n / replicas..(i + 1) * n / replicas);
                pool.install(|| {
                    // The weights as leaves of this replica's own autodiff graph, with batch
                    // norm statistics of its own (merged below): nothing shared between
                    // threads while they work.
                    let replica = self.model().replica();
                    let (losses, grads) = shard_gradients(&replica, &shard, &device);
                    (losses, grads, vec![replica])
                })
            })
            .reduce_with(|a, b| self.merge_shards(a, b))
            .expect("a batch has at least one replica");
        self.model().take_running_statistics(&models);
        (losses, grads)
    }

    /// Two groups of replicas' results as one: losses and gradients summed, replicas listed
    /// in order. Run by [`Trainer::parallel_gradients`] as a tree on the trainer's threads
    /// (pairs, then pairs of pairs), so 16 replicas' gradients take 4 sums one after another
    /// instead of 15.
    fn merge_shards(&self, a: ShardResults, b: ShardResults) -> ShardResults {
        let (mut losses, grads, mut models) = a;
        let (b_losses, b_grads, b_models) = b;
        losses.add(&b_losses);
        let mut sum = GradientsAccumulator::new();
        sum.accumulate(self.model(), grads);
        sum.accumulate(self.model(), b_grads);
        models.extend(b_models);
        (losses, sum.grads(), models)
    }

    /// Saves weights, optimiser state and step count to one checkpoint file, atomically.
    pub fn save(&self, path: &Path) -> Result<(), NnError> {
        file::save_checkpoint(
            path,
            self.model(),
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
        trainer.model = Some(model);
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
        let fresh = trainer
            .model
            .take()
            .expect("a new trainer holds its weights");
        let checkpoint = file::load_checkpoint(path, &trainer.shape, net, fresh, optimizer(train))?;
        trainer.model = Some(checkpoint.model);
        trainer.optim = checkpoint.optim;
        trainer.steps = checkpoint.steps;
        Ok(trainer)
    }
}

/// What replicas of [`Trainer::parallel_gradients`] found: their losses and gradients summed,
/// and the replicas themselves (for their batch norms' running statistics).
type ShardResults = (Losses, GradientsParams, Vec<ResNet>);

/// What one replica trains on: its rows of a batch and the share of the batch they are.
struct Shard<'a> {
    batch: Batch<'a>,
    share: f32,
    shape: &'a NetShape,
    config: &'a TrainConfig,
}

impl Losses {
    /// Adds `other`'s losses to these.
    fn add(&mut self, other: &Losses) {
        self.total += other.total;
        self.policy += other.policy;
        self.value += other.value;
        self.score += other.score;
        self.ownership += other.ownership;
    }
}

/// `model`'s losses on `shard` and their gradients, both weighted by the shard's share of
/// the batch, so that the shards' sums are the whole batch's mean loss and its gradient.
fn shard_gradients(model: &ResNet, shard: &Shard, device: &Device) -> (Losses, GradientsParams) {
    let (batch, shape, n) = (&shard.batch, shard.shape, shard.batch.size);
    let cells = shape.height * shape.width;
    let tensor = |data: &[f32], dims: [usize; 2]| {
        Tensor::<2>::from_data(TensorData::new(data.to_vec(), dims), device)
    };
    let inputs = Tensor::<4>::from_data(
        TensorData::new(
            batch.inputs.to_vec(),
            [n, shape.planes, shape.height, shape.width],
        ),
        device,
    );
    let heads = model.forward_training(inputs);
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
    let score = squared_error(heads.score, batch.score, 1, shard.config.score_weight);
    let ownership = squared_error(
        heads.ownership,
        batch.ownership,
        cells,
        shard.config.ownership_weight,
    );
    let read = |t: &Tensor<1>| shard.share * t.clone().into_scalar::<f32>();
    let losses = Losses {
        total: read(&total),
        policy: read(&policy),
        value: read(&value),
        score: score.as_ref().map_or(0.0, read),
        ownership: ownership.as_ref().map_or(0.0, read),
    };
    let grads = total.mul_scalar(shard.share).backward();
    (losses, GradientsParams::from_grads(grads, model))
}

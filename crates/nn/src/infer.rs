//! Batched inference: encoded positions in, policy logits, win/draw/loss logits and score
//! margins out.

use std::path::Path;

use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};

use crate::config::NetConfig;
use crate::error::NnError;
use crate::file;
use crate::net::{NetShape, ResNet};
use oxo_encode::{Encode, PositionEval, WDL};

/// The network's outputs for a batch of `B` positions, row-major by position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Policy logits, `B * actions` (unmasked: the caller masks illegal actions before the
    /// softmax).
    pub policy: Vec<f32>,
    /// Win/draw/loss logits from the mover's point of view, `B * 3`.
    pub wdl: Vec<f32>,
    /// Predicted score margins (mover minus opponent, in the trainer's target scale), `B`
    /// floats; empty when the net has no score head.
    pub score: Vec<f32>,
}

/// A network in inference mode (batch norm uses its running statistics, no gradients) on
/// one device: what search and play evaluate positions with.
#[derive(Clone, Debug)]
pub struct Net {
    /// The weights as trained: what is saved and exported.
    model: ResNet,
    /// The same net with its batch norms folded into the convolutions: what evaluates.
    folded: ResNet,
    shape: NetShape,
    config: NetConfig,
    device: Device,
}

impl Net {
    /// A randomly initialised network for variant `G` on `device` (`Device::flex()` for the
    /// CPU): an untrained starting point, and a stand-in for tests and benchmarks.
    pub fn new<G: Encode>(config: &NetConfig, device: &Device) -> Self {
        let shape = NetShape::of::<G>();
        let model = ResNet::new(&shape, config, device).valid();
        Net::from_parts(model, shape, config.clone(), device.clone())
    }

    /// Wraps a model already in inference mode.
    pub(crate) fn from_parts(
        model: ResNet,
        shape: NetShape,
        config: NetConfig,
        device: Device,
    ) -> Self {
        Net {
            folded: model.folded(),
            model,
            shape,
            config,
            device,
        }
    }

    /// The variant and shapes the net was built for.
    pub fn shape(&self) -> &NetShape {
        &self.shape
    }

    /// The net's size.
    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    /// The device the net runs on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The burn module, for the exporters.
    pub(crate) fn module(&self) -> &ResNet {
        &self.model
    }

    /// Evaluates `batch` positions encoded back to back in `inputs` (each
    /// [`NetShape::input_size`] floats, as [`Encode::encode`] writes them).
    ///
    /// # Panics
    ///
    /// If `inputs` does not hold exactly `batch` positions, or `batch` is 0.
    pub fn evaluate(&self, inputs: &[f32], batch: usize) -> Evaluation {
        let shape = &self.shape;
        shape.check_batch(inputs, batch);
        let data = TensorData::new(
            inputs.to_vec(),
            [batch, shape.planes, shape.height, shape.width],
        );
        let heads = self
            .folded
            .forward(Tensor::<4>::from_data(data, &self.device));
        let read = |t: Tensor<2>| t.try_into_vec_as::<f32>().expect("reading network outputs");
        let evaluation = Evaluation {
            policy: read(heads.policy),
            wdl: read(heads.wdl),
            score: heads.score.map(read).unwrap_or_default(),
        };
        debug_assert_eq!(evaluation.policy.len(), batch * shape.actions);
        debug_assert_eq!(evaluation.wdl.len(), batch * WDL);
        evaluation
    }

    /// Evaluates one position (no search): win/draw/loss probabilities, the value and the
    /// policy over the legal moves. A finished position has no legal moves: empty policy.
    pub fn evaluate_position<G: Encode>(&self, game: &G) -> PositionEval {
        let mut input = vec![0.0; G::INPUT_SIZE];
        game.encode(&mut input);
        let out = self.evaluate(&input, 1);
        PositionEval::of(game, &out.policy, &out.wdl, out.score.first().copied())
    }

    /// Saves the net as a model file (Burnpack with oxo metadata), atomically.
    pub fn save(&self, path: &Path) -> Result<(), NnError> {
        file::save_model(path, &self.model, &self.shape, &self.config)
    }

    /// Loads the network of a model file or a training checkpoint saved for variant `G` onto
    /// `device`; the file decides the net's size. Errors, never panics, on a missing, corrupt
    /// or foreign file (another variant or shape).
    pub fn load<G: Encode>(path: &Path, device: &Device) -> Result<Net, NnError> {
        let shape = NetShape::of::<G>();
        let (model, config) = file::load_model(path, &shape, None, |config| {
            ResNet::new(&shape, config, device)
        })?;
        Ok(Net::from_parts(
            model.valid(),
            shape,
            config,
            device.clone(),
        ))
    }
}

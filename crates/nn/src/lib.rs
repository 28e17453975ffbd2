//! The oxo neural network: input encodings for every variant, an AlphaZero-style residual
//! policy/value network, batched inference and the training step, on burn.
//!
//! - [`Encode`]: a position as `PLANES` planes of the variant's `H x W` grid, from the mover's
//!   point of view (the `oxo-encode` crate, burn-free so WebAssembly front ends share it).
//! - [`NetConfig`] / [`NetShape`]: the network's size, and the input and output shapes the
//!   variant dictates.
//! - [`Net`]: inference, batched: policy logits over every action, win/draw/loss logits and an
//!   optional score margin.
//! - [`Trainer`]: AdamW steps on policy cross-entropy, value cross-entropy and score error;
//!   checkpoints of weights plus optimiser state.
//! - Export: [`Net::to_onnx`] and [`Net::to_safetensors`] for other front ends.
//! - Files are Burnpack (`.bpk`) with oxo metadata ([`FileInfo`]); a wrong, missing or corrupt
//!   file is an [`NnError`], not a panic.
//!
//! On the CPU, training runs its convolutions, batch norms and AdamW updates through oxo's own
//! burn backend extensions (`batch_conv`, `batch_norm`, `adamw`: the same functions as burn's,
//! faster on small grids); other backends use burn's.
//!
//! The CPU backend is burn's `flex` (`Device::flex()`); the `cuda` and `vulkan` features add
//! GPU backends. [`device_from_name`] picks one by the name `--device` gives.

mod adamw;
mod batch_conv;
mod batch_norm;
mod config;
mod device;
mod error;
mod export;
mod file;
mod infer;
mod net;
mod train;

pub use burn::tensor::Device;
pub use config::{MAX_BLOCKS, NetConfig, TrainConfig};
pub use device::{DEVICE_NAMES, device_from_name};
pub use error::NnError;
pub use export::{BATCH_AXIS, INPUT_NAME, POLICY_OUTPUT, SCORE_OUTPUT, WDL_OUTPUT};
pub use file::{FileInfo, FileKind, MAX_FILE_BYTES, average_models, grow_model, read_bounded};
pub use infer::{Evaluation, Net};
pub use net::{NetShape, WDL};
pub use oxo_encode::Encode;
pub use oxo_encode::{PositionEval, expected_value, search_value, wdl_probabilities};
pub use train::{Batch, Losses, Trainer};

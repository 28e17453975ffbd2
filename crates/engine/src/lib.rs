//! Inference engines for oxo's search: the network's forward pass on onnxruntime (the
//! default: faster than burn on a CPU, on the net's ONNX export) or on burn (always
//! available, and on GPUs). Training stays on burn; self-play, gating, ratings and play
//! evaluate through an [`Engine`].
//!
//! - [`EngineKind`]: the choice, as configs (`engine = "onnxruntime"`) and agent specs
//!   (`engine=burn`) name it.
//! - [`EngineModel`]: a net made ready once (its ONNX export); each worker then
//!   [`EngineModel::open`]s its own single-threaded [`Engine`].
//! - [`library`]: where the onnxruntime library is found, loaded once per process; without
//!   it oxo says so once and runs on burn.

mod engine;
pub mod library;

pub use engine::{ENGINE_NAMES, Engine, EngineKind, EngineModel, describe, resolve};

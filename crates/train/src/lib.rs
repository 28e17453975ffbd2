//! AlphaZero-style training for the oxo variants over a run store (a directory or an object
//! store), KataGo's design: self-play workers play games with the best net, the trainer
//! trains candidates on a replay window at a fixed budget of training per new game, and the
//! gate promotes a candidate that beats the best net. They run as [`roles`], at once: in one
//! process on one machine (`oxo train`), or as separate processes on many.

pub mod bench;
pub mod config;
pub mod error;
pub mod export;
pub mod gate;
pub mod logging;
pub mod observe;
pub mod records;
pub mod roles;
pub mod run_info;
pub mod selfplay;
pub mod train;
pub mod workers;

pub use oxo_play::play_search;

pub use config::{ConfigError, RunConfig};
pub use error::{TrainError, write_atomic};
pub use export::export_model;
pub use observe::Observer;
pub use records::{GameRecord, GenerationRecords, MoveTarget};

//! AlphaZero-style training for the oxo variants, in three stages over a run directory
//! (KataGo's design): [`selfplay_stage`] plays games with the best net, [`train_stage`]
//! trains the candidate on a replay window, and [`gate_stage`] promotes it if it beats the
//! best net. [`run_loop`] runs them in one process, resuming from `state.json`.

pub mod bench;
pub mod config;
pub mod export;
pub mod gate;
pub mod logging;
pub mod observe;
pub mod pipeline;
pub mod records;
pub mod roles;
pub mod run_status;
pub mod rundir;
pub mod selfplay;
pub mod train;
pub mod workers;

pub use oxo_play::play_search;

pub use config::{ConfigError, RunConfig};
pub use export::export_model;
pub use gate::gate_stage;
pub use observe::Observer;
pub use pipeline::{LoopOptions, init_run, run_loop, selfplay_stage};
pub use records::{GameRecord, GenerationRecords, MoveTarget};
pub use rundir::{RunDir, Stage, State, TrainError, write_atomic};
pub use train::train_stage;

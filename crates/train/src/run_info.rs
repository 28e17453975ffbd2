//! `run.json`: how and when a run was started (seed, versions, engine, commit, command and
//! the configuration it started with), written once by the first process to open the run.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::config::RunConfig;

/// `run.json`: how and when the run was started.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunInfo {
    /// The run's seed.
    pub seed: u64,
    /// The variant.
    pub variant: String,
    /// oxo's version.
    pub oxo_version: String,
    /// burn's version.
    pub burn_version: String,
    /// What evaluates the network in search, as it was when the run started: the engine, and
    /// for onnxruntime its version and library file (each self-play generation's metrics name
    /// the engine that played it). Absent in runs started before engines were chosen.
    #[serde(default)]
    pub engine: Option<String>,
    /// The git commit oxo was built from (`git rev-parse HEAD` at build time; uncommitted
    /// changes are not recorded), if it was built in a git checkout.
    pub git_commit: Option<String>,
    /// Start time, seconds since the Unix epoch.
    pub started_unix: u64,
    /// The cores the machine offered the run when it started (self-play runs a worker on
    /// each unless `selfplay.workers` says otherwise): the run's wall-clock seconds times
    /// these are the CPU-seconds it cost. Absent in runs started before it was recorded.
    #[serde(default)]
    pub cores: Option<usize>,
    /// The command line.
    pub command: Vec<String>,
    /// The configuration the run started with (TOML), against which its `config.toml` is
    /// checked whenever a process opens the run. Absent in runs started before it was
    /// recorded.
    #[serde(default)]
    pub config: Option<String>,
}

impl RunInfo {
    /// The record of a run of `config` started now by `command`.
    pub fn now(config: &RunConfig, command: Vec<String>) -> RunInfo {
        RunInfo {
            seed: config.seed,
            variant: config.variant.clone(),
            oxo_version: env!("CARGO_PKG_VERSION").to_string(),
            burn_version: BURN_VERSION.to_string(),
            engine: Some(oxo_engine::describe(oxo_engine::resolve(config.engine))),
            git_commit: oxo_arena::record::build_commit(),
            started_unix: unix_now(),
            cores: std::thread::available_parallelism().ok().map(|n| n.get()),
            command,
            config: Some(config.to_toml()),
        }
    }
}

/// The burn version this crate is built against.
pub const BURN_VERSION: &str = "0.22.1";

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

//! The run directory: every file a run reads and writes, each written atomically (a scratch
//! file in the same directory, synced, then renamed over the real name), so a crash at any
//! moment leaves either the old or the new file, never a torn one.
//!
//! Stages talk only through these files, so self-play, training and gating could run as
//! separate processes on separate machines.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::config::RunConfig;

/// An error of the training loop, in words that say which file or setting to fix.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TrainError(pub String);

impl From<oxo_nn::NnError> for TrainError {
    fn from(e: oxo_nn::NnError) -> Self {
        TrainError(e.to_string())
    }
}

impl From<crate::config::ConfigError> for TrainError {
    fn from(e: crate::config::ConfigError) -> Self {
        TrainError(e.to_string())
    }
}

/// Result of the training loop's functions.
pub type Result<T> = std::result::Result<T, TrainError>;

/// An I/O error on `path` as a [`TrainError`].
pub(crate) fn io_error(path: &Path, e: impl fmt::Display) -> TrainError {
    TrainError(format!("{}: {e}", path.display()))
}

/// Writes `bytes` to `path` atomically ([`oxo_arena::record::write_atomic`]); an error
/// naming the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    oxo_arena::record::write_atomic(path, bytes).map_err(|e| io_error(path, e))
}

/// Removes the scratch files of atomic writes that a killed process left in `dir`, once they
/// are an hour old, so a stage running in another process never loses the file it is
/// writing: [`write_atomic`]'s `.NAME.PID.tmp` and the model and checkpoint writer's
/// `NAME.PID-N.tmp` (burn-pack's). Only `.tmp` files are touched; the run's own files never
/// end so.
fn remove_scratch_files(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 3600);
        if stale && name.ends_with(".tmp") {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Copies `from` over `to` atomically.
pub fn copy_atomic(from: &Path, to: &Path) -> Result<()> {
    let bytes = fs::read(from).map_err(|e| io_error(from, e))?;
    write_atomic(to, &bytes)
}

/// The stage a generation runs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Self-play with the best net.
    SelfPlay,
    /// Training on the replay window.
    Train,
    /// Gating the trained candidate against the best net.
    Gate,
}

/// A run directory's configuration file.
const CONFIG_FILE: &str = "config.toml";

/// A run directory's state file; a directory holding one is a run of `oxo train` on one
/// machine.
pub(crate) const STATE_FILE: &str = "state.json";

/// `state.json`: where the run stands. Rewritten atomically after every stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The generation being worked on (1 after initialisation).
    pub generation: u64,
    /// The next stage of that generation.
    pub next: Stage,
    /// The generation whose model is the best (`models/gen-NNNNN.bpk`; 0 is the random net).
    pub best: u64,
    /// Self-play games played, over all generations.
    pub total_games: u64,
    /// Self-play positions (moves) played.
    pub total_positions: u64,
    /// Positions with a full search (policy targets).
    pub total_full_positions: u64,
    /// Training steps taken, as of the last finished training stage.
    pub train_steps: u64,
    /// Candidates promoted.
    pub promotions: u64,
}

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
    /// each unless `selfplay.workers` says otherwise): stage seconds times these are the
    /// CPU-seconds a run cost. Absent in runs started before it was recorded.
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

/// A run directory and the paths of its files.
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
    config: RunConfig,
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl RunDir {
    /// Opens the run at `root` with `config`, creating it when new. An existing run must
    /// have the same variant and network; other settings are taken from `config` (and
    /// `config.toml` updated), so a run can be retuned between sessions.
    pub fn open(root: &Path, config: &RunConfig) -> Result<RunDir> {
        config.validate()?;
        fs::create_dir_all(root).map_err(|e| io_error(root, e))?;
        let dir = RunDir {
            root: root.to_path_buf(),
            config: config.clone(),
        };
        let config_path = dir.config_path();
        if config_path.exists() {
            let old = RunConfig::load(&config_path)?;
            if old.variant != config.variant {
                return Err(TrainError(format!(
                    "{} is a {} run, not {}: use another --run directory",
                    root.display(),
                    old.variant,
                    config.variant
                )));
            }
            if old.net != config.net {
                return Err(TrainError(format!(
                    "{} was started with net {:?}, the config asks for {:?}: the network \
                     shape cannot change within a run; use another --run directory",
                    root.display(),
                    old.net,
                    config.net
                )));
            }
        }
        dir.read_state()?; // a corrupt state.json is an error now, not later
        write_atomic(&config_path, config.to_toml().as_bytes())?;
        for sub in ["", "selfplay", "models", "checkpoint", "tb"] {
            let path = root.join(sub);
            fs::create_dir_all(&path).map_err(|e| io_error(&path, e))?;
            remove_scratch_files(&path);
        }
        Ok(dir)
    }

    /// The existing run at `root`, as its `config.toml` holds it, opened to be read: nothing
    /// is created or written (for reports such as `oxo status`).
    pub fn open_existing(root: &Path) -> Result<RunDir> {
        let config = RunConfig::load(&root.join(CONFIG_FILE))?;
        Ok(RunDir {
            root: root.to_path_buf(),
            config,
        })
    }

    /// The run's root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The configuration in force.
    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// `config.toml`.
    pub fn config_path(&self) -> PathBuf {
        self.root.join(CONFIG_FILE)
    }

    /// `state.json`.
    pub fn state_path(&self) -> PathBuf {
        self.root.join(STATE_FILE)
    }

    /// `run.json`.
    pub fn info_path(&self) -> PathBuf {
        self.root.join("run.json")
    }

    /// `selfplay/gen-NNNNN.bin`: generation `generation`'s games.
    pub fn selfplay_path(&self, generation: u64) -> PathBuf {
        self.root
            .join("selfplay")
            .join(format!("gen-{generation:05}.bin"))
    }

    /// `models/gen-NNNNN.bpk`: the net trained in generation `generation` (0: random).
    pub fn model_path(&self, generation: u64) -> PathBuf {
        self.root
            .join("models")
            .join(format!("gen-{generation:05}.bpk"))
    }

    /// `models/model.json`: how the run's nets play ([`run_models_description`](crate::export::run_models_description)).
    pub fn models_description_path(&self) -> PathBuf {
        self.root.join("models").join("model.json")
    }

    /// `models/best.bpk`: a copy of the best model, for play.
    pub fn best_path(&self) -> PathBuf {
        self.root.join("models").join("best.bpk")
    }

    /// `checkpoint/trainer.bpk`: weights and optimiser state.
    pub fn checkpoint_path(&self) -> PathBuf {
        self.root.join("checkpoint").join("trainer.bpk")
    }

    /// `tb/`: tensorboard event files.
    pub fn tb_path(&self) -> PathBuf {
        self.root.join("tb")
    }

    /// `metrics.jsonl`.
    pub fn metrics_path(&self) -> PathBuf {
        self.root.join("metrics.jsonl")
    }

    /// `gating.jsonl`.
    pub fn gating_path(&self) -> PathBuf {
        self.root.join("gating.jsonl")
    }

    /// `log.txt`.
    pub fn log_path(&self) -> PathBuf {
        self.root.join("log.txt")
    }

    /// A file of an earlier run in this directory (the trainer's checkpoint, a model, a
    /// self-play file), if there is one: where `state.json` is missing, such a file means the
    /// run lost its state, not that there is none.
    pub fn earlier_run_file(&self) -> Option<PathBuf> {
        if self.checkpoint_path().exists() {
            return Some(self.checkpoint_path());
        }
        ["models", "selfplay"].into_iter().find_map(|sub| {
            let mut names: Vec<PathBuf> = fs::read_dir(self.root.join(sub))
                .ok()?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|path| {
                    path.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("gen-"))
                })
                .collect();
            names.sort();
            names.into_iter().next()
        })
    }

    /// The run's state, or `None` before initialisation.
    pub fn read_state(&self) -> Result<Option<State>> {
        let path = self.state_path();
        match fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| io_error(&path, format!("corrupt state file: {e}"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(&path, e)),
        }
    }

    /// The run's state; an error before initialisation.
    pub fn state(&self) -> Result<State> {
        self.read_state()?.ok_or_else(|| {
            TrainError(format!(
                "{}: no state.json: the run is not initialised",
                self.root.display()
            ))
        })
    }

    /// Writes `state.json` atomically.
    pub fn write_state(&self, state: &State) -> Result<()> {
        let json = serde_json::to_vec_pretty(state).expect("states serialise");
        write_atomic(&self.state_path(), &json)
    }

    /// Writes `run.json` unless it exists.
    pub fn write_info(&self, command: Vec<String>) -> Result<()> {
        if self.info_path().exists() {
            return Ok(());
        }
        let info = RunInfo::now(&self.config, command);
        let json = serde_json::to_vec_pretty(&info).expect("run info serialises");
        write_atomic(&self.info_path(), &json)
    }

    /// Adds a JSON line to a `.jsonl` file, replacing any earlier line with the same `key`
    /// (a stage redone after a crash logs once). The whole file is rewritten atomically.
    /// Lines that are not JSON, or not even UTF-8 (a damaged file), are kept as they are:
    /// they neither stop training nor get lost.
    pub fn append_jsonl(&self, path: &Path, key: &str, value: serde_json::Value) -> Result<()> {
        let mut object = match value {
            serde_json::Value::Object(map) => map,
            other => {
                let mut map = serde_json::Map::new();
                map.insert("value".into(), other);
                map
            }
        };
        object.insert("key".into(), key.into());
        let old = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_error(path, e)),
        };
        let mut out = Vec::with_capacity(old.len() + 256);
        for line in old.split(|&b| b == b'\n') {
            let same = serde_json::from_slice::<serde_json::Value>(line)
                .ok()
                .is_some_and(|v| v.get("key").and_then(|k| k.as_str()) == Some(key));
            if !same && !line.trim_ascii().is_empty() {
                out.extend_from_slice(line);
                out.push(b'\n');
            }
        }
        out.extend_from_slice(serde_json::Value::Object(object).to_string().as_bytes());
        out.push(b'\n');
        write_atomic(path, &out)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A run directory of the small test config, in a temporary directory kept alive by
    /// the first value.
    pub(crate) fn small_run() -> (tempfile::TempDir, RunDir) {
        let dir = tempfile::tempdir().unwrap();
        let config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        let run = RunDir::open(dir.path(), &config).unwrap();
        (dir, run)
    }

    /// Scratch files that a killed writer left, both kinds, are removed when the run is
    /// opened once they are an hour old; a fresh one (a writer still at work) and the real
    /// files stay.
    #[test]
    fn stale_scratch_files_of_both_writers_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        RunDir::open(dir.path(), &config).unwrap();
        let models = dir.path().join("models");
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
        let stale = ["best.bpk.4242-0.tmp", ".state.json.4242.tmp"];
        for name in stale {
            let file = fs::File::create(models.join(name)).unwrap();
            file.set_modified(hour_ago).unwrap();
        }
        fs::write(models.join("best.bpk.4243-0.tmp"), b"fresh").unwrap();
        fs::write(models.join("gen-00001.bpk"), b"a model").unwrap();
        RunDir::open(dir.path(), &config).unwrap();
        let mut left: Vec<String> = fs::read_dir(&models)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["best.bpk.4243-0.tmp", "gen-00001.bpk"]);
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_scratch() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// A line that is not UTF-8 (a damaged metrics file) neither stops the next record nor
    /// is lost.
    #[test]
    fn a_non_utf8_jsonl_line_is_kept_and_does_not_stop_appends() {
        let (_dir, run) = small_run();
        let path = run.metrics_path();
        run.append_jsonl(&path, "a", serde_json::json!({"x": 1}))
            .unwrap();
        let mut damaged = fs::read(&path).unwrap();
        damaged.extend_from_slice(b"\xff\xfe not text\n");
        fs::write(&path, &damaged).unwrap();
        run.append_jsonl(&path, "b", serde_json::json!({"x": 2}))
            .unwrap();
        let bytes = fs::read(&path).unwrap();
        assert!(bytes.starts_with(&damaged), "the earlier lines are kept");
        assert!(String::from_utf8_lossy(&bytes).contains(r#""key":"b""#));
    }

    #[test]
    fn jsonl_lines_are_replaced_by_key() {
        let (_dir, run) = small_run();
        let path = run.metrics_path();
        run.append_jsonl(&path, "a", serde_json::json!({"x": 1}))
            .unwrap();
        run.append_jsonl(&path, "b", serde_json::json!({"x": 2}))
            .unwrap();
        run.append_jsonl(&path, "a", serde_json::json!({"x": 3}))
            .unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(text.contains("\"x\":3") && !text.contains("\"x\":1"));
    }

    #[test]
    fn another_variant_or_net_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        RunDir::open(dir.path(), &config).unwrap();
        let mut other = config.clone();
        other.variant = "ultimate".into();
        let err = RunDir::open(dir.path(), &other).unwrap_err().to_string();
        assert!(err.contains("tictactoe run"), "{err}");
        let mut other = config.clone();
        other.net.channels = 9;
        let err = RunDir::open(dir.path(), &other).unwrap_err().to_string();
        assert!(err.contains("network shape"), "{err}");
    }
}

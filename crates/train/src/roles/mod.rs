//! A run over a [`RunStore`] (a directory or an object store URL), whose roles run at once:
//! in one process ([`Role::All`], `oxo train`'s default) or as separate processes on as many
//! machines as there are: any number of stateless self-play workers ([`worker`]), exactly
//! one trainer ([`trainer`]) and one gate ([`gate`]). The store is their only shared ground,
//! and every object in it is written once:
//!
//! | key | written by | what |
//! |---|---|---|
//! | `config.toml` | the first process | the run's configuration, fixed for the run |
//! | `trainer/gen-NNNNN.json` | trainer | the claim of generation N: the games it trains on |
//! | `trainer/gen-NNNNN.bpk` | trainer | the checkpoint after generation N (weights, optimiser) |
//! | `models/gen-NNNNN.bpk` | trainer | the candidate net of generation N (0: the first net) |
//! | `models/model.json` | trainer | how the run's nets play (network, search, value) |
//! | `gate/gen-NNNNN.json` | gate | the decision on candidate N |
//! | `best/gen-NNNNN.json` | gate | a promotion: the greatest key is the best net |
//! | `games/gen-NNNNN/ID-SEQ.bin` | a worker | a batch of games played with net N |
//! | `metrics/ROLE/...json` | each writer | one object per record |
//! | `warm_start.json` | trainer | the model a warm-started run began from (`--init`) |
//!
//! Every record is also a line of the run's journal ([`Journal`]: `metrics.jsonl` and
//! TensorBoard events), kept in the run's directory, or for an object store in the cache of
//! the process that wrote it. A directory run also keeps `models/best.bpk`, a copy of the
//! best net for players, which the gate replaces at each promotion (the run never reads it).
//!
//! A killed process loses at most the object it was making: a restarted worker takes a new
//! name, the trainer resumes from its last checkpoint (redoing a claimed generation with the
//! claim's games), the gate from its last decision.

pub mod gate;
pub mod status;
pub mod trainer;
pub mod worker;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use oxo_agents::Evaluate;
use oxo_nn::{Device, Encode};
use oxo_store::RunStore;

use crate::config::RunConfig;
use crate::error::{Result, TrainError, write_atomic};
use crate::observe::Journal;
use crate::run_info::unix_now;

pub use oxo_store::is_url;

impl From<oxo_store::StoreError> for TrainError {
    fn from(e: oxo_store::StoreError) -> Self {
        TrainError(e.0)
    }
}

/// How many generations of games self-play may have played that the trainer has not yet
/// claimed ([`StoreRun::self_play_ahead`]): one to claim, one in the making.
pub const MAX_GENERATIONS_AHEAD: u64 = 2;

/// How old the last claim may be before self-play stops waiting for the trainer
/// ([`StoreRun::self_play_ahead`]): far longer than any generation's training.
pub const TRAINER_STALL: Duration = Duration::from_secs(600);

/// `models/model.json`: how the run's nets play
/// ([`run_models_description`](crate::export::run_models_description)).
pub const MODELS_DESCRIPTION_KEY: &str = "models/model.json";

/// `models/gen-NNNNN.bpk`: the candidate net of generation `generation`.
pub fn model_key(generation: u64) -> String {
    format!("models/gen-{generation:05}.bpk")
}

/// `best/gen-NNNNN.json`: the promotion of generation `generation`'s net.
pub fn best_key(generation: u64) -> String {
    format!("best/gen-{generation:05}.json")
}

/// `gate/gen-NNNNN.json`: the gate's decision on candidate `generation`.
pub fn gate_key(generation: u64) -> String {
    format!("gate/gen-{generation:05}.json")
}

/// `trainer/gen-NNNNN.json`: the trainer's claim of generation `generation`.
pub fn claim_key(generation: u64) -> String {
    format!("trainer/gen-{generation:05}.json")
}

/// `trainer/gen-NNNNN.bpk`: the trainer's checkpoint after generation `generation`.
pub fn checkpoint_key(generation: u64) -> String {
    format!("trainer/gen-{generation:05}.bpk")
}

/// `metrics/ROLE/NAME.json`: the metrics record `name` of `role`.
pub fn metrics_key(role: &str, name: &str) -> String {
    format!("metrics/{role}/{name}.json")
}

/// `metrics/trainer/gen-NNNNN.json`: the trainer's record of generation `generation`.
pub fn trainer_record_key(generation: u64) -> String {
    metrics_key("trainer", &format!("gen-{generation:05}"))
}

/// `games/gen-NNNNN/WORKER-SEQ.bin`: batch `seq` of worker `worker`, played with net `model`.
pub fn games_key(model: u64, worker: &str, seq: u64) -> String {
    format!("games/gen-{model:05}/{worker}-{seq:06}.bin")
}

/// The generation in a key's first `gen-NNNNN` (`models/gen-00003.bpk`: 3).
pub fn generation_of(key: &str) -> Option<u64> {
    let start = key.find("gen-")? + 4;
    let digits: String = key[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// A name for this process as a writer, unique across machines and restarts: the host, the
/// process id and the start time.
pub fn writer_id() -> String {
    let host = std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    let host: String = host
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(32)
        .collect();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{host}_{}_{:x}", std::process::id(), nanos % (1 << 40))
}

/// What one step of a role did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// It made something (a batch of games, a candidate, a decision).
    Worked,
    /// There was nothing to do yet (no net, not enough new games, no candidate).
    Idle,
    /// The run has all its generations.
    Finished,
}

/// A role of a store run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A self-play worker (any number).
    SelfPlay,
    /// The trainer (exactly one).
    Trainer,
    /// The gate (one).
    Gate,
    /// All three in one process, at once, each on its own threads.
    All,
}

impl std::str::FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "selfplay" => Ok(Role::SelfPlay),
            "trainer" => Ok(Role::Trainer),
            "gate" => Ok(Role::Gate),
            "all" => Ok(Role::All),
            other => Err(format!(
                "unknown role {other:?}; accepted: selfplay, trainer, gate, all"
            )),
        }
    }
}

/// How a role runs.
#[derive(Clone, Debug)]
pub struct RoleOptions {
    /// Stop after this much time, at the end of a step (`None`: when the run is finished).
    pub time_limit: Option<Duration>,
    /// Where fetched models are kept (default: the system's temporary directory).
    pub cache: Option<PathBuf>,
    /// Start a trainer even though another trainer wrote to the store recently (it was
    /// killed and this one replaces it).
    pub takeover: bool,
    /// Whether to draw progress bars.
    pub progress: bool,
    /// Threads this process plays and gates on, in place of the run's `selfplay.workers`
    /// (machines differ; the run's games do not depend on it).
    pub threads: Option<usize>,
    /// How long to wait when there is nothing to do.
    pub poll: Duration,
    /// A model whose weights a new run's first net starts from instead of random ones (a
    /// warm start); read by a trainer only while the run has no net yet.
    pub init: Option<PathBuf>,
}

impl Default for RoleOptions {
    fn default() -> Self {
        RoleOptions {
            time_limit: None,
            cache: None,
            takeover: false,
            progress: false,
            threads: None,
            poll: Duration::from_millis(500),
            init: None,
        }
    }
}

/// Where a store run's configuration comes from.
pub enum ConfigChoice {
    /// This one (`--config`): a new run starts with it; an existing run must have it.
    Given(RunConfig),
    /// The run's; a new run starts with this one (the variant's built-in configuration).
    StoredOr(RunConfig),
    /// The run's; there must be a run.
    Stored,
}

/// A run in a store, as one process sees it.
pub struct StoreRun {
    /// The store.
    pub store: RunStore,
    /// The run's configuration (`config.toml` in the store).
    pub config: RunConfig,
    /// This process's name as a writer.
    pub id: String,
    cache: PathBuf,
    /// Where this process's records are also written as `metrics.jsonl` and TensorBoard
    /// events: the run's directory, or the cache for an object store. Shared by the roles
    /// of one process: one TensorBoard event file per process (its name is the second, the
    /// host and the process id, so a second writer of the same second would replace it).
    pub journal: Arc<Journal>,
}

/// A run directory of the layout `oxo train` wrote before its roles ran at once (stages one
/// after another, resumed from `state.json`): refused with what to do, never mistaken for a
/// store run (it has a `config.toml` too).
fn refuse_old_layout(store: &RunStore) -> Result<()> {
    let Some(dir) = store.local_dir() else {
        return Ok(());
    };
    if !dir.join("state.json").exists() {
        return Ok(());
    }
    let best = dir.join("models").join("best.bpk");
    Err(TrainError(format!(
        "{} holds a run of the older layout (state.json: stages one after another), which \
         this oxo neither resumes nor reads. Its nets play as they are (net:path={}); to train \
         on from its best net, start a new run from it: oxo train --variant VARIANT --run \
         NEW_DIR --init {}",
        dir.display(),
        best.display(),
        best.display()
    )))
}

impl StoreRun {
    /// Opens the run at `location`, of variant `variant` if given, with the configuration
    /// `config` says.
    pub fn open(
        location: &str,
        variant: Option<&str>,
        config: ConfigChoice,
        options: &RoleOptions,
    ) -> Result<StoreRun> {
        let store = RunStore::open(location)?;
        refuse_old_layout(&store)?;
        let stored = Self::stored_config(&store)?;
        let config = match (config, stored) {
            (ConfigChoice::Given(given), Some(stored)) if given != stored => {
                return Err(TrainError(format!(
                    "{} differs from --config: a run's configuration is fixed when it \
                     starts; leave --config out to use the run's, or use another --run",
                    store.describe("config.toml")
                )));
            }
            (_, Some(stored)) => stored,
            (ConfigChoice::Given(config) | ConfigChoice::StoredOr(config), None) => {
                config.validate()?;
                store.create("config.toml", config.to_toml().into_bytes())?;
                // Another process may have started the run a moment ago: its config counts.
                Self::stored_config(&store)?.expect("just written")
            }
            (ConfigChoice::Stored, None) => {
                return Err(TrainError(format!(
                    "{}: no run here (no config.toml); check the URL",
                    store.location()
                )));
            }
        };
        if let Some(variant) = variant.filter(|v| *v != config.variant) {
            return Err(TrainError(format!(
                "{} is a {} run, not {variant}: use another --run",
                store.location(),
                config.variant
            )));
        }
        let info = Self::run_info(&store, &config)?;
        check_config_unchanged(&store, &config, &info)?;
        let cache = options
            .cache
            .clone()
            .unwrap_or_else(|| default_cache(location, &info));
        let mut config = config;
        if let Some(threads) = options.threads {
            config.selfplay.workers = threads;
        }
        std::fs::create_dir_all(&cache).map_err(|e| crate::error::io_error(&cache, e))?;
        let journal = Arc::new(Journal::new(store.local_dir().unwrap_or(&cache)));
        Ok(StoreRun {
            store,
            config,
            id: writer_id(),
            cache,
            journal,
        })
    }

    /// Opens the run at `location` to read it (`oxo status`): nothing is written, not even
    /// a missing `run.json` or a directory; a run that is not there is an error naming the
    /// location.
    pub fn open_to_read(location: &str) -> Result<StoreRun> {
        let store = RunStore::open_existing(location)?;
        refuse_old_layout(&store)?;
        let config = Self::stored_config(&store)?.ok_or_else(|| {
            TrainError(format!(
                "{}: no run here (no config.toml); check the location",
                store.location()
            ))
        })?;
        let info = store.get("run.json")?.unwrap_or_default();
        if !info.is_empty() {
            check_config_unchanged(&store, &config, &info)?;
        }
        let cache = default_cache(location, &info);
        Ok(StoreRun {
            journal: Arc::new(Journal::new(store.local_dir().unwrap_or(&cache))),
            cache,
            store,
            config,
            id: writer_id(),
        })
    }

    /// The store's `run.json` (how and when the run started: seed, versions, engine, commit,
    /// command), written by the first process to open the run.
    fn run_info(store: &RunStore, config: &RunConfig) -> Result<Vec<u8>> {
        let info = crate::run_info::RunInfo::now(config, std::env::args().collect());
        let json = serde_json::to_vec_pretty(&info).expect("run info serialises");
        store.create("run.json", json)?;
        store
            .get("run.json")?
            .ok_or_else(|| TrainError(format!("{}: missing", store.describe("run.json"))))
    }

    /// The store's `config.toml`, if there is one.
    fn stored_config(store: &RunStore) -> Result<Option<RunConfig>> {
        let Some(bytes) = store.get("config.toml")? else {
            return Ok(None);
        };
        let text = String::from_utf8(bytes).map_err(|_| {
            TrainError(format!("{}: not UTF-8 text", store.describe("config.toml")))
        })?;
        RunConfig::from_toml(&text)
            .map(Some)
            .map_err(|e| TrainError(format!("{}: {e}", store.describe("config.toml"))))
    }

    /// The greatest generation among the keys under `prefix` that end with `suffix`.
    pub fn latest(&self, prefix: &str, suffix: &str) -> Result<Option<u64>> {
        Ok(self
            .store
            .list(prefix)?
            .iter()
            .filter(|o| o.key.ends_with(suffix))
            .filter_map(|o| generation_of(&o.key))
            .max())
    }

    /// The generation of the best net, derived from the gate's decisions: the net the last
    /// decision left best (its candidate if promoted, else the net it played), whose
    /// promotion must be in `best/`; before any decision, the first net (`None` before
    /// the trainer made it). A missing promotion, or a promotion no decision made, is an
    /// error that names it: never a fallback to an older or the untrained net.
    pub fn best(&self) -> Result<Option<u64>> {
        let Some(decided) = self.latest("gate/", ".json")? else {
            // A promotion of candidate 1 without its decision is a gate killed between the
            // two (the promotion is written first): the first net is still the best.
            return match self.latest("best/", ".json")? {
                None => Ok(None),
                Some(0 | 1) => self.promotion(0).map(Some),
                Some(generation) => Err(TrainError(format!(
                    "{}: a promotion, but the run has no gate decision (gate/ lost?): \
                     restore gate/ from a backup",
                    self.store.describe(&best_key(generation))
                ))),
            };
        };
        let key = gate_key(decided);
        let decision = self.fetch_json(&key)?;
        let field = |name: &str| {
            decision[name].as_u64().ok_or_else(|| {
                TrainError(format!("{}: no {name} field", self.store.describe(&key)))
            })
        };
        let best = match decision["promoted"].as_bool() {
            Some(true) => field("candidate")?,
            Some(false) => field("best")?,
            None => {
                return Err(TrainError(format!(
                    "{}: no promoted field",
                    self.store.describe(&key)
                )));
            }
        };
        self.promotion(best).map_err(|e| {
            TrainError(format!(
                "{e}; {} made generation {best} the best net: restore the promotion from a \
                 backup (the gate writes it again when it starts)",
                self.store.describe(&key)
            ))
        })?;
        Ok(Some(best))
    }

    /// Checks the promotion of `generation` (`best/gen-NNNNN.json`): there, and naming it.
    fn promotion(&self, generation: u64) -> Result<u64> {
        let key = best_key(generation);
        let promotion = self.fetch_json(&key)?;
        if promotion["generation"].as_u64() != Some(generation) {
            return Err(TrainError(format!(
                "{}: names generation {}, not {generation}",
                self.store.describe(&key),
                promotion["generation"]
            )));
        }
        Ok(generation)
    }

    /// The JSON object `key`; a missing object is an error naming it.
    pub fn fetch_json(&self, key: &str) -> Result<serde_json::Value> {
        self.store.get_json(key)?.ok_or_else(|| self.lost(key))
    }

    /// The error for an object `key` the run needs and does not have.
    fn lost(&self, key: &str) -> TrainError {
        TrainError(format!(
            "{}: missing (the run lost an object it needs)",
            self.store.describe(key)
        ))
    }

    /// Whether self-play is as far ahead of training as it may get: the game batches no claim
    /// holds yet amount to [`MAX_GENERATIONS_AHEAD`] generations of games. Workers then wait
    /// for the trainer, so the games it trains on are as fresh on 32 cores as on 2, and none
    /// is played in vain. Never for a run whose last claim is from before claims counted
    /// their objects, nor once the last claim is [`TRAINER_STALL`] old (a trainer that is
    /// gone, or that has only copies to claim, does not stop self-play for good).
    pub fn self_play_ahead(&self) -> Result<bool> {
        let listed = self
            .store
            .list("games/")?
            .iter()
            .filter(|o| o.key.ends_with(".bin"))
            .count() as u64;
        let seen = match self.latest("trainer/", ".json")? {
            None => 0,
            Some(generation) => match trainer::read_claim(self, generation)? {
                Some(trainer::Claim {
                    seen_objects: Some(objects),
                    listed_unix_ms,
                    ..
                }) if unix_now().saturating_sub(listed_unix_ms / 1000)
                    < TRAINER_STALL.as_secs() =>
                {
                    objects
                }
                _ => return Ok(false),
            },
        };
        let per_generation = self.config.selfplay.games_per_generation.max(1) as u64;
        let per_batch = (self.config.selfplay.parallel_games as u64).clamp(1, per_generation);
        let ahead = listed.saturating_sub(seen) * per_batch;
        Ok(ahead >= MAX_GENERATIONS_AHEAD * per_generation)
    }

    /// Whether the run has all its generations (the gate decided on the last one); never
    /// for a run without a generation count.
    pub fn finished(&self) -> Result<bool> {
        let last = self.config.generations;
        Ok(last > 0 && self.store.exists(&gate_key(last))?)
    }

    /// The bytes of `key`; a missing object is an error naming it.
    pub fn fetch(&self, key: &str) -> Result<Vec<u8>> {
        self.store.get(key)?.ok_or_else(|| self.lost(key))
    }

    /// A local copy of the object `key` (a model or checkpoint) in the cache, fetched once:
    /// objects never change. Whoever loads it checks it (the files carry checksums).
    pub fn fetch_file(&self, key: &str) -> Result<PathBuf> {
        let path = self.cache.join(key);
        if !path.exists() {
            write_atomic(&path, &self.fetch(key)?)?;
        }
        Ok(path)
    }

    /// A scratch path in the cache for a file this process makes (`name` must be unique to
    /// the process), read back and removed by [`StoreRun::publish_file`].
    pub fn scratch(&self, name: &str) -> PathBuf {
        self.cache.join(format!("scratch-{}-{name}", self.id))
    }

    /// Writes the file at `path` as the object `key` and removes the file; `true` if this
    /// call wrote it (or `key` holds the same bytes), `false` if `key` holds others.
    pub fn publish_file(&self, path: &Path, key: &str) -> Result<bool> {
        let bytes = std::fs::read(path).map_err(|e| crate::error::io_error(path, e))?;
        let created = self.store.create_or_same(key, bytes)?;
        let _ = std::fs::remove_file(path);
        Ok(created)
    }

    /// Writes a metrics record of `role` as its own object, `metrics/ROLE/NAME.json`, with
    /// the writer and the time, and adds it to the journal (at the generation its name
    /// says, or a self-play record's model) unless the object was there already.
    pub fn record(&self, role: &str, name: &str, mut fields: serde_json::Value) -> Result<()> {
        fields["writer"] = self.id.clone().into();
        fields["time"] = unix_now().into();
        let written = self.store.create_json(&metrics_key(role, name), &fields)?;
        if written {
            let step = generation_of(name)
                .or_else(|| fields["model"].as_u64())
                .unwrap_or(0);
            self.journal.append(role, name, step, &fields)?;
        }
        Ok(())
    }
}

/// Checks the store's `config.toml` (read as `config`) against the configuration its
/// `run.json` (`info`) records the run started with: a changed one is refused with the first
/// setting that differs, as each says it. Runs from before `run.json` recorded it pass.
fn check_config_unchanged(store: &RunStore, config: &RunConfig, info: &[u8]) -> Result<()> {
    let info: crate::run_info::RunInfo = serde_json::from_slice(info)
        .map_err(|e| TrainError(format!("{}: {e}", store.describe("run.json"))))?;
    let Some(started) = info.config else {
        return Ok(());
    };
    let started = RunConfig::from_toml(&started)
        .map_err(|e| TrainError(format!("{}: config: {e}", store.describe("run.json"))))?;
    if started == *config {
        return Ok(());
    }
    let (now, then) = (config.to_toml(), started.to_toml());
    let differs = now
        .lines()
        .zip(then.lines())
        .find(|(a, b)| a != b)
        .unwrap_or(("(more settings)", "(fewer settings)"));
    Err(TrainError(format!(
        "{} says `{}`, but the run started with `{}` ({}): a run's configuration is fixed \
         when it starts; restore config.toml, or start another run",
        store.describe("config.toml"),
        differs.0,
        differs.1,
        store.describe("run.json")
    )))
}

/// The default model cache of the run at `location` whose `run.json` is `info`: a folder of
/// the system's temporary directory named by their checksum (another run at the same
/// location, started afresh, gets another folder).
fn default_cache(location: &str, info: &[u8]) -> PathBuf {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(location.as_bytes());
    hasher.update(info);
    std::env::temp_dir()
        .join("oxo-cache")
        .join(format!("{:08x}", hasher.finalize()))
}

/// Runs `role` on the run until the run is finished or the time limit is reached; returns a
/// line saying where the run stands. [`Role::All`] runs the three roles at once ([`run_all`]).
pub fn run_role<G: Encode + Evaluate>(
    run: &StoreRun,
    role: Role,
    device: &Device,
    options: &RoleOptions,
) -> Result<String> {
    let stop = AtomicBool::new(false);
    match role {
        Role::All => run_all::<G>(run, device, options)?,
        single => {
            role_loop::<G>(run, single, device, options, &stop)?;
        }
    }
    status::summary(run)
}

/// How `Role::All` shares `cores` cores: threads for the trainer, and for self-play (the
/// gate plays on self-play's, between candidates). The trainer gets a quarter of them, one
/// at least: its threads are data-parallel replicas that meet at every step, and training
/// scales less with cores than self-play (docs/performance.md). Self-play gets a thread on
/// every core, at a lower priority than the trainer's ([`PLAY_NICE`]): while the trainer
/// trains they have the other cores and yield the trainer's, and while it waits for new
/// games (its budget is per game) they have all of them, where threads on the other cores
/// alone left the trainer's cores idle (the splits measured:
/// lab/bench/2026-12-02/splits.txt, lab/bench/2026-12-06/splits/).
pub fn core_split(cores: usize) -> (usize, usize) {
    let cores = cores.max(1);
    ((cores / 4).max(1), cores)
}

/// How much higher a nice value self-play's and the gate's threads take in [`run_all`] than
/// the trainer's, which keep the process's: where the cores are short the trainer runs first
/// (10 steps of nice make a thread weigh about a tenth as much in Linux's scheduler).
#[cfg(target_os = "linux")]
const PLAY_NICE: libc::c_int = 10;

/// Raises the calling thread's nice value by [`PLAY_NICE`], to 19 at most (Linux keeps a nice
/// value per thread). The trainer sets a run's pace where self-play outruns it (on many cores:
/// docs/performance.md, "On 16 cores and a GPU"), and there self-play's and the gate's threads
/// took cores from it; where self-play is the slower, the trainer waits for games and leaves
/// the cores to them anyway. Where the priority cannot be read or changed, the thread runs as
/// it was.
fn yield_to_the_trainer() {
    // SAFETY: getpriority and setpriority read their integer arguments only; `who` 0 with
    // PRIO_PROCESS names the calling thread on Linux. errno tells a failed getpriority from a
    // nice value of -1.
    #[cfg(target_os = "linux")]
    unsafe {
        *libc::__errno_location() = 0;
        let nice = libc::getpriority(libc::PRIO_PROCESS, 0);
        if *libc::__errno_location() == 0 {
            libc::setpriority(libc::PRIO_PROCESS, 0, (nice + PLAY_NICE).min(19));
        }
    }
}

/// Runs the trainer, the gate and self-play of `run` at once in this process, each on its
/// own thread and its share of the cores ([`core_split`] of `selfplay.workers`, or all the
/// machine's), as KataGo runs them as concurrent processes: self-play keeps the cores busy
/// while the trainer trains, and waits when it is as far ahead as it may get
/// ([`StoreRun::self_play_ahead`]). The time limit is the trainer's: the gate and self-play
/// go on until the trainer has ended its last generation, so no core idles while it
/// finishes. The first error stops every role and is returned.
fn run_all<G: Encode + Evaluate>(
    run: &StoreRun,
    device: &Device,
    options: &RoleOptions,
) -> Result<()> {
    let cores = crate::workers::resolve(run.config.selfplay.workers);
    let (train_threads, play_threads) = core_split(cores);
    let play_options = RoleOptions {
        threads: Some(play_threads),
        time_limit: None,
        ..options.clone()
    };
    let mut play_run = StoreRun::open(
        run.store.location(),
        Some(&run.config.variant),
        ConfigChoice::Stored,
        &play_options,
    )?;
    play_run.journal = Arc::clone(&run.journal);
    tracing::info!(
        "all roles at once; cores: {cores}, the trainer's threads: {train_threads}, self-play's \
         and the gate's: {play_threads}"
    );
    let stop = AtomicBool::new(false);
    let roles = [
        (Role::Trainer, run, train_threads, options),
        (Role::Gate, &play_run, play_threads, &play_options),
        (Role::SelfPlay, &play_run, play_threads, &play_options),
    ];
    let results: Vec<Result<()>> = std::thread::scope(|scope| {
        let handles: Vec<_> = roles
            .into_iter()
            .map(|(role, run, threads, options)| {
                let stop = &stop;
                scope.spawn(move || {
                    let mut pool = rayon::ThreadPoolBuilder::new().num_threads(threads);
                    if role != Role::Trainer {
                        pool = pool.start_handler(|_| yield_to_the_trainer());
                    }
                    let pool = pool
                        .build()
                        .map_err(|e| TrainError(format!("cannot start {threads} threads: {e}")))?;
                    let result = pool.install(|| role_loop::<G>(run, role, device, options, stop));
                    // An error stops every role, and so does the trainer's time running out.
                    if matches!(result, Err(_) | Ok(Ended::TimeUp)) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    result.map(|_| ())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a role thread does not panic"))
            .collect()
    });
    results.into_iter().collect()
}

/// Why a role's loop ended.
#[derive(Debug, PartialEq)]
enum Ended {
    /// The role has nothing more to do in the run.
    Finished,
    /// Its time limit was reached.
    TimeUp,
    /// Another role asked it to stop.
    Stopped,
}

/// Runs one role (not [`Role::All`]) until the run is finished, the time limit is reached
/// or `stop` is set, waiting `options.poll` whenever it has nothing to do.
fn role_loop<G: Encode + Evaluate>(
    run: &StoreRun,
    role: Role,
    device: &Device,
    options: &RoleOptions,
    stop: &AtomicBool,
) -> Result<Ended> {
    let start = Instant::now();
    let deadline = options.time_limit.map(|limit| start + limit);
    let observer = crate::observe::Observer::new(options.progress);
    let mut worker = (role == Role::SelfPlay).then(worker::Worker::<G>::new);
    let mut trainer = match role {
        Role::Trainer => Some(trainer::TrainerRole::<G>::open(run, device, options)?),
        _ => None,
    };
    let mut gate = (role == Role::Gate).then(gate::Gate::new);
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(Ended::Stopped);
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(Ended::TimeUp);
        }
        let progress = if let Some(gate) = gate.as_mut() {
            gate.step::<G>(run, device, &observer)?
        } else if let Some(trainer) = trainer.as_mut() {
            trainer.step(run, &observer)?
        } else if let Some(worker) = worker.as_mut() {
            worker.step(run, device, u64::MAX, deadline)?
        } else {
            unreachable!("role_loop runs one role")
        };
        match progress {
            Progress::Finished => return Ok(Ended::Finished),
            Progress::Idle => std::thread::sleep(options.poll),
            Progress::Worked => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::core_split;

    /// The trainer has a quarter of the cores, one at least; self-play a thread on each.
    #[test]
    fn the_trainer_has_a_quarter_of_the_cores_and_self_play_every_core() {
        let splits = [
            (1, (1, 1)),
            (2, (1, 2)),
            (4, (1, 4)),
            (8, (2, 8)),
            (16, (4, 16)),
            (32, (8, 32)),
        ];
        for (cores, split) in splits {
            assert_eq!(core_split(cores), split, "{cores} cores");
        }
    }

    /// Self-play's and the gate's threads yield to the trainer's: the priority is lowered on
    /// the thread that asks, not on the process (Linux keeps a nice value per thread).
    #[cfg(target_os = "linux")]
    #[test]
    fn play_threads_run_under_the_trainers_priority() {
        use super::{PLAY_NICE, yield_to_the_trainer};
        // SAFETY: getpriority reads its two integer arguments only; `who` 0 names the calling
        // thread on Linux.
        let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let before = nice();
        let played = std::thread::spawn(move || {
            yield_to_the_trainer();
            nice()
        })
        .join()
        .unwrap();
        assert_eq!(
            played,
            (before + PLAY_NICE).min(19),
            "the play thread's nice value"
        );
        assert_eq!(nice(), before, "the trainer's thread keeps its priority");
    }
}

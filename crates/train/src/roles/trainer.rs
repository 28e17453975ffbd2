//! The trainer: exactly one per run. It waits for `selfplay.games_per_generation` games it
//! has not trained on, claims them (the claim is its commit point: a second trainer cannot
//! claim the same generation), trains the next candidate on the replay window, and publishes
//! its checkpoint and the candidate.

use std::collections::{HashMap, HashSet};
use std::marker::PhantomData;
use std::sync::Arc;

use oxo_nn::{Device, Encode, Trainer};
use serde::{Deserialize, Serialize};

use super::{
    MODELS_DESCRIPTION_KEY, Progress, RoleOptions, StoreRun, best_key, checkpoint_key, claim_key,
    generation_of, model_key,
};
use crate::error::{Result, TrainError};
use crate::records::GenerationRecords;
use crate::run_info::unix_now;
use crate::train::{ReplicaRule, WindowSamples, fit, window_size};

/// How long after another trainer's last write a new trainer is refused (unless it takes
/// over): longer than a generation's training takes on a slow machine.
pub const TRAINER_LEASE_SECS: i64 = 120;

/// `trainer/gen-NNNNN.json`: what a generation trains on, written before it trains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// The generation.
    pub generation: u64,
    /// The trainer that claimed it.
    pub trainer: String,
    /// The game objects new in this generation (trained on for the first time).
    pub games: Vec<String>,
    /// The SHA-256 of each of `games`, in order (hex): a batch is known by its content, so
    /// the same games under another name are not claimed again. Empty in claims from before
    /// digests were recorded.
    #[serde(default)]
    pub digests: Vec<String>,
    /// The replay window: game objects, newest first.
    pub window: Vec<String>,
    /// Positions of all games claimed so far, this generation's included.
    pub total_positions: u64,
    /// When the games were listed, milliseconds since the Unix epoch: a game object written
    /// after it is for the next generation.
    pub listed_unix_ms: u64,
    /// Games in `games` (what the training budget is counted in). Absent in claims from
    /// before the budget: those trained `train.steps_per_generation` steps.
    #[serde(default)]
    pub new_games: Option<u64>,
    /// Game objects the run's claims have dealt with so far, this one's included: claimed,
    /// or set aside as copies of claimed ones. Workers compare it with the objects under
    /// `games/` to see how far self-play is ahead of training.
    #[serde(default)]
    pub seen_objects: Option<u64>,
}

/// Training steps for a claim of `new_games` new games (`None`: an old claim, the config's
/// steps): `train.steps_per_generation` for each `selfplay.games_per_generation` games, in
/// proportion (at least one), so every new game buys the same training however many games
/// the workers delivered at once: a run learns the same per game on 2 cores and on 32.
pub fn budget_steps(config: &crate::config::RunConfig, new_games: Option<u64>) -> usize {
    let per_generation = config.train.steps_per_generation;
    let Some(games) = new_games else {
        return per_generation;
    };
    let games_per_generation = config.selfplay.games_per_generation.max(1) as u64;
    let steps = (per_generation as u64 * games).div_ceil(games_per_generation);
    (steps as usize).max(1)
}

/// The trainer's state between generations.
pub struct TrainerRole<G> {
    trainer: Trainer,
    /// The generation of the last checkpoint.
    generation: u64,
    /// Game objects claimed so far.
    claimed: HashSet<String>,
    /// The content digests of the claimed objects ([`Claim::digests`]).
    claimed_digests: HashSet<String>,
    /// Unclaimed objects found to be copies of claimed ones (said once, never trained on).
    copies: HashSet<String>,
    total_positions: u64,
    /// Game objects read, by key (objects never change), with their digests.
    records: HashMap<String, (Arc<GenerationRecords>, String)>,
    /// The wall-clock seconds the run has spent up to the last record: the earlier
    /// trainers' (from the last generation's record) and this one's, idle waits included,
    /// so a point of the learning curve costs the hours the run took to reach it.
    run_seconds: f64,
    /// When `run_seconds` was last brought up to date.
    counted_until: std::time::Instant,
    /// The store's trainer lock, held while this trainer lives (a directory store's).
    _lock: Option<std::fs::File>,
    variant: PhantomData<G>,
}

impl<G: Encode> TrainerRole<G> {
    /// Starts the run's trainer: refused while another trainer wrote to the store within
    /// [`TRAINER_LEASE_SECS`] (unless `options.takeover`); creates the first net where the
    /// run has none, else resumes from the last checkpoint.
    pub fn open(run: &StoreRun, device: &Device, options: &RoleOptions) -> Result<Self> {
        // On a directory the lock says for certain whether another trainer lives; an object
        // store has only the lease.
        let lock = run.store.lock("trainer")?;
        if lock.is_none() {
            refuse_a_second_trainer(run, options.takeover)?;
        }
        let config = &run.config;
        let latest = match run.latest("trainer/", ".bpk")? {
            Some(generation) => generation,
            None => {
                let first = first_trainer::<G>(config, options.init.as_deref(), device)?;
                match &options.init {
                    Some(model) => {
                        record_warm_start(run, model)?;
                        tracing::info!(
                            "started a run of {} from the weights of {}",
                            config.variant,
                            model.display()
                        );
                    }
                    None => tracing::info!("started a run of {}", config.variant),
                }
                let path = run.scratch("checkpoint.bpk");
                first.save(&path)?;
                // Another trainer may have made the first net a moment ago: then it is used.
                run.publish_file(&path, &checkpoint_key(0))?;
                0
            }
        };
        let path = run.fetch_file(&checkpoint_key(latest))?;
        let mut trainer = Trainer::load::<G>(&path, &config.net, &config.train_config(), device)
            .map_err(|e| {
                TrainError(format!(
                    "{}: {e}",
                    run.store.describe(&checkpoint_key(latest))
                ))
            })?;
        // A replica per thread of the trainer's share of the cores (data-parallel), each on
        // a full batch.
        let rule = ReplicaRule::new(rayon::current_num_threads());
        trainer.set_threads(rule.replicas);
        trainer.set_learning_rate(rule.learning_rate(config.train.learning_rate));
        let mut role = TrainerRole {
            trainer,
            generation: latest,
            claimed: HashSet::new(),
            claimed_digests: HashSet::new(),
            copies: HashSet::new(),
            total_positions: 0,
            records: HashMap::new(),
            run_seconds: recorded_run_seconds(run, latest)?,
            counted_until: std::time::Instant::now(),
            _lock: lock,
            variant: PhantomData,
        };
        role.publish_candidate(run)?;
        let description = crate::export::run_models_description::<G>(config);
        run.store
            .create(MODELS_DESCRIPTION_KEY, description.to_text().into_bytes())?;
        if run.best()?.is_none() {
            if latest > 0 {
                return Err(TrainError(format!(
                    "{} exists but the run has no promotion, not even {}: the run lost \
                     best/ and gate/; restore them from a backup (it is not restarted from \
                     its first net)",
                    run.store.describe(&checkpoint_key(latest)),
                    run.store.describe(&best_key(0))
                )));
            }
            run.store.create_json(
                &best_key(0),
                &serde_json::json!({"generation": 0, "reason": "first net"}),
            )?;
        }
        for generation in 1..=latest {
            let claim = read_claim(run, generation)?.ok_or_else(|| {
                TrainError(format!(
                    "{}: missing, but its checkpoint exists (the run lost an object)",
                    run.store.describe(&claim_key(generation))
                ))
            })?;
            let digests = match claim.digests.len() == claim.games.len() {
                true => claim.digests,
                false => claim
                    .games
                    .iter()
                    .map(|key| run.fetch(key).map(|bytes| digest(&bytes)))
                    .collect::<Result<_>>()?,
            };
            role.claimed_digests.extend(digests);
            role.claimed.extend(claim.games);
            role.total_positions = claim.total_positions;
        }
        tracing::info!("trainer {}: at generation {latest}", run.id);
        Ok(role)
    }

    /// Publishes the net of the last checkpoint as its generation's candidate unless it is
    /// there (a kill between the checkpoint and the candidate left it out).
    fn publish_candidate(&self, run: &StoreRun) -> Result<()> {
        let key = model_key(self.generation);
        if run.store.exists(&key)? {
            return Ok(());
        }
        let path = run.scratch("model.bpk");
        self.trainer.net().save(&path)?;
        run.publish_file(&path, &key)?;
        Ok(())
    }

    /// Trains the next generation if there are enough new games (or a claim of it is left
    /// from a killed trainer); idle otherwise, finished once the run has all its candidates.
    pub fn step(
        &mut self,
        run: &StoreRun,
        observer: &crate::observe::Observer,
    ) -> Result<Progress> {
        let config = &run.config;
        if config.generations > 0 && self.generation >= config.generations {
            return Ok(Progress::Finished);
        }
        let generation = self.generation + 1;
        let claim = match read_claim(run, generation)? {
            // Claimed by the trainer this one replaces: trained again on the same games.
            Some(claim) => claim,
            None => match self.new_claim(run, generation)? {
                Some(claim) => claim,
                None => return Ok(Progress::Idle),
            },
        };
        let start = std::time::Instant::now();
        let mut window = WindowSamples::<G>::new(usize::MAX);
        for key in &claim.window {
            let records = self.load_games(run, key)?;
            window.add(config, &records);
        }
        let steps =
            ReplicaRule::new(self.trainer.threads()).steps(budget_steps(config, claim.new_games));
        let mut fields = fit(
            &mut self.trainer,
            config,
            &window,
            generation,
            steps,
            start,
            observer,
        );
        let path = run.scratch("checkpoint.bpk");
        self.trainer.save(&path)?;
        if !run.publish_file(&path, &checkpoint_key(generation))? {
            return Err(TrainError(format!(
                "{}: written by another trainer; a run has exactly one trainer, so this one stops",
                run.store.describe(&checkpoint_key(generation))
            )));
        }
        self.generation = generation;
        self.publish_candidate(run)?;
        self.claimed.extend(claim.games.iter().cloned());
        self.claimed_digests.extend(claim.digests.iter().cloned());
        self.total_positions = claim.total_positions;
        self.records.retain(|key, _| claim.window.contains(key));
        fields["new_games_objects"] = claim.games.len().into();
        fields["threads"] = rayon::current_num_threads().into();
        fields["total_positions"] = claim.total_positions.into();
        self.run_seconds += self.counted_until.elapsed().as_secs_f64();
        self.counted_until = std::time::Instant::now();
        fields["run_seconds"] = self.run_seconds.into();
        run.record("trainer", &format!("gen-{generation:05}"), fields)?;
        tracing::info!("trainer: generation {generation} published");
        Ok(Progress::Worked)
    }

    /// The claim of `generation` over the games not yet claimed, written to the store, if
    /// they hold `selfplay.games_per_generation` games; `None` (nothing written) if not.
    fn new_claim(&mut self, run: &StoreRun, generation: u64) -> Result<Option<Claim>> {
        let config = &run.config;
        let listed_unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let mut all: Vec<String> = run
            .store
            .list("games/")?
            .into_iter()
            .map(|o| o.key)
            .filter(|k| k.ends_with(".bin"))
            .collect();
        let unclaimed: Vec<String> = all
            .iter()
            .filter(|k| !self.claimed.contains(*k) && !self.copies.contains(*k))
            .cloned()
            .collect();
        let mut fresh = Vec::new();
        let mut digests = Vec::new();
        let mut games = 0;
        let mut positions = 0;
        for key in unclaimed {
            let (records, sum) = self.load_games_with_digest(run, &key)?;
            if self.claimed_digests.contains(&sum) || digests.contains(&sum) {
                tracing::warn!(
                    "{}: the same games as a batch already claimed (SHA-256 {sum}): a copy, \
                     not trained on",
                    run.store.describe(&key)
                );
                self.copies.insert(key);
                continue;
            }
            games += records.games.len();
            positions += records.positions() as u64;
            fresh.push(key);
            digests.push(sum);
        }
        all.retain(|key| !self.copies.contains(key));
        if games < config.selfplay.games_per_generation.max(1) {
            return Ok(None);
        }
        let total_positions = self.total_positions + positions;
        // Newest first: by the net that played them, then by name.
        all.sort_by_key(|k| {
            (
                std::cmp::Reverse(generation_of(k)),
                std::cmp::Reverse(k.clone()),
            )
        });
        let size = window_size(config, total_positions);
        let mut window = Vec::new();
        let mut held = 0;
        for key in all {
            if held >= size {
                break;
            }
            held += self.load_games(run, &key)?.positions();
            window.push(key);
        }
        let claim = Claim {
            generation,
            trainer: run.id.clone(),
            seen_objects: Some((self.claimed.len() + fresh.len() + self.copies.len()) as u64),
            new_games: Some(games as u64),
            games: fresh,
            digests,
            window,
            total_positions,
            listed_unix_ms,
        };
        let value = serde_json::to_value(&claim).expect("claims serialise");
        if !run.store.create_json(&claim_key(generation), &value)? {
            return Err(TrainError(format!(
                "{}: claimed by another trainer; a run has exactly one trainer, so this one stops",
                run.store.describe(&claim_key(generation))
            )));
        }
        Ok(Some(claim))
    }

    /// The game object `key`, read and checked once.
    fn load_games(&mut self, run: &StoreRun, key: &str) -> Result<Arc<GenerationRecords>> {
        Ok(self.load_games_with_digest(run, key)?.0)
    }

    /// The game object `key` and the digest of its bytes ([`digest`]), read and checked
    /// once.
    fn load_games_with_digest(
        &mut self,
        run: &StoreRun,
        key: &str,
    ) -> Result<(Arc<GenerationRecords>, String)> {
        if let Some(loaded) = self.records.get(key) {
            return Ok(loaded.clone());
        }
        let bytes = run.fetch(key)?;
        // Not the store's failing to answer: an object that is no worker's batch.
        let records = GenerationRecords::from_bytes::<G>(&bytes, &run.store.describe(key))
            .map_err(|e| {
                TrainError(format!(
                    "{e}. Only self-play workers write under games/, and this object is none \
                     of theirs: move it out of the run (the trainer then goes on where it \
                     stopped)"
                ))
            })?;
        let records = Arc::new(records);
        let loaded = (records, digest(&bytes));
        self.records.insert(key.to_string(), loaded.clone());
        Ok(loaded)
    }
}

/// The trainer a new run starts with: a random net, or the weights of the model `init` (a
/// warm start), checked to fit `config`. `oxo train` calls it before it opens a run, so a
/// refused `--init` leaves nothing behind.
pub fn first_trainer<G: Encode>(
    config: &crate::config::RunConfig,
    init: Option<&std::path::Path>,
    device: &Device,
) -> Result<Trainer> {
    let Some(model) = init else {
        return Ok(Trainer::new::<G>(
            &config.net,
            &config.train_config(),
            device,
        ));
    };
    if config.selfplay.bootstrap_generations > 0 {
        return Err(TrainError(format!(
            "--init {}: a warm-started run has a net from its first generation, but \
             selfplay.bootstrap_generations = {} plays without one; set it to 0",
            model.display(),
            config.selfplay.bootstrap_generations
        )));
    }
    Trainer::from_model::<G>(model, &config.net, &config.train_config(), device)
        .map_err(|e| TrainError(format!("--init: {e}")))
}

/// Writes the run's `warm_start.json`: the model its first net's weights came from, with
/// that model's provenance, so the run's cost counts the training the model had.
fn record_warm_start(run: &StoreRun, model: &std::path::Path) -> Result<()> {
    let record = serde_json::json!({
        "model": model.display().to_string(),
        "provenance": crate::export::provenance(model),
    });
    let bytes = serde_json::to_vec_pretty(&record).expect("JSON values serialise");
    run.store.create(crate::export::WARM_START_FILE, bytes)?;
    Ok(())
}

/// The run's wall-clock seconds as the record of generation `generation` counted them (0 for
/// the first net, or a record from before they were counted).
fn recorded_run_seconds(run: &StoreRun, generation: u64) -> Result<f64> {
    if generation == 0 {
        return Ok(0.0);
    }
    Ok(run
        .store
        .get_json(&super::trainer_record_key(generation))?
        .and_then(|record| record["run_seconds"].as_f64())
        .unwrap_or(0.0))
}

/// The SHA-256 of a game object's bytes, in hex: its identity, whatever its name.
fn digest(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The claim of `generation`, if there is one.
pub fn read_claim(run: &StoreRun, generation: u64) -> Result<Option<Claim>> {
    let Some(value) = run.store.get_json(&claim_key(generation))? else {
        return Ok(None);
    };
    serde_json::from_value(value).map(Some).map_err(|e| {
        TrainError(format!(
            "{}: not a claim: {e}",
            run.store.describe(&claim_key(generation))
        ))
    })
}

/// Refuses to start while another trainer wrote to the store within [`TRAINER_LEASE_SECS`],
/// unless `takeover`.
fn refuse_a_second_trainer(run: &StoreRun, takeover: bool) -> Result<()> {
    let Some(newest) = run
        .store
        .list("trainer/")?
        .into_iter()
        .max_by_key(|o| o.modified_unix)
    else {
        return Ok(());
    };
    let age = unix_now() as i64 - newest.modified_unix;
    if takeover || age >= TRAINER_LEASE_SECS {
        return Ok(());
    }
    Err(TrainError(format!(
        "another trainer wrote {} {age} s ago: a run has exactly one trainer. If that one is \
         gone (killed), start this one with --takeover, or wait {} s",
        run.store.describe(&newest.key),
        TRAINER_LEASE_SECS - age
    )))
}

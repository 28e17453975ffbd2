//! The run's start, the self-play stage and the loop that runs the three stages in one
//! process, resuming from `state.json`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use oxo_agents::Evaluate;
use oxo_nn::{Device, Encode, Net, Trainer};
use serde_json::json;

use crate::export::{record_warm_start, run_models_description};
use crate::gate::gate_stage;
use crate::observe::Observer;
use crate::records::GenerationRecords;
use crate::rundir::{
    Result, RunDir, Stage, State, TrainError, copy_atomic, io_error, write_atomic,
};
use crate::selfplay::{mix, play_games};
use crate::train::train_stage;

/// Creates the generation-0 net (random, or the weights of the model `init`: a warm start),
/// the trainer checkpoint and `state.json`, unless the run already has a state (then `init`
/// is not read: the same command resumes); returns the state.
pub fn init_run<G: Encode>(
    run: &RunDir,
    device: &Device,
    command: Vec<String>,
    init: Option<&Path>,
) -> Result<State> {
    if let Some(state) = run.read_state()? {
        run.write_info(command)?;
        restore_best_copy(run, &state)?;
        if !run.models_description_path().exists() {
            write_models_description::<G>(run)?;
        }
        return Ok(state);
    }
    if let Some(file) = run.earlier_run_file() {
        return Err(TrainError(format!(
            "{} holds a run ({}) but no {}: it is not started afresh over the old one; \
             restore state.json from a backup, or use another --run directory",
            run.root().display(),
            file.display(),
            run.state_path().display()
        )));
    }
    // run.json only once the first trainer is made: a refused --init leaves none behind.
    let trainer = first_trainer::<G>(run, device, init)?;
    run.write_info(command)?;
    trainer.save(&run.checkpoint_path())?;
    trainer.net().save(&run.model_path(0))?;
    copy_atomic(&run.model_path(0), &run.best_path())?;
    write_models_description::<G>(run)?;
    let state = State {
        generation: 1,
        next: Stage::SelfPlay,
        best: 0,
        total_games: 0,
        total_positions: 0,
        total_full_positions: 0,
        train_steps: 0,
        promotions: 0,
    };
    run.write_state(&state)?;
    let origin = init.map_or(String::new(), |model| {
        format!(" from the weights of {}", model.display())
    });
    tracing::info!("started a run of {}{origin}", run.config().variant);
    Ok(state)
}

/// Makes `models/best.bpk` (the copy players and `oxo export` read) the model the state
/// names again where it is missing or differs from it (deleted, damaged, or left behind by
/// a kill between a promotion and its copy). The state's own model file is the truth; its
/// loss is an error, never a fresh start.
fn restore_best_copy(run: &RunDir, state: &State) -> Result<()> {
    let source = run.model_path(state.best);
    let best = std::fs::read(&source).map_err(|e| io_error(&source, e))?;
    let copy = run.best_path();
    if std::fs::read(&copy).ok().as_deref() != Some(&best[..]) {
        write_atomic(&copy, &best)?;
        tracing::warn!(
            "restored {} from {} (the best model, generation {})",
            copy.display(),
            source.display(),
            state.best
        );
    }
    Ok(())
}

/// Writes the run's `models/model.json` ([`run_models_description`]).
fn write_models_description<G: Encode>(run: &RunDir) -> Result<()> {
    let description = run_models_description::<G>(run.config());
    write_atomic(
        &run.models_description_path(),
        description.to_text().as_bytes(),
    )
}

/// The trainer a new run starts with: a random net, or the weights of the model `init`,
/// whose provenance is then recorded in the run directory.
fn first_trainer<G: Encode>(run: &RunDir, device: &Device, init: Option<&Path>) -> Result<Trainer> {
    let config = run.config();
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
    let trainer = Trainer::from_model::<G>(model, &config.net, &config.train_config(), device)
        .map_err(|e| TrainError(format!("--init: {e}")))?;
    record_warm_start(run.root(), model)?;
    Ok(trainer)
}

/// Plays the current generation's self-play games with the best net (none in a bootstrap
/// generation) into `selfplay/gen-NNNNN.bin`; returns the stage's metrics.
pub fn selfplay_stage<G: Encode>(
    run: &RunDir,
    device: &Device,
    observer: &mut Observer,
) -> Result<serde_json::Value> {
    let config = run.config();
    let mut state = run.state()?;
    if state.next != Stage::SelfPlay {
        return Err(TrainError(format!(
            "selfplay_stage: generation {} is at {:?}",
            state.generation, state.next
        )));
    }
    let generation = state.generation;
    let path = run.selfplay_path(generation);
    let (records, fields) = if path.exists() {
        // Written before a crash that came before the state was updated: keep it.
        (GenerationRecords::load::<G>(&path)?, json!({"resumed": 1}))
    } else {
        let bootstrap = config.selfplay.bootstraps(generation);
        let net = if bootstrap {
            None
        } else {
            Some(Net::load::<G>(&run.model_path(state.best), device)?)
        };
        let games = config.selfplay.games_per_generation;
        let bar = observer.bar(games as u64, "self-play games");
        let (games, stats) = play_games::<G>(
            net.as_ref(),
            config,
            games,
            mix(config.seed, generation, 0x5E1F),
            &|| bar.inc(1),
        );
        bar.finish_and_clear();
        let records = GenerationRecords {
            variant: G::NAME.to_string(),
            generation,
            model: state.best,
            games,
        };
        records.save(&path)?;
        let fields = stats.fields(config, bootstrap);
        (records, fields)
    };
    state.total_games += records.games.len() as u64;
    state.total_positions += records.positions() as u64;
    state.total_full_positions += records.full_positions() as u64;
    state.next = Stage::Train;
    observer.record(run, generation, "selfplay", fields.clone())?;
    run.write_state(&state)?;
    tracing::info!("generation {generation}: self-play: {fields}");
    Ok(fields)
}

/// How long and how far [`run_loop`] goes.
#[derive(Clone, Debug, Default)]
pub struct LoopOptions {
    /// Stop at the first stage boundary after this much time (`None`: no limit).
    pub time_limit: Option<Duration>,
    /// Stop after this many stages (`None`: no limit): tests simulate a stop with it.
    pub max_stages: Option<usize>,
    /// The command line, recorded in `run.json`.
    pub command: Vec<String>,
    /// Whether to draw progress bars.
    pub progress: bool,
    /// A model whose weights a new run starts from instead of a random net (`oxo train
    /// --init`); unused when the run directory already has a run.
    pub init: Option<PathBuf>,
}

/// Runs self-play, training and gating in turn until `config.generations` generations are
/// done or a limit of `options` is reached, resuming wherever the run directory stands.
/// Returns the final state.
pub fn run_loop<G: Encode + Evaluate>(
    run: &RunDir,
    device: &Device,
    options: &LoopOptions,
) -> Result<State> {
    let start = Instant::now();
    let mut state = init_run::<G>(
        run,
        device,
        options.command.clone(),
        options.init.as_deref(),
    )?;
    let mut observer = Observer::new(options.progress);
    let generations = run.config().generations;
    let mut stages = 0;
    loop {
        if generations > 0 && state.generation > generations {
            break;
        }
        if options
            .time_limit
            .is_some_and(|limit| start.elapsed() >= limit)
            || options.max_stages.is_some_and(|max| stages >= max)
        {
            break;
        }
        match state.next {
            Stage::SelfPlay => {
                selfplay_stage::<G>(run, device, &mut observer)?;
            }
            Stage::Train => {
                train_stage::<G>(run, device, &mut observer)?;
            }
            Stage::Gate => {
                let decision = gate_stage::<G>(run, device, &mut observer)?;
                if options.progress {
                    println!(
                        "generation {}: gate {} {}-{}-{} ({}), best is gen {}",
                        decision.candidate,
                        decision.reason,
                        decision.wins,
                        decision.draws,
                        decision.losses,
                        if decision.promoted {
                            "promoted"
                        } else {
                            "rejected"
                        },
                        if decision.promoted {
                            decision.candidate
                        } else {
                            decision.best
                        }
                    );
                }
            }
        }
        stages += 1;
        state = run.state()?;
    }
    Ok(state)
}

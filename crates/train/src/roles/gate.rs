//! The gate: one per run. It decides on each candidate in turn against the best net and
//! publishes the decision, and a promotion where the candidate won.

use oxo_agents::Evaluate;
use oxo_nn::{Device, Encode};

use super::{Progress, StoreRun, best_key, gate_key, model_key};
use crate::error::{Result, TrainError};
use crate::gate::{judge, rate_if_due};

/// The gate's state: whether it has made sure of the promotion of the last decision it
/// found and of the best net's copy (everything else it reads from the store).
#[derive(Default)]
pub struct Gate {
    settled: bool,
}

impl Gate {
    /// A gate.
    pub fn new() -> Self {
        Gate::default()
    }

    /// Decides on the next candidate once the trainer has published it; idle until then,
    /// finished once the run has all its generations.
    pub fn step<G: Encode + Evaluate>(
        &mut self,
        run: &StoreRun,
        device: &Device,
        observer: &crate::observe::Observer,
    ) -> Result<Progress> {
        let config = &run.config;
        let decided = run.latest("gate/", ".json")?.unwrap_or(0);
        if !self.settled {
            if decided > 0 {
                restore_promotion(run, decided)?;
            }
            let best = run.best()?;
            if let Some(best) = best {
                refresh_best_copy(run, best)?;
            }
            self.settled = best.is_some();
        }
        let candidate = decided + 1;
        if config.generations > 0 && candidate > config.generations {
            return Ok(Progress::Finished);
        }
        let model = model_key(candidate);
        if !run.store.exists(&model)? {
            return Ok(Progress::Idle);
        }
        let start = std::time::Instant::now();
        let best = run.best()?.ok_or_else(|| {
            TrainError(format!(
                "{}: no best net, though candidate {candidate} exists",
                run.store.location()
            ))
        })?;
        let candidate_path = run.fetch_file(&model)?;
        let best_path = run.fetch_file(&model_key(best))?;
        let decision = judge::<G>(
            config,
            device,
            (candidate, &candidate_path),
            (best, &best_path),
            observer,
        )?;
        let mut fields = serde_json::to_value(&decision).expect("decisions serialise");
        // The promotion before the decision: the best net is what the decisions say, so a
        // decision is never without the promotion it makes.
        if decision.promoted {
            promote(run, candidate, best, &decision.reason)?;
        }
        if !run.store.create_json(&gate_key(candidate), &fields)? {
            tracing::warn!(
                "{}: decided by another gate meanwhile; its decision stands",
                run.store.describe(&gate_key(candidate))
            );
        }
        let now_best = run.best()?.unwrap_or(best);
        refresh_best_copy(run, now_best)?;
        rate_if_due::<G>(
            config,
            candidate,
            (now_best, &run.fetch_file(&model_key(now_best))?),
            &mut fields,
        )?;
        fields["seconds"] = start.elapsed().as_secs_f64().into();
        run.record("gate", &format!("gen-{candidate:05}"), fields)?;
        tracing::info!("generation {candidate}: {}", decision.summary());
        Ok(Progress::Worked)
    }
}

/// Makes a directory run's `models/best.bpk` (the copy players and `oxo export` read) the
/// net of generation `best` where it is missing or differs (a promotion, a deleted or
/// damaged copy, a kill between a promotion and its copy); an object store has no copy.
fn refresh_best_copy(run: &StoreRun, best: u64) -> Result<()> {
    let Some(dir) = run.store.local_dir() else {
        return Ok(());
    };
    let model = run.fetch(&model_key(best))?;
    let copy = dir.join(BEST_COPY);
    if std::fs::read(&copy).ok().as_deref() != Some(&model[..]) {
        crate::error::write_atomic(&copy, &model)?;
    }
    Ok(())
}

/// A directory run's copy of its best net, for players.
pub const BEST_COPY: &str = "models/best.bpk";

/// Writes the promotion of `generation`, which beat `previous`, the best net before it.
fn promote(run: &StoreRun, generation: u64, previous: u64, reason: &str) -> Result<()> {
    run.store.create_json(
        &best_key(generation),
        &serde_json::json!({"generation": generation, "previous": previous, "reason": reason}),
    )?;
    Ok(())
}

/// Writes again the promotion the gate's decision on `generation` made, if it is missing (a
/// run from before promotions were written first, or a deleted file), saying so: the
/// decision is the record, the promotion follows from it.
fn restore_promotion(run: &StoreRun, generation: u64) -> Result<()> {
    let key = gate_key(generation);
    let decision = run.fetch_json(&key)?;
    if decision["promoted"].as_bool() != Some(true) || run.store.exists(&best_key(generation))? {
        return Ok(());
    }
    tracing::warn!(
        "{} is missing though {} promoted it: written again from the decision",
        run.store.describe(&best_key(generation)),
        run.store.describe(&key)
    );
    let previous = decision["best"].as_u64().unwrap_or_default();
    promote(
        run,
        generation,
        previous,
        decision["reason"].as_str().unwrap_or("?"),
    )
}

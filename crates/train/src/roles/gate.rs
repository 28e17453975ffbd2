//! The gate: one per run. It decides on each candidate in turn against the best net and
//! publishes the decision, and a promotion where the candidate won.

use oxo_agents::Evaluate;
use oxo_nn::{Device, Encode};

use super::{Progress, StoreRun, best_key, gate_key, model_key};
use crate::gate::{judge, rate_if_due};
use crate::rundir::{Result, TrainError};

/// The gate's state: the last decision whose promotion it has made sure of (everything
/// else it reads from the store).
#[derive(Default)]
pub struct Gate {
    settled: u64,
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
        if decided > self.settled {
            promote_if_won(run, decided)?;
            self.settled = decided;
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
        if !run.store.create_json(&gate_key(candidate), &fields)? {
            tracing::warn!(
                "{}: decided by another gate meanwhile; its decision stands",
                run.store.describe(&gate_key(candidate))
            );
        }
        promote_if_won(run, candidate)?;
        self.settled = candidate;
        let now_best = run.best()?.unwrap_or(best);
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

/// Writes the promotion of `generation` if the gate's decision on it (in the store) was to
/// promote: a gate killed between its decision and the promotion leaves it to the next.
fn promote_if_won(run: &StoreRun, generation: u64) -> Result<()> {
    let key = gate_key(generation);
    let decision = run
        .store
        .get_json(&key)?
        .ok_or_else(|| TrainError(format!("{}: missing", run.store.describe(&key))))?;
    let promoted = decision
        .get("promoted")
        .and_then(|p| p.as_bool())
        .ok_or_else(|| TrainError(format!("{}: no promoted field", run.store.describe(&key))))?;
    if promoted {
        run.store.create_json(
            &best_key(generation),
            &serde_json::json!({"generation": generation, "reason": decision["reason"]}),
        )?;
    }
    Ok(())
}

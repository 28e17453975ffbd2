//! Where a run of `oxo train` on one machine stands, read from its directory alone (nothing
//! is written): the line `oxo train` prints when it stops, who started the run and how, its
//! training cost so far and its last in-loop rating. `oxo status` prints it for such a run;
//! a run over a store has [`crate::roles::status`].

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::export::provenance;
use crate::rundir::{Result, State, TrainError};

/// The file that marks a single-machine run directory and says where it stands.
const STATE_FILE: &str = "state.json";

/// Whether `root` is the directory of a run of `oxo train` on one machine (it has a
/// `state.json`; a store run keeps its progress in other objects).
pub fn is_local_run(root: &Path) -> bool {
    root.join(STATE_FILE).is_file()
}

/// One line: the generation and stage next, the best net and the games played.
pub fn summary(root: &Path, state: &State) -> String {
    format!(
        "{}: generation {} next {:?}; best model gen {} ({}); {} games, {} positions",
        root.display(),
        state.generation,
        state.next,
        state.best,
        root.join("models/best.bpk").display(),
        state.total_games,
        state.total_positions
    )
}

/// The report of `oxo status` for the run at `root`: [`summary`], then how the run was
/// started, what its stages have cost and its last rating. A `state.json` that does not
/// read is refused by name.
pub fn report(root: &Path) -> Result<String> {
    let state_path = root.join(STATE_FILE);
    let text = fs::read_to_string(&state_path)
        .map_err(|e| TrainError(format!("{}: {e}", state_path.display())))?;
    let state: State = serde_json::from_str(&text).map_err(|e| {
        TrainError(format!(
            "{}: not a run's state ({e}); restore it from a backup",
            state_path.display()
        ))
    })?;
    let provenance = provenance(&root.join("models/best.bpk"));
    let mut out = summary(root, &state);
    out.push('\n');
    out.push_str(&started_line(&provenance["run_info"]));
    out.push_str(&cost_line(&state, &provenance));
    out.push_str(&rating_line(&provenance["last_rating"]));
    Ok(out)
}

/// How the run was started, from its `run.json`.
fn started_line(info: &Value) -> String {
    if info.is_null() {
        return "started: no run.json\n".into();
    }
    let field = |name: &str| info[name].as_str().unwrap_or("?").to_string();
    format!(
        "variant {}, seed {}, started at unix {} by oxo {} (commit {}), engine {}\n",
        field("variant"),
        info["seed"],
        info["started_unix"],
        field("oxo_version"),
        field("git_commit"),
        field("engine")
    )
}

/// Training steps and the stages' seconds, in all and with the run it was warm-started from.
fn cost_line(state: &State, provenance: &Value) -> String {
    let seconds = provenance["stage_seconds"].as_f64().unwrap_or(0.0);
    let total = provenance["total_stage_seconds"]
        .as_f64()
        .unwrap_or(seconds);
    let cores = provenance["run_info"]["cores"].as_u64();
    let cpu_hours = |s: f64| {
        cores.map_or(String::new(), |c| {
            format!(", {:.2} CPU-hours on {c} cores", s * c as f64 / 3600.0)
        })
    };
    let mut line = format!(
        "cost: {} training steps, {seconds:.0} s of stages{}",
        state.train_steps,
        cpu_hours(seconds)
    );
    if total > seconds {
        line.push_str(&format!(
            "; {total:.0} s with the runs it was warm-started from"
        ));
    }
    line.push('\n');
    line
}

/// The last in-loop rating, if the run has one.
fn rating_line(rating: &Value) -> String {
    match rating["elo"].as_f64() {
        Some(elo) => format!(
            "last rating (gen {}): Elo {elo:.0} ({:.0} .. {:.0}) against {}\n",
            rating["generation"],
            rating["elo_low"].as_f64().unwrap_or(f64::NAN),
            rating["elo_high"].as_f64().unwrap_or(f64::NAN),
            rating["against"]
                .as_str()
                .unwrap_or("the run's gate.rate_agents")
        ),
        None => "last rating: none yet (gate.rate_every)\n".into(),
    }
}

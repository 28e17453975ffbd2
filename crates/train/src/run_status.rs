//! Where a run of `oxo train` on one machine stands, read from its directory alone (nothing
//! is written): the line `oxo train` prints when it stops, who started the run and how, its
//! training cost so far and its last in-loop rating. `oxo status` prints it for such a run;
//! a run over a store has [`crate::roles::status`].

use std::path::Path;

use serde_json::Value;

use crate::export::provenance;
use crate::rundir::{Result, RunDir, STATE_FILE, State};

/// Whether `root` is the directory of a run of `oxo train` on one machine (it has a
/// `state.json`; a store run keeps its progress in other objects).
pub fn is_local_run(root: &Path) -> bool {
    root.join(STATE_FILE).is_file()
}

/// One line: the generation and stage next, the best net and the games played.
pub fn summary(run: &RunDir, state: &State) -> String {
    format!(
        "{}: generation {} next {:?}; best model gen {} ({}); {} games, {} positions",
        run.root().display(),
        state.generation,
        state.next,
        state.best,
        run.best_path().display(),
        state.total_games,
        state.total_positions
    )
}

/// The report of `oxo status` for the run at `root`: [`summary`], then how the run was
/// started, what its stages have cost and its last rating. A `config.toml` or `state.json`
/// that does not read is refused by name.
pub fn report(root: &Path) -> Result<String> {
    let run = RunDir::open_existing(root)?;
    let state = run.state()?;
    let provenance = provenance(&run.best_path());
    let mut out = summary(&run, &state);
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
    let mut line = format!(
        "cost: {} training steps, {seconds:.0} s of stages",
        state.train_steps
    );
    if let Some(cores) = provenance["run_info"]["cores"].as_u64() {
        let cpu_hours = seconds * cores as f64 / 3600.0;
        line.push_str(&format!(", {cpu_hours:.2} CPU-hours on {cores} cores"));
    }
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

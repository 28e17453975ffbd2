//! `oxo status`: where a store run stands, from the store alone.

use std::collections::BTreeMap;

use super::{StoreRun, gate_key};
use crate::rundir::Result;

/// One line: the newest candidate, the best net and the number of game batches.
pub fn summary(run: &StoreRun) -> Result<String> {
    let candidate = run.latest("models/", ".bpk")?.unwrap_or(0);
    let best = run.best()?.unwrap_or(0);
    let batches = run.store.list("games/")?.len();
    Ok(format!(
        "{}: candidate gen {candidate}, best gen {best}, {batches} game batches{}",
        run.store.location(),
        if run.finished()? { " (finished)" } else { "" }
    ))
}

/// A self-play writer's totals.
#[derive(Default)]
struct WorkerTotals {
    batches: u64,
    games: u64,
    seconds: f64,
    first: u64,
    last: u64,
}

/// The report of `oxo status`: the run's generation and best net, the last gate decision,
/// and each self-play worker's games and games per hour.
pub fn report(run: &StoreRun) -> Result<String> {
    let mut out = summary(run)?;
    out.push('\n');
    out.push_str(&format!(
        "variant {}, {} generations wanted (0: no limit)\n",
        run.config.variant, run.config.generations
    ));
    if let Some(decided) = run.latest("gate/", ".json")? {
        let decision = run.store.get_json(&gate_key(decided))?.unwrap_or_default();
        out.push_str(&format!(
            "last gate: candidate {decided} against gen {}: {}-{}-{} ({}), {}\n",
            decision["best"],
            decision["wins"],
            decision["draws"],
            decision["losses"],
            decision["reason"].as_str().unwrap_or("?"),
            if decision["promoted"].as_bool() == Some(true) {
                "promoted"
            } else {
                "kept the best"
            }
        ));
    }
    let mut workers: BTreeMap<String, WorkerTotals> = BTreeMap::new();
    for object in run.store.list("metrics/selfplay/")? {
        let Some(record) = run.store.get_json(&object.key)? else {
            continue;
        };
        let writer = record["writer"].as_str().unwrap_or("?").to_string();
        let totals = workers.entry(writer).or_default();
        let time = record["time"].as_u64().unwrap_or(0);
        totals.batches += 1;
        totals.games += record["games"].as_u64().unwrap_or(0);
        totals.seconds += record["seconds"].as_f64().unwrap_or(0.0);
        totals.first = if totals.first == 0 {
            time
        } else {
            totals.first.min(time)
        };
        totals.last = totals.last.max(time);
    }
    out.push_str("self-play workers (games per hour of their play time):\n");
    for (writer, t) in &workers {
        out.push_str(&format!(
            "  {writer}: {} batches, {} games, {:.0} games/h, last batch at unix {}\n",
            t.batches,
            t.games,
            t.games as f64 * 3600.0 / t.seconds.max(1e-9),
            t.last
        ));
    }
    let games: u64 = workers.values().map(|t| t.games).sum();
    let span = workers
        .values()
        .map(|t| t.last)
        .max()
        .unwrap_or(0)
        .saturating_sub(
            workers
                .values()
                .map(|t| t.first)
                .filter(|&f| f > 0)
                .min()
                .unwrap_or(0),
        );
    out.push_str(&format!(
        "all workers: {games} games, {:.0} games/h over the {span} s between the first batch and the last\n",
        if span > 0 { games as f64 * 3600.0 / span as f64 } else { 0.0 }
    ));
    Ok(out)
}

//! `oxo status`: where a store run stands, from the store alone.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{StoreRun, gate_key};
use crate::error::Result;

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

/// A self-play worker's totals over its batches so far: each batch's metrics record carries
/// them (`totals`), so `oxo status` reads one record per worker, however long the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerTotals {
    /// Batches uploaded.
    pub batches: u64,
    /// Games in them.
    pub games: u64,
    /// Seconds of play.
    pub seconds: f64,
    /// Unix time of the first batch's record.
    pub first: u64,
    /// Unix time of the last.
    pub last: u64,
}

impl WorkerTotals {
    /// The totals after one more batch of `games` games played in `seconds`, recorded at
    /// unix time `time`.
    pub fn add(&mut self, games: u64, seconds: f64, time: u64) {
        if self.batches == 0 {
            self.first = time;
        }
        self.batches += 1;
        self.games += games;
        self.seconds += seconds;
        self.last = time;
    }
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
    let trained = newest_trainer_record(run)?;
    out.push_str(&budget_line(run, trained.as_ref())?);
    out.push_str(&cost_and_rating_line(run, trained.as_ref())?);
    let workers = worker_totals(run)?;
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

/// The trainer's newest metrics record and its generation, if it has made one.
fn newest_trainer_record(run: &StoreRun) -> Result<Option<(u64, serde_json::Value)>> {
    let Some(generation) = run.latest("metrics/trainer/", ".json")? else {
        return Ok(None);
    };
    let record = run.store.get_json(&super::trainer_record_key(generation))?;
    Ok(Some((generation, record.unwrap_or_default())))
}

/// The run's wall-clock time so far (from `trained`, the trainer's newest record), where its
/// best net's copy for players is (a directory run), and the newest rating of the best net
/// against the config's handcrafted agents (the gate's newest record with one).
fn cost_and_rating_line(
    run: &StoreRun,
    trained: Option<&(u64, serde_json::Value)>,
) -> Result<String> {
    let mut out = String::new();
    if let Some((generation, record)) = trained
        && let Some(seconds) = record["run_seconds"].as_f64()
    {
        out.push_str(&format!(
            "run time: {:.2} h wall-clock to generation {generation}\n",
            seconds / 3600.0
        ));
    }
    if let Some(dir) = run.store.local_dir() {
        out.push_str(&format!(
            "best net for players: {}\n",
            dir.join(super::gate::BEST_COPY).display()
        ));
    }
    let mut records = run.store.list("metrics/gate/")?;
    records.sort_by(|a, b| b.key.cmp(&a.key));
    for object in records {
        let record = run.store.get_json(&object.key)?.unwrap_or_default();
        if let Some(elo) = record["elo"].as_f64() {
            out.push_str(&format!(
                "last rating: after candidate {}: Elo {elo:.0} [{:.0}, {:.0}] against {}\n",
                record["candidate"],
                record["elo_low"].as_f64().unwrap_or(f64::NAN),
                record["elo_high"].as_f64().unwrap_or(f64::NAN),
                run.config.gate.rate_agents.join(", ")
            ));
            break;
        }
    }
    Ok(out)
}

/// The training budget and how far self-play may run ahead, from the config, and the
/// threads the trainer last trained on (`trained`, its newest record) and the newest
/// self-play batch was played on (its record): each role's share of the cores.
fn budget_line(run: &StoreRun, trained: Option<&(u64, serde_json::Value)>) -> Result<String> {
    let (s, t) = (&run.config.selfplay, &run.config.train);
    let samples =
        (t.steps_per_generation * t.batch_size) as f64 / s.games_per_generation.max(1) as f64;
    let threads = trained
        .and_then(|(_, record)| record["threads"].as_u64())
        .map_or(String::new(), |n| format!("; the trainer's threads: {n}"));
    let newest_play = run
        .store
        .list("metrics/selfplay/")?
        .into_iter()
        .max_by_key(|o| o.modified_unix);
    let play_threads = match newest_play {
        Some(object) => run
            .store
            .get_json(&object.key)?
            .and_then(|record| record["workers"].as_u64())
            .map_or(String::new(), |n| {
                format!(", the newest self-play batch's: {n}")
            }),
        None => String::new(),
    };
    Ok(format!(
        "training budget: {} steps of {} positions per {} new games ({samples:.0} samples per \
         new game); self-play waits {} generations ahead{threads}{play_threads}\n",
        t.steps_per_generation,
        t.batch_size,
        s.games_per_generation,
        super::MAX_GENERATIONS_AHEAD
    ))
}

/// Each self-play worker's totals, by writer: from its newest record (`metrics/selfplay/
/// WRITER-SEQ.json`), which carries them, or, for a worker whose records are from before
/// they did, summed over all of its records.
fn worker_totals(run: &StoreRun) -> Result<BTreeMap<String, WorkerTotals>> {
    let mut keys: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for object in run.store.list("metrics/selfplay/")? {
        let name = object.key.rsplit('/').next().unwrap_or_default();
        let writer = name.rsplit_once('-').map_or(name, |(writer, _)| writer);
        keys.entry(writer.to_string()).or_default().push(object.key);
    }
    let mut workers = BTreeMap::new();
    for (writer, mut keys) in keys {
        keys.sort();
        let newest = run.store.get_json(keys.last().expect("one key at least"))?;
        let carried = newest.and_then(|r| serde_json::from_value(r["totals"].clone()).ok());
        let totals = match carried {
            Some(totals) => totals,
            None => {
                let mut totals = WorkerTotals::default();
                for key in &keys {
                    let Some(record) = run.store.get_json(key)? else {
                        continue;
                    };
                    totals.add(
                        record["games"].as_u64().unwrap_or(0),
                        record["seconds"].as_f64().unwrap_or(0.0),
                        record["time"].as_u64().unwrap_or(0),
                    );
                }
                totals
            }
        };
        workers.insert(writer, totals);
    }
    Ok(workers)
}

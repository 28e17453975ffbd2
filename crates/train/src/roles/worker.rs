//! The self-play worker: stateless, any number of them. Each batch it plays with the
//! current best net (fetched once into the local cache) and uploads as one new object.

use std::marker::PhantomData;

use std::time::Instant;

use oxo_agents::Evaluate;
use oxo_engine::EngineModel;
use oxo_nn::{Device, Encode, Net};

use super::status::WorkerTotals;
use super::{Progress, StoreRun, games_key, model_key};
use crate::error::{Result, TrainError};
use crate::records::GenerationRecords;
use crate::selfplay::{mix, play_games_on};

/// A self-play worker's state: its batches so far.
pub struct Worker<G> {
    batches: u64,
    /// What its records say it has done, for `oxo status`.
    totals: WorkerTotals,
    variant: PhantomData<G>,
}

impl<G: Encode + Evaluate> Default for Worker<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Encode + Evaluate> Worker<G> {
    /// A worker that has played nothing yet.
    pub fn new() -> Self {
        Worker {
            batches: 0,
            totals: WorkerTotals::default(),
            variant: PhantomData,
        }
    }

    /// Plays batches of `selfplay.parallel_games` games with the best net and uploads each,
    /// until a newer net is promoted, the run is finished, `max_batches` are played, the
    /// `deadline` passes or self-play is as far ahead of training as it may get
    /// ([`StoreRun::self_play_ahead`]); idle while the run has no net yet or self-play is
    /// ahead, finished when the run is.
    pub fn step(
        &mut self,
        run: &StoreRun,
        device: &Device,
        max_batches: u64,
        deadline: Option<Instant>,
    ) -> Result<Progress> {
        if run.finished()? {
            return Ok(Progress::Finished);
        }
        let Some(best) = run.best()? else {
            return Ok(Progress::Idle);
        };
        let config = &run.config;
        let bootstrap = config.selfplay.bootstraps(best + 1);
        let net = if bootstrap {
            None
        } else {
            let path = run.fetch_file(&model_key(best))?;
            Some(Net::load::<G>(&path, device).map_err(|e| {
                TrainError(format!(
                    "{} (fetched from {}): {e}",
                    path.display(),
                    run.store.describe(&model_key(best))
                ))
            })?)
        };
        // Made ready for its engine (an ONNX export) once for all the batches it plays.
        let model = net.as_ref().map(|net| EngineModel::new(net, config.engine));
        for played in 1..=max_batches {
            if run.self_play_ahead()? {
                return Ok(if played == 1 {
                    Progress::Idle
                } else {
                    Progress::Worked
                });
            }
            self.play_batch(run, model.as_ref(), best)?;
            if played == max_batches
                || deadline.is_some_and(|d| Instant::now() >= d)
                || run.finished()?
                || run.best()? != Some(best)
            {
                break;
            }
        }
        Ok(Progress::Worked)
    }

    /// Plays one batch with `model` (`None`: a bootstrap batch) of net `best` and uploads it
    /// with its metrics.
    fn play_batch(&mut self, run: &StoreRun, model: Option<&EngineModel>, best: u64) -> Result<()> {
        let config = &run.config;
        let games = config
            .selfplay
            .parallel_games
            .clamp(1, config.selfplay.games_per_generation.max(1));
        let seed = mix(
            config.seed,
            u64::from(crc32fast::hash(run.id.as_bytes())),
            self.batches,
        );
        let (games, stats) = play_games_on::<G>(model, config, games, seed, &|| {})?;
        let records = GenerationRecords {
            variant: G::NAME.to_string(),
            generation: best + 1,
            model: best,
            games,
        };
        let key = games_key(best, &run.id, self.batches);
        if !run.store.create_or_same(&key, records.to_bytes())? {
            return Err(TrainError(format!(
                "{}: already exists; worker names are unique, so another process uses this \
                 one's name",
                run.store.describe(&key)
            )));
        }
        let mut fields = stats.fields(config, model.is_none());
        fields["model"] = best.into();
        fields["object"] = key.clone().into();
        let games = records.games.len() as u64;
        self.totals
            .add(games, stats.seconds, crate::run_info::unix_now());
        fields["totals"] = serde_json::to_value(&self.totals).expect("totals serialise");
        run.record(
            "selfplay",
            &format!("{}-{:06}", run.id, self.batches),
            fields,
        )?;
        tracing::info!("self-play: {key} ({} games)", records.games.len());
        self.batches += 1;
        Ok(())
    }
}

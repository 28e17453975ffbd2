//! The gate's judgement: the candidate plays the best net in paired games (both colours from the
//! same openings, deterministic search on both sides), and is promoted by an SPRT with early
//! stop, or by its score after `max_games`. Every `rate_every` generations the best net is
//! rated against handcrafted agents in an arena tournament.

use oxo_agents::{AgentSpec, Evaluate};
use oxo_arena::ArenaConfig;
use oxo_arena::runner::{Mover, Start, run_games};
use oxo_engine::EngineModel;
use oxo_nn::{Device, Encode, Net};
use oxo_rules::{Action, DrawValue, Game, Outcome, Player};
use oxo_search::{BatchedSearch, Evaluator};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::Serialize;

use crate::config::{GateMode, RunConfig};
use crate::error::{Result, TrainError};
use crate::observe::Observer;
use crate::play_search::PlaySearch;
use crate::selfplay::mix;
use crate::workers;
use oxo_play::NetValue;
use oxo_player::net_evaluator;

/// Plays `nets[0]` against `nets[1]` from each opening twice, the first as X then as O, both
/// searching as `search` says and valuing positions by `value` (playouts drawn from `seed`),
/// each on its own one-thread engine, all games at once through [`run_games`]; returns the
/// first net's score (1, 0.5, 0) in each game, in order.
pub fn play_pairs<G: Encode>(
    nets: [&EngineModel; 2],
    search: &PlaySearch,
    value: NetValue,
    seed: u64,
    openings: &[G],
) -> Vec<f64> {
    let n = openings.len() * 2;
    let seeds: Vec<u64> = (0..n as u64).collect();
    let config = search.config(search.max_simulations());
    let mut rngs = [
        SmallRng::seed_from_u64(mix(seed, 0, 6)),
        SmallRng::seed_from_u64(mix(seed, 1, 6)),
    ];
    let [rng_a, rng_b] = &mut rngs;
    let [mut engine_a, mut engine_b] = nets.map(|net| net.open(1));
    let mut a = SearchMover {
        search: BatchedSearch::<G>::new(config, &seeds),
        evaluator: net_evaluator(&value, DrawValue::NEUTRAL, Some(&mut engine_a), rng_a),
    };
    let mut b = SearchMover {
        search: BatchedSearch::<G>::new(config, &seeds),
        evaluator: net_evaluator(&value, DrawValue::NEUTRAL, Some(&mut engine_b), rng_b),
    };
    // Game 2k: the first net is X from opening k; game 2k + 1: it is O.
    let mut games = (0..n).map(|i| Start {
        game: openings[i / 2],
        opening: Vec::new(),
        movers: if i.is_multiple_of(2) { [0, 1] } else { [1, 0] },
    });
    let mut scores = vec![0.0; n];
    run_games(
        &mut [&mut a, &mut b],
        n,
        &mut || games.next(),
        &mut |game| {
            // The first net is mover 0.
            let first = if game.start.movers[0] == 0 {
                Player::X
            } else {
                Player::O
            };
            scores[game.index] = match game.end.outcome() {
                Some(Outcome::Win(p)) if p == first => 1.0,
                Some(Outcome::Draw) => 0.5,
                _ => 0.0,
            };
        },
    );
    scores
}

/// A net's batched search as a [`Mover`]: one search over every game where it is to move,
/// its positions evaluated together.
struct SearchMover<G: Game, E> {
    search: BatchedSearch<G>,
    evaluator: E,
}

impl<G: Game, E: Evaluator<G>> Mover<G> for SearchMover<G, E> {
    fn choose(&mut self, to_move: &[(usize, G)], moves: &mut Vec<Action>) {
        for slot in 0..self.search.num_games() {
            self.search.clear(slot);
        }
        for &(slot, game) in to_move {
            self.search.set_root(slot, game);
        }
        self.search.run(&mut self.evaluator);
        moves.extend(
            to_move
                .iter()
                .map(|&(slot, _)| self.search.result(slot).expect("searched").action),
        );
    }
}

/// The SPRT log-likelihood ratio of `scores` (1, 0.5, 0 per game) for Elo `elo1` against
/// `elo0`, by the normal approximation of the per-game score (as fishtest's simplified
/// test): `n (s1 - s0) (2 mean - s0 - s1) / (2 var)`.
///
/// The variance is estimated with one pseudo-win, -draw and -loss added, so that a few
/// identical results cannot claim near-zero variance: without them two straight wins would
/// "prove" a 35-Elo gain; with them it takes twelve (see the test below; docs/experiments.md,
/// section 'The search and the gate').
pub fn sprt_llr(scores: &[f64], elo0: f64, elo1: f64) -> f64 {
    let n = scores.len() as f64;
    if n == 0.0 {
        return 0.0;
    }
    let expected = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
    let (s0, s1) = (expected(elo0), expected(elo1));
    let mean = scores.iter().sum::<f64>() / n;
    // Pseudo-results 1, 0.5 and 0: sum 1.5, sum of squares 1.25.
    let prior_mean = (mean * n + 1.5) / (n + 3.0);
    let prior_square = (scores.iter().map(|s| s * s).sum::<f64>() + 1.25) / (n + 3.0);
    let var = prior_square - prior_mean * prior_mean;
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// How a gating match ended.
#[derive(Clone, Debug, Serialize)]
pub struct GateDecision {
    /// The generation of the candidate.
    pub candidate: u64,
    /// The generation of the best net it played.
    pub best: u64,
    /// Games played.
    pub games: usize,
    /// The candidate's wins, draws and losses.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses.
    pub losses: usize,
    /// The candidate's score (wins plus half draws, over games).
    pub score: f64,
    /// The final SPRT log-likelihood ratio.
    pub llr: f64,
    /// Why it was decided: `sprt-accept`, `sprt-reject`, `threshold`, `always`, `bootstrap`
    /// (a bootstrap generation's candidate, promoted without games).
    pub reason: String,
    /// Whether the candidate became the best net.
    pub promoted: bool,
}

impl GateDecision {
    /// The decision in a log line: how, the games, and what became of the candidate.
    pub fn summary(&self) -> String {
        format!(
            "gate {} ({}-{}-{}, llr {:.2}): {}",
            self.reason,
            self.wins,
            self.draws,
            self.losses,
            self.llr,
            if self.promoted {
                "promoted"
            } else {
                "kept the best"
            }
        )
    }
}

/// Decides whether `candidate` replaces `best` under `config`'s gate, playing on
/// `selfplay.workers` threads.
pub fn gate_match<G: Encode>(
    config: &RunConfig,
    candidate: &Net,
    best: &Net,
    seed: u64,
    on_games: &(dyn Fn(u64) + Sync),
) -> (Vec<f64>, f64, String, bool) {
    let g = &config.gate;
    if g.mode == GateMode::Always {
        return (Vec::new(), 0.0, "always".into(), true);
    }
    let pairs = g.max_games.div_ceil(2);
    let workers = workers::resolve(config.selfplay.workers).min(pairs);
    // Each round plays `chunk` pairs spread over the workers, then checks the SPRT.
    let chunk = (config.selfplay.parallel_games / 2).clamp(workers, pairs);
    let candidate = EngineModel::new(candidate, config.engine);
    let best = EngineModel::new(best, config.engine);
    let lower = (g.beta / (1.0 - g.alpha)).ln();
    let upper = ((1.0 - g.beta) / g.alpha).ln();
    let mut scores = Vec::new();
    let mut done = 0;
    let mut llr = 0.0;
    while done < pairs {
        let count = chunk.min(pairs - done);
        let openings: Vec<G> = (done..done + count)
            .map(|k| oxo_arena::opening::<G>(seed, k, g.opening_plies).0)
            .collect();
        let parts = workers::split(count, workers);
        let new: Vec<f64> = workers::run_on_workers(workers, |w| {
            play_pairs(
                [&candidate, &best],
                &config.gate_search(),
                config.net_value(),
                mix(seed, (done + w) as u64, 7),
                &openings[parts[w].clone()],
            )
        })
        .concat();
        on_games(new.len() as u64);
        done += count;
        for pair in new.chunks(2) {
            scores.extend_from_slice(pair);
            llr = sprt_llr(&scores, g.elo0, g.elo1);
            if g.mode == GateMode::Sprt {
                if llr >= upper {
                    return (scores, llr, "sprt-accept".into(), true);
                }
                if llr <= lower {
                    return (scores, llr, "sprt-reject".into(), false);
                }
            }
        }
    }
    let score = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
    (scores, llr, "threshold".into(), score >= g.threshold)
}

/// Builds each agent `config` plays against (`gate.rate_agents`, `selfplay.opponents`), so
/// that one that cannot be built (a `net:` agent whose model is missing or of another
/// variant, a bad parameter) is refused, by name, when a run starts rather than at its first
/// rating or self-play batch. [`RunConfig::validate`] builds the handcrafted ones but leaves
/// `net:` agents to this.
pub fn check_agents<G: Encode + Evaluate>(config: &RunConfig) -> Result<()> {
    config.check_agents_with(|spec| {
        oxo_player::build_any_agent::<G>(spec)
            .map(drop)
            .map_err(|e| e.to_string())
    })?;
    Ok(())
}

/// Rates the net of generation `generation` (the model file at `path`) against `config`'s
/// rating agents, the net searching and valuing positions as the gate does
/// ([`RunConfig::gate_search`], [`RunConfig::net_value`]); returns its Elo and 95% interval,
/// and the report's table.
pub fn rate_model<G: Encode + Evaluate>(
    config: &RunConfig,
    generation: u64,
    path: &std::path::Path,
    seed: u64,
) -> Result<(oxo_arena::elo::Rating, String)> {
    let mut specs: Vec<AgentSpec> = config
        .gate
        .rate_agents
        .iter()
        .map(|s| {
            s.parse()
                .map_err(|e: oxo_agents::SpecError| TrainError(e.to_string()))
        })
        .collect::<Result<_>>()?;
    // The run's own net, by a name no rating agent has: built here, not from a spec.
    let own: AgentSpec = format!("net:gen={generation}")
        .parse()
        .map_err(|e: oxo_agents::SpecError| TrainError(e.to_string()))?;
    specs.push(own.clone());
    let net = Net::load::<G>(path, &Device::flex())?;
    let model = EngineModel::new(&net, config.engine);
    let plays_with = format!("model {} on {}", path.display(), model.kind());
    // The arena adds each game's seed to the specs it builds.
    let factory = |spec: &AgentSpec| -> std::result::Result<Box<dyn oxo_agents::Agent<G>>, oxo_agents::SpecError> {
        if spec.kind != own.kind || spec.params.get("gen") != own.params.get("gen") {
            return oxo_player::build_any_agent::<G>(spec);
        }
        let seed = spec.params.get("seed").and_then(|s| s.parse().ok()).unwrap_or(seed);
        let agent = oxo_player::NetAgent::<G>::new(
            model.open(1),
            config.gate_search(),
            &own.text,
            plays_with.clone(),
        );
        Ok(Box::new(agent.with_value(config.net_value(), seed)))
    };
    let arena = ArenaConfig {
        games_per_pair: config.gate.rate_games,
        opening_plies: config.gate.opening_plies,
        seed,
    };
    let report = oxo_arena::run_tournament_with::<G>(&specs, &arena, &factory, &|| {})
        .map_err(|e| TrainError(format!("rating: {e}")))?;
    let rating = report.standings.last().expect("the net is rated").rating;
    Ok((rating, report.table()))
}

/// Decides whether the candidate (its generation and model file) replaces the best net (its
/// generation and model file): promoted without games in a bootstrap generation, else by
/// [`gate_match`].
pub fn judge<G: Encode>(
    config: &RunConfig,
    device: &Device,
    candidate: (u64, &std::path::Path),
    best: (u64, &std::path::Path),
    observer: &Observer,
) -> Result<GateDecision> {
    let generation = candidate.0;
    let (scores, llr, reason, promoted) = if config.selfplay.bootstraps(generation) {
        // The next generation's self-play bootstraps too, or plays with this candidate.
        (Vec::new(), 0.0, "bootstrap".into(), true)
    } else {
        let candidate = Net::load::<G>(candidate.1, device)?;
        let best = Net::load::<G>(best.1, device)?;
        let bar = observer.bar(config.gate.max_games as u64, "gating games");
        let result = gate_match::<G>(
            config,
            &candidate,
            &best,
            mix(config.seed, generation, 0x6A7E),
            &|n| bar.inc(n),
        );
        bar.finish_and_clear();
        result
    };
    let count = |s: f64| scores.iter().filter(|&&x| x == s).count();
    Ok(GateDecision {
        candidate: generation,
        best: best.0,
        games: scores.len(),
        wins: count(1.0),
        draws: count(0.5),
        losses: count(0.0),
        score: scores.iter().sum::<f64>() / scores.len().max(1) as f64,
        llr,
        reason,
        promoted,
    })
}

/// Every `gate.rate_every` generations, rates the best net (its generation and model file)
/// against the handcrafted agents and adds its Elo to `fields`.
pub fn rate_if_due<G: Encode + Evaluate>(
    config: &RunConfig,
    generation: u64,
    best: (u64, &std::path::Path),
    fields: &mut serde_json::Value,
) -> Result<()> {
    let rate_every = config.gate.rate_every;
    if rate_every == 0 || !generation.is_multiple_of(rate_every) {
        return Ok(());
    }
    let start = std::time::Instant::now();
    let seed = mix(config.seed, generation, 0xE10);
    let (rating, table) = rate_model::<G>(config, best.0, best.1, seed)?;
    fields["elo"] = rating.elo.into();
    fields["elo_low"] = rating.low.into();
    fields["elo_high"] = rating.high.into();
    fields["rating_seconds"] = start.elapsed().as_secs_f64().into();
    tracing::info!(
        "generation {generation}: rating of gen {}:\n{table}",
        best.0
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_variants::tictactoe::TicTacToe;

    /// A run whose config rates against a model of the same run: the config loads, the
    /// model's recorded value is read from it, and the agent builds. (Until the config's own
    /// checks stopped loading `net:` agents, loading that config built the agent, which read
    /// the config, which built the agent...: a stack overflow in `oxo train`, `arena`,
    /// `export` of that run.)
    #[test]
    fn a_run_may_rate_against_its_own_models() {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("models").join("gen-00001.bpk");
        std::fs::create_dir_all(model.parent().unwrap()).unwrap();
        std::fs::copy(oxo_player::shipped_model("tictactoe").unwrap(), &model).unwrap();
        std::fs::write(dir.path().join("run.json"), "{}").unwrap();
        let text = format!(
            "{}rate_every = 1\nrate_games = 2\nrate_agents = [\"random\", \"net:path={},sims=2,bare=1\"]\n",
            crate::config::tests::SMALL,
            model.display()
        );
        let config_path = dir.path().join("config.toml");
        std::fs::write(&config_path, &text).unwrap();
        let config = RunConfig::load(&config_path).expect("the config loads");
        let recorded = crate::export::recorded_value::<TicTacToe>(&model).unwrap();
        assert_eq!(recorded, config.net_value());
        check_agents::<TicTacToe>(&config).expect("the agents build");
    }

    /// A `net:` rating agent or self-play opponent whose model is missing passes the config's
    /// own checks (they do not load models) and is refused, by field and name, when a run
    /// starts.
    #[test]
    fn an_agent_without_its_model_is_refused_by_name() {
        let small = crate::config::tests::SMALL;
        let rating =
            format!("{small}rate_agents = [\"random\", \"net:path=/nonexistent/gen-00001.bpk\"]\n");
        let opponent = small.replace(
            "parallel_games = 8",
            "parallel_games = 8\nopponents = [\"net:path=/nonexistent/old.bpk\"]",
        );
        for (text, field, path) in [
            (rating, "gate.rate_agents", "/nonexistent/gen-00001.bpk"),
            (opponent, "selfplay.opponents", "/nonexistent/old.bpk"),
        ] {
            let config = RunConfig::from_toml(&text).expect("the config's own checks pass");
            let err = check_agents::<TicTacToe>(&config)
                .expect_err("a missing model")
                .to_string();
            assert!(err.contains(field) && err.contains(path), "{err}");
        }
    }

    #[test]
    fn sprt_moves_the_right_way() {
        assert!(sprt_llr(&[1.0; 20], 0.0, 35.0) > 3.0);
        assert!(sprt_llr(&[0.0; 20], 0.0, 35.0) < -3.0);
        assert!(sprt_llr(&[0.5; 20], 0.0, 35.0) < 0.0);
        assert_eq!(sprt_llr(&[], 0.0, 35.0), 0.0);
        // A couple of lucky wins decide nothing; a long run of them does.
        let (lower, upper) = ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln());
        assert!(sprt_llr(&[1.0; 2], 0.0, 35.0) < upper);
        assert!(sprt_llr(&[0.0; 2], 0.0, 35.0) > lower);
        assert!(sprt_llr(&[1.0; 12], 0.0, 35.0) > upper);
    }
}

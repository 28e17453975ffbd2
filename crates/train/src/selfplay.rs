//! Self-play: the best net plays a batch of games against itself, spread over
//! `selfplay.workers` threads (one core each). Each worker searches its share of
//! `parallel_games` at a time through one [`BatchedSearch`] per search size, with KataGo's
//! playout cap randomisation (a full search, a policy target, with probability
//! `full_search_prob`, or `full_search_prob_o` for O's moves where it is set; a fast search
//! otherwise). In a run's bootstrap generations
//! (`selfplay.bootstrap_generations`) no net plays: plain Monte Carlo tree search does, with
//! uniform priors and random playouts, every move a full search. A share of the games
//! (`selfplay.opponent_prob`) have one side played by another agent (`selfplay.opponents`),
//! whose moves are recorded without training targets.

use std::time::Instant;

use oxo_agents::{AgentSpec, Evaluate};
use oxo_arena::runner::{AgentMover, Mover, Start, run_games};
use oxo_engine::{Engine, EngineModel};
use oxo_nn::{Encode, Net};
use oxo_rules::{Action, ActionList, DrawValue, Outcome, Player};
use oxo_search::{BatchedSearch, Evaluator};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::config::{ConfigError, OpponentSide, RunConfig, SelfPlayConfig};
use crate::error::Result;
use crate::records::{GameRecord, MoveTarget};
use crate::workers;
use oxo_play::NetValue;
use oxo_player::net_evaluator;

/// What a batch of self-play games cost and gave.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SelfPlayStats {
    /// Games played.
    pub games: usize,
    /// Moves searched and played (opening moves, random or replayed, excluded).
    pub positions: usize,
    /// Moves with a full search.
    pub full_positions: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Worker threads that played the games.
    pub workers: usize,
    /// Wall-clock seconds summed over the workers (their busy time).
    pub worker_seconds: f64,
    /// Seconds inside network evaluation (encoding included), summed over the workers.
    pub eval_seconds: f64,
    /// Positions evaluated by the network.
    pub evaluations: u64,
    /// Network calls.
    pub eval_calls: u64,
    /// Games won by X, won by O, drawn.
    pub results: [usize; 3],
    /// Games against `selfplay.opponents`.
    pub opponent_games: usize,
    /// The net's wins, losses and draws in the games against opponents.
    pub opponent_results: [usize; 3],
    /// The net's final score minus the opponent's, summed over the games against
    /// opponents (0 in variants without scores).
    pub opponent_margin: i64,
}

impl SelfPlayStats {
    /// The stats as metrics fields: counts, speeds, the network's share of the time, the
    /// mean batch, results and mean game length, whether it was a bootstrap batch (no net)
    /// and the engine that ran the net (`none` without one) under `config`.
    pub fn fields(&self, config: &RunConfig, bootstrap: bool) -> serde_json::Value {
        let engine = if bootstrap {
            "none"
        } else {
            oxo_engine::resolve(config.engine).name()
        };
        serde_json::json!({
            "games": self.games,
            "positions": self.positions,
            "full_positions": self.full_positions,
            "seconds": self.seconds,
            "workers": self.workers,
            "games_per_sec": self.games_per_sec(),
            "positions_per_sec": self.positions_per_sec(),
            "evals_per_sec": self.evals_per_sec(),
            "eval_share": self.eval_share(),
            "mean_batch": self.evaluations as f64 / self.eval_calls.max(1) as f64,
            "x_wins": self.results[0],
            "o_wins": self.results[1],
            "draws": self.results[2],
            "mean_length": self.positions as f64 / self.games.max(1) as f64,
            "opponent_games": self.opponent_games,
            "opponent_net_wins": self.opponent_results[0],
            "opponent_net_losses": self.opponent_results[1],
            "opponent_net_draws": self.opponent_results[2],
            "opponent_net_margin": self.opponent_margin as f64 / self.opponent_games.max(1) as f64,
            "bootstrap": bootstrap as u8,
            "engine": engine,
        })
    }

    /// Games per second.
    pub fn games_per_sec(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }
    /// Moves per second.
    pub fn positions_per_sec(&self) -> f64 {
        self.positions as f64 / self.seconds.max(1e-9)
    }
    /// Network evaluations per second of wall-clock time.
    pub fn evals_per_sec(&self) -> f64 {
        self.evaluations as f64 / self.seconds.max(1e-9)
    }
    /// The share of the workers' time spent in network evaluation.
    pub fn eval_share(&self) -> f64 {
        self.eval_seconds / self.worker_seconds.max(1e-9)
    }

    /// Counts a game against an opponent in which the net played `net` and that ended
    /// `outcome` with `scores`.
    fn count_opponent_game(&mut self, net: Player, outcome: Outcome, scores: Option<[i32; 2]>) {
        self.opponent_games += 1;
        self.opponent_results[match outcome {
            Outcome::Win(p) if p == net => 0,
            Outcome::Win(_) => 1,
            Outcome::Draw => 2,
        }] += 1;
        if let Some(s) = scores {
            self.opponent_margin += i64::from(s[net.index()] - s[net.other().index()]);
        }
    }

    /// Adds `other`'s counts and times to these (wall-clock seconds too: for stats of
    /// batches played one after another; [`play_games`] sets its own wall clock).
    pub fn add(&mut self, other: &SelfPlayStats) {
        self.games += other.games;
        self.positions += other.positions;
        self.full_positions += other.full_positions;
        self.seconds += other.seconds;
        self.workers = self.workers.max(other.workers);
        self.worker_seconds += other.worker_seconds;
        self.eval_seconds += other.eval_seconds;
        self.evaluations += other.evaluations;
        self.eval_calls += other.eval_calls;
        for (sum, count) in self.results.iter_mut().zip(other.results) {
            *sum += count;
        }
        self.opponent_games += other.opponent_games;
        for (sum, count) in self.opponent_results.iter_mut().zip(other.opponent_results) {
            *sum += count;
        }
        self.opponent_margin += other.opponent_margin;
    }
}

/// A well-spread 64-bit value from three (splitmix64 finaliser): derived seeds.
pub fn mix(a: u64, b: u64, c: u64) -> u64 {
    let mut z = a ^ b.rotate_left(21) ^ c.rotate_left(42);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An opening under way: the position and the moves that reached it.
struct Opening<G> {
    game: G,
    moves: Vec<Action>,
}

impl<G: Encode> Opening<G> {
    /// Plays an opening move unless it would end the game; says whether it was played.
    fn play(&mut self, action: Action) -> bool {
        let mut next = self.game;
        next.play(action);
        if next.is_over() {
            return false;
        }
        self.game = next;
        self.moves.push(action);
        true
    }
}

/// A new self-play game. With probability `start_game_prob`, the position after a uniformly
/// chosen number of moves of one of `start_lines` (the config's `start_games`), chosen
/// uniformly; else with probability `random_opening_prob` the position after 1 to
/// `random_opening_plies` uniformly random moves (KataGo's opening diversity, so that the
/// net also learns positions its own play avoids); else the start position. The opening
/// moves are recorded but are no training targets, and an opening stops short of a move
/// that would end the game. Then with probability `opponent_prob` one of the
/// `opponents` opponents (movers 1 to `opponents`; the net is mover 0), chosen uniformly,
/// plays the side `opponent_plays` says.
fn start_game<G: Encode>(
    s: &SelfPlayConfig,
    start_lines: &[Vec<Action>],
    opponents: usize,
    rng: &mut SmallRng,
    legal: &mut ActionList,
) -> Start<G> {
    let mut opening = Opening {
        game: G::new(),
        moves: Vec::new(),
    };
    if !start_lines.is_empty() && rng.random::<f64>() < s.start_game_prob {
        let line = &start_lines[rng.random_range(0..start_lines.len())];
        let plies = rng.random_range(1..=line.len());
        for &action in &line[..plies] {
            if !opening.play(action) {
                break;
            }
        }
    } else if s.random_opening_plies > 0 && rng.random::<f64>() < s.random_opening_prob {
        let plies = rng.random_range(1..=s.random_opening_plies);
        for _ in 0..plies {
            opening.game.legal_actions(legal);
            if !opening.play(legal[rng.random_range(0..legal.len())]) {
                break;
            }
        }
    }
    let mut movers = [0, 0];
    if opponents > 0 && rng.random::<f64>() < s.opponent_prob {
        let opponent = rng.random_range(1..=opponents);
        let side = match s.opponent_plays {
            OpponentSide::X => Player::X,
            OpponentSide::O => Player::O,
            OpponentSide::Either => Player::BOTH[rng.random_range(0..2)],
        };
        movers[side.index()] = opponent;
    }
    Start {
        game: opening.game,
        opening: opening.moves,
        movers,
    }
}

/// `selfplay.opponents` built for one worker, each as a [`Mover`]; an error names the field
/// and the agent, as the check when a run starts does ([`RunConfig::check_agents_with`]).
fn build_opponents<G: Encode + Evaluate>(s: &SelfPlayConfig) -> Result<Vec<AgentMover<G>>> {
    s.opponents
        .iter()
        .map(|text| {
            let invalid = |e: String| ConfigError {
                field: "selfplay.opponents".into(),
                message: format!("'{text}': {e}"),
            };
            let spec: AgentSpec = text
                .parse()
                .map_err(|e: oxo_agents::SpecError| invalid(e.to_string()))?;
            let agent =
                oxo_player::build_any_agent::<G>(&spec).map_err(|e| invalid(e.to_string()))?;
            Ok(AgentMover(agent))
        })
        .collect()
}

/// Plays `games` self-play games of `G` with `net` as `config` says, seeded by `seed`,
/// on `selfplay.workers` threads; `on_game` runs after each finished game. The records come
/// in worker order, so a run is reproducible for a given worker count.
///
/// With `net` `None` the games are a bootstrap generation's: plain Monte Carlo tree search
/// ([`RunConfig::bootstrap_search`] with [`RunConfig::bootstrap_rollouts`]), every move a
/// full search and a policy target.
///
/// # Errors
/// If an opponent (`selfplay.opponents`) cannot be built: a `net:` one whose model is gone.
pub fn play_games<G: Encode + Evaluate>(
    net: Option<&Net>,
    config: &RunConfig,
    games: usize,
    seed: u64,
    on_game: &(dyn Fn() + Sync),
) -> Result<(Vec<GameRecord>, SelfPlayStats)> {
    let model = net.map(|net| EngineModel::new(net, config.engine));
    play_games_on::<G>(model.as_ref(), config, games, seed, on_game)
}

/// [`play_games`] with the net already made ready for its engine (an ONNX export, once for
/// many batches).
///
/// # Errors
/// As [`play_games`].
pub fn play_games_on<G: Encode + Evaluate>(
    model: Option<&EngineModel>,
    config: &RunConfig,
    games: usize,
    seed: u64,
    on_game: &(dyn Fn() + Sync),
) -> Result<(Vec<GameRecord>, SelfPlayStats)> {
    let start = Instant::now();
    let count = workers::resolve(config.selfplay.workers).min(games.max(1));
    let shares = workers::split(games, count);
    let parallel = workers::split(config.selfplay.parallel_games.max(count), count);
    let results = workers::run_on_workers(count, |w| {
        let parallel = parallel[w].len();
        let seed = mix(seed, w as u64, 4);
        let mut engine = model.as_ref().map(|model| model.open(1));
        let games = shares[w].len();
        play_worker_games::<G>(engine.as_mut(), config, games, parallel, seed, on_game)
    });
    let mut records = Vec::with_capacity(games);
    let mut stats = SelfPlayStats::default();
    for result in results {
        let (worker_records, worker_stats) = result?;
        records.extend(worker_records);
        stats.add(&worker_stats);
    }
    stats.workers = count;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok((records, stats))
}

/// One worker's share of [`play_games`]: `games` games, `parallel` at a time, through
/// [`run_games`], with its own opponents.
fn play_worker_games<G: Encode + Evaluate>(
    engine: Option<&mut Engine>,
    config: &RunConfig,
    games: usize,
    parallel: usize,
    seed: u64,
    on_game: &(dyn Fn() + Sync),
) -> Result<(Vec<GameRecord>, SelfPlayStats)> {
    let start = Instant::now();
    let s = &config.selfplay;
    let n = parallel.min(games).max(1);
    let seeds = |kind: u64| -> Vec<u64> { (0..n).map(|i| mix(seed, i as u64, kind)).collect() };
    let bootstrap = engine.is_none();
    let (full_search, fast_search, full_search_prob, value) = if bootstrap {
        let search = config.bootstrap_search();
        let value = NetValue {
            rollouts: config.bootstrap_rollouts(),
            ..NetValue::PLAIN
        };
        (search, search, [1.0; 2], value)
    } else {
        (
            config.selfplay_search(s.simulations_full, true),
            config.selfplay_search(s.simulations_fast, false),
            Player::BOTH.map(|mover| s.full_search_prob_for(mover)),
            config.net_value(),
        )
    };
    let mut playout_rng = SmallRng::seed_from_u64(mix(seed, 0, 5));
    let mut player = SelfPlayer {
        exploring_moves: s.exploring_moves(),
        full: BatchedSearch::<G>::new(full_search, &seeds(1)),
        fast: BatchedSearch::<G>::new(fast_search, &seeds(2)),
        full_search_prob,
        evaluator: net_evaluator(&value, DrawValue::NEUTRAL, engine, &mut playout_rng),
        rng: SmallRng::seed_from_u64(mix(seed, 0, 8)),
        legal: ActionList::new(),
        games: (0..n).map(|_| SlotGame::default()).collect(),
        done: Vec::with_capacity(games),
        stats: SelfPlayStats::default(),
    };
    let start_lines = s
        .start_lines::<G>()
        .expect("start games are checked when the config is read");
    let mut opponents = build_opponents::<G>(s)?;
    let opponent_count = opponents.len();
    let mut rng = SmallRng::seed_from_u64(mix(seed, 0, 3));
    let mut legal = ActionList::new();
    let mut started = 0;
    let mut next = || {
        (started < games).then(|| {
            started += 1;
            start_game(s, &start_lines, opponent_count, &mut rng, &mut legal)
        })
    };
    let mut movers: Vec<&mut dyn Mover<G>> = vec![&mut player];
    movers.extend(opponents.iter_mut().map(|o| o as &mut dyn Mover<G>));
    run_games(&mut movers, n, &mut next, &mut |_| on_game());
    drop(movers);
    let mut stats = player.stats;
    stats.games = player.done.len();
    stats.seconds = start.elapsed().as_secs_f64();
    stats.workers = 1;
    stats.worker_seconds = stats.seconds;
    stats.eval_seconds = player.evaluator.inner.time.as_secs_f64();
    stats.evaluations = player.evaluator.inner.positions;
    stats.eval_calls = player.evaluator.inner.calls;
    Ok((player.done, stats))
}

/// A self-play game in a slot: its record so far, whether its move now is a full search,
/// and the side an opponent plays in it (`None` while the net has played both).
#[derive(Default)]
struct SlotGame {
    record: GameRecord,
    full: bool,
    opponent: Option<Player>,
}

/// A move without a search: an opening move or an opponent's, no training target.
const UNSEARCHED: MoveTarget = MoveTarget {
    full: false,
    policy: Vec::new(),
    value: 0.0,
};

/// Self-play as a [`Mover`]: one net plays both colours of every game (or one, against an
/// opponent), each move a full search (a policy target) or a fast one, as playout cap
/// randomisation draws, and each move's search result recorded as its training target.
struct SelfPlayer<G: Encode, E> {
    /// Moves (openings included) played at temperature 1 before the search's choice rules.
    exploring_moves: usize,
    full: BatchedSearch<G>,
    fast: BatchedSearch<G>,
    /// The chance of a full search for X's moves and for O's.
    full_search_prob: [f64; 2],
    evaluator: E,
    /// Draws full or fast searches.
    rng: SmallRng,
    legal: ActionList,
    /// The game in each slot.
    games: Vec<SlotGame>,
    /// Finished games, in the order they ended.
    done: Vec<GameRecord>,
    stats: SelfPlayStats,
}

impl<G: Encode, E: Evaluator<G>> Mover<G> for SelfPlayer<G, E> {
    fn begin(&mut self, slot: usize, _: &G, opening: &[Action]) {
        self.games[slot].opponent = None;
        self.games[slot].record = GameRecord {
            actions: opening.to_vec(),
            targets: vec![UNSEARCHED; opening.len()],
            winner: None,
            scores: None,
        };
    }

    fn observe(&mut self, slot: usize, before: &G, action: Action) {
        let live = &mut self.games[slot];
        live.opponent = Some(before.to_move());
        live.record.actions.push(action);
        live.record.targets.push(UNSEARCHED);
    }

    fn choose(&mut self, to_move: &[(usize, G)], moves: &mut Vec<Action>) {
        for slot in 0..self.games.len() {
            self.full.clear(slot);
            self.fast.clear(slot);
        }
        for &(slot, game) in to_move {
            let prob = self.full_search_prob[game.to_move().index()];
            let live = &mut self.games[slot];
            live.full = prob >= 1.0 || self.rng.random::<f64>() < prob;
            let exploring = live.record.actions.len() < self.exploring_moves;
            let search = if live.full {
                &mut self.full
            } else {
                &mut self.fast
            };
            search.set_root(slot, game);
            search.set_temperature(slot, if exploring { 1.0 } else { 0.0 });
        }
        self.full.run(&mut self.evaluator);
        self.fast.run(&mut self.evaluator);
        for &(slot, game) in to_move {
            let live = &mut self.games[slot];
            let search = if live.full { &self.full } else { &self.fast };
            let result = search.result(slot).expect("every live game was searched");
            let policy = if live.full {
                game.legal_actions(&mut self.legal);
                self.legal
                    .iter()
                    .map(|&a| (a, result.policy[a as usize]))
                    .filter(|&(_, p)| p > 0.0)
                    .collect()
            } else {
                Vec::new()
            };
            live.record.targets.push(MoveTarget {
                full: live.full,
                policy,
                value: result.value,
            });
            live.record.actions.push(result.action);
            moves.push(result.action);
            self.stats.positions += 1;
            self.stats.full_positions += live.full as usize;
        }
    }

    fn end(&mut self, slot: usize, end: &G) {
        let mut record = std::mem::take(&mut self.games[slot].record);
        let outcome = end.outcome().expect("the game is over");
        if let Some(opponent) = self.games[slot].opponent {
            self.stats
                .count_opponent_game(opponent.other(), outcome, end.scores());
        }
        record.winner = match outcome {
            Outcome::Win(p) => Some(p.index() as u8),
            Outcome::Draw => None,
        };
        record.scores = end.scores();
        self.stats.results[match outcome {
            Outcome::Win(Player::X) => 0,
            Outcome::Win(Player::O) => 1,
            Outcome::Draw => 2,
        }] += 1;
        self.done.push(record);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_nn::{Device, NetConfig};
    use oxo_rules::Game;
    use oxo_variants::tictactoe::TicTacToe;

    /// On one worker and on two, every game is complete and legal, each finished game is
    /// reported once, and full searches (only they) carry policy targets.
    #[test]
    fn selfplay_games_are_legal_and_targets_cover_full_moves() {
        for workers in [1, 2] {
            let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
            config.selfplay.workers = workers;
            check_selfplay(&config, workers);
        }
    }

    /// The opening moves of `record` (at most `most`): the leading moves without a search
    /// (no policy, value 0). Asserts there is one at least and that the game went on after.
    fn opening_plies(record: &GameRecord, most: usize) -> usize {
        let opening = record
            .targets
            .iter()
            .take_while(|t| !t.full && t.value == 0.0);
        let plies = opening.count().min(most);
        assert!(plies >= 1, "{record:?}");
        assert!(record.targets[..plies].iter().all(|t| t.policy.is_empty()));
        assert!(record.actions.len() > plies, "the opening ended the game");
        plies
    }

    /// `full_search_prob_o`: with O's moves always fully searched and X's (almost) never,
    /// the policy targets are O's moves, every one of them.
    #[test]
    fn full_search_prob_o_sets_the_second_players_share() {
        let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        config.selfplay.full_search_prob = 1e-9;
        config.selfplay.full_search_prob_o = Some(1.0);
        config.selfplay.random_opening_prob = 0.0;
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let (games, _) = play_games::<TicTacToe>(Some(&net), &config, 8, 7, &|| {}).unwrap();
        let mut o_moves = 0;
        for record in &games {
            let (before, _) = record.replay::<TicTacToe>();
            for (position, target) in before.iter().zip(&record.targets) {
                let o_to_move = position.to_move() == Player::O;
                assert_eq!(target.full, o_to_move, "{record:?}");
                o_moves += usize::from(o_to_move);
            }
        }
        assert!(o_moves >= 8 * 2, "{o_moves} O moves in 8 games");
    }

    /// Random openings: every game starts with 1 to 3 random moves, recorded without
    /// targets, and no opening ends a game.
    #[test]
    fn random_openings_are_recorded_without_targets() {
        let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        config.selfplay.random_opening_prob = 1.0;
        config.selfplay.random_opening_plies = 3;
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let (games, stats) = play_games::<TicTacToe>(Some(&net), &config, 8, 5, &|| {}).unwrap();
        let mut openings = std::collections::HashSet::new();
        for record in &games {
            let plies = opening_plies(record, 3);
            openings.insert(record.actions[..plies].to_vec());
        }
        assert!(openings.len() > 1, "openings differ: {openings:?}");
        let moves: usize = games.iter().map(|g| g.actions.len()).sum();
        assert!(stats.positions < moves);
    }

    /// Start games: every game starts inside the one recorded game, after 1 to 4 of its 5
    /// moves (the 5th would end it), replayed without targets, and plays on from there.
    #[test]
    fn games_start_inside_the_start_games() {
        let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        config.selfplay.start_games = vec!["A1 B1 A2 B2 A3".into()];
        config.selfplay.start_game_prob = 1.0;
        let line = &config.selfplay.start_lines::<TicTacToe>().unwrap()[0];
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let (games, _) = play_games::<TicTacToe>(Some(&net), &config, 12, 5, &|| {}).unwrap();
        let mut lengths = std::collections::HashSet::new();
        for record in &games {
            let plies = opening_plies(record, 4);
            assert_eq!(record.actions[..plies], line[..plies]);
            lengths.insert(plies);
        }
        assert!(lengths.len() > 1, "replayed plies vary: {lengths:?}");
    }

    /// Gumbel noise only on the first `gumbel_noise_moves` moves: with none at all (and no
    /// random openings) every game repeats the same line; with the default they differ.
    #[test]
    fn games_without_gumbel_noise_repeat_one_line() {
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let lines = |noise_moves: usize| {
            let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
            config.selfplay.workers = 1;
            config.selfplay.gumbel_noise_moves = noise_moves;
            config.selfplay.full_search_prob = 1.0;
            let (games, _) = play_games::<TicTacToe>(Some(&net), &config, 6, 9, &|| {}).unwrap();
            let lines: std::collections::HashSet<_> =
                games.into_iter().map(|g| g.actions).collect();
            lines.len()
        };
        assert_eq!(lines(0), 1);
        assert!(lines(1000) > 1);
    }

    /// Opponents: with `opponent_prob` 1 every game has the opponent on the side
    /// `opponent_plays` names; its moves carry no targets, the net's are searched as ever, and
    /// the games are counted from the net's side. A perfect tictactoe player
    /// (`alphabeta:depth=9`) never loses, so the net never wins one.
    #[test]
    fn opponents_play_their_side_without_targets() {
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        for (side, opponent) in [(OpponentSide::X, Player::X), (OpponentSide::O, Player::O)] {
            let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
            config.selfplay.random_opening_prob = 0.0;
            config.selfplay.opponents = vec!["alphabeta:depth=9".into()];
            config.selfplay.opponent_prob = 1.0;
            config.selfplay.opponent_plays = side;
            let (games, stats) =
                play_games::<TicTacToe>(Some(&net), &config, 6, 3, &|| {}).unwrap();
            assert_eq!((stats.opponent_games, games.len()), (6, 6));
            assert_eq!(stats.opponent_results.iter().sum::<usize>(), 6);
            assert_eq!(stats.opponent_results[0], 0, "{side:?}: {stats:?}");
            let mut net_moves = 0;
            for record in &games {
                let (before, end) = record.replay::<TicTacToe>();
                assert_eq!(record.outcome(), end.outcome().unwrap());
                for (position, target) in before.iter().zip(&record.targets) {
                    if position.to_move() == opponent {
                        assert!(!target.full && target.policy.is_empty() && target.value == 0.0);
                    } else {
                        net_moves += 1;
                    }
                }
            }
            assert_eq!(
                stats.positions, net_moves,
                "only the net's moves are searched"
            );
        }
    }

    /// An opponent that cannot be built (its model gone since the run started) stops the
    /// batch with an error naming the field and the agent, as the check at the start does.
    #[test]
    fn an_opponent_that_cannot_be_built_is_named() {
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        config.selfplay.opponents = vec!["net:path=/nonexistent/old.bpk".into()];
        config.selfplay.opponent_prob = 1.0;
        let err = play_games::<TicTacToe>(Some(&net), &config, 2, 1, &|| {})
            .expect_err("a missing model")
            .to_string();
        assert!(
            err.contains("selfplay.opponents: 'net:path=/nonexistent/old.bpk'"),
            "{err}"
        );
    }

    /// With `opponent_prob` 1/2 and either side, some games are self-play and some are
    /// against the opponent, who plays each side in some of them: the side all of whose
    /// moves went unsearched.
    #[test]
    fn opponents_play_a_share_of_the_games_on_either_side() {
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        config.selfplay.random_opening_prob = 0.0;
        config.selfplay.opponents = vec!["random".into()];
        config.selfplay.opponent_prob = 0.5;
        let (games, stats) = play_games::<TicTacToe>(Some(&net), &config, 40, 11, &|| {}).unwrap();
        assert!((5..=35).contains(&stats.opponent_games), "{stats:?}");
        let mut opponent_sides = [0; 2];
        for record in &games {
            let (before, _) = record.replay::<TicTacToe>();
            for side in Player::BOTH {
                let mut moves = before
                    .iter()
                    .zip(&record.targets)
                    .filter(|(p, _)| p.to_move() == side);
                if moves.all(|(_, t)| !t.full && t.value == 0.0) {
                    opponent_sides[side.index()] += 1;
                }
            }
        }
        assert!(opponent_sides.iter().all(|&n| n > 0), "{opponent_sides:?}");
        assert_eq!(opponent_sides.iter().sum::<usize>(), stats.opponent_games);
    }

    /// Bootstrap games need no net: every move is a full search with a legal policy target,
    /// and plain MCTS with playouts already plays tictactoe far better than chance: at least 8
    /// of these 20 games must be drawn, where random play draws about one in eight.
    #[test]
    fn bootstrap_games_search_without_a_net() {
        let mut config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        config.selfplay.rollouts = 8;
        config.selfplay.bootstrap_simulations = 200;
        let (games, stats) = play_games::<TicTacToe>(None, &config, 20, 4, &|| {}).unwrap();
        assert_eq!(games.len(), 20);
        assert_eq!(stats.full_positions, stats.positions);
        for record in &games {
            let mut game = TicTacToe::new();
            for (action, target) in record.actions.iter().zip(&record.targets) {
                assert!(target.full && target.policy.iter().all(|&(a, _)| game.is_legal(a)));
                let sum: f32 = target.policy.iter().map(|p| p.1).sum();
                assert!((sum - 1.0).abs() < 1e-3, "{sum}");
                game.play(*action);
            }
            assert_eq!(record.outcome(), game.outcome().unwrap());
        }
        let draws = stats.results[2];
        assert!(draws >= 8, "{draws} of 20 drawn");
    }

    fn check_selfplay(config: &RunConfig, workers: usize) {
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let finished = std::sync::atomic::AtomicUsize::new(0);
        let (games, stats) = play_games::<TicTacToe>(Some(&net), config, 5, 3, &|| {
            finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(games.len(), 5);
        assert_eq!(finished.into_inner(), 5);
        assert_eq!(stats.workers, workers);
        assert_eq!(stats.results.iter().sum::<usize>(), 5);
        for record in &games {
            let mut game = TicTacToe::new();
            for (action, target) in record.actions.iter().zip(&record.targets) {
                assert!(game.is_legal(*action));
                if target.full {
                    let sum: f32 = target.policy.iter().map(|p| p.1).sum();
                    assert!((sum - 1.0).abs() < 1e-3, "{sum}");
                    assert!(target.policy.iter().all(|&(a, _)| game.is_legal(a)));
                } else {
                    assert!(target.policy.is_empty());
                }
                game.play(*action);
            }
            assert!(game.is_over());
            assert_eq!(record.outcome(), game.outcome().unwrap());
        }
        assert!(stats.full_positions > 0 && stats.full_positions < stats.positions);
        assert!(stats.evaluations > 0 && stats.eval_share() > 0.0 && stats.eval_share() <= 1.0);
    }
}

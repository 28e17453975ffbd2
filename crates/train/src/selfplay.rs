//! The self-play stage: the best net plays `games_per_generation` games against itself,
//! `parallel_games` at a time through one [`BatchedSearch`] per search size, with KataGo's
//! playout cap randomisation (a full search, a policy target, with probability
//! `full_search_prob`; a fast search otherwise).

use std::time::{Duration, Instant};

use oxo_nn::{Encode, Net, WDL};
use oxo_rules::{Action, ActionList, Outcome, Player};
use oxo_search::{BatchedSearch, Evaluator};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::config::RunConfig;
use crate::records::{GameRecord, MoveTarget};

/// A [`Net`] as the search's [`Evaluator`]: encodes the batch, one `Net::evaluate` call,
/// policy logits as they come, value = P(win) - P(loss). Counts its calls and time.
pub struct NetEvaluator<'a> {
    net: &'a Net,
    inputs: Vec<f32>,
    /// Time spent inside [`Evaluator::evaluate`] (encoding included).
    pub time: Duration,
    /// Positions evaluated.
    pub positions: u64,
    /// Network calls made.
    pub calls: u64,
}

impl<'a> NetEvaluator<'a> {
    /// An evaluator over `net`, with zeroed counters.
    pub fn new(net: &'a Net) -> Self {
        NetEvaluator {
            net,
            inputs: Vec::new(),
            time: Duration::ZERO,
            positions: 0,
            calls: 0,
        }
    }
}

/// The expected value `P(win) - P(loss)` of win/draw/loss logits.
pub fn wdl_value(logits: &[f32]) -> f32 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f32> = logits.iter().map(|&l| (l - max).exp()).collect();
    let sum: f32 = e.iter().sum();
    ((e[0] - e[2]) / sum).clamp(-1.0, 1.0)
}

impl<G: Encode> Evaluator<G> for NetEvaluator<'_> {
    fn evaluate(&mut self, positions: &[G], policy_logits: &mut [f32], values: &mut [f32]) {
        let start = Instant::now();
        let n = positions.len();
        let size = G::INPUT_SIZE;
        self.inputs.resize(n * size, 0.0);
        for (i, position) in positions.iter().enumerate() {
            position.encode(&mut self.inputs[i * size..(i + 1) * size]);
        }
        let out = self.net.evaluate(&self.inputs, n);
        policy_logits.copy_from_slice(&out.policy);
        for (i, value) in values.iter_mut().enumerate() {
            *value = wdl_value(&out.wdl[i * WDL..(i + 1) * WDL]);
        }
        self.time += start.elapsed();
        self.positions += n as u64;
        self.calls += 1;
    }
}

/// What a batch of self-play games cost and gave.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SelfPlayStats {
    /// Games played.
    pub games: usize,
    /// Moves played.
    pub positions: usize,
    /// Moves with a full search.
    pub full_positions: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Seconds inside network evaluation (encoding included).
    pub eval_seconds: f64,
    /// Positions evaluated by the network.
    pub evaluations: u64,
    /// Network calls.
    pub eval_calls: u64,
    /// Games won by X, won by O, drawn.
    pub results: [usize; 3],
}

impl SelfPlayStats {
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
    /// The share of the time spent in network evaluation.
    pub fn eval_share(&self) -> f64 {
        self.eval_seconds / self.seconds.max(1e-9)
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

/// A game in progress in one slot.
struct Live<G> {
    game: G,
    record: GameRecord,
    full: bool,
}

/// Plays `games` self-play games of `G` with `net` as `config` says, seeded by `seed`;
/// `on_game` runs after each finished game.
pub fn play_games<G: Encode>(
    net: &Net,
    config: &RunConfig,
    games: usize,
    seed: u64,
    on_game: &dyn Fn(),
) -> (Vec<GameRecord>, SelfPlayStats) {
    let start = Instant::now();
    let s = &config.selfplay;
    let n = s.parallel_games.min(games).max(1);
    let seeds = |kind: u64| -> Vec<u64> { (0..n).map(|i| mix(seed, i as u64, kind)).collect() };
    let mut full =
        BatchedSearch::<G>::new(config.selfplay_search(s.simulations_full, true), &seeds(1));
    let mut fast =
        BatchedSearch::<G>::new(config.selfplay_search(s.simulations_fast, false), &seeds(2));
    let mut rng = SmallRng::seed_from_u64(mix(seed, 0, 3));
    let mut evaluator = NetEvaluator::new(net);
    let mut slots: Vec<Option<Live<G>>> = (0..n).map(|_| None).collect();
    let mut started = 0;
    let mut done = Vec::with_capacity(games);
    let mut stats = SelfPlayStats::default();
    let mut legal = ActionList::new();
    let new_live = || Live {
        game: G::new(),
        record: GameRecord {
            actions: Vec::new(),
            targets: Vec::new(),
            winner: None,
            scores: None,
        },
        full: false,
    };
    for slot in slots.iter_mut() {
        if started < games {
            *slot = Some(new_live());
            started += 1;
        }
    }
    while slots.iter().any(Option::is_some) {
        for (i, slot) in slots.iter_mut().enumerate() {
            let Some(live) = slot else {
                full.clear(i);
                fast.clear(i);
                continue;
            };
            live.full = s.full_search_prob >= 1.0 || rng.random::<f64>() < s.full_search_prob;
            let temperature = if live.record.actions.len() < s.temperature_moves {
                1.0
            } else {
                0.0
            };
            let (on, off) = if live.full {
                (&mut full, &mut fast)
            } else {
                (&mut fast, &mut full)
            };
            on.set_root(i, live.game);
            on.set_temperature(i, temperature);
            off.clear(i);
        }
        full.run(&mut evaluator);
        fast.run(&mut evaluator);
        for (i, slot) in slots.iter_mut().enumerate() {
            let Some(live) = slot else { continue };
            let search = if live.full { &full } else { &fast };
            let result = search.result(i).expect("every live game was searched");
            let policy = if live.full {
                live.game.legal_actions(&mut legal);
                legal
                    .iter()
                    .map(|&a| (a, result.policy[a as usize]))
                    .filter(|&(_, p)| p > 0.0)
                    .collect()
            } else {
                Vec::new()
            };
            let action: Action = result.action;
            live.record.targets.push(MoveTarget {
                full: live.full,
                policy,
                value: result.value,
            });
            live.record.actions.push(action);
            live.game.play(action);
            stats.positions += 1;
            stats.full_positions += live.full as usize;
            if let Some(outcome) = live.game.outcome() {
                let mut record = std::mem::replace(&mut live.record, new_live().record);
                record.winner = match outcome {
                    Outcome::Win(p) => Some(p.index() as u8),
                    Outcome::Draw => None,
                };
                record.scores = live.game.scores();
                stats.results[match outcome {
                    Outcome::Win(Player::X) => 0,
                    Outcome::Win(Player::O) => 1,
                    Outcome::Draw => 2,
                }] += 1;
                done.push(record);
                on_game();
                if started < games {
                    *live = new_live();
                    started += 1;
                } else {
                    *slot = None;
                }
            }
        }
    }
    stats.games = done.len();
    stats.seconds = start.elapsed().as_secs_f64();
    stats.eval_seconds = evaluator.time.as_secs_f64();
    stats.evaluations = evaluator.positions;
    stats.eval_calls = evaluator.calls;
    (done, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_nn::{Device, NetConfig};
    use oxo_rules::Game;
    use oxo_rules::tictactoe::TicTacToe;

    #[test]
    fn selfplay_games_are_legal_and_targets_cover_full_moves() {
        let config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let (games, stats) = play_games::<TicTacToe>(&net, &config, 5, 3, &|| {});
        assert_eq!(games.len(), 5);
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
        assert!(stats.evaluations > 0 && stats.eval_share() > 0.0);
    }
}

//! The machinery: sequential halving's schedule, budgets, batching, determinism, tree reuse.

mod common;

use std::hash::{DefaultHasher, Hasher};

use common::{Checked, legal};
use oxo_rules::Game;
use oxo_search::gumbel::considered_visits;
use oxo_search::{
    BatchedSearch, Evaluator, GumbelConfig, PuctConfig, Scheme, SearchConfig, SearchResult,
    UniformEvaluator,
};
use oxo_variants::tictactoe::TicTacToe;
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// A fixed, arbitrary network: logits and value are a hash of the position. Unlike the
/// uniform evaluator it makes priors and values differ between moves.
struct HashEvaluator;

impl<G: Game> Evaluator<G> for HashEvaluator {
    fn evaluate(&mut self, positions: &[G], logits: &mut [f32], values: &mut [f32]) {
        for (i, position) in positions.iter().enumerate() {
            let mut hasher = DefaultHasher::new();
            position.hash(&mut hasher);
            let mut h = hasher.finish();
            let mut next = || {
                h = h
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (h >> 40) as f32 / (1u64 << 24) as f32
            };
            for logit in &mut logits[i * G::NUM_ACTIONS..(i + 1) * G::NUM_ACTIONS] {
                *logit = 4.0 * next() - 2.0;
            }
            values[i] = 2.0 * next() - 1.0;
        }
    }
}

/// mctx's own expectations (`seq_halving_test.py`) and sequences printed by mctx's
/// `get_sequence_of_considered_visits` for more `(m, n)` pairs.
#[test]
fn sequential_halving_schedule_matches_mctx() {
    let cases: &[(u32, u32, &[u32])] = &[
        // From seq_halving_test.py.
        (
            8,
            24,
            &[
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
            ],
        ),
        (
            8,
            47,
            &[
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7,
                8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17,
            ],
        ),
        (8, 2, &[0, 0]),
        (8, 13, &[0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2]),
        (
            7,
            24,
            &[
                0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8,
            ],
        ),
        (
            0,
            16,
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        ),
        (
            1,
            16,
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        ),
        // Printed by mctx's function.
        (4, 10, &[0, 0, 0, 0, 1, 1, 2, 2, 3, 3]),
        (
            3,
            50,
            &[
                0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 9, 9,
                10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20,
                20,
            ],
        ),
        (
            9,
            32,
            &[
                0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8,
                8, 9, 9, 10,
            ],
        ),
        (2, 5, &[0, 0, 1, 1, 2]),
        (5, 7, &[0, 0, 0, 0, 0, 1, 1]),
        (
            16,
            64,
            &[
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2,
                2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 8, 8, 9, 9, 10,
                10, 11, 11, 12, 12, 13, 13, 14, 14,
            ],
        ),
        (1, 5, &[0, 1, 2, 3, 4]),
        (0, 3, &[0, 1, 2]),
    ];
    let mut sequence = Vec::new();
    for &(m, n, expected) in cases {
        considered_visits(m, n, &mut sequence);
        assert_eq!(sequence, expected, "m = {m}, n = {n}");
    }
    // A long one as printed by mctx: 16 actions get 3 visits each, 8 get 6 more, 4 get 12
    // more, then pairs alternate.
    considered_visits(16, 200, &mut sequence);
    let mut mctx = Vec::new();
    for (visits, actions) in [(0..=2, 16), (3..=8, 8), (9..=20, 4), (21..=48, 2)] {
        for v in visits {
            mctx.extend(std::iter::repeat_n(v, actions));
        }
    }
    assert_eq!(sequence, mctx);
}

/// The root visit counts a schedule implies, most visited first: each simulation visits an
/// action that has exactly the scheduled count.
fn implied_counts(m: usize, schedule: &[u32]) -> Vec<u32> {
    let mut counts = vec![0; m.max(1)];
    for &v in schedule {
        let i = counts
            .iter()
            .position(|&c| c == v)
            .expect("schedule is feasible");
        counts[i] += 1;
    }
    counts.sort_unstable_by(|a, b| b.cmp(a));
    counts
}

/// A real search spends its root visits as the schedule says, for several `(m, n)`.
#[test]
fn gumbel_root_visits_follow_the_schedule() {
    let mut schedule = Vec::new();
    for max_considered in [1, 2, 4, 5, 9, 16] {
        for simulations in [1, 5, 16, 32, 50] {
            let config = SearchConfig {
                scheme: Scheme::Gumbel(GumbelConfig {
                    max_considered_actions: max_considered,
                    ..GumbelConfig::default()
                }),
                ..SearchConfig::gumbel(simulations)
            };
            let mut search = BatchedSearch::new(config, &[7]);
            search.set_root(0, TicTacToe::new());
            search.run(&mut HashEvaluator);
            let mut counts = search.result(0).unwrap().visit_counts.clone();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            let m = max_considered.min(9) as usize;
            considered_visits(m as u32, simulations, &mut schedule);
            let expected = implied_counts(m, &schedule);
            assert_eq!(
                &counts[..expected.len()],
                &expected[..],
                "m = {m}, n = {simulations}"
            );
            assert!(counts[expected.len()..].iter().all(|&c| c == 0));
        }
    }
}

/// Every configuration worth telling apart: both schemes, one leaf or several per tree,
/// PUCT with and without tree reuse.
fn configs(simulations: u32) -> Vec<SearchConfig> {
    let puct = SearchConfig::puct(simulations);
    let gumbel = SearchConfig::gumbel(simulations);
    vec![
        puct,
        SearchConfig {
            leaves_per_tree: 3,
            ..puct
        },
        SearchConfig {
            reuse_tree: false,
            ..puct
        },
        gumbel,
        SearchConfig {
            leaves_per_tree: 4,
            ..gumbel
        },
    ]
}

/// Plays whole games from `openings` by the searches' own moves, one slot per opening, and
/// returns every result. With `batched` all games share one search; otherwise each game
/// has its own, with the same seed.
fn play<E: Evaluator<TicTacToe> + ?Sized>(
    config: SearchConfig,
    openings: &[TicTacToe],
    batched: bool,
    evaluator: &mut E,
) -> Vec<Vec<SearchResult>> {
    let seeds: Vec<u64> = (0..openings.len() as u64).map(|i| 1000 + i).collect();
    let mut searches: Vec<BatchedSearch<TicTacToe>> = if batched {
        let mut search = BatchedSearch::new(config, &seeds);
        for (i, &opening) in openings.iter().enumerate() {
            search.set_root(i, opening);
        }
        vec![search]
    } else {
        openings
            .iter()
            .zip(&seeds)
            .map(|(&opening, &seed)| {
                let mut search = BatchedSearch::new(config, &[seed]);
                search.set_root(0, opening);
                search
            })
            .collect()
    };
    let mut results = vec![Vec::new(); openings.len()];
    for (index, search) in searches.iter_mut().enumerate() {
        while (0..search.num_games()).any(|g| search.root(g).is_some()) {
            search.run(&mut *evaluator);
            for g in 0..search.num_games() {
                if search.root(g).is_none() {
                    assert!(search.result(g).is_none());
                    continue;
                }
                let result = search.result(g).unwrap().clone();
                search.advance(g, result.action);
                assert!(search.result(g).is_none());
                results[if batched { g } else { index }].push(result);
            }
        }
    }
    results
}

/// Random positions a few moves in, plus the empty board.
fn openings(count: usize) -> Vec<TicTacToe> {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut positions = vec![TicTacToe::new()];
    while positions.len() < count {
        let mut game = TicTacToe::new();
        for _ in 0..positions.len() % 5 {
            let action = game.random_action(&mut rng);
            game.play(action);
        }
        if !game.is_over() {
            positions.push(game);
        }
    }
    positions
}

#[test]
fn batched_search_equals_single_searches() {
    let openings = openings(10);
    for config in configs(40) {
        let batched = play(config, &openings, true, &mut HashEvaluator);
        let single = play(config, &openings, false, &mut HashEvaluator);
        assert_eq!(batched, single, "{config:?}");
        let again = play(config, &openings, true, &mut HashEvaluator);
        assert_eq!(batched, again, "{config:?} is not deterministic");
    }
}

/// Self-play configurations are random (root noise, temperature): games from the same
/// position with different seeds differ.
#[test]
fn seeds_make_games_differ() {
    for config in [SearchConfig::puct(40), SearchConfig::gumbel(40)] {
        let games = play(config, &[TicTacToe::new(); 8], true, &mut HashEvaluator);
        assert!(games.iter().any(|g| *g != games[0]), "{config:?}");
    }
}

#[test]
fn visit_counts_sum_to_the_budget() {
    let openings = openings(12);
    for simulations in [1, 7, 50] {
        for config in configs(simulations) {
            for (evaluator, name) in [
                (&mut HashEvaluator as &mut dyn Evaluator<_>, "hash"),
                (&mut UniformEvaluator, "uniform"),
            ] {
                for game in play(config, &openings, true, evaluator) {
                    for result in game {
                        let total: u32 = result.visit_counts.iter().sum();
                        assert_eq!(total, simulations, "{config:?} with the {name} evaluator");
                        let policy: f32 = result.policy.iter().sum();
                        assert!((policy - 1.0).abs() < 1e-4);
                        assert!((-1.0..=1.0).contains(&result.value));
                    }
                }
            }
        }
    }
}

/// The results describe the root: only legal actions get visits or policy, and the chosen move
/// is legal.
#[test]
fn results_stay_on_legal_actions() {
    for config in configs(30) {
        let openings = openings(16);
        let seeds: Vec<u64> = (0..16).collect();
        let mut search = BatchedSearch::new(config, &seeds);
        for (i, &opening) in openings.iter().enumerate() {
            search.set_root(i, opening);
        }
        search.run(&mut HashEvaluator);
        for (i, opening) in openings.iter().enumerate() {
            let result = search.result(i).unwrap();
            let legal = legal(opening);
            assert!(legal.contains(&result.action));
            for a in 0..TicTacToe::NUM_ACTIONS as u16 {
                if !legal.contains(&a) {
                    assert_eq!(result.visit_counts[a as usize], 0);
                    assert_eq!(result.policy[a as usize], 0.0);
                }
            }
        }
    }
}

/// One evaluation call per round for all games together, each with at most
/// `games * leaves_per_tree` positions, and no finished position (checked by `Checked`).
#[test]
fn leaves_of_all_games_share_each_evaluation() {
    let openings = openings(20);
    for config in configs(64) {
        let mut evaluator = Checked::new(HashEvaluator);
        let seeds: Vec<u64> = (0..20).collect();
        let mut search = BatchedSearch::new(config, &seeds);
        for (i, &opening) in openings.iter().enumerate() {
            search.set_root(i, opening);
        }
        search.run(&mut evaluator);
        let limit = 20 * config.leaves_per_tree as usize;
        assert!(evaluator.largest_batch <= limit && evaluator.largest_batch > 20 / 2);
        // Root evaluation plus at most one round per simulation.
        assert!(evaluator.calls <= 1 + 64);
        if config.leaves_per_tree > 1 {
            assert!(
                evaluator.calls < 64,
                "{config:?}: {} calls",
                evaluator.calls
            );
        }
    }
}

/// PUCT with tree reuse keeps the subtree of the move played: over a game it needs fewer
/// evaluations than searching each move afresh, for the same budget.
#[test]
fn tree_reuse_saves_evaluations() {
    let mut counts = Vec::new();
    for reuse in [true, false] {
        let config = SearchConfig {
            reuse_tree: reuse,
            scheme: Scheme::Puct(PuctConfig {
                temperature: 0.0,
                ..PuctConfig::default()
            }),
            ..SearchConfig::puct(200)
        };
        let mut evaluator = Checked::new(HashEvaluator);
        let results = play(config, &[TicTacToe::new()], true, &mut evaluator);
        assert!(results[0].len() >= 5);
        counts.push(evaluator.positions);
    }
    assert!(
        counts[0] < counts[1],
        "evaluations with and without reuse: {counts:?}"
    );
}

/// Random whole games through `advance`: the slot empties exactly when the game ends.
#[test]
fn advance_follows_the_game() {
    let mut rng = SmallRng::seed_from_u64(3);
    for config in configs(8) {
        let mut search = BatchedSearch::new(config, &[1]);
        let mut game = TicTacToe::new();
        search.set_root(0, game);
        while !game.is_over() {
            assert_eq!(search.root(0), Some(&game));
            search.run(&mut UniformEvaluator);
            let action = game.random_action(&mut rng);
            game.play(action);
            search.advance(0, action);
        }
        assert_eq!(search.root(0), None);
    }
}

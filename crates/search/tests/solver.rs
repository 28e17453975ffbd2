//! The solver ([`SearchConfig::solve`]) on tic-tac-toe against exhaustive negamax: what it
//! proves is exact, the move it plays keeps the proven value, and a proven root ends the
//! search.

mod common;

use common::{check_proofs, play_configs, reachable};
use oxo_rules::Game;
use oxo_search::{BatchedSearch, SearchConfig, UniformEvaluator};
use oxo_variants::tictactoe::TicTacToe;

/// The play settings with the solver on.
fn solving(simulations: u32) -> Vec<SearchConfig> {
    play_configs(simulations)
        .into_iter()
        .map(|config| SearchConfig {
            solve: true,
            ..config
        })
        .collect()
}

/// Whole games from every third reachable position: every proven root is exact and its move
/// keeps the value, in each setting, and most roots are proven at 800 simulations.
#[test]
fn every_proof_is_exact() {
    let positions: Vec<TicTacToe> = reachable::<TicTacToe>().into_iter().step_by(3).collect();
    for config in solving(800) {
        let (proven, results) = check_proofs(config, &positions, &mut UniformEvaluator);
        assert!(2 * proven > results, "{config:?}: {proven} of {results}");
    }
}

/// X to move with a win at once (X: 0, 1; O: 3, 4): the solver proves it at the first visit
/// of the winning cell and stops, far inside the budget; without it the search spends the
/// whole budget and reports no proof.
#[test]
fn a_proven_root_ends_the_search() {
    let mut game = TicTacToe::new();
    for cell in [0, 3, 1, 4] {
        game.play(cell);
    }
    let budget = 5000;
    for config in solving(budget) {
        for solve in [true, false] {
            let config = SearchConfig { solve, ..config };
            let mut search = BatchedSearch::new(config, &[1]);
            search.set_root(0, game);
            search.run(&mut UniformEvaluator);
            let result = search.result(0).unwrap();
            let visits: u32 = result.visit_counts.iter().sum();
            assert_eq!(result.proven, solve, "{config:?}");
            if solve {
                assert_eq!((result.action, result.value), (2, 1.0), "{config:?}");
                assert!(visits < 100, "{config:?}: {visits} visits");
            } else {
                assert_eq!(visits, budget, "{config:?}");
            }
        }
    }
}

//! Tactics in tic-tac-toe: immediate wins, blocks, and never a losing move from a draw.
//!
//! Each test searches many positions at once (one game slot per position), which also puts
//! the batched search under load.

mod common;

use common::{Checked, ExactEvaluator, Solver, legal, reachable};
use oxo_rules::{Action, Game};
use oxo_search::{BatchedSearch, Evaluator, PuctConfig, Scheme, SearchConfig, UniformEvaluator};
use oxo_variants::tictactoe::TicTacToe;

/// PUCT for play: no root noise, the most visited move.
fn puct(simulations: u32) -> SearchConfig {
    SearchConfig {
        scheme: Scheme::Puct(PuctConfig {
            dirichlet_fraction: 0.0,
            temperature: 0.0,
            ..PuctConfig::default()
        }),
        ..SearchConfig::puct(simulations)
    }
}

/// Gumbel as in self-play, noise included.
fn gumbel(simulations: u32) -> SearchConfig {
    SearchConfig::gumbel(simulations)
}

/// Gumbel for a flat prior (both test evaluators give uniform logits): `c_scale` 1, as in the
/// paper, so that Q outweighs the root noise. The default 0.1 (mctx's) trusts the prior
/// more, which is right for a trained net (docs/experiments.md, section 'The search and the
/// gate') but with a flat prior misses a lone block now and then in 200 simulations:
/// the mixed value of unvisited replies sinks below a drawing reply's Q, so the winning
/// reply can go untried (see `gumbel_rarely_loses_a_draw`).
fn gumbel_flat_prior(simulations: u32) -> SearchConfig {
    let mut config = SearchConfig::gumbel(simulations);
    if let Scheme::Gumbel(gumbel) = &mut config.scheme {
        gumbel.c_scale = 1.0;
    }
    config
}

/// Searches every position, one slot each, and returns the moves chosen.
fn choose<E: Evaluator<TicTacToe>>(
    config: SearchConfig,
    positions: &[TicTacToe],
    evaluator: &mut E,
) -> Vec<Action> {
    let seeds: Vec<u64> = (0..positions.len() as u64).collect();
    let mut search = BatchedSearch::new(config, &seeds);
    for (i, &position) in positions.iter().enumerate() {
        search.set_root(i, position);
    }
    search.run(&mut Checked::new(evaluator));
    (0..positions.len())
        .map(|i| search.result(i).unwrap().action)
        .collect()
}

/// Actions that win on the spot for the player to move.
fn winning_moves(game: &TicTacToe) -> Vec<Action> {
    legal(game)
        .into_iter()
        .filter(|&a| {
            let mut child = *game;
            child.play(a);
            child
                .outcome()
                .is_some_and(|o| o.value_for(game.to_move()) > 0.0)
        })
        .collect()
}

/// Cells where the opponent would win on the spot if it were their turn.
fn threats(game: &TicTacToe) -> Vec<Action> {
    let opponent = game.to_move().other();
    let marks = game.marks(opponent);
    legal(game)
        .into_iter()
        .filter(|&a| oxo_variants::tictactoe::has_line(marks | 1 << a))
        .collect()
}

/// Positions with an immediate win for the mover.
fn win_positions() -> Vec<TicTacToe> {
    reachable::<TicTacToe>()
        .into_iter()
        .filter(|g| !winning_moves(g).is_empty())
        .collect()
}

/// Positions with no win for the mover and one opponent threat whose block does not lose:
/// the block is the only move that does not lose.
fn block_positions(solver: &mut Solver<TicTacToe>) -> Vec<(TicTacToe, Action)> {
    reachable::<TicTacToe>()
        .into_iter()
        .filter(|g| winning_moves(g).is_empty())
        .filter_map(|g| match threats(&g)[..] {
            [block] if solver.action_value(&g, block) >= 0 => Some((g, block)),
            _ => None,
        })
        .collect()
}

/// Checks that the search wins from every position with an immediate win: on the spot with
/// the uniform evaluator; with the exact one, by any move that wins by force (it values a win
/// in three plies exactly like a win now, as the search has no discount).
fn assert_wins<E: Evaluator<TicTacToe>>(config: SearchConfig, evaluator: &mut E, at_once: bool) {
    let mut solver = Solver::new();
    let positions = win_positions();
    assert!(positions.len() > 500);
    let chosen = choose(config, &positions, evaluator);
    for (game, action) in positions.iter().zip(chosen) {
        let wins = if at_once {
            winning_moves(game).contains(&action)
        } else {
            solver.action_value(game, action) > 0
        };
        assert!(wins, "{config:?} missed a win, played {action} in\n{game}");
    }
}

fn assert_blocks<E: Evaluator<TicTacToe>>(config: SearchConfig, evaluator: &mut E) {
    let cases = block_positions(&mut Solver::new());
    assert!(cases.len() > 100);
    let positions: Vec<TicTacToe> = cases.iter().map(|c| c.0).collect();
    let chosen = choose(config, &positions, evaluator);
    for ((game, block), action) in cases.iter().zip(chosen) {
        assert_eq!(action, *block, "{config:?} did not block in\n{game}");
    }
}

#[test]
fn puct_takes_immediate_wins() {
    assert_wins(puct(64), &mut UniformEvaluator, true);
    assert_wins(puct(64), &mut ExactEvaluator::new(), false);
    let parallel = SearchConfig {
        leaves_per_tree: 4,
        ..puct(64)
    };
    assert_wins(parallel, &mut UniformEvaluator, true);
}

#[test]
fn gumbel_takes_immediate_wins() {
    assert_wins(gumbel_flat_prior(32), &mut UniformEvaluator, true);
    assert_wins(gumbel_flat_prior(32), &mut ExactEvaluator::new(), false);
    let parallel = SearchConfig {
        leaves_per_tree: 4,
        ..gumbel_flat_prior(32)
    };
    assert_wins(parallel, &mut UniformEvaluator, true);
}

#[test]
fn puct_blocks() {
    assert_blocks(puct(100), &mut UniformEvaluator);
    assert_blocks(puct(64), &mut ExactEvaluator::new());
}

#[test]
fn gumbel_blocks() {
    assert_blocks(gumbel_flat_prior(200), &mut UniformEvaluator);
    assert_blocks(gumbel_flat_prior(200), &mut ExactEvaluator::new());
}

/// Every drawn position, with how the search's chosen move there scores under perfect play.
fn losing_choices(
    config: SearchConfig,
    draws: &[TicTacToe],
    solver: &mut Solver<TicTacToe>,
) -> Vec<String> {
    let chosen = choose(config, draws, &mut ExactEvaluator::new());
    draws
        .iter()
        .zip(chosen)
        .filter(|&(game, action)| solver.action_value(game, action) < 0)
        .map(|(game, action)| format!("played the losing {action} in\n{game}"))
        .collect()
}

fn drawn_positions(solver: &mut Solver<TicTacToe>) -> Vec<TicTacToe> {
    let draws: Vec<TicTacToe> = reachable::<TicTacToe>()
        .into_iter()
        .filter(|g| solver.value(g) == 0)
        .collect();
    assert!(draws.len() > 1000);
    draws
}

/// From every drawn position, with the exact-value evaluator, PUCT never picks a losing move,
/// whatever the budget.
#[test]
fn puct_never_loses_a_draw() {
    let mut solver = Solver::new();
    let draws = drawn_positions(&mut solver);
    for simulations in [8, 16, 32, 64, 128, 256, 512] {
        let losing = losing_choices(puct(simulations), &draws, &mut solver);
        assert!(losing.is_empty(), "{simulations} simulations: {losing:?}");
    }
}

/// The same for Gumbel, which does not quite hold: in under 1% of drawn positions it picks a
/// losing move, at any budget. This is Gumbel MuZero's interior selection (as in mctx) with a
/// uniform policy, not a bug: an unvisited reply is valued by the mixed value, which drops
/// below a drawing reply's Q once the first replies tried (in action order, as the policy is
/// flat) turn out badly, so the opponent's winning reply may never be tried and the losing
/// move looks drawn. A trained policy puts its mass on such replies.
#[test]
fn gumbel_rarely_loses_a_draw() {
    let mut solver = Solver::new();
    let draws = drawn_positions(&mut solver);
    for simulations in [100, 200, 400] {
        let losing = losing_choices(gumbel(simulations), &draws, &mut solver);
        assert!(
            losing.len() * 100 <= draws.len(),
            "{simulations} simulations: {losing:?}"
        );
    }
}

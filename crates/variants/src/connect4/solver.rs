//! connect4's exact values, from the crate `connect-four-ai`: Pascal Pons' solver (negamax
//! with alpha-beta, a null-window search on the score, move ordering by the threats a move
//! makes, and a transposition table) with an opening book of every position up to 8 discs,
//! compiled into the binary and read when the solver is first used. One solver serves the
//! process, so its table (64 MiB, allocated on first use) keeps what earlier solves learnt.
//! Native builds only (`mod.rs`): the browser's has no room for the table.

use std::sync::{LazyLock, Mutex};

use connect_four_ai::{Position, Solver};
use oxo_rules::Game;

use crate::connect4::{CELLS, Connect4};

/// The one solver of the process, with its opening book and transposition table.
static SOLVER: LazyLock<Mutex<Solver>> = LazyLock::new(|| Mutex::new(Solver::new()));

/// The exact value of a position that is not over, for its mover: the sign of the solver's
/// score (positive: the mover wins, by more the sooner).
pub fn exact_value(game: &Connect4) -> i8 {
    debug_assert!(!game.is_over(), "exact_value of a finished game");
    let position = solver_position(game);
    SOLVER
        .lock()
        .expect("solver poisoned")
        .solve(&position)
        .signum()
}

/// The position as the solver's `Position`, read from its board text (42 cells from the top
/// left, `x` the player to move, `o` the other).
fn solver_position(game: &Connect4) -> Position {
    let mover = game.to_move();
    let (mine, theirs) = (game.discs(mover), game.discs(mover.other()));
    let mut board = [b'.'; CELLS];
    for (cell, square) in board.iter_mut().enumerate() {
        if mine & (1 << cell) != 0 {
            *square = b'x';
        } else if theirs & (1 << cell) != 0 {
            *square = b'o';
        }
    }
    let text = std::str::from_utf8(&board).expect("the board text is ASCII");
    Position::from_board_string(text).expect("a board text of 42 cells")
}

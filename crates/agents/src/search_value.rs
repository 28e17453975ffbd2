//! The value scale shared by the searching agents: heuristic scores stay far below
//! [`WIN`], so a proven win or loss always outweighs any evaluation.

use oxo_rules::{Game, Outcome, Player};

/// The value of a win found at the root; a win `n` moves deeper is worth `WIN - n`, so
/// searches prefer quick wins and slow losses.
pub const WIN: f32 = 1.0e6;

/// The value of a finished game for `player`, reached `ply` moves below the root.
pub fn terminal_value(outcome: Outcome, player: Player, ply: u32) -> f32 {
    match outcome {
        Outcome::Draw => 0.0,
        Outcome::Win(winner) if winner == player => WIN - ply as f32,
        Outcome::Win(_) => -(WIN - ply as f32),
    }
}

/// Converts a child's value (from its own mover's view) to the view of `mover`, the player
/// who moved into it. Equal when the same player moves again (bonus moves, extra turns).
#[inline]
pub fn from_child<G: Game>(child: &G, child_value: f32, mover: Player) -> f32 {
    if child.to_move() == mover {
        child_value
    } else {
        -child_value
    }
}

//! tictactoe: lines still open to one player and not the other, weighted by how many marks
//! they already hold (two marks in an open line is a threat).

use crate::tictactoe::{LINES, TicTacToe};
use oxo_rules::Game;

use oxo_agents::Evaluate;

/// Points for an open line holding 0, 1 or 2 of a player's marks.
const LINE_POINTS: [f32; 3] = [0.0, 1.0, 10.0];

/// Sum over the lines free of `other`'s marks of the points for `own`'s marks in them.
fn line_score(own: u16, other: u16) -> f32 {
    LINES
        .iter()
        .filter(|&&line| line & other == 0)
        .map(|&line| LINE_POINTS[((line & own).count_ones() as usize).min(2)])
        .sum()
}

impl Evaluate for TicTacToe {
    const SOLVABLE: bool = true;

    fn evaluate(&self) -> f32 {
        let me = self.to_move();
        let (own, other) = (self.marks(me), self.marks(me.other()));
        line_score(own, other) - line_score(other, own)
    }
}

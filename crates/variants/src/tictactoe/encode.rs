//! Classic 3x3 tic-tac-toe: the marks, the legal moves and the ones plane.

use crate::tictactoe::{FULL, TicTacToe};
use oxo_rules::Game;

use oxo_encode::{Encode, ONES, Planes};

impl Encode for TicTacToe {
    const PLANES: usize = 4;

    fn plane_names() -> &'static [&'static str] {
        &[
            "mover: cells holding the mover's marks",
            "opponent: cells holding the opponent's marks",
            "legal: cells the mover may play",
            ONES,
        ]
    }

    fn encode(&self, out: &mut [f32]) {
        let mut planes = Planes::new::<Self>(out);
        let mover = self.to_move();
        let (mine, theirs) = (self.marks(mover), self.marks(mover.other()));
        planes.bits(0, mine as u128);
        planes.bits(1, theirs as u128);
        if !self.is_over() {
            planes.bits(2, (FULL & !(mine | theirs)) as u128);
        }
        planes.fill(3, 1.0);
    }
}

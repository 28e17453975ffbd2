//! Tic-tac-toe with a point economy (3x3): marks, legal cells, square costs, the mover's funds,
//! the opponent's balance, and the forced-pass and voluntary-pass flags. The extra action
//! `pass` has no cell; the flags say when it is forced or would end the game.

use crate::paytoplay::{PayToPlay, cost};
use oxo_rules::Game;

use oxo_encode::{Encode, ONES, Planes};

/// Balances are divided by this. They stay within -3..=20 or so; a typical game moves within
/// -3..=8.
const BALANCE_SCALE: f32 = 8.0;

impl Encode for PayToPlay {
    const PLANES: usize = 9;

    fn plane_names() -> &'static [&'static str] {
        &[
            "mover: cells holding the mover's marks",
            "opponent: cells holding the opponent's marks",
            "legal: cells the mover may play (pass, always legal, has no cell)",
            "cost: the price of each square / 4 (edge 2, corner 3, centre 4)",
            "mover funds: the mover's balance after this turn's income / 8",
            "opponent balance: the opponent's balance / 8",
            "must pass: 1 when the mover's funds are 0 or less",
            "pass ends: 1 when the last turn was a voluntary pass, so a voluntary pass ends the game",
            ONES,
        ]
    }

    fn encode(&self, out: &mut [f32]) {
        let mut planes = Planes::new::<Self>(out);
        let mover = self.to_move();
        planes.bits(0, self.marks(mover) as u128);
        planes.bits(1, self.marks(mover.other()) as u128);
        if !self.is_over() && !self.must_pass() {
            planes.bits(2, self.empty() as u128);
        }
        for cell in 0..9 {
            planes.set(3, cell, cost(cell) as f32 / 4.0);
        }
        planes.fill(4, self.funds() as f32 / BALANCE_SCALE);
        planes.fill(5, self.balance(mover.other()) as f32 / BALANCE_SCALE);
        planes.flag(6, !self.is_over() && self.must_pass());
        planes.flag(7, self.after_voluntary_pass());
        planes.fill(8, 1.0);
    }
}

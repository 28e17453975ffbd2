//! connect4: the discs, the landing cells and the cells that win at once for either player.
//! Gravity makes the legal cells a plane of their own (one per open column), and the
//! immediate wins are what a player must take or block this move.

use crate::connect4::{Connect4, completing_cells};
use oxo_rules::Game;

use oxo_encode::{Encode, ONES, Planes};

impl Encode for Connect4 {
    const PLANES: usize = 6;

    fn plane_names() -> &'static [&'static str] {
        &[
            "mover: cells holding the mover's discs",
            "opponent: cells holding the opponent's discs",
            "legal: the lowest empty cell of each column that is not full, where a disc lands",
            "mover wins: legal cells where the mover's disc makes four in a line at once",
            "opponent wins: legal cells where the opponent's disc would make four (to be blocked)",
            ONES,
        ]
    }

    fn encode(&self, out: &mut [f32]) {
        let mut planes = Planes::new::<Self>(out);
        let mover = self.to_move();
        let (mine, theirs) = (self.discs(mover), self.discs(mover.other()));
        planes.bits(0, mine as u128);
        planes.bits(1, theirs as u128);
        let legal = self.playable();
        planes.bits(2, legal as u128);
        planes.bits(3, (legal & completing_cells(mine)) as u128);
        planes.bits(4, (legal & completing_cells(theirs)) as u128);
        planes.fill(5, 1.0);
    }
}

//! The 11x11 adjacency scoring game: marks, legal cells, the special squares, what a placement
//! on each empty cell would score for either player, and both players' points.

use crate::adjacency::{Adjacency, DOUBLE, EXTRA_TURN, FREE, MULTIPLIER, NEIGHBOURS, TRIPLE};
use oxo_rules::Game;

use oxo_encode::{Encode, ONES, Planes};

/// Placement values are divided by this: half the most a placement can score, (1 + 2 x 8) x 3.
const PLACEMENT_SCALE: f32 = 24.0;

/// Points are divided by this: about a player's final total (random play ends near 410).
const POINTS_SCALE: f32 = 400.0;

impl Encode for Adjacency {
    const PLANES: usize = 12;

    fn plane_names() -> &'static [&'static str] {
        &[
            "mover: cells holding the mover's marks",
            "opponent: cells holding the opponent's marks",
            "legal: cells the mover may play",
            "extra turn: the T squares (playing one gives another turn)",
            "triple: the X3 squares",
            "double: the X2 squares",
            "free: the free spaces (filled from the start, nobody's)",
            "mover gain: points the mover would score on each empty cell now / 24",
            "opponent gain: points the opponent would score on each empty cell / 24",
            "mover points: the mover's points so far / 400",
            "opponent points: the opponent's points so far / 400",
            ONES,
        ]
    }

    fn encode(&self, out: &mut [f32]) {
        let mut planes = Planes::new::<Self>(out);
        let mover = self.to_move();
        let opponent = mover.other();
        let (mine, theirs) = (self.marks(mover), self.marks(opponent));
        let empty = self.empty();
        planes.bits(0, mine);
        planes.bits(1, theirs);
        planes.bits(2, empty);
        planes.bits(3, EXTRA_TURN);
        planes.bits(4, TRIPLE);
        planes.bits(5, DOUBLE);
        planes.bits(6, FREE);
        let mut cells = empty;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let near_mine = (NEIGHBOURS[cell] & mine).count_ones() as i32;
            let near_theirs = (NEIGHBOURS[cell] & theirs).count_ones() as i32;
            let gain = |own: i32, other: i32| ((1 + own + 2 * other) * MULTIPLIER[cell]) as f32;
            planes.set(7, cell, gain(near_mine, near_theirs) / PLACEMENT_SCALE);
            planes.set(8, cell, gain(near_theirs, near_mine) / PLACEMENT_SCALE);
        }
        planes.fill(9, self.points(mover) as f32 / POINTS_SCALE);
        planes.fill(10, self.points(opponent) as f32 / POINTS_SCALE);
        planes.fill(11, 1.0);
    }
}

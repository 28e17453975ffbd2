//! Adjacency: the 11x11 scoring game (`docs/RULES.md`, "adjacency").
//!
//! Players alternate placing marks on the empty cells of an 11x11 grid (`A1`..`K11`) until
//! none is left; X moves first. A placement scores
//! `(1 + own marks touching + 2 × opponent marks touching) × multiplier`, where touching means
//! the 8 surrounding cells (diagonals included) as they were before the placement, and the
//! multiplier is 3 on a triple square (`X3`: C3, I3, C9, I9), 2 on a double square (`X2`: D5,
//! H5, D7, H7) and 1 elsewhere. A placement on an extra-turn square (`T`: E3, G3, E9, G9)
//! scores normally and the mover then moves again at once; extra turns chain. The free spaces
//! F1 and F11 are filled from the start, belong to nobody, are never playable (refused as
//! [`IllegalMove::Occupied`]) and never count as touching marks. When no empty cell is left
//! the higher total wins; equal totals draw.
//!
//! Rulings where `docs/RULES.md` and its source text are silent:
//! - A placement on a `T` square that fills the last empty cell ends the game; the extra
//!   turn lapses (there is nothing left to play).
//! - [`Game::scores`] is the points each player has made so far, at every moment, and the
//!   final totals once the game is over.
//!
//! Symmetries: 4, numbered 0 identity, 1 left-right mirror, 2 top-bottom mirror, 3 half turn
//! (the square symmetries 0, 4, 5 and 2 of [`oxo_rules::symmetry`]). The special squares map onto
//! squares of the same kind under each; a quarter turn would move the free spaces.
//!
//! The position is two `u128` bitboards (bit `row * 11 + col`), the two totals and the player
//! to move; points come from a `const` table of neighbour masks and two popcounts.

use std::fmt;

use rand_core::Rng;

use oxo_rules::symmetry::{self, SQUARE_SYMMETRIES};
use oxo_rules::{Action, ActionList, Game, IllegalMove, Outcome, Player, coords, random_below};

mod encode;
mod eval;
#[cfg(test)]
mod tests;

/// Side of the square grid, in cells.
pub const SIZE: usize = 11;

/// Number of cells on the grid (and of actions): 121, free spaces included.
pub const CELLS: usize = SIZE * SIZE;

/// Bit of the cell in column `col` (0 = A), row `row` (0 = row 1).
const fn bit(col: usize, row: usize) -> u128 {
    1 << (row * SIZE + col)
}

/// Every cell of the grid.
pub const BOARD: u128 = (1 << CELLS) - 1;

/// Extra-turn squares `T`: E3, G3, E9, G9.
pub const EXTRA_TURN: u128 = bit(4, 2) | bit(6, 2) | bit(4, 8) | bit(6, 8);

/// Triple squares `X3`: C3, I3, C9, I9.
pub const TRIPLE: u128 = bit(2, 2) | bit(8, 2) | bit(2, 8) | bit(8, 8);

/// Double squares `X2`: D5, H5, D7, H7.
pub const DOUBLE: u128 = bit(3, 4) | bit(7, 4) | bit(3, 6) | bit(7, 6);

/// Free spaces F1 and F11: filled from the start, nobody's, never playable.
pub const FREE: u128 = bit(5, 0) | bit(5, 10);

/// The 119 cells that are played on: the grid without the free spaces.
pub const PLAYABLE: u128 = BOARD & !FREE;

/// For every cell, the mask of its (up to 8) surrounding cells, diagonals included.
pub const NEIGHBOURS: [u128; CELLS] = {
    let mut table = [0u128; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (row, col) = ((cell / SIZE) as isize, (cell % SIZE) as isize);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r, c) = (row + dr, col + dc);
                let inside = r >= 0 && r < SIZE as isize && c >= 0 && c < SIZE as isize;
                if (dr != 0 || dc != 0) && inside {
                    table[cell] |= bit(c as usize, r as usize);
                }
                dc += 1;
            }
            dr += 1;
        }
        cell += 1;
    }
    table
};

/// For every cell, the multiplier of a placement there: 3 on `X3`, 2 on `X2`, else 1.
pub const MULTIPLIER: [i32; CELLS] = {
    let mut table = [1; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        if TRIPLE & (1 << cell) != 0 {
            table[cell] = 3;
        } else if DOUBLE & (1 << cell) != 0 {
            table[cell] = 2;
        }
        cell += 1;
    }
    table
};

/// The kind of a square of the grid, as the rules and the board drawing tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Square {
    /// An ordinary square: multiplier 1, no extra turn.
    Plain,
    /// `T`: the mover moves again after playing here.
    ExtraTurn,
    /// `X3`: a placement here scores three times its points.
    Triple,
    /// `X2`: a placement here scores twice its points.
    Double,
    /// A free space: filled from the start, nobody's, never playable.
    Free,
}

impl Square {
    /// The kind of square `cell` (an index `row * 11 + col`, below [`CELLS`]).
    pub fn of(cell: usize) -> Square {
        let b = 1u128 << cell;
        if EXTRA_TURN & b != 0 {
            Square::ExtraTurn
        } else if TRIPLE & b != 0 {
            Square::Triple
        } else if DOUBLE & b != 0 {
            Square::Double
        } else if FREE & b != 0 {
            Square::Free
        } else {
            Square::Plain
        }
    }

    /// The character drawn on the square while it is empty: `.`, `T`, `3`, `2` or `#`.
    pub fn symbol(self) -> char {
        match self {
            Square::Plain => '.',
            Square::ExtraTurn => 'T',
            Square::Triple => '3',
            Square::Double => '2',
            Square::Free => '#',
        }
    }
}

/// The legend printed under the board, naming the special squares' symbols.
pub const LEGEND: &str = "T extra turn, 3 triple (X3), 2 double (X2), # free space";

const CELL_MAPS: [[u16; CELLS]; SQUARE_SYMMETRIES] = symmetry::square_cell_maps::<CELLS>(SIZE);

/// This variant's symmetries as square symmetry numbers: identity, left-right mirror,
/// top-bottom mirror, half turn.
const SYMMETRIES: [usize; 4] = [0, 4, 5, 2];

/// `SELECT_IN_BYTE[byte][k]`: the position of the `k`-th (from 0) set bit of `byte`.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// A one in every byte: multiplying by it sums bytes upwards (prefix sums) or broadcasts one.
const ONES: u64 = 0x0101_0101_0101_0101;

/// Byte `i` of the result is the number of set bits in bytes `0..=i` of `x` (broadword
/// counting: no popcount instruction needed, which the baseline x86-64 target lacks).
#[inline]
fn byte_prefix_counts(x: u64) -> u64 {
    let pairs = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
    let bytes = (nibbles + (nibbles >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    bytes.wrapping_mul(ONES)
}

/// The index of the `k`-th (from 0) set bit of `x`, given `prefix = byte_prefix_counts(x)`
/// and `k < prefix >> 56`.
#[inline]
fn select_in_word(x: u64, prefix: u64, k: u32) -> u32 {
    // High bit of byte i set exactly when k >= (set bits in bytes 0..=i); no borrows cross
    // bytes since every count is at most 64.
    let passed = (((k as u64 * ONES) | (ONES << 7)) - prefix) & (ONES << 7);
    let byte = (passed >> 7).wrapping_mul(ONES) >> 56;
    let before = ((prefix << 8) >> (8 * byte)) & 0xFF;
    let bits = (x >> (8 * byte)) & 0xFF;
    8 * byte as u32 + SELECT_IN_BYTE[bits as usize][(k - before as u32) as usize] as u32
}

/// A uniformly random set bit of the non-empty `mask`, from one draw of `rng`.
#[inline]
fn random_set_bit<R: Rng + ?Sized>(mask: u128, rng: &mut R) -> u32 {
    let (low, high) = (mask as u64, (mask >> 64) as u64);
    let (low_prefix, high_prefix) = (byte_prefix_counts(low), byte_prefix_counts(high));
    let in_low = (low_prefix >> 56) as u32;
    let count = in_low + (high_prefix >> 56) as u32;
    assert!(count > 0, "random_action called on a finished game");
    let k = random_below(rng, count);
    if k < in_low {
        select_in_word(low, low_prefix, k)
    } else {
        64 + select_in_word(high, high_prefix, k - in_low)
    }
}

/// `BYTE_ONES[byte]`: the number of set bits of `byte`.
const BYTE_ONES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u8).count_ones() as u8;
        byte += 1;
    }
    table
};

/// The number of cells of `bits` touching `cell`: the 3x3 block around `cell` is cut out as a
/// 25-bit window (bits `cell - 12 ..= cell + 12`), its 8 neighbour bits packed into a byte
/// and counted by table (faster than a software popcount of a `u128`).
#[inline]
fn touching(bits: u128, cell: usize) -> i32 {
    let around = bits & NEIGHBOURS[cell];
    let window = if cell > SIZE {
        (around >> (cell - SIZE - 1)) as u32
    } else {
        (around as u32) << (SIZE + 1 - cell)
    };
    // Window bits 0, 1, 2 (row above), 11, 13 (same row), 22, 23, 24 (row below).
    let byte = (window & 0x7) | ((window >> 8) & 0x8) | ((window >> 9) & 0x10) | (window >> 17);
    BYTE_ONES[byte as usize] as i32
}

/// An adjacency position: each player's marks, the points made so far and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Adjacency {
    marks: [u128; 2],
    points: [i32; 2],
    to_move: Player,
}

impl Adjacency {
    /// The cells (bit `row * 11 + col`) holding `player`'s marks.
    #[inline]
    pub fn marks(&self, player: Player) -> u128 {
        self.marks[player.index()]
    }

    /// The mark on `cell`, if any (free spaces hold none).
    pub fn mark_at(&self, cell: usize) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|p| self.marks[p.index()] & (1 << cell) != 0)
    }

    /// The empty playable cells: exactly the legal moves (none once the game is over).
    #[inline]
    pub fn empty(&self) -> u128 {
        PLAYABLE & !(self.marks[0] | self.marks[1])
    }

    /// The points `player` has made so far (the final total once the game is over).
    #[inline]
    pub fn points(&self, player: Player) -> i32 {
        self.points[player.index()]
    }

    /// The points the player to move would make by placing on `cell` now (whether or not it
    /// is empty): `(1 + own touching + 2 × opponent touching) × multiplier`.
    #[inline]
    pub fn placement_points(&self, cell: usize) -> i32 {
        let me = self.to_move.index();
        let own = touching(self.marks[me], cell);
        let theirs = touching(self.marks[1 - me], cell);
        (1 + own + 2 * theirs) * MULTIPLIER[cell]
    }
}

impl Game for Adjacency {
    const NAME: &'static str = "adjacency";
    const WIDTH: usize = SIZE;
    const HEIGHT: usize = SIZE;
    const NUM_ACTIONS: usize = CELLS;
    /// Every action fills one of the 119 playable cells.
    const MAX_PLIES: usize = PLAYABLE.count_ones() as usize;
    const NUM_SYMMETRIES: usize = SYMMETRIES.len();
    const HAS_SCORES: bool = true;

    fn new() -> Self {
        Adjacency {
            marks: [0; 2],
            points: [0; 2],
            to_move: Player::X,
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        oxo_rules::push_set_bits(out, self.empty(), 0);
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if action as usize >= CELLS {
            Err(IllegalMove::OutOfRange)
        } else if self.is_over() {
            Err(IllegalMove::GameOver)
        } else if self.empty() & (1 << action) == 0 {
            Err(IllegalMove::Occupied)
        } else {
            Ok(())
        }
    }

    #[inline]
    fn play(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal action {action}");
        let cell = action as usize;
        let me = self.to_move.index();
        self.points[me] += self.placement_points(cell);
        self.marks[me] |= 1 << cell;
        if EXTRA_TURN & (1 << cell) == 0 {
            self.to_move = self.to_move.other();
        }
    }

    /// O(1): the game is over exactly when no playable cell is empty.
    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        (self.empty() == 0).then(|| Outcome::from_scores(self.points))
    }

    fn scores(&self) -> Option<[i32; 2]> {
        Some(self.points)
    }

    fn map_action(sym: usize, action: Action) -> Action {
        CELL_MAPS[SYMMETRIES[sym]][action as usize]
    }

    fn transformed(&self, sym: usize) -> Self {
        let map = &CELL_MAPS[SYMMETRIES[sym]];
        Adjacency {
            marks: self.marks.map(|bits| symmetry::map_bits(bits, map)),
            ..*self
        }
    }

    #[inline]
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Action {
        random_set_bit(self.empty(), rng) as Action
    }
}

impl fmt::Display for Adjacency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let grid = coords::render_grid(SIZE, SIZE, 0, |cell| match self.mark_at(cell) {
            Some(player) => player.symbol(),
            None => Square::of(cell).symbol(),
        });
        f.write_str(&grid)?;
        writeln!(f, "Squares: {LEGEND}")?;
        writeln!(f, "Points: X {}, O {}", self.points[0], self.points[1])?;
        match self.outcome() {
            None => writeln!(f, "{} to move", self.to_move),
            Some(Outcome::Win(player)) => writeln!(f, "Game over: {player} wins"),
            Some(Outcome::Draw) => writeln!(f, "Game over: draw"),
        }
    }
}

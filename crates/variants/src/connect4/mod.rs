//! Connect Four: 7 columns of 6 cells standing upright; a disc dropped into a column falls to
//! its lowest empty cell. Four of one player's discs in a line (along a row, a column or either
//! diagonal) win at once; a full board without such a line is a draw. X moves first.
//!
//! Actions are cells, `row * 7 + col` in `docs/RULES.md` notation (`A1` top left, `D6` the
//! bottom cell of the centre column), not columns. Every front end (the browser page, terminal
//! play, GTP vertices, the last-move highlight of [`Game::action_cell`]) and the network's policy
//! head speak in cells, so Connect Four needs no special case anywhere; the legal cells are
//! exactly one per column that is not full (its lowest empty cell), so choosing a cell is
//! choosing a column.
//!
//! The position is two 42-bit masks, one per player, in the same cell order. The one symmetry
//! besides the identity is the left-right mirror (gravity rules out the others).
//!
//! Perfect play is known (James D. Allen and Victor Allis, 1988; John Tromp's databases): the
//! first player wins by starting in the centre column. `solver.rs` answers exact values with a
//! solver of Pascal Pons' design.

use std::fmt;

use rand_core::Rng;

use oxo_rules::{Action, ActionList, Game, IllegalMove, Outcome, Player, coords, random_below};

mod encode;
mod eval;
#[cfg(not(target_arch = "wasm32"))]
mod solver;
#[cfg(test)]
mod tests;

/// Number of columns (the grid's width).
pub const COLUMNS: usize = 7;

/// Number of rows (the grid's height); row 0 is the top.
pub const ROWS: usize = 6;

/// Number of cells, and of actions.
pub const CELLS: usize = COLUMNS * ROWS;

/// Every cell of the grid as a bit mask (bit `row * 7 + col`).
pub const FULL: u64 = (1 << CELLS) - 1;

/// The bottom row, where a disc dropped into an empty column lands.
pub const BOTTOM: u64 = 0x7F << (CELLS - COLUMNS);

/// The leftmost column (`A1..A6`); column `c` is this mask shifted left by `c`.
pub const LEFT_COLUMN: u64 = {
    let mut mask = 0u64;
    let mut row = 0;
    while row < ROWS {
        mask |= 1 << (row * COLUMNS);
        row += 1;
    }
    mask
};

/// The four directions a line can take on the grid, as `(shift, has_next)`
/// ([`coords::line_directions`]: right, down, down-right, down-left).
pub const DIRECTIONS: [(u32, u64); 4] = coords::line_directions(COLUMNS, ROWS);

/// The cells whose next cell along direction `(shift, has_next)` is in `cells`.
#[inline]
fn before(cells: u64, (shift, has_next): (u32, u64)) -> u64 {
    (cells >> shift) & has_next
}

/// The cells whose previous cell along direction `(shift, has_next)` is in `cells`.
#[inline]
fn after(cells: u64, (shift, has_next): (u32, u64)) -> u64 {
    (cells & has_next) << shift
}

/// Whether `discs` (a 42-bit mask) holds four in a line.
#[inline]
pub fn has_four(discs: u64) -> bool {
    DIRECTIONS.iter().any(|&direction| {
        let pairs = discs & before(discs, direction);
        pairs & before(before(pairs, direction), direction) != 0
    })
}

/// Every cell, empty or not, where a disc would give `discs` four in a line: the three other
/// cells of some line of four through it are in `discs`. Callers mask it with the cells that
/// interest them (empty, or playable now).
pub fn completing_cells(discs: u64) -> u64 {
    let mut cells = 0;
    for direction in DIRECTIONS {
        // ahead[k]: the next k cells are discs; behind[k]: the previous k cells are.
        let ahead1 = before(discs, direction);
        let ahead2 = ahead1 & before(ahead1, direction);
        let ahead3 = ahead1 & before(ahead2, direction);
        let behind1 = after(discs, direction);
        let behind2 = behind1 & after(behind1, direction);
        let behind3 = behind1 & after(behind2, direction);
        cells |= ahead3 | (behind1 & ahead2) | (behind2 & ahead1) | behind3;
    }
    cells & FULL
}

/// The cells where a disc dropped now would land, given the occupied cells: the empty cells
/// on the bottom row or above an occupied cell.
#[inline]
pub fn landing_cells(occupied: u64) -> u64 {
    !occupied & ((occupied >> COLUMNS) | BOTTOM) & FULL
}

/// The mirror image of a mask: column `c` goes to column `6 - c`, rows stay.
pub fn mirror(cells: u64) -> u64 {
    (0..COLUMNS).fold(0, |out, col| {
        out | ((cells >> col) & LEFT_COLUMN) << (COLUMNS - 1 - col)
    })
}

/// A Connect Four position: one 42-bit mask per player. The player to move follows from the
/// disc count, so equal boards are equal positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Connect4 {
    discs: [u64; 2],
}

impl Connect4 {
    /// The cells (42-bit mask) holding `player`'s discs.
    pub fn discs(&self, player: Player) -> u64 {
        self.discs[player.index()]
    }

    /// The cells holding a disc of either player.
    pub fn occupied(&self) -> u64 {
        self.discs[0] | self.discs[1]
    }

    /// The number of discs on the board (the ply).
    pub fn plies(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The cells where the player to move may drop a disc now (empty once the game is over):
    /// the legal actions as a mask.
    pub fn playable(&self) -> u64 {
        if self.is_over() {
            0
        } else {
            landing_cells(self.occupied())
        }
    }

    /// The playable cells where `player`'s disc would win at once (had they the move): for
    /// the player to move, the winning moves; for the other, the cells the mover must take.
    pub fn winning_cells(&self, player: Player) -> u64 {
        self.playable() & completing_cells(self.discs(player))
    }
}

impl Game for Connect4 {
    const NAME: &'static str = "connect4";
    const WIDTH: usize = COLUMNS;
    const HEIGHT: usize = ROWS;
    const NUM_ACTIONS: usize = CELLS;
    const MAX_PLIES: usize = CELLS;
    /// The identity and the left-right mirror (symmetry 4 of the square numbering in
    /// `oxo_rules::symmetry`).
    const NUM_SYMMETRIES: usize = 2;
    const HAS_SCORES: bool = false;

    fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn to_move(&self) -> Player {
        // X moves when both have dropped the same number of discs.
        Player::from_index(self.plies() as usize % 2)
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        oxo_rules::push_set_bits(out, self.playable() as u128, 0);
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if action as usize >= CELLS {
            return Err(IllegalMove::OutOfRange);
        }
        let bit = 1u64 << action;
        if self.is_over() {
            Err(IllegalMove::GameOver)
        } else if self.occupied() & bit != 0 {
            Err(IllegalMove::Occupied)
        } else if landing_cells(self.occupied()) & bit == 0 {
            Err(IllegalMove::NotNow(
                "a disc falls to the lowest empty cell of its column",
            ))
        } else {
            Ok(())
        }
    }

    #[inline]
    fn play(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal action {action}");
        let mover = self.to_move().index();
        self.discs[mover] |= 1 << action;
    }

    fn outcome(&self) -> Option<Outcome> {
        // Only the last mover can have just made a line: play stops at the first one.
        let last = self.to_move().other();
        if has_four(self.discs(last)) {
            Some(Outcome::Win(last))
        } else {
            (self.occupied() == FULL).then_some(Outcome::Draw)
        }
    }

    fn map_action(sym: usize, action: Action) -> Action {
        let (row, col) = (action as usize / COLUMNS, action as usize % COLUMNS);
        match sym {
            0 => action,
            _ => (row * COLUMNS + COLUMNS - 1 - col) as Action,
        }
    }

    fn transformed(&self, sym: usize) -> Self {
        match sym {
            0 => *self,
            _ => Connect4 {
                discs: self.discs.map(mirror),
            },
        }
    }

    fn winning_action(&self) -> Option<Action> {
        let wins = self.winning_cells(self.to_move());
        (wins != 0).then(|| wins.trailing_zeros() as Action)
    }

    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Action {
        let mut playable = self.playable();
        assert!(playable != 0, "random_action called on a finished game");
        for _ in 0..random_below(rng, playable.count_ones()) {
            playable &= playable - 1;
        }
        playable.trailing_zeros() as Action
    }
}

impl fmt::Display for Connect4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = coords::render_grid(COLUMNS, ROWS, 0, |cell| {
            if self.discs[0] & (1 << cell) != 0 {
                'X'
            } else if self.discs[1] & (1 << cell) != 0 {
                'O'
            } else {
                '.'
            }
        });
        f.write_str(&text)
    }
}

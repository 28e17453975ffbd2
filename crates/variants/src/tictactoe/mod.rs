//! Classic 3x3 tic-tac-toe: the sanity-check variant, whose perfect-play value is a draw.

use std::fmt;

use oxo_rules::symmetry::{self, SQUARE_SYMMETRIES};
use oxo_rules::{Action, ActionList, Game, IllegalMove, Outcome, Player, coords};

mod encode;
mod eval;
#[cfg(test)]
mod tests;

/// The eight lines of a 3x3 board as 9-bit masks (bit `row * 3 + col`).
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// All nine cells of a 3x3 board.
pub const FULL: u16 = 0x1FF;

/// Whether a 9-bit set of cells contains a line, for every set: `LINE_TABLE[mask]`.
pub const LINE_TABLE: [bool; 512] = {
    let mut table = [false; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut line = 0;
        while line < 8 {
            if mask as u16 & LINES[line] == LINES[line] {
                table[mask] = true;
            }
            line += 1;
        }
        mask += 1;
    }
    table
};

/// Whether `cells` (a 9-bit mask) contains three in a row.
#[inline]
pub fn has_line(cells: u16) -> bool {
    LINE_TABLE[(cells & FULL) as usize]
}

const CELL_MAPS: [[u16; 9]; SQUARE_SYMMETRIES] = symmetry::square_cell_maps::<9>(3);

/// A tic-tac-toe position: one 9-bit mask per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    marks: [u16; 2],
}

impl TicTacToe {
    /// The cells (9-bit mask) marked by `player`.
    pub fn marks(&self, player: Player) -> u16 {
        self.marks[player.index()]
    }

    fn empty(&self) -> u16 {
        !(self.marks[0] | self.marks[1]) & FULL
    }
}

impl Game for TicTacToe {
    const NAME: &'static str = "tictactoe";
    const WIDTH: usize = 3;
    const HEIGHT: usize = 3;
    const NUM_ACTIONS: usize = 9;
    const MAX_PLIES: usize = 9;
    const NUM_SYMMETRIES: usize = SQUARE_SYMMETRIES;
    const HAS_SCORES: bool = false;

    fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn to_move(&self) -> Player {
        // X moves when both have placed the same number of marks.
        let placed = self.marks[0].count_ones() + self.marks[1].count_ones();
        Player::from_index(placed as usize % 2)
    }

    fn winning_action(&self) -> Option<Action> {
        if self.is_over() {
            return None;
        }
        let mine = self.marks[self.to_move().index()];
        oxo_rules::first_completing(mine, self.empty(), has_line).map(|cell| cell as Action)
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        if self.is_over() {
            return;
        }
        oxo_rules::push_set_bits(out, self.empty() as u128, 0);
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if action as usize >= Self::NUM_ACTIONS {
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
        let mover = self.to_move().index();
        self.marks[mover] |= 1 << action;
    }

    fn outcome(&self) -> Option<Outcome> {
        for player in Player::BOTH {
            if has_line(self.marks[player.index()]) {
                return Some(Outcome::Win(player));
            }
        }
        (self.empty() == 0).then_some(Outcome::Draw)
    }

    fn map_action(sym: usize, action: Action) -> Action {
        CELL_MAPS[sym][action as usize]
    }

    fn transformed(&self, sym: usize) -> Self {
        let map = |bits: u16| symmetry::map_bits(bits as u128, &CELL_MAPS[sym]) as u16;
        TicTacToe {
            marks: self.marks.map(map),
        }
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = coords::render_grid(3, 3, 0, |cell| {
            if self.marks[0] & (1 << cell) != 0 {
                'X'
            } else if self.marks[1] & (1 << cell) != 0 {
                'O'
            } else {
                '.'
            }
        });
        f.write_str(&text)
    }
}

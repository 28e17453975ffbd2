//! Ultimate tic-tac-toe (9x9): marks, legal moves, the big board (won and closed local boards),
//! the board the mover is sent to, a free-move flag, and where each move sends the next one.
//!
//! The correspondence rule links a cell to a local board up to 8 cells away, which a few 3x3
//! convolutions relate only through many layers learnt from outcomes. So, as KataGo feeds its
//! net ladder and liberty features, the encoding states what the rules make of each cell:
//! each local board carries a miniature of the big board (cell `l` of every board shows board
//! `l`, where a move there sends the opponent: closed, won, or winnable in one move), and the
//! cells that would win their board now are marked.

use crate::tictactoe::LINES;
use crate::ultimate::{Ultimate, cell_of, to_flat};
use oxo_rules::{Game, Player};

use oxo_encode::{Encode, Planes, winning_cells, with_rule_planes};

/// `BOARD_CELLS[b]`: the flat cells of local board `b`, as a mask (bit = cell).
const BOARD_CELLS: [u128; 9] = {
    let mut masks = [0u128; 9];
    let mut board = 0;
    while board < 9 {
        let mut cell = 0;
        while cell < 9 {
            masks[board] |= 1 << cell_of(board, cell);
            cell += 1;
        }
        board += 1;
    }
    masks
};

/// The cells of every local board in `boards` (9-bit mask, bit = board).
fn board_cells(mut boards: u16) -> u128 {
    let mut cells = 0;
    while boards != 0 {
        cells |= BOARD_CELLS[boards.trailing_zeros() as usize];
        boards &= boards - 1;
    }
    cells
}

/// The cells at local position `l` of every board for each board `l` in `boards`: the
/// miniature of the big board, each cell showing the board a move there sends to.
fn miniature(boards: u16) -> u128 {
    (0..9).fold(0, |cells, board| cells | to_flat(boards, board))
}

/// Ultimate's planes: its own eight, the rule planes and the ones plane.
const PLANE_NAMES: [&str; 16] = with_rule_planes([
    "mover: cells holding the mover's marks",
    "opponent: cells holding the opponent's marks",
    "legal: cells the mover may play",
    "mover won: every cell of the local boards the mover has won",
    "opponent won: every cell of the local boards the opponent has won",
    "closed: every cell of the closed local boards (won, or full)",
    "sent: every cell of the local board the mover is sent to (none on a free move)",
    "free move: 1 when the mover may play on any open board",
]);

impl Encode for Ultimate {
    const PLANES: usize = PLANE_NAMES.len();

    fn plane_names() -> &'static [&'static str] {
        &PLANE_NAMES
    }

    fn encode(&self, out: &mut [f32]) {
        let mut planes = Planes::new::<Self>(out);
        let mover = self.to_move();
        let opponent: Player = mover.other();
        planes.bits(0, self.marks(mover));
        planes.bits(1, self.marks(opponent));
        planes.bits(2, self.legal_mask());
        planes.bits(3, board_cells(self.won_boards(mover)));
        planes.bits(4, board_cells(self.won_boards(opponent)));
        planes.bits(5, board_cells(self.closed_boards()));
        match self.sent_to() {
            Some(board) => planes.bits(6, BOARD_CELLS[board]),
            None => planes.flag(7, !self.is_over()),
        }
        let closed = self.closed_boards();
        let mut threats = [0u16; 2];
        let mut wins = [0u128; 2];
        for board in (0..9).filter(|board| closed >> board & 1 == 0) {
            let (mine, theirs) = (
                self.local_marks(mover, board),
                self.local_marks(opponent, board),
            );
            let cells = [
                winning_cells(&LINES, mine, theirs),
                winning_cells(&LINES, theirs, mine),
            ];
            for side in 0..2 {
                threats[side] |= u16::from(cells[side] != 0) << board;
                wins[side] |= to_flat(cells[side], board);
            }
        }
        planes.bits(8, miniature(closed));
        planes.bits(9, miniature(self.won_boards(mover)));
        planes.bits(10, miniature(self.won_boards(opponent)));
        planes.bits(11, miniature(threats[0]));
        planes.bits(12, miniature(threats[1]));
        planes.bits(13, wins[0]);
        planes.bits(14, wins[1]);
        planes.fill(15, 1.0);
    }
}

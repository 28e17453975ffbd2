//! Ultimate tic-tac-toe (9x9): marks, legal moves, the big board (won and closed local boards),
//! the board the mover is sent to, and a free-move flag.

use oxo_rules::ultimate::{Ultimate, cell_of};
use oxo_rules::{Game, Player};

use super::{Encode, ONES, Planes};

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

impl Encode for Ultimate {
    const PLANES: usize = 9;

    fn plane_names() -> &'static [&'static str] {
        &[
            "mover: cells holding the mover's marks",
            "opponent: cells holding the opponent's marks",
            "legal: cells the mover may play",
            "mover won: every cell of the local boards the mover has won",
            "opponent won: every cell of the local boards the opponent has won",
            "closed: every cell of the closed local boards (won, or full)",
            "sent: every cell of the local board the mover is sent to (none on a free move)",
            "free move: 1 when the mover may play on any open board",
            ONES,
        ]
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
        planes.fill(8, 1.0);
    }
}

//! Extreme tic-tac-toe (16x16): marks, legal moves, the big board, the board the mover is sent
//! to, free-move and bonus-move flags, the boards' scoring weights and both players' points,
//! and where each move sends the next one.
//!
//! The correspondence rule links a cell to a small board up to 12 cells away, beyond what a
//! few 3x3 convolutions relate. So, as KataGo feeds its net ladder and liberty features, the
//! encoding states what the rules make of each cell: its small board carries a miniature of
//! the big board (cell `l` of every board shows board `l`: closed, won, or winnable at once),
//! and the cells that would win their board now are marked.

use crate::extreme::{BOARD_WEIGHTS, BOARDS, Extreme, PATTERNS, board_points, cell_at};
use oxo_rules::Game;

use oxo_encode::{Encode, Planes, winning_cells, with_rule_planes};

/// Points are divided by this: half of the 68 points of all sixteen boards, past which a
/// player has nearly always won already.
const POINTS_SCALE: f32 = 34.0;

/// Sets, on `plane`, the cells of board `board` whose local bit is set in `locals`.
fn board_bits(planes: &mut Planes, plane: usize, board: usize, mut locals: u16) {
    while locals != 0 {
        planes.set(plane, cell_at(board, locals.trailing_zeros() as usize), 1.0);
        locals &= locals - 1;
    }
}

/// Sets, on `plane`, every cell of each board in `boards` (16-bit mask, bit = board).
fn whole_boards(planes: &mut Planes, plane: usize, mut boards: u16) {
    while boards != 0 {
        board_bits(planes, plane, boards.trailing_zeros() as usize, u16::MAX);
        boards &= boards - 1;
    }
}

/// Sets, on `plane`, cell `l` of every small board for each board `l` in `boards`: the
/// miniature of the big board that shows, at each cell, the board a move there sends to.
fn miniature(planes: &mut Planes, plane: usize, boards: u16) {
    for board in 0..BOARDS {
        board_bits(planes, plane, board, boards);
    }
}

/// Extreme's planes: its own twelve, the rule planes and the ones plane.
const PLANE_NAMES: [&str; 20] = with_rule_planes([
    "mover: cells holding the mover's marks",
    "opponent: cells holding the opponent's marks",
    "legal: cells the mover may play",
    "mover won: every cell of the small boards the mover has won",
    "opponent won: every cell of the small boards the opponent has won",
    "closed: every cell of the closed small boards (won, or full)",
    "sent: every cell of the small board the mover is sent to (none on a free move)",
    "free move: 1 when the mover may play on any open board",
    "bonus move: 1 when this is the mover's bonus move (it earns no further bonus)",
    "board weight: the tie-break weight of each cell's small board / 6 (corner 6, edge 4, centre 3)",
    "mover points: the mover's weighted points of won boards / 34",
    "opponent points: the opponent's weighted points of won boards / 34",
]);

impl Encode for Extreme {
    const PLANES: usize = PLANE_NAMES.len();

    fn plane_names() -> &'static [&'static str] {
        &PLANE_NAMES
    }

    fn encode(&self, out: &mut [f32]) {
        let mut planes = Planes::new::<Self>(out);
        let mover = self.to_move();
        let opponent = mover.other();
        let (mine, theirs) = (self.marks(mover), self.marks(opponent));
        let playable = self.playable_boards();
        let closed = self.closed_boards();
        let mut threats = [0u16; 2];
        for board in (0..BOARDS).filter(|board| closed >> board & 1 == 0) {
            let cells = [
                winning_cells(&PATTERNS, mine[board], theirs[board]),
                winning_cells(&PATTERNS, theirs[board], mine[board]),
            ];
            for (side, cells) in cells.into_iter().enumerate() {
                board_bits(&mut planes, 17 + side, board, cells);
                threats[side] |= u16::from(cells != 0) << board;
            }
        }
        miniature(&mut planes, 12, closed);
        miniature(&mut planes, 13, self.won_boards(mover));
        miniature(&mut planes, 14, self.won_boards(opponent));
        miniature(&mut planes, 15, threats[0]);
        miniature(&mut planes, 16, threats[1]);
        for board in 0..BOARDS {
            board_bits(&mut planes, 0, board, mine[board]);
            board_bits(&mut planes, 1, board, theirs[board]);
            if playable >> board & 1 != 0 {
                board_bits(&mut planes, 2, board, !(mine[board] | theirs[board]));
            }
            let weight = BOARD_WEIGHTS[board] as f32 / 6.0;
            for local in 0..16 {
                planes.set(9, cell_at(board, local), weight);
            }
        }
        whole_boards(&mut planes, 3, self.won_boards(mover));
        whole_boards(&mut planes, 4, self.won_boards(opponent));
        whole_boards(&mut planes, 5, closed);
        match self.sent_board() {
            Some(board) => whole_boards(&mut planes, 6, 1 << board),
            None => planes.flag(7, !self.is_over()),
        }
        planes.flag(8, self.is_bonus_move());
        planes.fill(
            10,
            board_points(self.won_boards(mover)) as f32 / POINTS_SCALE,
        );
        planes.fill(
            11,
            board_points(self.won_boards(opponent)) as f32 / POINTS_SCALE,
        );
        planes.fill(19, 1.0);
    }
}

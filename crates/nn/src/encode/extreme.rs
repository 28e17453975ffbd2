//! Extreme tic-tac-toe (16x16): marks, legal moves, the big board, the board the mover is sent
//! to, free-move and bonus-move flags, the boards' scoring weights and both players' points.

use oxo_rules::Game;
use oxo_rules::extreme::{BOARD_WEIGHTS, BOARDS, Extreme, board_points, cell_at};

use super::{Encode, ONES, Planes};

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

impl Encode for Extreme {
    const PLANES: usize = 13;

    fn plane_names() -> &'static [&'static str] {
        &[
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
            ONES,
        ]
    }

    fn encode(&self, out: &mut [f32]) {
        let mut planes = Planes::new::<Self>(out);
        let mover = self.to_move();
        let opponent = mover.other();
        let (mine, theirs) = (self.marks(mover), self.marks(opponent));
        let playable = self.playable_boards();
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
        whole_boards(&mut planes, 5, self.closed_boards());
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
        planes.fill(12, 1.0);
    }
}

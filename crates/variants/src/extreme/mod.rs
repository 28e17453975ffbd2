//! Extreme tic-tac-toe: sixteen 4x4 small boards in a 4x4 arrangement, won by rows, columns
//! and diamonds, with bonus moves and a weighted tie-break (`docs/RULES.md`, "extreme").
//!
//! The grid is the flat 16x16 grid `A1..P16`; action `row * 16 + col`. Small board
//! `(row / 4, col / 4)` is numbered `board = (row / 4) * 4 + col / 4`, and a cell's position
//! inside its small board is `local = (row % 4) * 4 + col % 4`. The correspondence rule sends the
//! next move to the small board numbered like the local position of the cell just played.
//!
//! Rules, as implemented:
//! - A pattern on a 4x4 board is one of 12: the 4 rows, the 4 columns and the 4 diamonds
//!   (the four orthogonal neighbours of an inner cell). No diagonals. The big board uses the
//!   same patterns over each player's won small boards.
//! - A small board is closed once won or full; a full board without a pattern counts for
//!   nobody. Sent to a closed board, the mover may play any empty cell of any open board.
//! - A move that wins a small board gives the same player a bonus move at once, sent by the
//!   winning cell (open move if that board is closed). A board won by the bonus move gives no
//!   further bonus; after the bonus move the opponent is sent by the bonus move's cell.
//! - A big-board pattern ends the game at once (the bonus move that would follow is not
//!   played). If every small board is closed without one, the weighted tie-break decides:
//!   corner boards 6, edge boards 4, centre boards 3; higher total wins, equal totals draw.
//!
//! Rulings where `docs/RULES.md` and its source text are silent:
//! - A winning move that closes the last open small board ends the game (tie-break) even
//!   though it would earn a bonus: there is nowhere left to play.
//! - [`Game::check`] reports an empty cell outside the board the mover is sent to as
//!   `WrongBoard` (even if that board is also closed), and an empty cell of a closed board
//!   during an open move as `ClosedBoard`.
//!
//! The position is a small `Copy` value: one 16-bit mask per player and small board
//! (board-major layout), the won and closed boards as 16-bit masks, the board the mover is sent
//! to (recorded as "open move" when the correspondence board is closed, and once the game is
//! over), whether the current move is a bonus move, and the cached outcome. Every field is a
//! function of the game so far that symmetries map, so positions compare canonically.

use std::fmt;

use rand_core::Rng;

use oxo_rules::first_completing;
use oxo_rules::symmetry::{self, SQUARE_SYMMETRIES};
use oxo_rules::{Action, ActionList, Game, IllegalMove, Outcome, Player, coords, random_below};

mod encode;
mod eval;
#[cfg(test)]
mod tests;

/// Cells (and small boards) along one side of a small board (and of the big board).
pub const SIDE: usize = 4;

/// Number of small boards, and of cells on each small board.
pub const BOARDS: usize = 16;

/// Every cell of a 4x4 board (or every small board) as a 16-bit mask.
pub const FULL: u16 = 0xFFFF;

/// The 12 winning patterns of a 4x4 board as 16-bit masks (bit `row * 4 + col`): 4 rows,
/// 4 columns, then the 4 diamonds around the inner cells (1,1), (1,2), (2,1), (2,2).
pub const PATTERNS: [u16; 12] = [
    0x000F, 0x00F0, 0x0F00, 0xF000, // rows
    0x1111, 0x2222, 0x4444, 0x8888, // columns
    0x0252, 0x04A4, 0x2520, 0x4A40, // diamonds
];

/// Whether a 16-bit set contains a pattern, one bit per set: bit `mask % 64` of word
/// `mask / 64`. 8 KiB, so a lookup stays in the L1 cache.
static PATTERN_TABLE: [u64; 1024] = {
    let mut table = [0u64; 1024];
    let mut mask = 0usize;
    while mask < 1 << 16 {
        let mut i = 0;
        while i < PATTERNS.len() {
            let pattern = PATTERNS[i] as usize;
            if mask & pattern == pattern {
                table[mask >> 6] |= 1 << (mask & 63);
                break;
            }
            i += 1;
        }
        mask += 1;
    }
    table
};

/// Whether a 16-bit set of cells (or of won small boards) contains one of the 12 patterns.
#[inline]
pub fn has_pattern(mask: u16) -> bool {
    PATTERN_TABLE[(mask >> 6) as usize] >> (mask & 63) & 1 != 0
}

/// The tie-break weight of each small board: corners 6, edges 4, the four centre boards 3.
pub const BOARD_WEIGHTS: [i32; BOARDS] = [6, 4, 4, 6, 4, 3, 3, 4, 4, 3, 3, 4, 6, 4, 4, 6];

const CORNER_BOARDS: u16 = 0x9009;
const EDGE_BOARDS: u16 = 0x6996;
const CENTRE_BOARDS: u16 = 0x0660;

/// The weighted points of a set of small boards (16-bit mask): what [`Game::scores`] shows and
/// the tie-break compares.
#[inline]
pub fn board_points(boards: u16) -> i32 {
    6 * (boards & CORNER_BOARDS).count_ones() as i32
        + 4 * (boards & EDGE_BOARDS).count_ones() as i32
        + 3 * (boards & CENTRE_BOARDS).count_ones() as i32
}

/// The small board (0..16, row-major over the big board) holding flat cell `cell`.
#[inline]
pub const fn board_of(cell: usize) -> usize {
    (cell >> 6) * SIDE + ((cell & 15) >> 2)
}

/// The position (0..16, `row * 4 + col`) of flat cell `cell` inside its small board; also the
/// small board the correspondence rule sends the next move to.
#[inline]
pub const fn local_of(cell: usize) -> usize {
    ((cell >> 4) & 3) * SIDE + (cell & 3)
}

/// The flat cell at position `local` of small board `board`: inverse of
/// ([`board_of`], [`local_of`]).
#[inline]
pub const fn cell_at(board: usize, local: usize) -> usize {
    ((board >> 2) * SIDE + (local >> 2)) * 16 + (board & 3) * SIDE + (local & 3)
}

/// The 4x4 maps: both the small boards and the cells inside each small board move this way
/// under a symmetry of the flat 16x16 grid.
const MAPS4: [[u16; 16]; SQUARE_SYMMETRIES] = symmetry::square_cell_maps::<16>(4);

/// The flat 16x16 cell maps, for [`Game::map_action`].
const MAPS16: [[u16; 256]; SQUARE_SYMMETRIES] = symmetry::square_cell_maps::<256>(16);

/// `sent` value meaning an open move: any empty cell of any open board.
const OPEN: u8 = BOARDS as u8;

/// An extreme tic-tac-toe position: marks, closed boards, where the mover is sent, whether this
/// is a bonus move, and the outcome once the game ends (74 bytes, `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Extreme {
    /// `marks[player][board]`: the player's cells on that small board (bit `local`).
    marks: [[u16; BOARDS]; 2],
    /// Small boards won by each player.
    won: [u16; 2],
    /// Small boards closed: won, or full without a pattern.
    closed: u16,
    /// The open board the mover must play on, or `OPEN` for an open move (also once over).
    sent: u8,
    /// The player to act.
    mover: Player,
    /// Whether the current move is a bonus move (it cannot earn another bonus).
    bonus: bool,
    /// The outcome, cached by the move that ended the game.
    outcome: Option<Outcome>,
}

impl Extreme {
    /// `player`'s marks, board-major: entry `board` is a 16-bit mask of positions
    /// `local = row * 4 + col` inside that small board. The natural input of an encoder that
    /// works board by board.
    pub fn marks(&self, player: Player) -> [u16; BOARDS] {
        self.marks[player.index()]
    }

    /// `player`'s marks on small board `board` (16-bit mask of local positions).
    pub fn board_marks(&self, player: Player, board: usize) -> u16 {
        self.marks[player.index()][board]
    }

    /// Who holds flat cell `cell` (`row * 16 + col`), if anyone.
    pub fn cell_owner(&self, cell: usize) -> Option<Player> {
        let (board, bit) = (board_of(cell), 1 << local_of(cell));
        Player::BOTH
            .into_iter()
            .find(|p| self.marks[p.index()][board] & bit != 0)
    }

    /// Small boards won by `player` (16-bit mask, bit `board`): their big-board position.
    pub fn won_boards(&self, player: Player) -> u16 {
        self.won[player.index()]
    }

    /// Small boards closed (won by either player, or full without a pattern), as a mask.
    pub fn closed_boards(&self) -> u16 {
        self.closed
    }

    /// The small board the mover must play on, or `None` for an open move (any empty cell of
    /// any open board) and once the game is over.
    pub fn sent_board(&self) -> Option<usize> {
        (self.sent != OPEN).then_some(self.sent as usize)
    }

    /// Whether the current move is a bonus move: the mover just won a small board and moves
    /// again; a board won by this move earns no further bonus.
    pub fn is_bonus_move(&self) -> bool {
        self.bonus
    }

    /// Empty cells of small board `board` (16-bit mask of local positions).
    #[inline]
    fn empty(&self, board: usize) -> u16 {
        !(self.marks[0][board] | self.marks[1][board])
    }

    /// The small boards the mover may play on, as a mask: the sent-to board, or every open
    /// board on an open move; none once the game is over.
    #[inline]
    pub fn playable_boards(&self) -> u16 {
        if self.outcome.is_some() {
            0
        } else if self.sent == OPEN {
            !self.closed
        } else {
            1 << self.sent
        }
    }

    /// Where the correspondence rule sends a move after a cell at `local`: that board, or an
    /// open move if it is closed.
    #[inline]
    fn send_to(&self, local: usize) -> u8 {
        if self.closed & (1 << local) != 0 {
            OPEN
        } else {
            local as u8
        }
    }

    /// Each player's weighted points of the small boards won so far.
    #[inline]
    fn scores_now(&self) -> [i32; 2] {
        [board_points(self.won[0]), board_points(self.won[1])]
    }

    /// Ends the game.
    fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        self.sent = OPEN;
        self.bonus = false;
    }
}

/// `SELECT8[byte][k]`: the position of the `k`-th (from 0) set bit of `byte`.
const SELECT8: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The position of the `k`-th (from 0) set bit of `mask`, which has more than `k` set bits.
/// Branch-free (a byte pick and a table), since `k` is random and loops would mispredict.
#[inline]
fn select_bit(mask: u16, k: u32) -> usize {
    let low = (mask & 0xFF).count_ones();
    let high = k >= low;
    let byte = (mask >> (8 * high as u32)) as u8;
    let k = k - low * high as u32;
    SELECT8[byte as usize][k as usize & 7] as usize + 8 * high as usize
}

impl Game for Extreme {
    const NAME: &'static str = "extreme";
    const WIDTH: usize = 16;
    const HEIGHT: usize = 16;
    const NUM_ACTIONS: usize = 256;
    /// Every action fills one of the 256 cells.
    const MAX_PLIES: usize = 256;
    const NUM_SYMMETRIES: usize = SQUARE_SYMMETRIES;
    const HAS_SCORES: bool = true;
    const BLOCK: usize = 4;
    const HAS_OWNERSHIP: bool = true;

    fn new() -> Self {
        Extreme {
            marks: [[0; BOARDS]; 2],
            won: [0; 2],
            closed: 0,
            sent: OPEN,
            mover: Player::X,
            bonus: false,
            outcome: None,
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.mover
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        // Gather the legal cells row by row of the flat grid so they come out sorted.
        let mut rows = [0u16; 16];
        let mut boards = self.playable_boards();
        while boards != 0 {
            let board = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let empty = self.empty(board);
            for r in 0..SIDE {
                let nibble = (empty >> (4 * r)) & 0xF;
                rows[(board >> 2) * SIDE + r] |= nibble << ((board & 3) * SIDE);
            }
        }
        for (row, &bits) in rows.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                out.push((row * 16 + bits.trailing_zeros() as usize) as Action);
                bits &= bits - 1;
            }
        }
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        let cell = action as usize;
        if cell >= Self::NUM_ACTIONS {
            return Err(IllegalMove::OutOfRange);
        }
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let (board, local) = (board_of(cell), local_of(cell));
        if self.empty(board) & (1 << local) == 0 {
            Err(IllegalMove::Occupied)
        } else if self.sent != OPEN && board != self.sent as usize {
            Err(IllegalMove::WrongBoard)
        } else if self.closed & (1 << board) != 0 {
            Err(IllegalMove::ClosedBoard)
        } else {
            Ok(())
        }
    }

    #[inline]
    fn play(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal action {action}");
        let cell = action as usize;
        let (board, local) = (board_of(cell), local_of(cell));
        let p = self.mover.index();
        self.marks[p][board] |= 1 << local;
        if has_pattern(self.marks[p][board]) {
            self.won[p] |= 1 << board;
            self.closed |= 1 << board;
            if has_pattern(self.won[p]) {
                self.finish(Outcome::Win(self.mover));
                return;
            }
            if self.closed == FULL {
                self.finish(Outcome::from_scores(self.scores_now()));
                return;
            }
            if !self.bonus {
                // The same player moves again, sent by the winning cell.
                self.bonus = true;
                self.sent = self.send_to(local);
                return;
            }
        } else if self.empty(board) == 0 {
            self.closed |= 1 << board;
            if self.closed == FULL {
                self.finish(Outcome::from_scores(self.scores_now()));
                return;
            }
        }
        self.bonus = false;
        self.mover = self.mover.other();
        self.sent = self.send_to(local);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn scores(&self) -> Option<[i32; 2]> {
        Some(self.scores_now())
    }

    fn won_outright(&self) -> bool {
        matches!(self.outcome, Some(Outcome::Win(p)) if has_pattern(self.won[p.index()]))
    }

    fn map_action(sym: usize, action: Action) -> Action {
        MAPS16[sym][action as usize]
    }

    fn transformed(&self, sym: usize) -> Self {
        let map = &MAPS4[sym];
        let map16 = |bits: u16| symmetry::map_bits(bits as u128, map) as u16;
        let mut marks = [[0; BOARDS]; 2];
        for (to, from) in marks.iter_mut().zip(&self.marks) {
            for (board, &bits) in from.iter().enumerate() {
                to[map[board] as usize] = map16(bits);
            }
        }
        Extreme {
            marks,
            won: self.won.map(map16),
            closed: map16(self.closed),
            sent: if self.sent == OPEN {
                OPEN
            } else {
                map[self.sent as usize] as u8
            },
            ..*self
        }
    }

    fn owner(&self, cell: usize) -> Option<Player> {
        let board = board_of(cell);
        Player::BOTH
            .into_iter()
            .find(|&player| self.won_boards(player) >> board & 1 == 1)
    }

    fn winning_action(&self) -> Option<Action> {
        let marks = &self.marks[self.mover.index()];
        let mut rest = self.playable_boards();
        while rest != 0 {
            let board = rest.trailing_zeros() as usize;
            if let Some(local) = first_completing(marks[board], self.empty(board), has_pattern) {
                return Some(cell_at(board, local) as Action);
            }
            rest &= rest - 1;
        }
        None
    }

    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Action {
        assert!(
            self.outcome.is_none(),
            "random_action called on a finished game"
        );
        if self.sent != OPEN {
            let board = self.sent as usize;
            let empty = self.empty(board);
            let local = select_bit(empty, random_below(rng, empty.count_ones()));
            return cell_at(board, local) as Action;
        }
        let open = !self.closed;
        let mut total = 0;
        let mut boards = open;
        while boards != 0 {
            total += self.empty(boards.trailing_zeros() as usize).count_ones();
            boards &= boards - 1;
        }
        let mut k = random_below(rng, total);
        let mut boards = open;
        loop {
            let board = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let empty = self.empty(board);
            let n = empty.count_ones();
            if k < n {
                return cell_at(board, select_bit(empty, k)) as Action;
            }
            k -= n;
        }
    }
}

impl fmt::Display for Extreme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let grid = coords::render_grid(16, 16, SIDE, |cell| match self.cell_owner(cell) {
            Some(player) => player.symbol(),
            None if self.closed & (1 << board_of(cell)) != 0 => ' ',
            None => '.',
        });
        f.write_str(&grid)?;
        writeln!(
            f,
            "Closed boards show no dots. Big board (X or O: won, #: full, .: open):"
        )?;
        for big_row in 0..SIDE {
            let line: String = (0..SIDE)
                .map(|big_col| {
                    let board = big_row * SIDE + big_col;
                    let bit = 1 << board;
                    if self.won[0] & bit != 0 {
                        'X'
                    } else if self.won[1] & bit != 0 {
                        'O'
                    } else if self.closed & bit != 0 {
                        '#'
                    } else {
                        '.'
                    }
                })
                .flat_map(|c| [c, ' '])
                .collect();
            writeln!(f, "    {}", line.trim_end())?;
        }
        let [x, o] = self.scores_now();
        writeln!(
            f,
            "Board points: X {x}, O {o} (corners 6, edges 4, centre 3)"
        )?;
        match self.outcome {
            Some(Outcome::Win(p)) if has_pattern(self.won[p.index()]) => {
                writeln!(f, "Game over: {p} wins with a big-board pattern")
            }
            Some(Outcome::Win(p)) => writeln!(f, "Game over: {p} wins on board points"),
            Some(Outcome::Draw) => writeln!(f, "Game over: draw on board points"),
            None => {
                let bonus = if self.bonus { " (bonus move)" } else { "" };
                match self.sent_board() {
                    Some(board) => {
                        let first = coords::format_cell(cell_at(board, 0), 16);
                        let last = coords::format_cell(cell_at(board, 15), 16);
                        writeln!(f, "{} to move{bonus}, on board {first}-{last}", self.mover)
                    }
                    None => writeln!(f, "{} to move{bonus}, any open board", self.mover),
                }
            }
        }
    }
}

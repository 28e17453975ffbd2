//! Ultimate tic-tac-toe: nine 3x3 local boards in a 3x3 arrangement (`RULES.md`, seed 004).
//!
//! Actions are cells of the flat 9x9 grid, `row * 9 + col` (`A1`..`I9`). Local board `b`
//! (0..9, row-major: `b = 3 * board_row + board_col`) covers rows `3 * (b / 3)..+3` and columns
//! `3 * (b % 3)..+3`; its cell `c` (0..9, row-major inside the board) is the flat cell
//! [`cell_of`]`(b, c)`.
//!
//! Rules, as `RULES.md` settles them:
//! - X moves first, anywhere.
//! - Playing local cell `c` sends the opponent to local board `c`.
//! - A local board is *closed* once it is won (three in a row) or full. A full board without a
//!   line counts for nobody. Sent to a closed board, the mover may play any empty cell of any
//!   open board (a *free move*).
//! - Three won local boards in a row, column or diagonal win the game at once. If every local
//!   board is closed without that, the game is a draw: no tie-break by counting boards.
//!
//! Rulings where the rulebook is silent:
//! - The rulebook gives no order among the reasons a move is refused; [`Game::check`] reports
//!   the first that applies of: out of range, game over, occupied, wrong board (not the
//!   sent-to board), closed board (a free move on a closed board's empty cell).
//! - Once the game is over nobody is sent anywhere: [`Ultimate::sent_to`] is `None`.
//!
//! Implementation: each player's marks are a `u128` over the flat grid (bit = action), so
//! actions need no conversion. A local board's nine cells are three 3-bit runs 9 bits apart
//! below its top-left cell; one multiply gathers them into a 9-bit mask for the 512-entry
//! tables. The cells still open for play are kept incrementally, so a random move is a table
//! pick inside one local board most of the time.

use std::fmt;

use rand_core::Rng;

use crate::symmetry::{self, SQUARE_SYMMETRIES};
use crate::tictactoe::LINE_TABLE;
use crate::{Action, ActionList, Game, IllegalMove, Outcome, Player, coords, random_below};

/// The nine bits of a 3x3 mask: one local board's cells, or the boards of the big board.
const NINE: u16 = 0x1FF;

/// The cells of the top-left local board on the flat grid; board `b`'s are this shifted by
/// its [`ORIGIN`].
const BOARD: u32 = 0x1C0E07;

/// [`Ultimate::sent`] when the mover may play on any open board.
const FREE: u8 = u8::MAX;

/// The flat cell (`row * 9 + col`) of local cell `cell` (0..9) of local board `board` (0..9).
pub const fn cell_of(board: usize, cell: usize) -> usize {
    (board / 3 * 3 + cell / 3) * 9 + board % 3 * 3 + cell % 3
}

/// The local board (0..9) that flat cell `index` lies on.
pub const fn board_of(index: usize) -> usize {
    index / 27 * 3 + index % 9 / 3
}

/// The local cell (0..9, row-major inside its board) of flat cell `index`: also the board a
/// move there sends the opponent to.
pub const fn local_cell_of(index: usize) -> usize {
    index / 9 % 3 * 3 + index % 3
}

/// The flat index of every local board's top-left cell.
const ORIGIN: [u8; 9] = {
    let mut table = [0u8; 9];
    let mut board = 0;
    while board < 9 {
        table[board] = cell_of(board, 0) as u8;
        board += 1;
    }
    table
};

/// The 9-bit local mask of the board whose top-left cell is bit 0 of `spread` (only the bits
/// of [`BOARD`] are read). The multiply moves the three 3-bit rows next to each other: no
/// two partial products overlap, so nothing carries into bits 12..21, and what overflows
/// past bit 31 lies above them.
#[inline]
const fn gather(spread: u32) -> usize {
    ((spread & BOARD).wrapping_mul(1 + (1 << 6) + (1 << 12)) >> 12) as usize & NINE as usize
}

/// The 9-bit local mask of board `origin` (its [`ORIGIN`]) in the flat mask `cells`.
#[inline]
fn local(cells: u128, origin: u32) -> usize {
    gather((cells >> origin) as u32)
}

/// What [`Game::play`] needs to know about an action, packed in one word: bits 0..4 its local
/// board, 4..8 its local cell, 8..16 its board's [`ORIGIN`], 16..24 the origin of the board it
/// sends the opponent to.
const ACTION_INFO: [u32; 81] = {
    let mut table = [0u32; 81];
    let mut index = 0;
    while index < 81 {
        let board = board_of(index);
        let cell = local_cell_of(index);
        table[index] = board as u32
            | (cell as u32) << 4
            | (ORIGIN[board] as u32) << 8
            | (ORIGIN[cell] as u32) << 16;
        index += 1;
    }
    table
};

/// For every 9-bit local mask: the flat offsets (from the board's top-left cell, 0..=20) of its
/// set cells, lowest first, 5 bits each (bits `5k..5k+5` hold the `k`-th), and its number of
/// set bits in bits 48..52. One load gives both the count and the pick of a random move inside
/// a local board.
const PICK: [u64; 512] = {
    let mut table = [0u64; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut count = 0;
        let mut cell = 0;
        while cell < 9 {
            if mask >> cell & 1 != 0 {
                table[mask] |= ((cell / 3 * 9 + cell % 3) as u64) << (5 * count);
                count += 1;
            }
            cell += 1;
        }
        table[mask] |= (count as u64) << 48;
        mask += 1;
    }
    table
};

/// `BYTE_SELECT[byte][k]`: the position of the `k`-th lowest set bit of `byte`.
const BYTE_SELECT: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 != 0 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Ones in the lowest bit of every byte.
const LOW_BYTES: u64 = 0x0101_0101_0101_0101;

/// For each byte of `bits`, the number of set bits in it and the bytes below it (branch-free
/// SWAR: the target may lack `popcnt`). The top byte is the total.
#[inline]
fn byte_prefix_counts(bits: u64) -> u64 {
    let pairs = bits - ((bits >> 1) & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
    let bytes = (nibbles + (nibbles >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    bytes.wrapping_mul(LOW_BYTES)
}

/// The `k`-th lowest set bit of `bits`, given its [`byte_prefix_counts`] (`k` must be below
/// the total): finds the byte by comparing all eight prefix counts with `k` at once, then
/// looks the bit up inside that byte.
#[inline]
fn select64(bits: u64, prefix: u64, k: u32) -> u32 {
    const HIGH_BYTES: u64 = 0x8080_8080_8080_8080;
    // High bit of byte i set where prefix_i <= k: those bytes lie wholly below the pick.
    let below = (((k as u64 * LOW_BYTES) | HIGH_BYTES) - prefix) & HIGH_BYTES;
    let byte = ((below >> 7).wrapping_mul(LOW_BYTES) >> 56) as u32;
    let skipped = ((prefix << 8) >> (8 * byte)) as u32 & 0xFF;
    let in_byte = (bits >> (8 * byte)) as usize & 0xFF;
    8 * byte + BYTE_SELECT[in_byte][(k - skipped) as usize] as u32
}

/// A uniformly random set bit of a non-empty `mask`.
#[inline]
fn random_bit<R: Rng + ?Sized>(rng: &mut R, mask: u128) -> u32 {
    let (low, high) = (mask as u64, (mask >> 64) as u64);
    let (low_prefix, high_prefix) = (byte_prefix_counts(low), byte_prefix_counts(high));
    let low_count = (low_prefix >> 56) as u32;
    let k = random_below(rng, low_count + (high_prefix >> 56) as u32);
    if k < low_count {
        select64(low, low_prefix, k)
    } else {
        64 + select64(high, high_prefix, k - low_count)
    }
}

/// The 8 symmetries on the flat 9x9 grid: the action maps.
const FLAT_MAPS: [[u16; 81]; SQUARE_SYMMETRIES] = symmetry::square_cell_maps::<81>(9);

/// The 8 symmetries on a 3x3 grid: how they move the local boards (a symmetry of the flat
/// grid moves board `b` to board `map(b)`, and cell `c` inside it to cell `map(c)`).
const NINE_MAPS: [[u16; 9]; SQUARE_SYMMETRIES] = symmetry::square_cell_maps::<9>(3);

/// An ultimate tic-tac-toe position.
///
/// Marks and won boards are kept from the mover's side (`[mover, other]`, swapped after every
/// move) so that playing needs no per-player indexing. Every field is a function of the marks
/// and the last move's local cell, so equal positions compare equal however they were reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ultimate {
    /// The marks of the player to move, then of the other (bit = action).
    marks: [u128; 2],
    /// The empty cells of the open boards; empty once the game is over.
    open: u128,
    /// The local boards won by the player to move, then by the other (bit `board`).
    won: [u16; 2],
    /// The closed local boards: won, or full.
    closed: u16,
    /// The [`ORIGIN`] of the board the mover must play on, or [`FREE`] (also once the game
    /// is over).
    sent: u8,
    /// The player to move (index).
    mover: u8,
    /// The result, cached by the move that ends the game.
    outcome: Option<Outcome>,
}

impl Ultimate {
    /// Where `player`'s data sits in the mover-first arrays.
    #[inline]
    fn side(&self, player: Player) -> usize {
        (player.index() as u8 ^ self.mover) as usize
    }

    /// The cells marked by `player`, as a flat mask (bit `row * 9 + col`, the action index):
    /// one plane of a neural-network input.
    pub fn marks(&self, player: Player) -> u128 {
        self.marks[self.side(player)]
    }

    /// Who has marked flat cell `index` (0..81), if anyone.
    pub fn cell(&self, index: usize) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|&p| self.marks(p) >> index & 1 != 0)
    }

    /// The cells `player` has marked on local board `board` (0..9), as a 9-bit mask of local
    /// cells (bit `row * 3 + col` inside the board): the unit of local heuristics.
    pub fn local_marks(&self, player: Player, board: usize) -> u16 {
        local(self.marks(player), ORIGIN[board] as u32) as u16
    }

    /// The local boards won by `player`, as a 9-bit mask (bit `board`): the big board.
    pub fn won_boards(&self, player: Player) -> u16 {
        self.won[self.side(player)]
    }

    /// The closed local boards (won by either player, or full), as a 9-bit mask. A closed board
    /// with no winner is full and counts for nobody.
    pub fn closed_boards(&self) -> u16 {
        self.closed
    }

    /// The local board (0..9) the mover must play on, or `None` for a free move (the first
    /// move, or when sent to a closed board) and once the game is over.
    pub fn sent_to(&self) -> Option<usize> {
        (self.sent != FREE).then(|| board_of(self.sent as usize))
    }

    /// The legal moves as a flat mask (bit = action): the policy mask. Empty once the game is
    /// over.
    pub fn legal_mask(&self) -> u128 {
        if self.sent == FREE {
            self.open
        } else {
            self.open & (BOARD as u128) << self.sent
        }
    }
}

impl Game for Ultimate {
    const NAME: &'static str = "ultimate";
    const WIDTH: usize = 9;
    const HEIGHT: usize = 9;
    const NUM_ACTIONS: usize = 81;
    const MAX_PLIES: usize = 81;
    const NUM_SYMMETRIES: usize = SQUARE_SYMMETRIES;
    const HAS_SCORES: bool = false;

    fn new() -> Self {
        Ultimate {
            marks: [0; 2],
            open: (1u128 << 81) - 1,
            won: [0; 2],
            closed: 0,
            sent: FREE,
            mover: 0,
            outcome: None,
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        Player::from_index(self.mover as usize)
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        let mut legal = self.legal_mask();
        while legal != 0 {
            out.push(legal.trailing_zeros() as Action);
            legal &= legal - 1;
        }
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if action as usize >= Self::NUM_ACTIONS {
            return Err(IllegalMove::OutOfRange);
        }
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let board = board_of(action as usize);
        if (self.marks[0] | self.marks[1]) >> action & 1 != 0 {
            Err(IllegalMove::Occupied)
        } else if self.sent_to().is_some_and(|sent| sent != board) {
            Err(IllegalMove::WrongBoard)
        } else if self.closed >> board & 1 != 0 {
            Err(IllegalMove::ClosedBoard)
        } else {
            Ok(())
        }
    }

    #[inline]
    fn play(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal action {action}");
        let info = ACTION_INFO[action as usize];
        let board = info & 0xF;
        let cell = info >> 4 & 0xF;
        let origin = info >> 8 & 0xFF;
        let mine = self.marks[0] | 1u128 << action;
        let mut won = self.won[0];
        let mut open = self.open & !(1u128 << action);
        let mut closed = self.closed;
        if LINE_TABLE[local(mine, origin)] {
            won |= 1 << board;
            closed |= 1 << board;
            open &= !((BOARD as u128) << origin);
            if LINE_TABLE[won as usize] {
                self.outcome = Some(Outcome::Win(Player::from_index(self.mover as usize)));
                open = 0;
            }
        } else if (open >> origin) as u32 & BOARD == 0 {
            closed |= 1 << board;
        }
        if closed == NINE && self.outcome.is_none() {
            self.outcome = Some(Outcome::Draw);
        }
        self.sent = if self.outcome.is_some() || closed >> cell & 1 != 0 {
            FREE
        } else {
            (info >> 16) as u8
        };
        self.marks = [self.marks[1], mine];
        self.won = [self.won[1], won];
        self.open = open;
        self.closed = closed;
        self.mover ^= 1;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[inline]
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Action {
        assert!(
            self.outcome.is_none(),
            "random_action called on a finished game"
        );
        if self.sent != FREE {
            let origin = self.sent as u32;
            let pick = PICK[local(self.open, origin)];
            let k = random_below(rng, (pick >> 48) as u32);
            (origin + ((pick >> (5 * k)) as u32 & 0x1F)) as Action
        } else {
            random_bit(rng, self.open) as Action
        }
    }

    fn map_action(sym: usize, action: Action) -> Action {
        FLAT_MAPS[sym][action as usize]
    }

    fn transformed(&self, sym: usize) -> Self {
        let cells = |bits: u128| symmetry::map_bits(bits, &FLAT_MAPS[sym]);
        let boards = |bits: u16| symmetry::map_bits(bits as u128, &NINE_MAPS[sym]) as u16;
        Ultimate {
            marks: self.marks.map(cells),
            open: cells(self.open),
            won: self.won.map(boards),
            closed: boards(self.closed),
            sent: match self.sent_to() {
                None => FREE,
                Some(board) => ORIGIN[NINE_MAPS[sym][board] as usize],
            },
            mover: self.mover,
            outcome: self.outcome,
        }
    }
}

/// The name of local board `board` by its corner cells, e.g. `D4-F6` for the centre board.
fn board_name(board: usize) -> String {
    format!(
        "{}-{}",
        coords::format_cell(cell_of(board, 0), 9),
        coords::format_cell(cell_of(board, 8), 9)
    )
}

impl fmt::Display for Ultimate {
    /// The 9x9 grid with the local boards separated, then the big board (`X`/`O` won, `#` full
    /// without a line, `*` the board the mover is sent to, `.` open) and whose turn it is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let grid = coords::render_grid(9, 9, 3, |index| match self.cell(index) {
            Some(player) => player.symbol(),
            None => '.',
        });
        f.write_str(&grid)?;
        writeln!(f, "Big board (X/O won, # full, * sent to, . open):")?;
        for row in 0..3 {
            let line: Vec<String> = (0..3)
                .map(|col| {
                    let board = row * 3 + col;
                    let symbol = if self.won_boards(Player::X) >> board & 1 != 0 {
                        'X'
                    } else if self.won_boards(Player::O) >> board & 1 != 0 {
                        'O'
                    } else if self.closed >> board & 1 != 0 {
                        '#'
                    } else if self.sent_to() == Some(board) {
                        '*'
                    } else {
                        '.'
                    };
                    symbol.to_string()
                })
                .collect();
            writeln!(f, "    {}", line.join(" "))?;
        }
        match (self.outcome, self.sent_to()) {
            (Some(Outcome::Win(player)), _) => writeln!(f, "Game over: {player} wins."),
            (Some(Outcome::Draw), _) => writeln!(f, "Game over: draw."),
            (None, Some(board)) => writeln!(
                f,
                "{} to move on board {}.",
                self.to_move(),
                board_name(board)
            ),
            (None, None) => writeln!(f, "{} to move on any open board.", self.to_move()),
        }
    }
}

//! xando: Sid Sackson's "X and O" (GAMES magazine 1979; rules in `docs/RULES.md`, "xando").
//!
//! A 6x6 grid; one position holds a whole **round** of two games, the unit of play and reward.
//!
//! - **Game 1** opens with four blackening moves, X, O, X, O (only `#cell` actions are legal
//!   then). The players then alternate, X first, each claiming an empty square with their
//!   symbol, 16 turns each, until the grid is full.
//! - **Game 2** starts on a fresh grid holding the same four opening black squares (not squares
//!   blackened on a last turn). O moves first; again 16 turns each.
//! - On a player's **last turn** of a game (their 16th) they may blacken an empty square
//!   instead of claiming it: both the cell and the `#cell` actions are legal then.
//! - **Scoring** ([`score_marks`], [`score_grid`]): every maximal run of a player's symbols
//!   along a row, a column or either diagonal scores by its length ([`RUN_POINTS`]:
//!   2 → +1, 3 → −5, 4 → +10, 5 → −15, 6 → +25). The round goes to the higher total over both
//!   games; equal totals draw.
//!
//! Actions: `0..36` claim cell `row * 6 + col`; `36 + cell` ([`BLACKEN`] + cell), written
//! `#C3`, blackens it.
//!
//! Rulings where `docs/RULES.md` is silent:
//! - **Scores during play** ([`Game::scores`]) are the round totals so far: game 1's running
//!   score (the runs as they stand) during game 1, then game 1's final score plus game 2's
//!   running score.
//! - **Refusals.** A move of the wrong kind (claiming during the opening, blackening before
//!   one's last turn) is refused with [`IllegalMove::NotNow`] even when the square is also
//!   taken; a move of the right kind on a taken square with [`IllegalMove::Occupied`].
//! - **What the position keeps.** Game 1's grid is dropped when game 2 starts: only its final
//!   scores matter to the rest of the round, so positions that agree on them are equal.
//!
//! A round always lasts 4 + 32 + 32 = 68 turns ([`Game::MAX_PLIES`]).

use std::fmt;

use oxo_rules::symmetry::{self, SQUARE_SYMMETRIES};
use oxo_rules::{Action, ActionList, Game, IllegalMove, Outcome, ParseMoveError, Player, coords};

mod encode;
mod eval;
#[cfg(test)]
mod tests;

/// Side of the grid.
pub const SIZE: usize = 6;

/// Number of cells: claiming actions are `0..CELLS`.
pub const CELLS: usize = SIZE * SIZE;

/// Offset of the blackening actions: `BLACKEN + cell` blackens `cell` (written `#C3`).
pub const BLACKEN: Action = CELLS as Action;

/// Every cell of the grid as a bit mask (bit `row * 6 + col`).
pub const FULL: u64 = (1 << CELLS) - 1;

/// Black squares placed at the start of game 1, two by each player.
pub const OPENING_SQUARES: u32 = 4;

/// Turns each player takes in each game after the opening (the last one may blacken).
pub const TURNS_PER_PLAYER: u32 = 16;

/// Points for a maximal run of a player's symbols, indexed by its length (0 and 1 score 0).
pub const RUN_POINTS: [i32; SIZE + 1] = [0, 0, 1, -5, 10, -15, 25];

/// The four directions a run can take ([`coords::line_directions`]).
const DIRECTIONS: [(u32, u64); 4] = coords::line_directions(SIZE, SIZE);

const CELL_MAPS: [[u16; CELLS]; SQUARE_SYMMETRIES] = symmetry::square_cell_maps::<CELLS>(SIZE);

/// How many maximal runs of each length (index 2..=6; indices 0 and 1 stay 0) the symbols
/// `marks` (a 36-bit mask) form along rows, columns and both diagonals. Anything that is not in
/// `marks` (an empty square, an opponent's symbol, a black square, the edge) ends a run.
pub fn run_counts(marks: u64) -> [i32; SIZE + 1] {
    // windows[k]: how many k-long stretches of a line lie wholly inside `marks`. A run of
    // length n holds n - k + 1 of them, so runs of exactly length k number
    // windows[k] - 2 windows[k + 1] + windows[k + 2].
    let mut windows = [0i32; SIZE + 3];
    for (shift, has_next) in DIRECTIONS {
        let mut starts = marks & FULL;
        for count in windows.iter_mut().take(SIZE + 1).skip(2) {
            starts = marks & (starts >> shift) & has_next;
            if starts == 0 {
                break;
            }
            *count += starts.count_ones() as i32;
        }
    }
    let mut runs = [0; SIZE + 1];
    for (length, run) in runs.iter_mut().enumerate().skip(2) {
        *run = windows[length] - 2 * windows[length + 1] + windows[length + 2];
    }
    runs
}

/// The score of one player's symbols `marks` (a 36-bit mask): the [`RUN_POINTS`] of every
/// maximal run along rows, columns and both diagonals. Pure, so heuristics can score any grid.
pub fn score_marks(marks: u64) -> i32 {
    let runs = run_counts(marks);
    (2..=SIZE)
        .map(|length| runs[length] * RUN_POINTS[length])
        .sum()
}

/// The scores `[X, O]` of a grid given each player's symbols (black and empty squares need no
/// mask: they simply are not anybody's symbols).
pub fn score_grid(x_marks: u64, o_marks: u64) -> [i32; 2] {
    [score_marks(x_marks), score_marks(o_marks)]
}

/// The `n`-th (from 0) set bit of `mask`.
#[inline]
fn nth_bit(mut mask: u64, n: u32) -> u32 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// A position in a round of X and O: the current game's grid, the opening black squares, and
/// game 1's final scores once game 2 has started. Whose turn it is follows from the number of
/// filled squares and the game number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XAndO {
    marks: [u64; 2],
    black: u64,
    opening: u64,
    first_game: [i16; 2],
    second_game: bool,
    outcome: Option<Outcome>,
}

impl XAndO {
    /// Which game of the round is being played: 1 or 2.
    pub fn game_number(&self) -> usize {
        if self.second_game { 2 } else { 1 }
    }

    /// The squares (36-bit mask) holding `player`'s symbol on the current grid.
    pub fn marks(&self, player: Player) -> u64 {
        self.marks[player.index()]
    }

    /// Every black square on the current grid: the opening ones and any blackened on a last
    /// turn of this game.
    pub fn black(&self) -> u64 {
        self.black
    }

    /// The opening black squares (those placed so far during game 1's opening; all four
    /// afterwards). Game 2 starts with exactly these.
    pub fn opening_black(&self) -> u64 {
        self.opening
    }

    /// The empty squares of the current grid.
    pub fn empty(&self) -> u64 {
        !(self.marks[0] | self.marks[1] | self.black) & FULL
    }

    /// Whether game 1's opening is under way: the mover must blacken a square.
    pub fn in_opening(&self) -> bool {
        !self.second_game && self.opening.count_ones() < OPENING_SQUARES
    }

    /// Whether the mover is on their last turn of the game and so may blacken a square
    /// instead of claiming it.
    pub fn on_last_turn(&self) -> bool {
        self.outcome.is_none() && self.empty().count_ones() <= 2
    }

    /// How many claiming turns (the last of which may blacken) `player` has left in the
    /// current game: 16 during the opening, 0 once the game is over.
    pub fn turns_left(&self, player: Player) -> u32 {
        if self.outcome.is_some() {
            return 0;
        }
        let taken = (CELLS as u32 - OPENING_SQUARES).saturating_sub(self.empty().count_ones());
        let first = if self.second_game {
            Player::O
        } else {
            Player::X
        };
        let mine = if player == first {
            taken.div_ceil(2)
        } else {
            taken / 2
        };
        TURNS_PER_PLAYER - mine
    }

    /// Game 1's final scores `[X, O]`, once game 2 has started.
    pub fn first_game_scores(&self) -> Option<[i32; 2]> {
        self.second_game.then_some(self.first_game.map(i32::from))
    }

    /// The current game's running scores `[X, O]`: the runs on the current grid as they stand.
    pub fn game_scores(&self) -> [i32; 2] {
        score_grid(self.marks[0], self.marks[1])
    }

    /// The round totals `[X, O]`: game 1's final scores (once known) plus the current game's.
    pub fn round_scores(&self) -> [i32; 2] {
        let current = self.game_scores();
        let first = self.first_game.map(i32::from);
        [first[0] + current[0], first[1] + current[1]]
    }

    /// The legal actions as two masks: squares that may be claimed, and squares that may be
    /// blackened.
    #[inline]
    fn legal_masks(&self) -> (u64, u64) {
        if self.outcome.is_some() {
            (0, 0)
        } else if self.in_opening() {
            (0, self.empty())
        } else if self.on_last_turn() {
            (self.empty(), self.empty())
        } else {
            (self.empty(), 0)
        }
    }

    /// Ends the current game once its grid is full: game 1 hands over to game 2, game 2 ends
    /// the round.
    fn finish_game(&mut self) {
        if self.second_game {
            self.outcome = Some(Outcome::from_scores(self.round_scores()));
        } else {
            self.first_game = self.game_scores().map(|score| score as i16);
            self.marks = [0; 2];
            self.black = self.opening;
            self.second_game = true;
        }
    }
}

impl Game for XAndO {
    const NAME: &'static str = "xando";
    const WIDTH: usize = SIZE;
    const HEIGHT: usize = SIZE;
    const NUM_ACTIONS: usize = 2 * CELLS;
    const MAX_PLIES: usize = OPENING_SQUARES as usize + 4 * TURNS_PER_PLAYER as usize;
    const NUM_SYMMETRIES: usize = SQUARE_SYMMETRIES;
    const HAS_SCORES: bool = true;

    fn new() -> Self {
        XAndO {
            marks: [0; 2],
            black: 0,
            opening: 0,
            first_game: [0; 2],
            second_game: false,
            outcome: None,
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        // Game 1: X moves when an even number of squares is filled (X opens, and the four
        // opening squares keep the parity). Game 2 starts with four filled and O to move.
        let filled = CELLS as u32 - self.empty().count_ones();
        Player::from_index(((filled & 1) ^ self.second_game as u32) as usize)
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        let (claim, blacken) = self.legal_masks();
        oxo_rules::push_set_bits(out, claim as u128, 0);
        oxo_rules::push_set_bits(out, blacken as u128, BLACKEN);
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if action as usize >= Self::NUM_ACTIONS {
            return Err(IllegalMove::OutOfRange);
        }
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let cell = action % BLACKEN;
        if action >= BLACKEN {
            if !self.in_opening() && !self.on_last_turn() {
                return Err(IllegalMove::NotNow(
                    "you may blacken a square only on your last turn of the game",
                ));
            }
        } else if self.in_opening() {
            return Err(IllegalMove::NotNow(
                "the game opens with four blackening moves: blacken a square (#C3)",
            ));
        }
        if self.empty() & (1 << cell) == 0 {
            return Err(IllegalMove::Occupied);
        }
        Ok(())
    }

    #[inline]
    fn play(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal action {action}");
        if action >= BLACKEN {
            let bit = 1u64 << (action - BLACKEN);
            if self.in_opening() {
                self.opening |= bit;
            }
            self.black |= bit;
        } else {
            let mover = self.to_move().index();
            self.marks[mover] |= 1u64 << action;
        }
        if self.empty() == 0 {
            self.finish_game();
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn scores(&self) -> Option<[i32; 2]> {
        Some(self.round_scores())
    }

    fn map_action(sym: usize, action: Action) -> Action {
        if action >= BLACKEN {
            BLACKEN + CELL_MAPS[sym][(action - BLACKEN) as usize]
        } else {
            CELL_MAPS[sym][action as usize]
        }
    }

    fn transformed(&self, sym: usize) -> Self {
        let map = |bits: u64| symmetry::map_bits(bits as u128, &CELL_MAPS[sym]) as u64;
        XAndO {
            marks: self.marks.map(map),
            black: map(self.black),
            opening: map(self.opening),
            ..*self
        }
    }

    fn format_action(action: Action) -> String {
        if action >= BLACKEN {
            format!(
                "#{}",
                coords::format_cell((action - BLACKEN) as usize, SIZE)
            )
        } else {
            coords::format_cell(action as usize, SIZE)
        }
    }

    fn action_cell(action: Action) -> Option<usize> {
        ((action as usize) < 2 * CELLS).then_some((action % BLACKEN) as usize)
    }

    fn parse_action(text: &str) -> Result<Action, ParseMoveError> {
        let error = || ParseMoveError {
            text: text.to_string(),
            expected: "a cell A1..F6, or #A1..#F6 to blacken it".to_string(),
        };
        let trimmed = text.trim();
        let (offset, cell) = match trimmed.strip_prefix('#') {
            Some(rest) if !rest.starts_with(char::is_whitespace) => (BLACKEN, rest),
            Some(_) => return Err(error()),
            None => (0, trimmed),
        };
        coords::parse_cell(cell, SIZE, SIZE)
            .map(|cell| offset + cell as Action)
            .map_err(|_| error())
    }

    #[inline]
    fn random_action<R: rand_core::Rng + ?Sized>(&self, rng: &mut R) -> Action {
        assert!(
            self.outcome.is_none(),
            "random_action called on a finished game"
        );
        let empty = self.empty();
        let count = empty.count_ones();
        if self.in_opening() {
            BLACKEN + nth_bit(empty, oxo_rules::random_below(rng, count)) as Action
        } else if self.on_last_turn() {
            let pick = oxo_rules::random_below(rng, 2 * count);
            if pick < count {
                nth_bit(empty, pick) as Action
            } else {
                BLACKEN + nth_bit(empty, pick - count) as Action
            }
        } else {
            nth_bit(empty, oxo_rules::random_below(rng, count)) as Action
        }
    }
}

impl fmt::Display for XAndO {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = coords::render_grid(SIZE, SIZE, 0, |cell| {
            let bit = 1u64 << cell;
            if self.marks[0] & bit != 0 {
                'X'
            } else if self.marks[1] & bit != 0 {
                'O'
            } else if self.black & bit != 0 {
                '#'
            } else {
                '.'
            }
        });
        f.write_str(&text)?;
        let [x, o] = self.round_scores();
        write!(
            f,
            "Game {} of 2. Round scores: X {x}, O {o}",
            self.game_number()
        )?;
        if let Some([x1, o1]) = self.first_game_scores() {
            let [x2, o2] = self.game_scores();
            write!(f, " (game 1: X {x1}, O {o1}; game 2: X {x2}, O {o2})")?;
        }
        writeln!(f)?;
        let opening: Vec<String> = (0..CELLS)
            .filter(|&cell| self.opening & (1 << cell) != 0)
            .map(|cell| coords::format_cell(cell, SIZE))
            .collect();
        writeln!(f, "Opening black squares: {}", opening.join(" "))?;
        match self.outcome {
            Some(Outcome::Win(player)) => writeln!(f, "Round over: {player} wins {x} to {o}"),
            Some(Outcome::Draw) => writeln!(f, "Round over: draw, {x} all"),
            None => {
                let player = self.to_move();
                if self.in_opening() {
                    writeln!(f, "{player} to move: blacken a square (#C3)")
                } else if self.on_last_turn() {
                    writeln!(
                        f,
                        "{player} to move, last turn: claim a square or blacken one (#C3)"
                    )
                } else {
                    writeln!(
                        f,
                        "{player} to move, {} turns left",
                        self.turns_left(player)
                    )
                }
            }
        }
    }
}

//! paytoplay: tic-tac-toe with a point economy (`docs/RULES.md`, "paytoplay").
//!
//! Each player has a balance, starting at 0. At the start of each turn the mover is credited
//! income: [`FIRST_INCOME`] (1) on the very first turn of the game, [`INCOME`] (2) on every later
//! turn, passing turns included. With a strictly positive balance after the income the mover
//! may place a mark on an empty cell, paying its [`cost`] (edge 2, corner 3, centre 4; the
//! balance may go negative), or pass ([`PASS`], action 9); with 0 or less they must pass. Three
//! in a row wins at once. Two *voluntary* passes in a row (one by each player, no other turn
//! between) end the game; forced passes never count. When the board fills without a line, or
//! the game ends by passes, the higher balance wins and equal balances draw.
//!
//! Rulings where `docs/RULES.md` is silent:
//! - **Displayed balances** ([`Game::scores`], [`PayToPlay::balance`]) are the balances after
//!   the last completed turn: they do *not* include the income the player to move is about to
//!   receive. This is how the worked example lists them ("Bob 0, Alice -3" right after Alice's
//!   first move, before Bob is credited). [`PayToPlay::funds`] gives the mover's balance with the
//!   pending income, which is what decides whether they may place.
//! - **Reasons for refusal.** A cell move by a mover who must pass is refused with
//!   [`IllegalMove::NotEnoughBalance`] even when the cell is also occupied: passing is the only
//!   legal move, and that is what the player needs to hear.
//!
//! **Length of a game** ([`Game::MAX_PLIES`] = 21). Balances never drop below -3 (a placement
//! is made with at least 1 and costs at most 4; a forced pass starts from at least -3 and adds
//! 2). A forced pass needs a balance of -2 or less before the income, which only a placement
//! on a corner or the centre can leave, and the pass itself leaves -1 or 0, so each forced pass
//! follows its player's own placement on one of those 5 cells: at most 5 forced passes. Every
//! voluntary pass but the game's last turn is followed by a placement or a forced pass, so
//! voluntary passes number at most placements + forced passes + 1, and a game lasts at most
//! 2 × (9 + 5) + 1 = 29 turns. The exact longest game, found by the exhaustive search in the
//! tests over all 114,810 reachable unfinished positions, has 21 turns: X passes voluntarily
//! eight times while O places five marks and is forced to pass twice.

use std::fmt;

use crate::tictactoe::{FULL, has_line};
use oxo_rules::symmetry::{self, SQUARE_SYMMETRIES};
use oxo_rules::{Action, ActionList, Game, IllegalMove, Outcome, ParseMoveError, Player, coords};

mod encode;
mod eval;
#[cfg(test)]
mod tests;

/// The `pass` action: index `width * height` = 9, written `pass`.
pub const PASS: Action = 9;

/// Income credited at the start of the game's very first turn.
pub const FIRST_INCOME: i32 = 1;

/// Income credited at the start of every later turn, passes included.
pub const INCOME: i32 = 2;

/// What a mark costs on each cell: one point per line through it (corner 3, edge 2, centre 4).
const COSTS: [i8; 9] = [3, 2, 3, 2, 4, 2, 3, 2, 3];

const CELL_MAPS: [[u16; 9]; SQUARE_SYMMETRIES] = symmetry::square_cell_maps::<9>(3);

/// What placing a mark on `cell` (0..9) costs: edge 2, corner 3, centre 4.
#[inline]
pub fn cost(cell: usize) -> i32 {
    COSTS[cell] as i32
}

/// A paytoplay position: the marks, the balances after the last turn, the player to move and
/// the two facts the rules need about the past (has any turn been played, was the last turn a
/// voluntary pass). Everything else follows from these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PayToPlay {
    marks: [u16; 2],
    balances: [i8; 2],
    mover: Player,
    started: bool,
    voluntary_pass: bool,
    outcome: Option<Outcome>,
}

impl PayToPlay {
    /// The cells (9-bit mask, bit `row * 3 + col`) marked by `player`.
    pub fn marks(&self, player: Player) -> u16 {
        self.marks[player.index()]
    }

    /// The empty cells as a 9-bit mask.
    pub fn empty(&self) -> u16 {
        !(self.marks[0] | self.marks[1]) & FULL
    }

    /// `player`'s balance after the last completed turn, as displayed (without the income the
    /// player to move is about to receive).
    pub fn balance(&self, player: Player) -> i32 {
        self.balances[player.index()] as i32
    }

    /// The income the player to move is credited at the start of this turn: 1 on the game's
    /// very first turn, 2 afterwards.
    pub fn income(&self) -> i32 {
        if self.started { INCOME } else { FIRST_INCOME }
    }

    /// The mover's balance once this turn's income is credited: they may place a mark only if
    /// it is positive.
    pub fn funds(&self) -> i32 {
        self.balance(self.mover) + self.income()
    }

    /// Whether the player to move must pass (their funds are 0 or less). A forced pass never
    /// helps end the game.
    pub fn must_pass(&self) -> bool {
        self.funds() <= 0
    }

    /// Whether the last turn was a voluntary pass, so that a voluntary pass now ends the game.
    pub fn after_voluntary_pass(&self) -> bool {
        self.voluntary_pass
    }

    /// The legal actions as a 10-bit mask (bit 9 is [`PASS`]); 0 once the game is over.
    #[inline]
    fn legal_mask(&self) -> u16 {
        if self.outcome.is_some() {
            0
        } else if self.must_pass() {
            1 << PASS
        } else {
            self.empty() | 1 << PASS
        }
    }
}

impl Game for PayToPlay {
    const NAME: &'static str = "paytoplay";
    const WIDTH: usize = 3;
    const HEIGHT: usize = 3;
    const NUM_ACTIONS: usize = 10;
    const MAX_PLIES: usize = 21;
    const NUM_SYMMETRIES: usize = SQUARE_SYMMETRIES;
    const HAS_SCORES: bool = true;

    fn new() -> Self {
        PayToPlay {
            marks: [0; 2],
            balances: [0; 2],
            mover: Player::X,
            started: false,
            voluntary_pass: false,
            outcome: None,
        }
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.mover
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        oxo_rules::push_set_bits(out, self.legal_mask() as u128, 0);
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if action as usize >= Self::NUM_ACTIONS {
            Err(IllegalMove::OutOfRange)
        } else if self.outcome.is_some() {
            Err(IllegalMove::GameOver)
        } else if action == PASS {
            Ok(())
        } else if self.must_pass() {
            Err(IllegalMove::NotEnoughBalance)
        } else if self.empty() & (1 << action) == 0 {
            Err(IllegalMove::Occupied)
        } else {
            Ok(())
        }
    }

    #[inline]
    fn play(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal action {action}");
        let me = self.mover.index();
        let funds = self.funds();
        if action == PASS {
            self.balances[me] = funds as i8;
            let voluntary = funds > 0;
            if voluntary && self.voluntary_pass {
                self.outcome = Some(Outcome::from_scores(self.balances.map(i32::from)));
            }
            self.voluntary_pass = voluntary;
        } else {
            self.balances[me] = (funds - cost(action as usize)) as i8;
            self.marks[me] |= 1 << action;
            self.voluntary_pass = false;
            if has_line(self.marks[me]) {
                self.outcome = Some(Outcome::Win(self.mover));
            } else if self.empty() == 0 {
                self.outcome = Some(Outcome::from_scores(self.balances.map(i32::from)));
            }
        }
        self.started = true;
        self.mover = self.mover.other();
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn scores(&self) -> Option<[i32; 2]> {
        Some(self.balances.map(i32::from))
    }

    fn won_outright(&self) -> bool {
        matches!(self.outcome, Some(Outcome::Win(p)) if has_line(self.marks[p.index()]))
    }

    fn map_action(sym: usize, action: Action) -> Action {
        if action == PASS {
            PASS
        } else {
            CELL_MAPS[sym][action as usize]
        }
    }

    fn transformed(&self, sym: usize) -> Self {
        let map = |bits: u16| symmetry::map_bits(bits as u128, &CELL_MAPS[sym]) as u16;
        PayToPlay {
            marks: self.marks.map(map),
            ..*self
        }
    }

    fn format_action(action: Action) -> String {
        if action == PASS {
            "pass".to_string()
        } else {
            coords::format_cell(action as usize, Self::WIDTH)
        }
    }

    fn parse_action(text: &str) -> Result<Action, ParseMoveError> {
        if text.trim().eq_ignore_ascii_case("pass") {
            return Ok(PASS);
        }
        coords::parse_cell(text, Self::WIDTH, Self::HEIGHT)
            .map(|cell| cell as Action)
            .map_err(|error| ParseMoveError {
                expected: format!("{} or pass", error.expected),
                ..error
            })
    }

    #[inline]
    fn random_action<R: rand_core::Rng + ?Sized>(&self, rng: &mut R) -> Action {
        let mut mask = self.legal_mask();
        assert!(mask != 0, "random_action called on a finished game");
        for _ in 0..oxo_rules::random_below(rng, mask.count_ones()) {
            mask &= mask - 1;
        }
        mask.trailing_zeros() as Action
    }
}

impl fmt::Display for PayToPlay {
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
        f.write_str(&text)?;
        writeln!(
            f,
            "Balances: X {}, O {}  (costs: edge 2, corner 3, centre 4)",
            self.balances[0], self.balances[1]
        )?;
        match self.outcome {
            Some(Outcome::Win(player)) => writeln!(f, "Game over: {player} wins"),
            Some(Outcome::Draw) => writeln!(f, "Game over: draw"),
            None => {
                let player = self.mover;
                write!(
                    f,
                    "{player} to move: income {}, funds {}",
                    self.income(),
                    self.funds()
                )?;
                if self.must_pass() {
                    write!(f, ", must pass")?;
                } else {
                    write!(f, ", may place or pass")?;
                }
                if self.voluntary_pass {
                    write!(f, " (a voluntary pass now ends the game)")?;
                }
                writeln!(f)
            }
        }
    }
}

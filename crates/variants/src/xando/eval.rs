//! xando: the round totals so far plus what the runs on the current grid are still likely to
//! become.
//!
//! A run scores by its length only once the grid is full, and lengths are not monotone:
//! 2 → +1, 3 → −5, 4 → +10, 5 → −15, 6 → +25. So a run of 3 with an empty cell at its end is
//! worth more than its present −5 (it may still become a 4), a run of 4 with empty cells
//! beside it is worth less than +10 (it may be pushed into a 5), and so on. The evaluation,
//! from the view of the player to move, is:
//!
//! - **Game 1's result**, once game 2 is under way: it is part of the round total and can no
//!   longer change. During game 1 the whole of game 2 is still to come; its expected
//!   difference is taken as zero (the grids start alike and each player opens one game).
//! - **The expected final score of the current grid**, for the mover minus for the opponent.
//!   Every line (row, column, diagonal) is scored as the *expected* value of a player's runs
//!   in it if each of its empty cells were to end up with that player with probability
//!   [`OWN_SHARE`] (and otherwise with anyone or anything else), precomputed in [`EXPECTED`]
//!   for every pattern of a line. With no empty cell left this is exactly the present score
//!   ([`XAndO::game_scores`]); with empty cells it credits open runs of 3 and 5 with their
//!   chance of growing into 4 and 6, docks open runs of 2 and 4 for the risk of growing into
//!   3 and 5, and fades as the remaining turns run out. Black squares, opponent symbols and
//!   the edge close runs, as in the rules.
//!
//! [`OWN_SHARE`] is below one half on purpose: a cell is one player's only if they spend a
//! turn on it, while the opponent is also choosing, and blocks exactly the cells that would
//! make a run score. The value was chosen in matches of `greedy` against `uct:sims=2000`, where
//! 0.35 did better than 0.5 and 0.6.
//!
//! There is no tempo term: every position a fixed-depth search compares has the same number
//! of turns played, so a bonus for the mover would be the same for all of them.

use crate::xando::{RUN_POINTS, SIZE, XAndO};
use oxo_rules::{Game, Player};

use oxo_agents::Evaluate;

/// The probability with which a player is assumed to end up with each empty cell of a line.
const OWN_SHARE: f64 = 0.35;

/// A cell index beyond the grid: its bit is never set in any mask, so it pads short lines
/// (it acts like the edge).
const PAD: u8 = 63;

/// Number of lines with room for a run: 6 rows, 6 columns and 9 diagonals of length 2 to 6
/// in each direction.
const NUM_LINES: usize = 2 * SIZE + 2 * (2 * SIZE - 3);

/// The cells of every line in order along it, padded with [`PAD`].
const LINES: [[u8; SIZE]; NUM_LINES] = {
    let mut lines = [[PAD; SIZE]; NUM_LINES];
    let mut n = 0;
    let mut i = 0;
    while i < SIZE {
        let mut k = 0;
        while k < SIZE {
            lines[n][k] = (i * SIZE + k) as u8; // row i
            lines[n + 1][k] = (k * SIZE + i) as u8; // column i
            k += 1;
        }
        n += 2;
        i += 1;
    }
    // Diagonals: down-right from (row, col) and down-left from (row, SIZE - 1 - col), starting
    // on the top row or the outer column, keeping those of length 2 or more.
    let mut start = 0;
    while start < 2 * SIZE - 3 {
        // start 0..SIZE-1: from the top row, column SIZE-2-start .. ; then from the side.
        let (row0, col0) = if start < SIZE - 1 {
            (0, SIZE - 2 - start)
        } else {
            (start - (SIZE - 2), 0)
        };
        let mut k = 0;
        while row0 + k < SIZE && col0 + k < SIZE {
            lines[n][k] = ((row0 + k) * SIZE + col0 + k) as u8;
            lines[n + 1][k] = ((row0 + k) * SIZE + (SIZE - 1 - col0 - k)) as u8;
            k += 1;
        }
        n += 2;
        start += 1;
    }
    lines
};

/// The score of the runs in one line whose occupied cells are the low `SIZE` bits of `bits`
/// (in order along the line).
const fn line_score(bits: usize) -> i32 {
    let mut total = 0;
    let mut run = 0;
    let mut i = 0;
    while i <= SIZE {
        if i < SIZE && (bits >> i) & 1 == 1 {
            run += 1;
        } else {
            total += RUN_POINTS[run];
            run = 0;
        }
        i += 1;
    }
    total
}

/// `EXPECTED[own | empty << 6]`: the expected score of a player's runs in one line holding
/// that player's symbols at `own` and empty cells at `empty` (6-bit patterns along the line),
/// if every empty cell went to that player with probability [`OWN_SHARE`], independently.
const EXPECTED: [f32; 1 << (2 * SIZE)] = {
    let mut table = [0.0f32; 1 << (2 * SIZE)];
    let mut index = 0;
    while index < table.len() {
        let own = index & ((1 << SIZE) - 1);
        let empty = index >> SIZE;
        if own & empty == 0 {
            let mut sum = 0.0f64;
            let mut subset = empty;
            loop {
                // The chance that exactly the cells of `subset` go to the player.
                let mut chance = 1.0f64;
                let mut k = 0;
                while k < SIZE {
                    if (empty >> k) & 1 == 1 {
                        chance *= if (subset >> k) & 1 == 1 {
                            OWN_SHARE
                        } else {
                            1.0 - OWN_SHARE
                        };
                    }
                    k += 1;
                }
                sum += chance * line_score(own | subset) as f64;
                if subset == 0 {
                    break;
                }
                subset = (subset - 1) & empty;
            }
            table[index] = sum as f32;
        }
        index += 1;
    }
    table
};

/// The 6-bit pattern of `mask` along `line`.
#[inline]
fn pattern(mask: u64, line: &[u8; SIZE]) -> usize {
    let mut bits = 0;
    for (k, &cell) in line.iter().enumerate() {
        bits |= ((mask >> cell) as usize & 1) << k;
    }
    bits
}

/// The expected final score of the current grid for `own` minus that for `other`.
fn expected_difference(own: u64, other: u64, empty: u64) -> f32 {
    LINES
        .iter()
        .map(|line| {
            let free = pattern(empty, line) << SIZE;
            EXPECTED[pattern(own, line) | free] - EXPECTED[pattern(other, line) | free]
        })
        .sum()
}

impl Evaluate for XAndO {
    fn evaluate(&self) -> f32 {
        let me: Player = self.to_move();
        let them = me.other();
        let first = self.first_game_scores().unwrap_or([0, 0]);
        let settled = (first[me.index()] - first[them.index()]) as f32;
        settled + expected_difference(self.marks(me), self.marks(them), self.empty())
    }
}

#[cfg(test)]
mod tests {
    use crate::xando::{SIZE, XAndO};
    use oxo_rules::{Game, Player};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::{EXPECTED, LINES, line_score};
    use oxo_agents::{Agent, AgentSpec, Evaluate, GreedyAgent};

    /// The position after `moves` (`#E1` blackens, `A1` claims) from the start.
    fn after(moves: &[&str]) -> XAndO {
        let mut game = XAndO::new();
        for text in moves {
            game.try_play(XAndO::parse_action(text).unwrap()).unwrap();
        }
        game
    }

    /// Opening blacks E1 (closing row 1 after D1) and three far-away squares; X builds along
    /// row 1, O scatters single symbols on row 3.
    const BUILD: [&str; 10] = [
        "#E1", "#F6", "#A6", "#C6", "A1", "A3", "B1", "C3", "C1", "E3",
    ];

    #[test]
    fn table_is_the_score_when_no_cell_is_empty() {
        for (own, &value) in EXPECTED.iter().enumerate().take(1 << SIZE) {
            assert_eq!(value, line_score(own) as f32);
        }
        assert_eq!(line_score(0b111100), 10);
        assert_eq!(line_score(0b111011), 1 - 5);
        // An open run of 3 may still become 4; an open run of 4 may be pushed to 5.
        const { assert!(EXPECTED[0b000111 | 0b001000 << SIZE] > -5.0) };
        const { assert!(EXPECTED[0b001111 | 0b010000 << SIZE] < 10.0) };
    }

    #[test]
    fn lines_cover_every_run() {
        assert_eq!(LINES.len(), 30);
        // Every cell lies on exactly 4 lines (row, column, two diagonals) except the four
        // corners, whose second diagonal is the corner alone.
        for cell in 0..36u8 {
            let count = LINES.iter().filter(|line| line.contains(&cell)).count();
            let corner = [0, 5, 30, 35].contains(&cell);
            assert_eq!(count, if corner { 3 } else { 4 }, "cell {cell}");
        }
    }

    #[test]
    fn closed_four_puts_its_owner_ahead() {
        let mut moves = BUILD.to_vec();
        moves.push("D1"); // X: A1-D1, closed by the edge and the black E1: +10
        let game = after(&moves);
        assert_eq!(game.to_move(), Player::O);
        assert!(game.evaluate() < -5.0, "{}", game.evaluate());
        moves.push("B5");
        let game = after(&moves);
        assert_eq!(game.to_move(), Player::X);
        assert!(game.evaluate() > 5.0, "{}", game.evaluate());
    }

    #[test]
    fn greedy_turns_a_three_into_a_four() {
        let game = after(&BUILD);
        assert_eq!(game.to_move(), Player::X);
        let mut agent = GreedyAgent::from_spec(&"greedy".parse::<AgentSpec>().unwrap()).unwrap();
        let action = Agent::<XAndO>::choose(&mut agent, &game);
        assert_eq!(XAndO::format_action(action), "D1");
    }

    #[test]
    fn game_two_starts_from_game_one_result() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut game = XAndO::new();
        while game.game_number() == 1 {
            game.play(game.random_action(&mut rng));
        }
        // A fresh grid: both players' prospects are alike, so only game 1 counts.
        let first = game.first_game_scores().unwrap();
        let me = game.to_move().index();
        assert_eq!(game.evaluate(), (first[me] - first[1 - me]) as f32);
    }
}

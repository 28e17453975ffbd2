//! connect4: the handcrafted evaluation, and exact values from a perfect solver.
//!
//! The evaluation counts, for each player, every window of four cells in a line that holds
//! none of the opponent's discs, weighted by how many of the player's discs it already holds;
//! discs in the centre column, which lies in the most windows; and threats, empty cells that
//! would complete a four, worth more on the rows where they tend to decide the endgame
//! (odd rows counted from the bottom for X, even rows for O: zugzwang leaves those to their
//! owner). A mover who can win at once, or who faces two immediate wins, is scored as won or
//! lost. Everything is bitboard arithmetic on the rules' masks; nothing allocates.
//!
//! Exact values come from `solver.rs` (native builds only: the browser's has no room for the
//! solver's table).

use crate::connect4::{CELLS, COLUMNS, Connect4, FULL, LEFT_COLUMN, ROWS, completing_cells};
use oxo_rules::{Game, Player};

use oxo_agents::Evaluate;

/// Points for a window of four free of the opponent's discs, by how many of the player's
/// discs it holds (0 to 3; four would be a finished game).
const WINDOW_POINTS: [i32; 4] = [0, 1, 4, 16];

/// Points for each of a player's discs in the centre column.
const CENTRE_POINTS: i32 = 3;

/// Points for each empty cell that would complete one of the player's fours.
const THREAT_POINTS: i32 = 10;

/// Extra points for such a threat on one of the player's own rows ([`GOOD_ROWS`]).
const GOOD_ROW_POINTS: i32 = 8;

/// The mover can win at once, or the opponent has two immediate wins that one move cannot
/// both block: far above anything the window sums reach (below 2000).
const DECIDED: i32 = 3000;

/// Every window of four cells in a line (row, column or diagonal): 69 masks.
const WINDOWS: [u64; 69] = {
    let mut windows = [0u64; 69];
    let mut count = 0;
    // (row step, column step) of the four directions: right, down, down-right, down-left.
    let steps: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut d = 0;
    while d < 4 {
        let (dr, dc) = steps[d];
        let mut cell = 0;
        while cell < CELLS {
            let (row, col) = ((cell / COLUMNS) as isize, (cell % COLUMNS) as isize);
            let (end_row, end_col) = (row + 3 * dr, col + 3 * dc);
            if end_row < ROWS as isize && end_col >= 0 && end_col < COLUMNS as isize {
                let mut window = 0u64;
                let mut k = 0;
                while k < 4 {
                    window |= 1 << ((row + k * dr) as usize * COLUMNS + (col + k * dc) as usize);
                    k += 1;
                }
                windows[count] = window;
                count += 1;
            }
            cell += 1;
        }
        d += 1;
    }
    assert!(count == 69);
    windows
};

/// The centre column (`D1..D6`).
const CENTRE: u64 = LEFT_COLUMN << (COLUMNS / 2);

/// The rows where each player's threats count extra, `[X, O]`: X's are the odd rows counted
/// from the bottom (indices 5, 3 and 1 from the top), O's the even ones.
const GOOD_ROWS: [u64; 2] = {
    let row = 0x7Fu64;
    let odd = row << (5 * COLUMNS) | row << (3 * COLUMNS) | row << COLUMNS;
    [odd, odd ^ FULL]
};

/// The points of `player`'s discs `own` against the opponent's `other`.
fn side_points(player: Player, own: u64, other: u64) -> i32 {
    let windows: i32 = WINDOWS
        .iter()
        .filter(|&&window| window & other == 0)
        .map(|&window| WINDOW_POINTS[((window & own).count_ones() as usize).min(3)])
        .sum();
    let threats = completing_cells(own) & !(own | other);
    let good = threats & GOOD_ROWS[player.index()];
    windows
        + CENTRE_POINTS * (own & CENTRE).count_ones() as i32
        + THREAT_POINTS * threats.count_ones() as i32
        + GOOD_ROW_POINTS * good.count_ones() as i32
}

impl Evaluate for Connect4 {
    const SOLVABLE: bool = cfg!(not(target_arch = "wasm32"));

    fn evaluate(&self) -> f32 {
        let me = self.to_move();
        if self.winning_cells(me) != 0 {
            return DECIDED as f32;
        }
        if self.winning_cells(me.other()).count_ones() >= 2 {
            return -DECIDED as f32;
        }
        let (own, other) = (self.discs(me), self.discs(me.other()));
        (side_points(me, own, other) - side_points(me.other(), other, own)) as f32
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn exact_value(&self) -> Option<i8> {
        Some(crate::connect4::solver::exact_value(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::replay;

    #[test]
    fn the_windows_are_distinct_lines_of_four() {
        for (i, window) in WINDOWS.iter().enumerate() {
            assert_eq!(window.count_ones(), 4);
            assert!(WINDOWS[..i].iter().all(|other| other != window));
        }
    }

    #[test]
    fn the_centre_is_worth_more_than_the_edge() {
        // After X's first disc, O is to move: the centre disc looks worse for O.
        let centre: Connect4 = replay(&["D6"]);
        let edge: Connect4 = replay(&["A6"]);
        assert!(centre.evaluate() < edge.evaluate());
        assert!(centre.evaluate() < 0.0);
    }

    #[test]
    fn immediate_wins_and_double_threats_decide() {
        // X has D6, D5, D4: X to move wins at once in D3.
        let win: Connect4 = replay(&["D6", "A6", "D5", "A5", "D4", "B6"]);
        assert_eq!(win.evaluate(), DECIDED as f32);
        // X has B6, C6, D6 with A6 and E6 both open: O, to move, cannot block both.
        let lost: Connect4 = replay(&["C6", "C5", "D6", "D5", "B6"]);
        assert_eq!(lost.evaluate(), -DECIDED as f32);
    }

    #[test]
    fn evaluations_are_mirror_symmetric_and_bounded() {
        let game: Connect4 = replay(&["D6", "C6", "C5", "E6", "B6", "D5", "E5"]);
        assert_eq!(game.evaluate(), game.transformed(1).evaluate());
        assert!(game.evaluate().abs() < DECIDED as f32);
    }
}

//! extreme: a two-level evaluation. The big board decides the game, so every small board is
//! priced by what winning it is worth on the big board (open big patterns through it, how
//! close they are, the tie-break weight), and each player's chances on an open small board
//! (open patterns and threats) take a share of that price. The player to move also gets
//! credit for the move itself: a small board they can win right now (with its bonus move),
//! or a free choice of board.
//!
//! All arithmetic is on small integers from the rules' bitboards (`PATTERNS`, one 16-bit mask
//! per player and board); nothing allocates. The result is converted to `f32` at the end and
//! stays below [`LIMIT`] in size (see [`squash`]).

use crate::extreme::{BOARD_WEIGHTS, BOARDS, Extreme, PATTERNS, board_points};
use oxo_rules::Game;

use oxo_agents::Evaluate;

/// Points for a big-board pattern still open to a player (no board of it won by the
/// opponent, closed without a winner, or no longer winnable by the player), by how many of its
/// four boards the player has won.
/// Index 4 is not a position (the game is over) but sets the price of the last board: a
/// pattern with three won boards makes its fourth board worth `BIG[4] - BIG[3]`.
const BIG: [i32; 5] = [1, 12, 40, 120, 3000];

/// Points per tie-break point (corner 6, edge 4, centre 3) of a won small board. Boards
/// decide the game on points when no big pattern is made, and the weights also break ties
/// between otherwise equal boards.
const TIE: i32 = 3;

/// Points per tie-break point once no big pattern is open to either player: the tie-break
/// then decides the game, so boards count for much more.
const TIE_DECIDES: i32 = 40;

/// Points for a small-board pattern still open to a player (no opponent mark in it), by how
/// many of its four cells the player holds. Three marks is a threat: one move wins the board.
const LINE: [i32; 4] = [0, 1, 4, 14];

/// A player's chances on an open small board are `min(points, CHANCE_CAP) / CHANCE_SCALE` of
/// what winning it would gain: one threat (with the open patterns around it) is about half,
/// and no amount of preparation exceeds 0.6. Winning the board therefore always scores more
/// than keeping the threat.
const CHANCE_CAP: i32 = 24;
/// See [`CHANCE_CAP`].
const CHANCE_SCALE: i32 = 40;

/// The mover can win a small board this move: this many tenths of what winning it gains are
/// added (on top of the chances, staying below the whole gain).
const WIN_NOW_TENTHS: i32 = 3;

/// The mover can win the game this move (a threat on a playable board that completes a big
/// pattern): added on top, so such a position ranks above any merely good one.
const WIN_IN_ONE: i32 = 6000;

/// Sent to a closed board, the mover chooses any open board: a tempo worth a few points.
const FREE_MOVE: i32 = 6;

/// Evaluations stay below this size, far below a proven win (`search_value::WIN`).
pub const LIMIT: f32 = 9000.0;

/// Scores up to this size are returned as they are; larger ones are compressed (see
/// [`squash`]).
const LINEAR: f32 = 2000.0;

/// Maps a raw score into `(-LIMIT, LIMIT)`: the identity up to [`LINEAR`], then a smooth
/// saturating curve. Strictly increasing, so a position that is even more lost (several
/// boards each completing a big pattern) still ranks below a merely lost one: a hard clamp
/// would make every move of a bad position look alike and the search give up defending.
#[inline]
fn squash(score: i32) -> f32 {
    let s = score as f32;
    let x = s.abs() - LINEAR;
    if x <= 0.0 {
        s
    } else {
        let room = LIMIT - LINEAR;
        (LINEAR + room * x / (x + room)).copysign(s)
    }
}

/// Per-pattern mark counts, bit-sliced: pattern `i` owns the 3-bit field at bit `3 * i` of a
/// `u64`. `HALF_COUNTS[0][byte]` counts the low byte of a board mask, `HALF_COUNTS[1][byte]`
/// the high byte; a board's counts are the sum of the two (a field never exceeds 4, so no
/// field carries into the next). 4 KiB of tables instead of a loop over the 12 patterns.
static HALF_COUNTS: [[u64; 256]; 2] = {
    let mut table = [[0u64; 256]; 2];
    let mut half = 0;
    while half < 2 {
        let mut byte = 0;
        while byte < 256 {
            let mut fields = 0u64;
            let mut i = 0;
            while i < PATTERNS.len() {
                let cells = (PATTERNS[i] >> (8 * half)) as u8 & byte as u8;
                fields |= (cells.count_ones() as u64) << (3 * i);
                i += 1;
            }
            table[half][byte] = fields;
            byte += 1;
        }
        half += 1;
    }
    table
};

/// The lowest bit of each pattern's field.
const FIELD_ONES: u64 = 0o111_111_111_111;

/// The marks of a board mask in each pattern (see [`HALF_COUNTS`]).
#[inline]
fn pattern_counts(mask: u16) -> u64 {
    HALF_COUNTS[0][(mask & 0xFF) as usize] + HALF_COUNTS[1][(mask >> 8) as usize]
}

/// The fields of `counts` that are not zero, as their lowest bits.
#[inline]
fn nonzero_fields(counts: u64) -> u64 {
    (counts | counts >> 1 | counts >> 2) & FIELD_ONES
}

/// The fields of `counts` equal to `k`, as their lowest bits.
#[inline]
fn fields_equal(counts: u64, k: u64) -> u64 {
    FIELD_ONES & !nonzero_fields(counts ^ (k * FIELD_ONES))
}

/// `LINE` points of one player over the patterns free of the other (`free`, as lowest field
/// bits), and whether the player has a threat there.
#[inline]
fn line_points(counts: u64, free: u64) -> (i32, bool) {
    let threats = fields_equal(counts, 3) & free;
    let points = LINE[1] * (fields_equal(counts, 1) & free).count_ones() as i32
        + LINE[2] * (fields_equal(counts, 2) & free).count_ones() as i32
        + LINE[3] * threats.count_ones() as i32;
    (points, threats != 0)
}

/// What one open small board offers each player.
struct Chances {
    /// `LINE` points of the mover and of the opponent over the patterns free of the other's
    /// marks.
    points: [i32; 2],
    /// Whether the mover has a threat (three of a pattern's cells and the fourth empty).
    threat: bool,
    /// Whether each player can still win the board (some pattern is free of the other's
    /// marks).
    winnable: [bool; 2],
}

/// The [`Chances`] on one open small board with the mover's marks `mine` and the opponent's
/// `theirs`.
#[inline]
fn board_chances(mine: u16, theirs: u16) -> Chances {
    let (my_counts, their_counts) = (pattern_counts(mine), pattern_counts(theirs));
    let (my_free, their_free) = (
        FIELD_ONES & !nonzero_fields(their_counts),
        FIELD_ONES & !nonzero_fields(my_counts),
    );
    let (my_points, threat) = line_points(my_counts, my_free);
    let (their_points, _) = line_points(their_counts, their_free);
    Chances {
        points: [my_points, their_points],
        threat,
        winnable: [my_free != 0, their_free != 0],
    }
}

impl Evaluate for Extreme {
    /// Sum of, from the mover's side minus the opponent's:
    ///
    /// - **Big board.** Each big pattern still open to a player (none of its boards won by
    ///   the opponent, full without a winner, or open but no longer winnable by the player
    ///   because every small pattern there holds an opponent mark) scores `BIG[k]` for the
    ///   `k` boards of it they have won: open patterns are the ways left to win, and a
    ///   pattern with three boards is one board from victory.
    /// - **Won boards.** `TIE` points per tie-break point (6/4/3), since the tie-break decides
    ///   a game that fills up without a big pattern; `TIE_DECIDES` once no big pattern is open
    ///   to either player, when the tie-break is all that is left to play for.
    /// - **Open small boards.** What winning the board would gain a player: `BIG[k+1] -
    ///   BIG[k]` for each big pattern through it open to them, plus `BIG[k]` for each one open
    ///   to the opponent (winning it kills that pattern), plus its tie-break points. Their
    ///   chances on the board (open patterns weighted by `LINE`, a threat being three of four,
    ///   capped) take a fraction of that gain, at most 0.6. So a threat on the board that would
    ///   complete a big pattern is worth a great deal, threats on boards nobody needs are
    ///   worth little, and cashing a threat always beats keeping it.
    /// - **Tempo.** The position is where the search stopped, and its mover moves first: a
    ///   threat on a board they may play on now wins it (with a bonus move), worth another
    ///   `WIN_NOW_TENTHS` of the gain; if that board completes a big pattern the mover wins
    ///   the game this move, worth `WIN_IN_ONE` more, so that even a one-ply search (greedy)
    ///   sees the danger of allowing it. A free move (sent to a closed board) is worth
    ///   `FREE_MOVE`. Seen from the other side, this is what makes sending the opponent to a
    ///   board where they have a threat, or to a closed board, bad.
    fn evaluate(&self) -> f32 {
        let me = self.to_move();
        let op = me.other();
        let won = [self.won_boards(me), self.won_boards(op)];
        let closed = self.closed_boards();
        let dead = closed & !(won[0] | won[1]);
        let open = !closed;

        // Small boards first: each side's chances, and which boards it can still win.
        let mut points = [[0i32; BOARDS]; 2];
        let mut winnable = [0u16; 2];
        let mut threats = 0u16;
        let mut boards = open;
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let chances = board_chances(self.board_marks(me, b), self.board_marks(op, b));
            for side in 0..2 {
                points[side][b] = chances.points[side].min(CHANCE_CAP);
                winnable[side] |= (chances.winnable[side] as u16) << b;
            }
            threats |= (chances.threat as u16) << b;
        }

        // Big board: patterns still open to each side (a board it can no longer win blocks
        // it too), and what winning each open board would gain each side.
        let mut score = 0;
        let mut gain = [[0i32; BOARDS]; 2];
        let mut any_open = false;
        // Open boards that would complete a big pattern of the mover's.
        let mut finishing = 0u16;
        for (side, sign) in [(0, 1), (1, -1)] {
            let blocked = won[1 - side] | dead | (open & !winnable[side]);
            for &pattern in &PATTERNS {
                if pattern & blocked == 0 {
                    any_open = true;
                    let k = (pattern & won[side]).count_ones() as usize;
                    score += sign * BIG[k];
                    if side == 0 && k == 3 {
                        finishing |= pattern & open;
                    }
                    let mut boards = pattern & open;
                    while boards != 0 {
                        let b = boards.trailing_zeros() as usize;
                        boards &= boards - 1;
                        // Winning `b` advances this side's pattern and kills it for the other.
                        gain[side][b] += BIG[k + 1] - BIG[k];
                        gain[1 - side][b] += BIG[k];
                    }
                }
            }
        }

        // The tie-break: a tie-breaker while big patterns remain, the whole game once none
        // does.
        let tie = if any_open { TIE } else { TIE_DECIDES };
        score += tie * (board_points(won[0]) - board_points(won[1]));

        // Open small boards: each side's chances times its gain; the mover's best board to
        // win right now.
        let playable = match self.sent_board() {
            Some(board) => 1u16 << board,
            None => {
                score += FREE_MOVE;
                open
            }
        };
        let mut win_now = 0;
        let mut boards = open;
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let weight = tie * BOARD_WEIGHTS[b];
            let my_gain = gain[0][b] + weight;
            let their_gain = gain[1][b] + weight;
            score += (my_gain * points[0][b] - their_gain * points[1][b]) / CHANCE_SCALE;
            if (threats & playable) >> b & 1 != 0 {
                win_now = win_now.max(my_gain);
            }
        }
        score += win_now * WIN_NOW_TENTHS / 10;
        if threats & playable & finishing != 0 {
            score += WIN_IN_ONE;
        }

        squash(score)
    }
}

#[cfg(test)]
mod tests {
    use crate::extreme::{cell_at, has_pattern};
    use oxo_rules::{Action, ActionList, Game, Player};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use oxo_agents::first_best_move;

    /// Plays moves given as (board, local) pairs.
    fn play(moves: &[(usize, usize)]) -> Extreme {
        let mut game = Extreme::new();
        for &(board, local) in moves {
            let action = cell_at(board, local) as Action;
            assert!(game.is_legal(action), "illegal {board}/{local} in {game}");
            game.play(action);
        }
        game
    }

    /// The action greedy picks (ties: the first).
    fn greedy_pick(game: &Extreme) -> Action {
        first_best_move(game)
    }

    /// The bit-sliced [`board_chances`] agrees with a plain loop over the patterns.
    #[test]
    fn chances_match_a_plain_count() {
        let plain = |own: u16, other: u16| {
            let (mut points, mut threat) = (0, false);
            for &pattern in &PATTERNS {
                if pattern & other == 0 {
                    let k = (pattern & own).count_ones() as usize;
                    points += LINE[k];
                    threat |= k == 3;
                }
            }
            (points, threat)
        };
        let mut rng = SmallRng::seed_from_u64(11);
        for _ in 0..20_000 {
            let (a, b) = (rng.next_u32() as u16, rng.next_u32() as u16);
            let (mine, theirs) = (a & !b, b & !a);
            if has_pattern(mine) || has_pattern(theirs) {
                continue;
            }
            let chances = board_chances(mine, theirs);
            assert_eq!((chances.points[0], chances.threat), plain(mine, theirs));
            assert_eq!(chances.points[1], plain(theirs, mine).0);
            let winnable = |own: u16| PATTERNS.iter().any(|&p| p & own == 0);
            assert_eq!(chances.winnable, [winnable(theirs), winnable(mine)]);
        }
    }

    #[test]
    fn start_is_even() {
        assert_eq!(Extreme::new().evaluate(), FREE_MOVE as f32);
    }

    #[test]
    fn evaluation_is_symmetric() {
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..200 {
            let mut game = Extreme::new();
            for _ in 0..60 {
                if game.is_over() {
                    break;
                }
                let v = game.evaluate();
                assert!(v.abs() <= LIMIT);
                for sym in 1..Extreme::NUM_SYMMETRIES {
                    assert_eq!(game.transformed(sym).evaluate(), v);
                }
                game.play(game.random_action(&mut rng));
            }
        }
    }

    /// X wins small board 0 with a row; the bonus move goes elsewhere. Both after X's bonus
    /// move (O to move) and before, X is ahead.
    #[test]
    fn a_won_board_is_good_for_its_owner() {
        // X plays 5/0 .. O replies so that X keeps being sent to board 0 is awkward; build a
        // position instead by playing legal sequences: X row 0 of board 5 (cells 0..3).
        let game = play(&[
            (5, 0),  // X, sends O to 0
            (0, 5),  // O, sends X to 5
            (5, 1),  // X -> 1
            (1, 5),  // O -> 5
            (5, 2),  // X -> 2
            (2, 5),  // O -> 5
            (5, 3),  // X wins board 5 (row 0), bonus move sent to 3
            (3, 10), // X bonus -> 10; O to move
        ]);
        assert_eq!(game.won_boards(Player::X), 1 << 5);
        assert_eq!(game.to_move(), Player::O);
        assert!(
            game.evaluate() < -20.0,
            "O should be behind: {}",
            game.evaluate()
        );
    }

    #[test]
    fn a_threat_is_good_for_its_owner() {
        // X has three of board 5's top row; O has scattered marks on boards nobody needs.
        let game = play(&[
            (5, 0),  // X -> 0
            (0, 5),  // O -> 5
            (5, 1),  // X -> 1
            (1, 5),  // O -> 5
            (5, 2),  // X -> 2
            (2, 15), // O -> 15
        ]);
        assert_eq!(game.to_move(), Player::X);
        assert!(
            game.evaluate() > 10.0,
            "X should be ahead: {}",
            game.evaluate()
        );
    }

    #[test]
    fn greedy_wins_a_small_board() {
        // X to move on board 5 with three of its top row: greedy completes it.
        let game = play(&[(5, 0), (0, 5), (5, 1), (1, 5), (5, 2), (2, 5)]);
        assert_eq!(game.sent_board(), Some(5));
        let pick = greedy_pick(&game);
        assert_eq!(pick, cell_at(5, 3) as Action);
    }

    /// Random games until the mover faces a loss on the big board next move for some of
    /// their moves but not all (block the threat, or do not send the opponent to it):
    /// greedy must always pick a safe move.
    #[test]
    fn greedy_blocks_a_big_board_loss() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut found = 0;
        for _ in 0..5_000 {
            let mut game = Extreme::new();
            while !game.is_over() {
                if let Some(safe) = safe_moves(&game) {
                    let pick = greedy_pick(&game);
                    assert!(
                        safe.contains(&pick),
                        "greedy let the opponent win in\n{game}"
                    );
                    found += 1;
                    break;
                }
                game.play(game.random_action(&mut rng));
            }
            if found >= 30 {
                break;
            }
        }
        assert!(found >= 10, "only {found} test positions found");
    }

    /// Whether the player to move in `game` can end it with a win at once.
    fn can_win_now(game: &Extreme) -> bool {
        let mut actions = ActionList::new();
        game.legal_actions(&mut actions);
        actions.iter().any(|&a| {
            let mut next = *game;
            next.play(a);
            next.outcome()
                .is_some_and(|o| o.value_for(game.to_move()) > 0.0)
        })
    }

    /// The moves after which the opponent cannot win at once, if some but not all moves are
    /// such, no move is a bonus-earning board win, and the mover cannot win at once (so
    /// avoiding the loss is the point).
    fn safe_moves(game: &Extreme) -> Option<Vec<Action>> {
        let me = game.to_move();
        let near = PATTERNS.iter().any(|&p| {
            (p & game.won_boards(me.other())).count_ones() == 3 && p & !game.closed_boards() != 0
        });
        if !near || can_win_now(game) {
            return None;
        }
        let mut actions = ActionList::new();
        game.legal_actions(&mut actions);
        let mut safe = Vec::new();
        for &a in &actions {
            let mut next = *game;
            next.play(a);
            if next.is_over() || next.to_move() == me {
                return None;
            }
            if !can_win_now(&next) {
                safe.push(a);
            }
        }
        (!safe.is_empty() && safe.len() < actions.len()).then_some(safe)
    }
}

//! ultimate: a two-level evaluation. Only the big board decides the game (there is no
//! tie-break), so every local board is priced by what winning it does on the big board: the
//! big lines through it still open, and how close they are. Each player's chances on an open
//! local board (open lines, two-in-a-line threats) take a share of that price. The player to
//! move also gets credit for the move itself: a local board they can win right now, or a
//! free choice of board (the opponent sent them to a closed board).
//!
//! All arithmetic is on small integers from the rules' bitboards (9-bit masks per local
//! board and the 8 lines of `tictactoe::LINES`); nothing allocates. The result is converted to
//! `f32` at the end and stays below [`LIMIT`] in size (see [`squash`]).

use crate::tictactoe::LINES;
use crate::ultimate::Ultimate;
use oxo_rules::Game;

use oxo_agents::Evaluate;

/// Number of local boards (and of cells on each).
const BOARDS: usize = 9;

/// All nine local boards (or cells) as a mask.
const NINE: u16 = 0x1FF;

/// Points for a big-board line still open to a player (none of its boards won by the
/// opponent, full without a winner, or no longer winnable by the player), by how many of its
/// three boards the player has won.
/// Index 3 is not a position (the game is over) but sets the price of the last board: a line
/// with two won boards makes its third board worth `BIG[3] - BIG[2]`.
const BIG: [i32; 4] = [2, 16, 80, 3000];

/// Points for a line of a local board still open to a player (no opponent mark in it), by how
/// many of its three cells the player holds. Two marks is a threat: one move wins the board.
const LINE: [i32; 3] = [0, 1, 6];

/// A player's chances on an open local board are `min(points, CHANCE_CAP) / CHANCE_SCALE` of
/// what winning it would gain: one threat (with the open lines around it) is about a third,
/// and no amount of preparation reaches 0.6. Winning the board therefore always scores more
/// than keeping the threat.
const CHANCE_CAP: i32 = 16;
/// See [`CHANCE_CAP`].
const CHANCE_SCALE: i32 = 28;

/// The mover can win a local board this move: this many tenths of what winning it gains are
/// added (on top of the chances, staying below the whole gain).
const WIN_NOW_TENTHS: i32 = 3;

/// The mover can win the game this move (a threat on a playable board that completes a big
/// line): added on top, so such a position ranks above any merely good one.
const WIN_IN_ONE: i32 = 6000;

/// Sent to a closed board, the mover chooses any open board: a strong tempo in ultimate,
/// where the fight is mostly about where the opponent is sent.
const FREE_MOVE: i32 = 12;

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

/// For every 9-bit set of one player's cells on a local board: the lines (bit `i` for
/// `LINES[i]`) holding exactly one of them in bits 0..8, exactly two in bits 8..16, and none
/// in bits 16..24. One lookup per player instead of a loop over the 8 lines.
static LINE_COUNTS: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut entry = 0u32;
        let mut i = 0;
        while i < LINES.len() {
            match (LINES[i] & mask as u16).count_ones() {
                0 => entry |= 1 << (16 + i),
                1 => entry |= 1 << i,
                2 => entry |= 1 << (8 + i),
                _ => {}
            }
            i += 1;
        }
        table[mask] = entry;
        mask += 1;
    }
    table
};

/// `LINE` points of a player with line counts `own` (a [`LINE_COUNTS`] entry) over the lines
/// free of the other player's marks (`free`, 8 bits), and whether the player has a threat.
#[inline]
fn line_points(own: u32, free: u32) -> (i32, bool) {
    let ones = own & free;
    let twos = (own >> 8) & free;
    (
        LINE[1] * ones.count_ones() as i32 + LINE[2] * twos.count_ones() as i32,
        twos != 0,
    )
}

/// What one open local board offers each player.
struct Chances {
    /// `LINE` points of the mover and of the opponent over the lines free of the other's
    /// marks.
    points: [i32; 2],
    /// Whether the mover has a threat (two of a line's cells and the third empty).
    threat: bool,
    /// Whether each player can still win the board (some line is free of the other's marks).
    winnable: [bool; 2],
}

/// The [`Chances`] on one open local board with the mover's marks `mine` and the opponent's
/// `theirs`.
#[inline]
fn board_chances(mine: u16, theirs: u16) -> Chances {
    let (my_counts, their_counts) = (LINE_COUNTS[mine as usize], LINE_COUNTS[theirs as usize]);
    let (my_free, their_free) = (their_counts >> 16, my_counts >> 16);
    let (my_points, threat) = line_points(my_counts & 0xFFFF, my_free);
    let (their_points, _) = line_points(their_counts & 0xFFFF, their_free);
    Chances {
        points: [my_points, their_points],
        threat,
        winnable: [my_free != 0, their_free != 0],
    }
}

impl Evaluate for Ultimate {
    /// Sum of, from the mover's side minus the opponent's:
    ///
    /// - **Big board.** Each big line still open to a player (none of its boards won by the
    ///   opponent, full without a winner, or open but no longer winnable by the player
    ///   because every local line there holds an opponent mark) scores `BIG[k]` for the `k`
    ///   boards of it they have won: open lines are the ways left to win, and a line with two
    ///   boards is one board from victory. When no line is open to either player the game is
    ///   a certain draw and the evaluation is exactly 0.
    /// - **Open local boards.** What winning the board would gain a player: `BIG[k+1] -
    ///   BIG[k]` for each big line through it open to them, plus `BIG[k]` for each one open to
    ///   the opponent (winning it kills that line). Their chances on the board (open lines
    ///   weighted by `LINE`, a threat being two of three, capped) take a fraction of that
    ///   gain, below 0.6. So a threat on the board that completes a big line is worth a great
    ///   deal, threats on boards no line needs are worth nothing, and cashing a threat always
    ///   beats keeping it.
    /// - **Tempo.** The position is where the search stopped, and its mover moves first: a
    ///   threat on a board they may play on now wins it, worth another `WIN_NOW_TENTHS` of the
    ///   gain; if that board completes a big line the mover wins the game this move, worth
    ///   `WIN_IN_ONE` more, so that even a one-ply search (greedy) sees the danger of allowing
    ///   it. A free move (sent to a closed board) is worth `FREE_MOVE`. Seen from the other
    ///   side, this is what makes sending the opponent to a board where they have a threat,
    ///   or to a closed board, bad.
    fn evaluate(&self) -> f32 {
        let me = self.to_move();
        let op = me.other();
        let won = [self.won_boards(me), self.won_boards(op)];
        let closed = self.closed_boards();
        let dead = closed & !(won[0] | won[1]);
        let open = !closed & NINE;

        // Local boards first: each side's chances, and which boards it can still win.
        let mut points = [[0i32; BOARDS]; 2];
        let mut winnable = [0u16; 2];
        let mut threats = 0u16;
        let mut boards = open;
        while boards != 0 {
            let b = boards.trailing_zeros() as usize;
            boards &= boards - 1;
            let chances = board_chances(self.local_marks(me, b), self.local_marks(op, b));
            for side in 0..2 {
                points[side][b] = chances.points[side].min(CHANCE_CAP);
                winnable[side] |= (chances.winnable[side] as u16) << b;
            }
            threats |= (chances.threat as u16) << b;
        }

        // Big board: lines still open to each side (a board it can no longer win blocks it
        // too), and what winning each open board would gain each side.
        let mut score = 0;
        let mut gain = [[0i32; BOARDS]; 2];
        let mut any_open = false;
        // Open boards that would complete a big line of the mover's.
        let mut finishing = 0u16;
        for (side, sign) in [(0, 1), (1, -1)] {
            let blocked = won[1 - side] | dead | (open & !winnable[side]);
            for &line in &LINES {
                if line & blocked == 0 {
                    any_open = true;
                    let k = (line & won[side]).count_ones() as usize;
                    score += sign * BIG[k];
                    if side == 0 && k == 2 {
                        finishing |= line & open;
                    }
                    let mut boards = line & open;
                    while boards != 0 {
                        let b = boards.trailing_zeros() as usize;
                        boards &= boards - 1;
                        // Winning `b` advances this side's line and kills it for the other.
                        gain[side][b] += BIG[k + 1] - BIG[k];
                        gain[1 - side][b] += BIG[k];
                    }
                }
            }
        }
        if !any_open {
            // Nobody can make a big line any more: the game will be drawn.
            return 0.0;
        }

        // Open local boards: each side's chances times its gain; the mover's best board to
        // win right now.
        let playable = match self.sent_to() {
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
            score += (gain[0][b] * points[0][b] - gain[1][b] * points[1][b]) / CHANCE_SCALE;
            if (threats & playable) >> b & 1 != 0 {
                win_now = win_now.max(gain[0][b]);
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
    use crate::tictactoe::has_line;
    use crate::ultimate::cell_of;
    use oxo_rules::{Action, ActionList, Game, Player};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;
    use oxo_agents::first_best_move;

    /// Plays moves given as (board, cell) pairs.
    fn play(moves: &[(usize, usize)]) -> Ultimate {
        let mut game = Ultimate::new();
        for &(board, cell) in moves {
            let action = cell_of(board, cell) as Action;
            assert!(game.is_legal(action), "illegal {board}/{cell} in {game}");
            game.play(action);
        }
        game
    }

    /// The action greedy picks (ties: the first).
    fn greedy_pick(game: &Ultimate) -> Action {
        first_best_move(game)
    }

    /// The table-driven [`board_chances`] agrees with a plain loop over the lines.
    #[test]
    fn chances_match_a_plain_count() {
        let plain = |own: u16, other: u16| {
            let (mut points, mut threat) = (0, false);
            for &line in &LINES {
                if line & other == 0 {
                    let k = (line & own).count_ones() as usize;
                    points += LINE[k];
                    threat |= k == 2;
                }
            }
            (points, threat)
        };
        for a in 0..512u16 {
            for b in 0..512u16 {
                let (mine, theirs) = (a & !b, b & !a);
                if mine != a || theirs != b || has_line(mine) || has_line(theirs) {
                    continue;
                }
                let chances = board_chances(mine, theirs);
                assert_eq!((chances.points[0], chances.threat), plain(mine, theirs));
                assert_eq!(chances.points[1], plain(theirs, mine).0);
                let winnable = |own: u16| LINES.iter().any(|&l| l & own == 0);
                assert_eq!(chances.winnable, [winnable(theirs), winnable(mine)]);
            }
        }
    }

    #[test]
    fn start_is_even() {
        assert_eq!(Ultimate::new().evaluate(), FREE_MOVE as f32);
    }

    #[test]
    fn evaluation_is_symmetric() {
        let mut rng = SmallRng::seed_from_u64(7);
        for _ in 0..300 {
            let mut game = Ultimate::new();
            while !game.is_over() {
                let v = game.evaluate();
                assert!(v.abs() <= LIMIT);
                for sym in 1..Ultimate::NUM_SYMMETRIES {
                    assert_eq!(game.transformed(sym).evaluate(), v);
                }
                game.play(game.random_action(&mut rng));
            }
        }
    }

    /// X has won the centre board; after X's next move, O (to move) is behind.
    #[test]
    fn a_won_board_is_good_for_its_owner() {
        let game = play(&[
            (4, 0), // X -> 0
            (0, 4), // O -> 4
            (4, 1), // X -> 1
            (1, 4), // O -> 4
            (4, 2), // X wins the centre board (top row) -> 2
            (2, 0), // O -> 0
            (0, 0), // X -> 0
        ]);
        assert_eq!(game.won_boards(Player::X), 1 << 4);
        assert_eq!(game.to_move(), Player::O);
        assert!(
            game.evaluate() < -20.0,
            "O should be behind: {}",
            game.evaluate()
        );
    }

    #[test]
    fn a_threat_the_mover_can_cash_is_good() {
        // X has two of the centre board's top row and is sent there (O played cell 4).
        let game = play(&[(4, 0), (0, 4), (4, 1), (1, 4)]);
        assert_eq!(game.to_move(), Player::X);
        assert_eq!(game.sent_to(), Some(4));
        assert!(
            game.evaluate() > 20.0,
            "X should be ahead: {}",
            game.evaluate()
        );
    }

    #[test]
    fn greedy_wins_a_local_board() {
        let game = play(&[(4, 0), (0, 4), (4, 1), (1, 4)]);
        assert_eq!(greedy_pick(&game), cell_of(4, 2) as Action);
    }

    /// Random games until the mover faces a loss on the big board next move for some of
    /// their moves but not all (block the threat, or do not send the opponent to it):
    /// greedy must always pick a safe move.
    #[test]
    fn greedy_blocks_a_big_board_loss() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut found = 0;
        for _ in 0..20_000 {
            let mut game = Ultimate::new();
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
            if found >= 50 {
                break;
            }
        }
        assert!(found >= 20, "only {found} test positions found");
    }

    /// Whether the player to move in `game` can end it with a win at once.
    fn can_win_now(game: &Ultimate) -> bool {
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
    /// such and the mover cannot win at once (so avoiding the loss is the point).
    fn safe_moves(game: &Ultimate) -> Option<Vec<Action>> {
        let op = game.to_move().other();
        let near = LINES.iter().any(|&l| {
            (l & game.won_boards(op)).count_ones() == 2 && l & !game.closed_boards() != 0
        });
        if !near || can_win_now(game) {
            return None;
        }
        let mut actions = ActionList::new();
        game.legal_actions(&mut actions);
        let safe: Vec<Action> = actions
            .iter()
            .copied()
            .filter(|&a| {
                let mut next = *game;
                next.play(a);
                next.is_over() || !can_win_now(&next)
            })
            .collect();
        (!safe.is_empty() && safe.len() < actions.len()).then_some(safe)
    }
}

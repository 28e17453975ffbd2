//! extreme: the standard suite, a slow reference, and hand-made positions for each special rule.

use super::{
    BOARD_WEIGHTS, BOARDS, PATTERNS, board_of, board_points, cell_at, has_pattern, local_of,
    select_bit,
};
use crate::extreme::Extreme;
use crate::harness::{Reference, legal, replay};
use oxo_rules::{Action, Game, IllegalMove, Outcome, Player};

/// Reference extreme tic-tac-toe: the flat 16x16 grid as a plain array, patterns listed as
/// coordinates, every board's status recomputed by scanning.
#[derive(Clone)]
struct SlowExtreme {
    /// `grid[row][col]` on the flat 16x16 grid.
    grid: [[Option<Player>; 16]; 16],
    turn: Player,
    /// The current move is a bonus move.
    bonus: bool,
    /// The big-board `(row, col)` of the small board the mover was sent to (maybe closed).
    target: Option<(usize, usize)>,
    result: Option<Outcome>,
}

/// The 12 patterns of a 4x4 board as `(row, col)` lists: rows, columns, diamonds.
fn patterns() -> [[(usize, usize); 4]; 12] {
    let mut all = [[(0, 0); 4]; 12];
    for i in 0..4 {
        all[i] = [(i, 0), (i, 1), (i, 2), (i, 3)];
        all[4 + i] = [(0, i), (1, i), (2, i), (3, i)];
    }
    for (k, (r, c)) in [(1, 1), (1, 2), (2, 1), (2, 2)].into_iter().enumerate() {
        all[8 + k] = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)];
    }
    all
}

impl SlowExtreme {
    fn at(&self, big: (usize, usize), small: (usize, usize)) -> Option<Player> {
        self.grid[big.0 * 4 + small.0][big.1 * 4 + small.1]
    }

    fn small_winner(&self, big: (usize, usize)) -> Option<Player> {
        for pattern in patterns() {
            for player in [Player::X, Player::O] {
                if pattern
                    .iter()
                    .all(|&cell| self.at(big, cell) == Some(player))
                {
                    return Some(player);
                }
            }
        }
        None
    }

    fn small_full(&self, big: (usize, usize)) -> bool {
        (0..4).all(|r| (0..4).all(|c| self.at(big, (r, c)).is_some()))
    }

    fn closed(&self, big: (usize, usize)) -> bool {
        self.small_winner(big).is_some() || self.small_full(big)
    }

    fn big_pattern(&self, player: Player) -> bool {
        patterns()
            .iter()
            .any(|p| p.iter().all(|&big| self.small_winner(big) == Some(player)))
    }

    fn points(&self, player: Player) -> i32 {
        let mut total = 0;
        for r in 0..4 {
            for c in 0..4 {
                if self.small_winner((r, c)) == Some(player) {
                    let outer = |i: usize| i == 0 || i == 3;
                    total += match (outer(r), outer(c)) {
                        (true, true) => 6,
                        (false, false) => 3,
                        _ => 4,
                    };
                }
            }
        }
        total
    }
}

impl Reference for SlowExtreme {
    fn new() -> Self {
        SlowExtreme {
            grid: [[None; 16]; 16],
            turn: Player::X,
            bonus: false,
            target: None,
            result: None,
        }
    }

    fn to_move(&self) -> Player {
        self.turn
    }

    fn legal(&self) -> Vec<Action> {
        if self.result.is_some() {
            return vec![];
        }
        let mut closed = [[false; 4]; 4];
        for (r, row) in closed.iter_mut().enumerate() {
            for (c, entry) in row.iter_mut().enumerate() {
                *entry = self.closed((r, c));
            }
        }
        let free = self.target.filter(|&(r, c)| !closed[r][c]);
        let mut moves = Vec::new();
        for row in 0..16 {
            for col in 0..16 {
                let big = (row / 4, col / 4);
                let allowed = match free {
                    Some(t) => big == t,
                    None => !closed[big.0][big.1],
                };
                if allowed && self.grid[row][col].is_none() {
                    moves.push((row * 16 + col) as Action);
                }
            }
        }
        moves
    }

    fn play(&mut self, action: Action) {
        let (row, col) = (action as usize / 16, action as usize % 16);
        let big = (row / 4, col / 4);
        let small = (row % 4, col % 4);
        self.grid[row][col] = Some(self.turn);
        if self.big_pattern(self.turn) {
            self.result = Some(Outcome::Win(self.turn));
            return;
        }
        let all_closed = (0..4).all(|r| (0..4).all(|c| self.closed((r, c))));
        if all_closed {
            let (x, o) = (self.points(Player::X), self.points(Player::O));
            self.result = Some(if x > o {
                Outcome::Win(Player::X)
            } else if o > x {
                Outcome::Win(Player::O)
            } else {
                Outcome::Draw
            });
            return;
        }
        let won_board = self.small_winner(big) == Some(self.turn);
        if won_board && !self.bonus {
            self.bonus = true;
        } else {
            self.bonus = false;
            self.turn = self.turn.other();
        }
        self.target = Some(small);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    fn scores(&self) -> Option<[i32; 2]> {
        Some([self.points(Player::X), self.points(Player::O)])
    }
}

standard_tests!(Extreme, SlowExtreme, 3000);

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    #[test]
    fn winning_action_finds_a_winning_move(seed in proptest::prelude::any::<u64>()) {
        crate::harness::winning_action_finds_a_winning_move::<Extreme>(seed, |before, after, mover| {
            after.won_boards(mover) != before.won_boards(mover)
        });
    }
}

fn cell(name: &str) -> Action {
    Extreme::parse_action(name).unwrap()
}

/// The cells of small board `board` (row-major over the big board), sorted.
fn board_cells(board: usize) -> Vec<Action> {
    let (big_row, big_col) = (board / 4, board % 4);
    let mut cells = Vec::new();
    for r in 0..4 {
        for c in 0..4 {
            cells.push(((big_row * 4 + r) * 16 + big_col * 4 + c) as Action);
        }
    }
    cells
}

/// X completes the diamond B1 A2 C2 B3 around B2 on the top-left board A1-D4.
const DIAMOND: [&str; 7] = ["B1", "E1", "A2", "A5", "C2", "I5", "B3"];

#[test]
fn a_diamond_wins_a_small_board_and_earns_a_bonus_move() {
    let before: Extreme = replay(&DIAMOND[..6]);
    assert_eq!(before.won_boards(Player::X), 0);
    assert_eq!(before.to_move(), Player::X);
    let game: Extreme = replay(&DIAMOND);
    assert_eq!(game.won_boards(Player::X), 1 << 0);
    assert_eq!(game.closed_boards(), 1 << 0);
    assert_eq!(game.scores(), Some([6, 0]), "a corner board is worth 6");
    // X owns the 16 cells of the won board A1-D4, and nothing else.
    let owned: Vec<Action> = (0..256)
        .filter(|&c| game.owner(c).is_some())
        .map(|c| c as Action)
        .collect();
    assert_eq!(owned, board_cells(0));
    assert!(
        owned
            .iter()
            .all(|&c| game.owner(c as usize) == Some(Player::X))
    );
    // Bonus: X again, sent by B3 (position row 2, col 1) to board E9-H12.
    assert_eq!(game.to_move(), Player::X);
    assert!(game.is_bonus_move());
    assert_eq!(game.sent_board(), Some(9));
    assert_eq!(legal(&game), board_cells(9));
    assert_eq!(game.outcome(), None);
    // The bonus move sends O by its own cell: E9 is position (0,0), the closed board A1-D4,
    // so O has an open move everywhere but there.
    let mut after = game;
    after.play(cell("E9"));
    assert_eq!(after.to_move(), Player::O);
    assert!(!after.is_bonus_move());
    assert_eq!(after.sent_board(), None);
    let open: Vec<Action> = (0..256)
        .filter(|&a| a / 64 != 0 || a % 16 >= 4)
        .filter(|&a| a != cell("E1") && a != cell("A5") && a != cell("I5") && a != cell("E9"))
        .collect();
    assert_eq!(legal(&after), open);
    assert_eq!(after.check(cell("D4")), Err(IllegalMove::ClosedBoard));
}

#[test]
fn the_other_three_diamonds_win_too() {
    // X fills the diamond around C3 (C2 B3 D3 C4), sent back to A1-D4 each time by O playing
    // the top-left cell of the board X sent O to.
    let game: Extreme = replay(&["C2", "I5", "B3", "E9", "D3", "M9", "C4"]);
    assert_eq!(game.won_boards(Player::X), 1);
    // Diamonds around C2 and B3 (local (1,2) and (2,1)) on board A1-D4.
    let game: Extreme = replay(&["C1", "I1", "B2", "E5", "D2", "M5", "C3"]);
    assert_eq!(game.won_boards(Player::X), 1);
    let game: Extreme = replay(&["B2", "E5", "A3", "A9", "C3", "I9", "B4"]);
    assert_eq!(game.won_boards(Player::X), 1);
}

#[test]
fn diagonals_do_not_win() {
    // X holds A1 B2 C3 D4, the main diagonal of A1-D4: no pattern, no bonus.
    let game: Extreme = replay(&["B2", "E5", "C3", "I9", "D4", "M13", "A1"]);
    assert_eq!(game.won_boards(Player::X), 0);
    assert_eq!(game.to_move(), Player::O);
    assert_eq!(game.sent_board(), Some(0));
}

#[test]
fn a_bonus_move_sent_to_a_closed_board_is_an_open_move() {
    // X completes the top row of A1-D4 with A1, position (0,0): the bonus move would go to
    // A1-D4 itself, now closed, so X may play any empty cell of any open board.
    let game: Extreme = replay(&["B1", "E1", "C1", "I1", "D1", "M1", "A1"]);
    assert_eq!(game.won_boards(Player::X), 1);
    assert_eq!(game.to_move(), Player::X);
    assert!(game.is_bonus_move());
    assert_eq!(game.sent_board(), None);
    let open: Vec<Action> = (0..256)
        .filter(|&a| !(a / 64 == 0 && a % 16 < 4))
        .filter(|&a| ![cell("E1"), cell("I1"), cell("M1")].contains(&a))
        .collect();
    assert_eq!(legal(&game), open);
}

/// X prepares F10 G10 H10 on board E9-H12 and the diamond B1 A2 C2 on A1-D4, then wins
/// A1-D4 with B3 (bonus, sent to E9-H12) and E10 wins E9-H12 on the bonus move.
const DOUBLE: [&str; 14] = [
    "B1", "E1", "A2", "B7", "F10", "F7", "G10", "J7", "H10", "M5", "C2", "I5", "B3", "E10",
];

#[test]
fn a_board_won_on_the_bonus_move_gives_no_further_bonus() {
    let bonus: Extreme = replay(&DOUBLE[..13]);
    assert_eq!(bonus.won_boards(Player::X), 1 << 0);
    assert!(bonus.is_bonus_move());
    assert_eq!(bonus.sent_board(), Some(9));
    let game: Extreme = replay(&DOUBLE);
    assert_eq!(game.won_boards(Player::X), 1 << 0 | 1 << 9);
    assert_eq!(game.scores(), Some([6 + 3, 0]), "a centre board is worth 3");
    // At most two placements: now O moves, sent by E10 (position (1,0)) to board A5-D8.
    assert_eq!(game.to_move(), Player::O);
    assert!(!game.is_bonus_move());
    assert_eq!(game.sent_board(), Some(4));
    let expected: Vec<Action> = board_cells(4)
        .into_iter()
        .filter(|&a| a != cell("B7"))
        .collect();
    assert_eq!(legal(&game), expected);
    assert_eq!(game.check(cell("E11")), Err(IllegalMove::WrongBoard));
    assert_eq!(game.check(cell("B7")), Err(IllegalMove::Occupied));
}

#[test]
fn check_names_the_reason() {
    let game: Extreme = replay(&DIAMOND);
    assert_eq!(game.check(256), Err(IllegalMove::OutOfRange));
    assert_eq!(game.check(cell("B3")), Err(IllegalMove::Occupied));
    assert_eq!(game.check(cell("A1")), Err(IllegalMove::WrongBoard));
    assert_eq!(game.check(cell("A12")), Err(IllegalMove::WrongBoard));
    assert_eq!(game.check(cell("H12")), Ok(()));
}

#[test]
fn symmetries_map_the_bonus_state() {
    let game: Extreme = replay(&DIAMOND);
    // Quarter turn clockwise: board 0 (top-left) goes to board 3 (top-right), board 9
    // (row 2, col 1) to board 5 (row 1, col 1).
    let turned = game.transformed(1);
    assert!(turned.is_bonus_move());
    assert_eq!(turned.to_move(), Player::X);
    assert_eq!(turned.won_boards(Player::X), 1 << 3);
    assert_eq!(turned.sent_board(), Some(5));
    assert_eq!(turned.scores(), game.scores());
}

#[test]
fn display_shows_the_boards_and_the_turn() {
    let game: Extreme = replay(&DIAMOND);
    let text = game.to_string();
    assert!(text.contains("P"), "column letters\n{text}");
    assert!(text.contains(" 16 "), "row numbers\n{text}");
    assert!(
        text.contains("X to move (bonus move), on board E9-H12"),
        "{text}"
    );
    assert!(text.contains("X . . ."), "big board\n{text}");
    assert!(text.contains("X 6, O 0"), "{text}");
}

fn moves(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// X wins boards E1-H4, I5-L8 and E9-H12, then D7 completes column D of A5-D8: the diamond
/// of boards around E5-H8 on the big board.
const BIG_DIAMOND: &str = "D6 N7 F10 F7 E10 B5 G2 K6 J7 F11 H10 M6 D5 O2 J8 F15 G10 J6 F5 E2 \
                           C6 J5 F3 J9 F1 D8 M14 D7";

#[test]
fn a_big_board_diamond_ends_the_game_before_the_bonus_move() {
    let all = moves(BIG_DIAMOND);
    let before: Extreme = replay(&all[..all.len() - 1]);
    assert_eq!(before.won_boards(Player::X), 1 << 1 | 1 << 6 | 1 << 9);
    assert_eq!(before.to_move(), Player::X);
    assert!(!before.is_bonus_move());
    assert_eq!(before.sent_board(), Some(4));
    // D7 wins A5-D8 and would earn a bonus move on board M9-P12, but the big-board diamond
    // (boards 1, 4, 6, 9) ends the game at once.
    let game: Extreme = replay(&all);
    assert_eq!(
        game.won_boards(Player::X),
        1 << 1 | 1 << 4 | 1 << 6 | 1 << 9
    );
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert!(legal(&game).is_empty());
    assert!(!game.is_bonus_move());
    assert_eq!(game.sent_board(), None);
    assert_eq!(game.check(cell("M9")), Err(IllegalMove::GameOver));
    assert_eq!(game.scores(), Some([4 + 4 + 3 + 3, 0]));
    assert!(game.to_string().contains("X wins with a big-board pattern"));
    assert!(game.won_outright());
    let before: Extreme = replay(&all[..all.len() - 1]);
    assert!(!before.won_outright(), "not over yet");
}

/// X wins E1-H4 with F1 (bonus; F1 sends to E1-H4 itself, closed, so the bonus is an open
/// move), then D8 on the bonus move wins A5-D8 and completes the big-board diamond.
const BIG_ON_BONUS: &str = "D6 N7 F10 F7 E10 B5 G2 K6 J7 F11 H10 M6 D5 O2 J8 E14 D7 N9 E2 B7 \
                            G10 J6 G6 J5 F3 B9 F1 D8";

#[test]
fn a_big_board_pattern_made_on_the_bonus_move_wins() {
    let all = moves(BIG_ON_BONUS);
    let first: Extreme = replay(&all[..all.len() - 2]);
    assert!(!first.is_bonus_move());
    assert_eq!(first.to_move(), Player::X);
    let bonus: Extreme = replay(&all[..all.len() - 1]);
    assert_eq!(bonus.won_boards(Player::X), 1 << 1 | 1 << 6 | 1 << 9);
    assert_eq!(bonus.to_move(), Player::X);
    assert!(bonus.is_bonus_move());
    assert_eq!(bonus.sent_board(), None);
    let game: Extreme = replay(&all);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert!(legal(&game).is_empty());
}

/// X takes the top row of boards (all four of A1-P4) with rows, columns and diamonds.
const BIG_ROW: &str = "N3 H9 N2 E5 D1 P1 N4 F13 F2 G5 I2 A5 B1 E1 C1 L1 N1 G3 J9 H2 M5 A1 \
                       J3 F9 G1 K2 K5 J1";

#[test]
fn a_big_board_row_wins() {
    let game: Extreme = replay(&moves(BIG_ROW));
    assert_eq!(game.won_boards(Player::X), 0x000F);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert_eq!(game.scores(), Some([6 + 4 + 4 + 6, 0]));
}

/// Board A1-D4 filled without a pattern (X on A1 B1 C2 D2 A3 B3 C4 D4, O on the rest): X
/// fills its cells, each time sent back by O on the top-left cell of the board X sent O to;
/// X's A1 sends O to A1-D4, and O fills the rest the same way.
const FULL_BOARD: &str = "B1 E1 C2 I5 D2 M5 A3 A9 B3 E9 C4 I13 D4 M13 A1 \
                          C1 I1 D1 M1 A2 A5 B2 E5 C3 I9 D3 M9 A4 A13 B4";

#[test]
fn a_full_board_without_a_pattern_is_closed_and_counts_for_nobody() {
    let all = moves(FULL_BOARD);
    let game: Extreme = replay(&all);
    assert_eq!(game.closed_boards(), 1 << 0);
    assert_eq!(game.won_boards(Player::X) | game.won_boards(Player::O), 0);
    assert_eq!(game.scores(), Some([0, 0]));
    // O's B4 (position (3,1)) sends X to board E13-H16, no bonus.
    assert_eq!(game.to_move(), Player::X);
    assert!(!game.is_bonus_move());
    assert_eq!(game.sent_board(), Some(13));
    assert!(game.to_string().contains("# . . ."), "{game}");
    // E13 is position (0,0): O is sent to the full board, so O has an open move.
    let mut after = game;
    after.play(cell("E13"));
    assert_eq!(after.to_move(), Player::O);
    assert_eq!(after.sent_board(), None);
    assert_eq!(legal(&after).len(), 256 - 16 - (all.len() - 16) - 1);
}

/// Long games found by a seeded search, pinned: every board closed, no big-board pattern.
const TIE_X: &str = "K5 I4 D16 M13 D1 N4 F13 F4 G15 K9 I2 A7 C11 J11 G10 J8 F14 F7 F12 H16 \
    O16 K14 L8 M15 B10 H6 N6 F8 G13 J4 H14 O7 I12 B13 F1 H4 O13 J2 F5 E1 A2 C8 I16 A16 C14 I6 \
    D6 N8 F6 L9 N1 G3 I10 C7 L11 P12 P16 O15 K12 L13 M3 B12 M7 C12 K15 L10 I13 C2 J6 C9 J3 G9 \
    K4 L14 L4 P13 O4 K16 I14 B6 D10 I15 K13 C5 C16 N13 F3 H11 N9 E2 F2 M9 C4 C15 I11 A15 B16 \
    E10 E12 D3 M12 B3 H10 J5 F10 L12 J7 P4 N3 N10 M1 O12 N2 N12 K11 J9 P2 I9 J10 P3 P1 O3 K10 \
    J12";
const TIE_O: &str = "D9 N2 G6 L7 O12 J15 F10 E5 C1 I3 C9 L3 M12 C13 J1 E1 B2 H7 P9 M4 A16 \
    C14 J7 H11 P12 P14 N7 G10 J5 H1 P1 P3 N12 H14 M8 D15 A10 C8 J16 E14 B8 E15 B9 G3 J11 F12 \
    F14 H5 O2 J8 E16 C16 K15 I11 C11 J10 H6 P8 N16 H16 N14 E8 D14 P5 P2 P7 M2 B7 E11 C10 J6 F8 \
    G15 K9 K3 I12 B14 G7 L9 P6 G11 K12 I15 B11 J3 L11 A14 B6 E7 B5 E4 F6 N15 J13 F3 J14 A4 C4 \
    A2 I10 D1 I9 D3 D4 M14 O14 D2 M15 C3 G1 O15 G4 E3 G16 H3 G14 F15 E13 H13 F16 H15 F13 G13";
const TIE_DRAW: &str = "B12 E14 B7 E9 C2 K8 L14 M7 C10 I6 A6 A5 C3 K9 J4 G14 L7 P12 P16 O15 \
    L11 O9 J2 G8 L16 M15 B11 F9 H2 N7 G9 K4 I16 A14 D7 O11 J9 H3 M9 C4 J13 F4 F14 F7 H11 O12 \
    L15 O10 K5 L4 M16 D15 B2 F6 E7 B10 G6 I7 D10 P8 M14 C7 K12 L13 M2 B8 E13 A1 D2 O7 J10 H7 \
    P7 A7 B9 G4 H16 M13 A3 K3 K11 L12 K10 L5 O3 P4 I3 B13 E2 F16 F15 G10 J6 H15 F13 F3 G12 G2 \
    L8 G11 M3 N1 C16 A13 A2 J8 D3 I8 C15 N2 A4 C14 N4 B15 P3 O4 N3 B4 C1 D1 D4 B1 B3";

/// Checks a finished tie-break game: all boards closed, the given won boards, and scores
/// recomputed here from the weights (corners 6, edges 4, centre 3).
fn tie_break(text: &str, won: [u16; 2], outcome: Outcome) -> Extreme {
    let game: Extreme = replay(&moves(text));
    assert_eq!(game.closed_boards(), 0xFFFF);
    assert_eq!(
        [game.won_boards(Player::X), game.won_boards(Player::O)],
        won
    );
    let weight = |board: usize| match (board / 4 % 3 == 0, board % 4 % 3 == 0) {
        (true, true) => 6,
        (false, false) => 3,
        _ => 4,
    };
    let points = won.map(|mask| (0..16).filter(|b| mask >> b & 1 == 1).map(weight).sum());
    assert_eq!(game.scores(), Some(points));
    assert_eq!(game.outcome(), Some(outcome));
    assert!(legal(&game).is_empty());
    game
}

#[test]
fn all_boards_closed_the_weighted_points_decide() {
    // X wins 7 boards to O's 8 but scores 33 to 32: the weights decide, not the count.
    let game = tie_break(
        TIE_X,
        [0b0011_0011_1000_1001, 0b1100_1000_0111_0110],
        Outcome::Win(Player::X),
    );
    assert_eq!(game.scores(), Some([33, 32]));
    assert!(game.to_string().contains("X wins on board points"));
    assert!(!game.won_outright(), "won on the points");
    // O wins 7 boards to X's 8, 34 to 30.
    let game = tie_break(
        TIE_O,
        [0b0000_1110_1110_0011, 0b1101_0001_0001_1100],
        Outcome::Win(Player::O),
    );
    assert_eq!(game.scores(), Some([30, 34]));
}

#[test]
fn all_boards_closed_with_equal_points_is_a_draw() {
    // 7 boards to 8, 31 points each; A1-D4 is full without a pattern.
    let game = tie_break(
        TIE_DRAW,
        [0b0101_0011_0001_1100, 0b1010_1100_1110_0010],
        Outcome::Draw,
    );
    assert_eq!(game.scores(), Some([31, 31]));
    assert!(game.to_string().contains("draw on board points"));
}

/// A seeded random game, pinned: O's last move P7 wins M5-P8 (row M7-P7), the last open
/// board, as a first placement.
const LAST_BOARD_WON: &str = "E13 B3 F12 E14 A8 C13 I2 B5 G1 J4 F16 G16 I13 A3 D9 N3 H10 P5 O4 \
    K15 K10 I5 D2 N7 F9 E3 C12 K14 J5 E1 C2 J7 F11 H11 P10 O7 K11 J9 H3 N11 F10 F7 P15 P12 O14 \
    K5 L1 P2 P6 N5 G3 L10 M7 D12 M13 C1 L2 M6 B8 E15 B12 H14 O5 I3 A12 C16 L15 P9 M4 A13 A1 C4 \
    K13 K3 J10 G8 K16 M11 A10 B7 O2 I6 C7 K9 J3 J12 G15 L9 P1 N1 E2 A6 C5 I4 A16 D14 N6 G7 I10 \
    D5 M3 B11 P11 O16 P8 P13 N4 F14 H6 M8 B16 A7 D11 E6 C8 M15 A11 A9 D4 N13 H4 O15 J11 L12 M14 \
    D8 N14 E7 C10 K7 I11 C11 K12 B15 L3 P3 M16 B13 F2 H8 N15 G2 K8 F4 N2 G6 I8 A14 C6 I7 C9 E8 \
    A15 B9 F5 H5 O6 B1 B10 E5 A4 O8 I9 D1 H7 C3 M5 D10 N8 P7";

#[test]
fn winning_the_last_open_board_ends_the_game_without_a_bonus() {
    let all = moves(LAST_BOARD_WON);
    let before: Extreme = replay(&all[..all.len() - 1]);
    assert_eq!(before.closed_boards(), !(1 << 7));
    assert_eq!(legal(&before), vec![cell("P7")]);
    assert_eq!(before.to_move(), Player::O);
    assert!(!before.is_bonus_move());
    assert_eq!(before.scores(), Some([34, 30]));
    // P7 would earn a bonus, but no board is left: the tie-break decides, 34 to 34.
    tie_break(
        LAST_BOARD_WON,
        [0b0011_1011_0010_0101, 0b1100_0100_1101_1010],
        Outcome::Draw,
    );
}

#[test]
fn the_pattern_table_matches_the_patterns() {
    for mask in 0..=u16::MAX {
        let mut expected = false;
        for pattern in PATTERNS {
            expected |= mask & pattern == pattern;
        }
        assert_eq!(has_pattern(mask), expected, "{mask:016b}");
    }
}

#[test]
fn select_bit_finds_every_set_bit() {
    for mask in 1..=u16::MAX {
        let bits: Vec<usize> = (0..16).filter(|&i| mask >> i & 1 == 1).collect();
        for (k, &bit) in bits.iter().enumerate() {
            assert_eq!(select_bit(mask, k as u32), bit, "{mask:016b} k={k}");
        }
    }
}

#[test]
fn board_points_use_the_weights() {
    for boards in 0..=u16::MAX {
        let expected: i32 = (0..BOARDS)
            .filter(|&b| boards >> b & 1 == 1)
            .map(|b| BOARD_WEIGHTS[b])
            .sum();
        assert_eq!(board_points(boards), expected);
    }
}

#[test]
fn cell_at_inverts_board_and_local() {
    for cell in 0..256 {
        assert_eq!(cell_at(board_of(cell), local_of(cell)), cell);
    }
    assert_eq!((board_of(0x9A), local_of(0x9A)), (10, 6)); // K10: row 9, col 10
}

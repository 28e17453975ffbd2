//! adjacency: the standard suite, the rulebook's test vectors and hand-made positions for the
//! multipliers, extra turns, free spaces and the final outcome.

use crate::adjacency::{Adjacency, Square};
use crate::harness::{Reference, legal, replay};
use oxo_rules::{Action, Game, IllegalMove, Outcome, Player};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Reference adjacency: an 11x11 array of cells and the special squares as lists of names,
/// read straight from `docs/RULES.md`.
#[derive(Clone)]
struct SlowAdjacency {
    cells: [[Option<Player>; 11]; 11],
    turn: Player,
    points: [i32; 2],
}

/// (column, row), both from 0, of a name like `E3`.
fn place(name: &str) -> (usize, usize) {
    let col = (name.as_bytes()[0] - b'A') as usize;
    let row: usize = name[1..].parse().unwrap();
    (col, row - 1)
}

fn is_one_of(col: usize, row: usize, names: &[&str]) -> bool {
    names.iter().any(|n| place(n) == (col, row))
}

fn is_free(col: usize, row: usize) -> bool {
    is_one_of(col, row, &["F1", "F11"])
}

fn gives_extra_turn(col: usize, row: usize) -> bool {
    is_one_of(col, row, &["E3", "G3", "E9", "G9"])
}

fn multiplier(col: usize, row: usize) -> i32 {
    if is_one_of(col, row, &["C3", "I3", "C9", "I9"]) {
        3
    } else if is_one_of(col, row, &["D5", "H5", "D7", "H7"]) {
        2
    } else {
        1
    }
}

impl Reference for SlowAdjacency {
    fn new() -> Self {
        SlowAdjacency {
            cells: [[None; 11]; 11],
            turn: Player::X,
            points: [0, 0],
        }
    }
    fn to_move(&self) -> Player {
        self.turn
    }
    fn legal(&self) -> Vec<Action> {
        let mut moves = Vec::new();
        for row in 0..11 {
            for col in 0..11 {
                if self.cells[row][col].is_none() && !is_free(col, row) {
                    moves.push((row * 11 + col) as Action);
                }
            }
        }
        moves
    }
    fn play(&mut self, action: Action) {
        let (row, col) = (action as i32 / 11, action as i32 % 11);
        let mut own = 0;
        let mut theirs = 0;
        for r in row - 1..=row + 1 {
            for c in col - 1..=col + 1 {
                if (r, c) == (row, col) || !(0..11).contains(&r) || !(0..11).contains(&c) {
                    continue;
                }
                match self.cells[r as usize][c as usize] {
                    Some(p) if p == self.turn => own += 1,
                    Some(_) => theirs += 1,
                    None => {}
                }
            }
        }
        let (row, col) = (row as usize, col as usize);
        self.points[self.turn.index()] += (1 + own + 2 * theirs) * multiplier(col, row);
        self.cells[row][col] = Some(self.turn);
        if !gives_extra_turn(col, row) {
            self.turn = self.turn.other();
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        if !self.legal().is_empty() {
            None
        } else if self.points[0] > self.points[1] {
            Some(Outcome::Win(Player::X))
        } else if self.points[0] < self.points[1] {
            Some(Outcome::Win(Player::O))
        } else {
            Some(Outcome::Draw)
        }
    }
    fn scores(&self) -> Option<[i32; 2]> {
        Some(self.points)
    }
}

standard_tests!(Adjacency, SlowAdjacency, 5000);

fn cell(name: &str) -> Action {
    Adjacency::parse_action(name).unwrap()
}

fn scores(game: &Adjacency) -> [i32; 2] {
    game.scores().unwrap()
}

#[test]
fn touching_one_own_and_one_opponent_mark_scores_four() {
    // X B5 and O B7 do not touch; X A6 touches both.
    let game: Adjacency = replay(&["B5", "B7", "A6"]);
    assert_eq!(scores(&game), [1 + 4, 1]);
}

#[test]
fn the_same_on_a_double_square_scores_eight() {
    // D5 is X2; C4 and E6 touch it but not each other.
    let game: Adjacency = replay(&["C4", "E6", "D5"]);
    assert_eq!(scores(&game), [1 + 8, 1]);
}

#[test]
fn the_same_on_a_triple_square_scores_twelve() {
    // C3 is X3; B2 and D4 touch it but not each other.
    let game: Adjacency = replay(&["B2", "D4", "C3"]);
    assert_eq!(scores(&game), [1 + 12, 1]);
}

#[test]
fn a_lone_mark_on_a_triple_square_scores_three() {
    for square in ["C3", "I3", "C9", "I9"] {
        let game: Adjacency = replay(&[square]);
        assert_eq!(scores(&game), [3, 0], "{square}");
    }
    for square in ["D5", "H5", "D7", "H7"] {
        let game: Adjacency = replay(&[square]);
        assert_eq!(scores(&game), [2, 0], "{square}");
    }
}

#[test]
fn opponent_marks_count_double_and_diagonals_count() {
    // O surrounded by three X marks (one diagonal) scores 1 + 2 * 3 = 7.
    let game: Adjacency = replay(&["A1", "K11", "B1", "K10", "A2", "B2"]);
    assert_eq!(scores(&game), [1 + 2 + 3, 1 + 2 + 7]);
    // C1 touches B1 (X) and B2 (O): 1 + 1 + 2.
    assert_eq!(game.placement_points(cell("C1") as usize), 4);
}

#[test]
fn an_extra_turn_square_gives_the_mover_another_turn() {
    let game: Adjacency = replay(&["E3"]);
    assert_eq!(game.to_move(), Player::X);
    assert_eq!(scores(&game), [1, 0]);
    let game: Adjacency = replay(&["E3", "F3"]);
    assert_eq!(game.to_move(), Player::O);
    // F3 touches the X on E3: 1 + 1.
    assert_eq!(scores(&game), [1 + 2, 0]);
    // O gets extra turns too.
    let game: Adjacency = replay(&["A1", "G9"]);
    assert_eq!(game.to_move(), Player::O);
}

#[test]
fn extra_turns_chain() {
    // X plays E3 then, on the extra turn, G3: still X's turn; then A1 passes the turn.
    let game: Adjacency = replay(&["E3", "G3"]);
    assert_eq!(game.to_move(), Player::X);
    let game: Adjacency = replay(&["E3", "G3", "E9", "G9"]);
    assert_eq!(game.to_move(), Player::X);
    assert_eq!(scores(&game), [4, 0]);
    let game: Adjacency = replay(&["E3", "G3", "E9", "G9", "A1"]);
    assert_eq!(game.to_move(), Player::O);
}

#[test]
fn free_spaces_are_never_legal() {
    let game = Adjacency::new();
    let moves = legal(&game);
    assert_eq!(moves.len(), 119);
    for free in ["F1", "F11"] {
        assert!(!moves.contains(&cell(free)));
        assert_eq!(game.check(cell(free)), Err(IllegalMove::Occupied));
        assert_eq!(Square::of(cell(free) as usize), Square::Free);
        assert_eq!(game.mark_at(cell(free) as usize), None);
    }
    assert_eq!(game.check(121), Err(IllegalMove::OutOfRange));
}

#[test]
fn free_spaces_are_not_touching_marks() {
    // E1 and G1 touch F1; E11 and G11 touch F11: all lone marks score 1.
    let game: Adjacency = replay(&["E1", "G11", "G1", "E11"]);
    assert_eq!(scores(&game), [2, 2]);
    // F2 touches F1, E1 (X) and G1 (X): O scores 1 + 2 * 2.
    let game: Adjacency = replay(&["E1", "G11", "G1", "F2"]);
    assert_eq!(scores(&game), [2, 1 + 5]);
}

#[test]
fn occupied_cells_and_finished_games_are_refused() {
    let game: Adjacency = replay(&["C5"]);
    assert_eq!(game.check(cell("C5")), Err(IllegalMove::Occupied));
    let finished = play_in_order();
    assert_eq!(finished.check(0), Err(IllegalMove::GameOver));
    assert!(legal(&finished).is_empty());
}

/// Every playable cell in index order, A1, B1, ... K11.
fn play_in_order() -> Adjacency {
    let mut game = Adjacency::new();
    for action in 0..121 {
        if game.is_legal(action) {
            game.play(action);
        }
    }
    game
}

#[test]
fn the_higher_total_wins() {
    let game = play_in_order();
    assert!(game.is_over());
    // Totals of this fixed game, cross-checked with the reference implementation.
    let mut slow = <SlowAdjacency as Reference>::new();
    for action in 0..121 {
        if slow.legal().contains(&action) {
            slow.play(action);
        }
    }
    let totals = scores(&game);
    assert_eq!(Some(totals), slow.scores());
    assert_eq!(totals, [406, 433]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::O)));
}

#[test]
fn every_finished_game_goes_to_the_higher_total_and_equal_totals_draw() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut draws = 0;
    let mut wins = [0, 0];
    for _ in 0..2000 {
        let (game, plies) = oxo_rules::random_playout(Adjacency::new(), &mut rng);
        assert!(plies <= Adjacency::MAX_PLIES);
        assert_eq!(plies, 119);
        let [x, o] = scores(&game);
        match game.outcome().unwrap() {
            Outcome::Win(Player::X) => {
                assert!(x > o);
                wins[0] += 1;
            }
            Outcome::Win(Player::O) => {
                assert!(o > x);
                wins[1] += 1;
            }
            Outcome::Draw => {
                assert_eq!(x, o);
                draws += 1;
            }
        }
    }
    assert!(draws > 0 && wins[0] > 0 && wins[1] > 0, "{draws} {wins:?}");
}

#[test]
fn symmetries_are_the_two_mirrors_and_the_half_turn() {
    let map = |sym, name| Adjacency::format_action(Adjacency::map_action(sym, cell(name)));
    assert_eq!(map(0, "B3"), "B3");
    assert_eq!(map(1, "B3"), "J3");
    assert_eq!(map(2, "B3"), "B9");
    assert_eq!(map(3, "B3"), "J9");
    for sym in 0..Adjacency::NUM_SYMMETRIES {
        for c in 0..121 {
            let image = Adjacency::map_action(sym, c);
            assert_eq!(
                Square::of(c as usize),
                Square::of(image as usize),
                "{sym} {c}"
            );
        }
    }
}

#[test]
fn the_board_shows_special_squares_points_and_turn() {
    let game: Adjacency = replay(&["E3", "D4"]);
    let text = game.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "    A B C D E F G H I J K");
    assert_eq!(lines[1], "  1 . . . . . # . . . . .");
    assert_eq!(lines[3], "  3 . . 3 . X . T . 3 . .");
    assert_eq!(lines[4], "  4 . . . X . . . . . . .");
    assert!(text.contains("T extra turn") && text.contains("# free space"));
    // E3 alone 1, then D4 (extra turn) touching E3: 2.
    assert!(text.contains("Points: X 3, O 0"));
    assert!(text.contains("O to move"));
}

#[test]
fn random_actions_reach_every_empty_cell_and_nothing_else() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut game = Adjacency::new();
    for plies in 0..119 {
        if plies % 20 == 0 {
            let moves = legal(&game);
            let mut seen = [0u32; 121];
            for _ in 0..moves.len() * 100 {
                seen[game.random_action(&mut rng) as usize] += 1;
            }
            for action in 0..121u16 {
                let hits = seen[action as usize];
                if moves.contains(&action) {
                    assert!((40..=200).contains(&hits), "{action} drawn {hits} times");
                } else {
                    assert_eq!(hits, 0, "{action} is not legal");
                }
            }
        }
        let action = game.random_action(&mut rng);
        game.play(action);
    }
    assert!(game.is_over());
}

//! connect4: the standard suite against a plain-array reference, hand-made games for each way
//! to win, draw and be refused, and the exact solver checked against a plain negamax and
//! against the known values of the opening.

use std::collections::HashMap;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::connect4::Connect4;
use crate::harness::{Reference, legal, replay};
use oxo_agents::Evaluate;
use oxo_rules::{Action, Game, IllegalMove, Outcome, Player};

/// Reference Connect Four: a grid of optional discs, rows from the top, scanned cell by cell.
#[derive(Clone)]
struct SlowConnect4 {
    grid: [[Option<Player>; 7]; 6],
    turn: Player,
}

impl SlowConnect4 {
    /// The player with four in a line, found by trying every cell and direction.
    fn winner(&self) -> Option<Player> {
        let directions = [(0i32, 1i32), (1, 0), (1, 1), (1, -1)];
        for row in 0..6i32 {
            for col in 0..7i32 {
                for (dr, dc) in directions {
                    let cells: Vec<Option<Player>> = (0..4)
                        .map(|k| (row + k * dr, col + k * dc))
                        .filter(|&(r, c)| (0..6).contains(&r) && (0..7).contains(&c))
                        .map(|(r, c)| self.grid[r as usize][c as usize])
                        .collect();
                    if cells.len() == 4
                        && cells[0].is_some()
                        && cells.iter().all(|&p| p == cells[0])
                    {
                        return cells[0];
                    }
                }
            }
        }
        None
    }
}

impl Reference for SlowConnect4 {
    fn new() -> Self {
        SlowConnect4 {
            grid: [[None; 7]; 6],
            turn: Player::X,
        }
    }
    fn to_move(&self) -> Player {
        self.turn
    }
    fn legal(&self) -> Vec<Action> {
        if self.outcome().is_some() {
            return vec![];
        }
        // The lowest empty cell of each column, scanning up from the bottom row.
        let mut cells: Vec<Action> = (0..7)
            .filter_map(|col| {
                (0..6)
                    .rev()
                    .find(|&row| self.grid[row][col].is_none())
                    .map(|row| (row * 7 + col) as Action)
            })
            .collect();
        cells.sort_unstable();
        cells
    }
    fn play(&mut self, action: Action) {
        let (row, col) = (action as usize / 7, action as usize % 7);
        self.grid[row][col] = Some(self.turn);
        self.turn = self.turn.other();
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::Win(p)),
            None if self.grid.iter().flatten().all(Option::is_some) => Some(Outcome::Draw),
            None => None,
        }
    }
    fn scores(&self) -> Option<[i32; 2]> {
        None
    }
}

standard_tests!(Connect4, SlowConnect4, 5000);

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    #[test]
    fn winning_action_finds_a_winning_move(seed in proptest::prelude::any::<u64>()) {
        crate::harness::winning_action_finds_a_winning_move::<Connect4>(seed, |_, after, mover| {
            after.outcome() == Some(Outcome::Win(mover))
        });
    }
}

#[test]
fn a_row_of_four_wins() {
    let game: Connect4 = replay(&["A6", "A5", "B6", "B5", "C6", "C5", "D6"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert!(legal(&game).is_empty());
}

#[test]
fn a_column_of_four_wins() {
    let game: Connect4 = replay(&["A6", "B6", "C6", "B5", "A5", "B4", "D6", "B3"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::O)));
}

#[test]
fn a_rising_diagonal_wins() {
    let moves = ["A6", "B6", "B5", "C6", "D6", "C5", "C4", "D5", "E6", "D4"];
    let before: Connect4 = replay(&moves);
    assert_eq!(before.outcome(), None);
    assert_eq!(before.winning_action(), Connect4::parse_action("D3").ok());
    let game: Connect4 = replay(&[&moves[..], &["D3"]].concat());
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
}

#[test]
fn a_falling_diagonal_wins() {
    let moves = [
        "G6", "F6", "F5", "E6", "D6", "E5", "E4", "D5", "C6", "D4", "D3",
    ];
    let game: Connect4 = replay(&moves);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
}

#[test]
fn a_full_board_without_four_is_a_draw() {
    let moves = [
        "F6", "E6", "F5", "A6", "G6", "C6", "E5", "F4", "F3", "A5", "E4", "B6", "B5", "A4", "E3",
        "F2", "G5", "F1", "D6", "B4", "B3", "C5", "C4", "G4", "C3", "G3", "G2", "D5", "G1", "C2",
        "A3", "D4", "A2", "D3", "D2", "E2", "D1", "B2", "E1", "C1", "B1", "A1",
    ];
    let before: Connect4 = replay(&moves[..41]);
    assert_eq!(before.outcome(), None);
    let game: Connect4 = replay(&moves);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert!(legal(&game).is_empty());
}

#[test]
fn each_illegal_move_says_why() {
    let cell = |text| Connect4::parse_action(text).unwrap();
    let game: Connect4 = replay(&["D6"]);
    assert_eq!(game.check(cell("D6")), Err(IllegalMove::Occupied));
    assert!(matches!(
        game.check(cell("C5")),
        Err(IllegalMove::NotNow(_))
    ));
    assert!(matches!(
        game.check(cell("D4")),
        Err(IllegalMove::NotNow(_))
    ));
    assert_eq!(game.check(cell("D5")), Ok(()));
    assert_eq!(game.check(42), Err(IllegalMove::OutOfRange));
    let won: Connect4 = replay(&["A6", "A5", "B6", "B5", "C6", "C5", "D6"]);
    assert_eq!(won.check(cell("E6")), Err(IllegalMove::GameOver));
}

#[test]
fn the_mirror_swaps_the_columns() {
    let game: Connect4 = replay(&["A6", "B6", "B5"]);
    let mirrored: Connect4 = replay(&["G6", "F6", "F5"]);
    assert_eq!(game.transformed(1), mirrored);
    assert_eq!(Connect4::map_action(1, 0), 6);
    assert_eq!(Connect4::map_action(1, 38), 38);
}

/// The value of `game` (not over) for its mover, by a plain negamax over win, draw and loss
/// with alpha-beta, the two forced-move rules (win at once; block the opponent's immediate
/// win) and a table of bounds: independent of the solver under test.
fn plain_value(
    game: &Connect4,
    mut alpha: i8,
    mut beta: i8,
    table: &mut HashMap<Connect4, (i8, i8)>,
) -> i8 {
    let (low, high) = table.get(game).copied().unwrap_or((-1, 1));
    if low == high || low >= beta || high <= alpha {
        return if low >= beta { low } else { high };
    }
    let (alpha0, beta0) = (alpha.max(low), beta.min(high));
    (alpha, beta) = (alpha0, beta0);
    let mover = game.to_move();
    let mut moves = legal(game);
    // Centre columns first: the usual cheap ordering.
    moves.sort_by_key(|&a| (3 - (a as i32 % 7)).abs());
    let mut best = -1;
    let blocks = game.winning_cells(mover.other());
    for &action in &moves {
        let mut child = *game;
        child.play(action);
        let value = match child.outcome() {
            Some(Outcome::Win(_)) => 1,
            Some(Outcome::Draw) => 0,
            None if blocks != 0 && blocks & (1 << action) == 0 => continue,
            None => -plain_value(&child, -beta, -alpha, table),
        };
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    let entry = table.entry(*game).or_insert((-1, 1));
    if best <= alpha0 {
        entry.1 = entry.1.min(best);
    } else if best >= beta0 {
        entry.0 = entry.0.max(best);
    } else {
        *entry = (best, best);
    }
    best
}

/// A position after `plies` moves that is not over, if the game lasts. The moves are uniformly
/// random, or with `tactical` a move that wins at once, else one that blocks the opponent's
/// immediate win, else random: games that stay undecided longer.
fn random_position(rng: &mut SmallRng, plies: usize, tactical: bool) -> Option<Connect4> {
    let mut game = Connect4::new();
    for _ in 0..plies {
        if game.is_over() {
            return None;
        }
        let blocks = game.winning_cells(game.to_move().other());
        let action = match game.winning_action() {
            Some(action) if tactical => action,
            _ if tactical && blocks != 0 => blocks.trailing_zeros() as Action,
            _ => game.random_action(rng),
        };
        game.play(action);
    }
    (!game.is_over()).then_some(game)
}

/// 200 positions at plies 18 to 34, half from random play and half from play that wins or
/// blocks at once where it can (so that all three values occur).
#[test]
fn the_solver_agrees_with_a_plain_negamax() {
    let mut rng = SmallRng::seed_from_u64(0xC4);
    let (mut checked, mut wins, mut draws) = (0, 0, 0);
    while checked < 200 {
        let plies = 18 + checked % 17;
        let Some(game) = random_position(&mut rng, plies, checked % 2 == 0) else {
            continue;
        };
        let expected = plain_value(&game, -1, 1, &mut HashMap::new());
        assert_eq!(game.exact_value(), Some(expected), "ply {plies}\n{game}");
        wins += (expected == 1) as usize;
        draws += (expected == 0) as usize;
        checked += 1;
    }
    assert!(
        wins > 0 && draws > 0 && wins + draws < 200,
        "a mix of values"
    );
}

/// John Tromp's result: X wins only by starting in the centre; the columns next to it draw.
#[test]
fn the_opening_values_are_the_known_ones() {
    assert_eq!(Connect4::new().exact_value(), Some(1));
    // O's value after X's first disc in columns A to G.
    let expected = [1, 1, 0, -1, 0, 1, 1];
    for (col, value) in expected.into_iter().enumerate() {
        let mut game = Connect4::new();
        game.play((5 * 7 + col) as Action);
        assert_eq!(game.exact_value(), Some(value), "X in column {col}");
    }
}

/// The planes of one position: X (to move) holds D6, D5 and D4, so D3 wins for the mover; O
/// holds A6 and A5 and B6, and no playable cell wins for O.
#[test]
fn the_win_planes_show_immediate_wins() {
    use oxo_encode::Encode;
    let game: Connect4 = replay(&["D6", "A6", "D5", "A5", "D4", "B6"]);
    let mut planes = vec![0.0; Connect4::INPUT_SIZE];
    game.encode(&mut planes);
    let at = |plane: usize, text: &str| {
        planes[plane * 42 + Connect4::parse_action(text).unwrap() as usize]
    };
    assert_eq!((at(0, "D6"), at(1, "D6"), at(1, "A6")), (1.0, 0.0, 1.0));
    assert_eq!((at(2, "D3"), at(2, "A4"), at(2, "A3")), (1.0, 1.0, 0.0));
    assert_eq!(planes[3 * 42..4 * 42].iter().sum::<f32>(), 1.0);
    assert_eq!(at(3, "D3"), 1.0);
    assert!(planes[4 * 42..5 * 42].iter().all(|&x| x == 0.0));
    let blocked: Connect4 = replay(&["D6", "A6", "D5", "A5", "D4"]);
    blocked.encode(&mut planes);
    assert_eq!(
        planes[4 * 42 + Connect4::parse_action("D3").unwrap() as usize],
        1.0
    );
}

//! tictactoe: the standard suite plus hand-made positions.

use crate::harness::{Reference, replay};
use crate::tictactoe::TicTacToe;
use oxo_rules::{Action, Game, Outcome, Player};

/// Reference tic-tac-toe: a 9-cell array and an explicit list of lines.
#[derive(Clone)]
struct SlowTicTacToe {
    cells: [Option<Player>; 9],
    turn: Player,
}

impl SlowTicTacToe {
    fn winner(&self) -> Option<Player> {
        let lines = [
            [0, 1, 2],
            [3, 4, 5],
            [6, 7, 8],
            [0, 3, 6],
            [1, 4, 7],
            [2, 5, 8],
            [0, 4, 8],
            [2, 4, 6],
        ];
        lines.iter().find_map(|l| {
            let first = self.cells[l[0]]?;
            (self.cells[l[1]] == Some(first) && self.cells[l[2]] == Some(first)).then_some(first)
        })
    }
}

impl Reference for SlowTicTacToe {
    fn new() -> Self {
        SlowTicTacToe {
            cells: [None; 9],
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
        (0..9)
            .filter(|&i| self.cells[i].is_none())
            .map(|i| i as Action)
            .collect()
    }
    fn play(&mut self, action: Action) {
        self.cells[action as usize] = Some(self.turn);
        self.turn = self.turn.other();
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::Win(p)),
            None if self.cells.iter().all(Option::is_some) => Some(Outcome::Draw),
            None => None,
        }
    }
    fn scores(&self) -> Option<[i32; 2]> {
        None
    }
}

standard_tests!(TicTacToe, SlowTicTacToe, 5000);

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    #[test]
    fn winning_action_finds_a_winning_move(seed in proptest::prelude::any::<u64>()) {
        crate::harness::winning_action_finds_a_winning_move::<TicTacToe>(seed, |_, after, mover| {
            after.outcome() == Some(Outcome::Win(mover))
        });
    }
}

#[test]
fn a_line_wins_at_once() {
    let game: TicTacToe = replay(&["A1", "A2", "B1", "B2", "C1"]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert!(crate::harness::legal(&game).is_empty());
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    let game: TicTacToe = replay(&["B2", "A1", "C1", "A3", "A2", "C2", "B1", "B3", "C3"]);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
}

#[test]
fn occupied_cells_are_refused() {
    let game: TicTacToe = replay(&["B2"]);
    assert_eq!(game.check(4), Err(oxo_rules::IllegalMove::Occupied));
}

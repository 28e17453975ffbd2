//! ultimate: the standard suite, a cross-check against the `board-game` crate's independent
//! `sttt` implementation, and hand-made positions for every special rule.

use crate::harness::{Reference, legal, replay};
use crate::ultimate::Ultimate;
use board_game::board::{Board, Outcome as SttOutcome, Player as SttPlayer};
use board_game::games::sttt::{Coord, STTTBoard};
use oxo_rules::{Action, Game, IllegalMove, Outcome, Player};
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// Reference ultimate tic-tac-toe: an 81-cell array, the last move, and explicit loops over
/// rows and columns for everything else.
#[derive(Clone)]
struct SlowUltimate {
    cells: [Option<Player>; 81],
    turn: Player,
    last: Option<usize>,
}

impl SlowUltimate {
    /// The nine flat indices of local board `board`, row by row.
    fn board_cells(board: usize) -> Vec<usize> {
        let (top, left) = ((board / 3) * 3, (board % 3) * 3);
        let mut out = Vec::new();
        for row in top..top + 3 {
            for col in left..left + 3 {
                out.push(row * 9 + col);
            }
        }
        out
    }

    /// Who has three in a row in a 3x3 grid of owners, if anyone.
    fn three_in_a_row(grid: [Option<Player>; 9]) -> Option<Player> {
        let at = |r: usize, c: usize| grid[r * 3 + c];
        let mut lines: Vec<[Option<Player>; 3]> = Vec::new();
        for i in 0..3 {
            lines.push([at(i, 0), at(i, 1), at(i, 2)]);
            lines.push([at(0, i), at(1, i), at(2, i)]);
        }
        lines.push([at(0, 0), at(1, 1), at(2, 2)]);
        lines.push([at(0, 2), at(1, 1), at(2, 0)]);
        lines
            .into_iter()
            .find_map(|[a, b, c]| if a == b && b == c { a } else { None })
    }

    fn board_winner(&self, board: usize) -> Option<Player> {
        let cells = Self::board_cells(board);
        Self::three_in_a_row(std::array::from_fn(|i| self.cells[cells[i]]))
    }

    fn board_closed(&self, board: usize) -> bool {
        self.board_winner(board).is_some()
            || Self::board_cells(board)
                .iter()
                .all(|&i| self.cells[i].is_some())
    }
}

impl Reference for SlowUltimate {
    fn new() -> Self {
        SlowUltimate {
            cells: [None; 81],
            turn: Player::X,
            last: None,
        }
    }
    fn to_move(&self) -> Player {
        self.turn
    }
    fn legal(&self) -> Vec<Action> {
        if self.outcome().is_some() {
            return vec![];
        }
        // The board the last move's position inside its board points to.
        let sent = self.last.map(|i| (i / 9 % 3) * 3 + i % 3);
        let allowed = |board: usize| match sent {
            Some(target) if !self.board_closed(target) => board == target,
            _ => !self.board_closed(board),
        };
        (0..81)
            .filter(|&i| self.cells[i].is_none() && allowed((i / 27) * 3 + (i % 9) / 3))
            .map(|i| i as Action)
            .collect()
    }
    fn play(&mut self, action: Action) {
        self.cells[action as usize] = Some(self.turn);
        self.last = Some(action as usize);
        self.turn = self.turn.other();
    }
    fn outcome(&self) -> Option<Outcome> {
        let big: [Option<Player>; 9] = std::array::from_fn(|b| self.board_winner(b));
        if let Some(winner) = Self::three_in_a_row(big) {
            Some(Outcome::Win(winner))
        } else if (0..9).all(|b| self.board_closed(b)) {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn scores(&self) -> Option<[i32; 2]> {
        None
    }
}

standard_tests!(Ultimate, SlowUltimate, 3000);

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    #[test]
    fn winning_action_finds_a_winning_move(seed in proptest::prelude::any::<u64>()) {
        crate::harness::winning_action_finds_a_winning_move::<Ultimate>(seed, |before, after, mover| {
            after.won_boards(mover) != before.won_boards(mover)
        });
    }
}

/// The `board-game` crate's coordinate of our flat action (`row * 9 + col`).
fn sttt_coord(action: Action) -> Coord {
    Coord::from_xy(action as u8 % 9, action as u8 / 9)
}

/// Plays random games with our rules and `board_game::games::sttt` side by side (its player A
/// moves first, like our X) and checks that they agree on every legal move set, the player to
/// move and the result.
#[test]
fn agrees_with_the_board_game_crate() {
    let mut rng = SmallRng::seed_from_u64(0x5777);
    for game_index in 0..3000 {
        let mut ours = Ultimate::new();
        let mut theirs = STTTBoard::default();
        let mut moves = Vec::new();
        while !ours.is_over() {
            assert!(!theirs.is_done(), "game {game_index} {moves:?}");
            let expected = match theirs.next_player() {
                SttPlayer::A => Player::X,
                SttPlayer::B => Player::O,
            };
            assert_eq!(ours.to_move(), expected, "game {game_index} {moves:?}");
            for action in 0..81 {
                assert_eq!(
                    ours.is_legal(action),
                    theirs.is_available_move(sttt_coord(action)).unwrap(),
                    "game {game_index}, action {action}, moves {moves:?}\n{ours}"
                );
            }
            let action = ours.random_action(&mut rng);
            moves.push(Ultimate::format_action(action));
            ours.play(action);
            theirs.play(sttt_coord(action)).unwrap();
        }
        let expected = match theirs.outcome() {
            Some(SttOutcome::WonBy(SttPlayer::A)) => Outcome::Win(Player::X),
            Some(SttOutcome::WonBy(SttPlayer::B)) => Outcome::Win(Player::O),
            Some(SttOutcome::Draw) => Outcome::Draw,
            None => panic!("sttt not over after {moves:?}"),
        };
        assert_eq!(
            ours.outcome(),
            Some(expected),
            "game {game_index} {moves:?}"
        );
    }
}

/// The flat action of a cell name.
fn at(name: &str) -> Action {
    Ultimate::parse_action(name).unwrap()
}

/// The empty cells of the boards not in `closed` (a 9-bit mask), as sorted actions.
fn empty_cells_outside(game: &Ultimate, closed: u16) -> Vec<Action> {
    (0..81)
        .filter(|&i| game.cell(i).is_none() && closed >> crate::ultimate::board_of(i) & 1 == 0)
        .map(|i| i as Action)
        .collect()
}

#[test]
fn the_first_move_is_free() {
    let game = Ultimate::new();
    assert_eq!(game.to_move(), Player::X);
    assert_eq!(game.sent_to(), None);
    assert_eq!(legal(&game), (0..81).collect::<Vec<Action>>());
    assert_eq!(game.legal_mask(), (1u128 << 81) - 1);
}

#[test]
fn a_move_sends_the_opponent_to_the_matching_board() {
    // B1 is the top-middle cell of the top-left board: O must play the top-middle board.
    let game: Ultimate = replay(&["B1"]);
    assert_eq!(game.sent_to(), Some(1));
    let top_middle: Vec<Action> = ["D1", "E1", "F1", "D2", "E2", "F2", "D3", "E3", "F3"]
        .iter()
        .map(|name| at(name))
        .collect();
    assert_eq!(legal(&game), top_middle);
    assert_eq!(game.check(at("A2")), Err(IllegalMove::WrongBoard));
    assert_eq!(game.check(at("B1")), Err(IllegalMove::Occupied));
    // I9 is the bottom-right cell of the bottom-right board, and sends there.
    let game: Ultimate = replay(&["I9"]);
    assert_eq!(game.sent_to(), Some(8));
    assert!(game.to_string().contains("O to move on board G7-I9."));
}

#[test]
fn sent_to_a_won_board_the_mover_plays_any_open_board() {
    // X takes the top row of the top-left board; its last move, A1, points back there.
    let game: Ultimate = replay(&["B1", "D1", "C1", "G1", "A1"]);
    assert_eq!(game.won_boards(Player::X), 0b1);
    assert_eq!(game.closed_boards(), 0b1);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.to_move(), Player::O);
    assert_eq!(game.sent_to(), None);
    let actions = legal(&game);
    assert_eq!(actions, empty_cells_outside(&game, 0b1));
    assert_eq!(actions.len(), 81 - 9 - 2);
    // The won board still has empty cells, but they are closed.
    assert_eq!(game.check(at("B2")), Err(IllegalMove::ClosedBoard));
    assert_eq!(game.check(at("G1")), Err(IllegalMove::Occupied));
    assert!(game.is_legal(at("I9")) && game.is_legal(at("D2")));
    assert!(game.to_string().contains("O to move on any open board."));
    // X owns every cell of the won board, empty ones included, and nothing else.
    let owned: Vec<usize> = (0..81).filter(|&c| game.owner(c).is_some()).collect();
    assert_eq!(owned, [0, 1, 2, 9, 10, 11, 18, 19, 20]);
    assert!(owned.iter().all(|&c| game.owner(c) == Some(Player::X)));
}

#[test]
fn sent_to_a_full_board_the_mover_plays_any_open_board() {
    // The bottom-left board fills up without a line; no board is won. The last move, G6,
    // is the bottom-left cell of its board and sends X to the full board.
    let game: Ultimate = replay(&[
        "A7", "B1", "E3", "E9", "D9", "A9", "B8", "D6", "B9", "F8", "H5", "F4", "G2", "C5", "G4",
        "A3", "C8", "H4", "D3", "C9", "I7", "G3", "C7", "I3", "G9", "A8", "A6", "B7", "F2", "G6",
    ]);
    let bottom_left = ["A7", "B7", "C7", "A8", "B8", "C8", "A9", "B9", "C9"];
    assert!(
        bottom_left
            .iter()
            .all(|name| game.cell(at(name) as usize).is_some())
    );
    assert_eq!(game.closed_boards(), 1 << 6);
    assert_eq!(game.won_boards(Player::X) | game.won_boards(Player::O), 0);
    assert_eq!(game.to_move(), Player::X);
    assert_eq!(game.sent_to(), None);
    assert_eq!(legal(&game), empty_cells_outside(&game, 0));
    assert_eq!(legal(&game).len(), 81 - 30);
    assert_eq!(game.check(at("A7")), Err(IllegalMove::Occupied));
    assert!(game.to_string().contains("# . ."));
}

#[test]
fn a_full_board_counts_for_nobody() {
    // X has won the top-middle and bottom-middle boards; the centre board between them is
    // full without a line, so the middle column is no win for anyone.
    let game: Ultimate = replay(&[
        "D3", "A9", "B8", "F6", "G8", "A6", "A7", "B3", "E9", "F8", "H6", "D9", "C9", "H9", "E8",
        "E6", "E7", "E2", "D4", "B2", "D6", "F4", "G3", "H8", "E5", "D5", "B5", "E4", "D1", "B1",
        "D2", "B6", "F5",
    ]);
    assert_eq!(game.won_boards(Player::X) & 0b010_010_010, 0b010_000_010);
    assert_eq!(game.won_boards(Player::O) & 0b010_010_010, 0);
    assert_ne!(game.closed_boards() & 1 << 4, 0);
    let centre = ["D4", "E4", "F4", "D5", "E5", "F5", "D6", "E6", "F6"];
    assert!(
        centre
            .iter()
            .all(|name| game.cell(at(name) as usize).is_some())
    );
    assert_eq!(game.outcome(), None);
    assert_eq!(game.to_move(), Player::O);
    assert_eq!(game.sent_to(), Some(5));
}

#[test]
fn three_won_boards_in_a_row_win_at_once() {
    // O wins the right column of boards with I3 while most cells are still empty.
    let mut game: Ultimate = replay(&[
        "C2", "G5", "C6", "H9", "F9", "I9", "I8", "H5", "F4", "G3", "C9", "G9", "C7", "H3", "F8",
        "I5", "E3", "E9", "F7",
    ]);
    assert_eq!(game.won_boards(Player::O), 0b100_100_000);
    assert_eq!(game.outcome(), None);
    game.play(at("I3"));
    assert_eq!(game.won_boards(Player::O), 0b100_100_100);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::O)));
    assert!(legal(&game).is_empty());
    assert_eq!(game.legal_mask(), 0);
    assert_eq!(game.sent_to(), None);
    assert_eq!(game.check(at("A1")), Err(IllegalMove::GameOver));
    assert_eq!(game.check(81), Err(IllegalMove::OutOfRange));
    assert!(game.to_string().contains("Game over: O wins."));
}

#[test]
fn every_board_closed_without_a_line_is_a_draw() {
    // X wins five boards to O's three, but the full bottom-right board blocks both of X's
    // lines: a draw, with no tie-break by counting boards.
    let game: Ultimate = replay(&[
        "G4", "A3", "A7", "C3", "H7", "E3", "D7", "B3", "F7", "G1", "I9", "H9", "E7", "D3", "C9",
        "G7", "B8", "F4", "H3", "I5", "I6", "I7", "H1", "F3", "G8", "C4", "H2", "E6", "B5", "D4",
        "B6", "G5", "B4", "G9", "I4", "I8", "H4", "F5", "H8", "F6",
    ]);
    assert_eq!(game.closed_boards(), 0x1FF);
    assert_eq!(game.won_boards(Player::X), 0b011_101_100);
    assert_eq!(game.won_boards(Player::O), 0b000_010_011);
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert!(legal(&game).is_empty());
    assert!(game.cell(at("A1") as usize).is_none(), "empty cells remain");
    assert!(game.to_string().contains("Game over: draw."));
}

#[test]
fn accessors_agree_with_each_other_in_random_games() {
    let mut rng = SmallRng::seed_from_u64(11);
    for _ in 0..300 {
        let mut game = Ultimate::new();
        loop {
            let mask = game.legal_mask();
            let from_mask: Vec<Action> = (0..81).filter(|&a| mask >> a & 1 != 0).collect();
            assert_eq!(legal(&game), from_mask);
            for player in Player::BOTH {
                let marks = game.marks(player);
                for index in 0..81 {
                    let owned = game.cell(index) == Some(player);
                    assert_eq!(marks >> index & 1 != 0, owned);
                    let board = crate::ultimate::board_of(index);
                    let local = crate::ultimate::local_cell_of(index);
                    assert_eq!(crate::ultimate::cell_of(board, local), index);
                    assert_eq!(game.local_marks(player, board) >> local & 1 != 0, owned);
                }
                assert_eq!(game.won_boards(player) & !game.closed_boards(), 0);
            }
            if game.is_over() {
                break;
            }
            if let Some(board) = game.sent_to() {
                assert_eq!(game.closed_boards() >> board & 1, 0);
            }
            game.play(game.random_action(&mut rng));
        }
    }
}

//! xando: the standard suite, the source's scoring vector (docs/RULES.md) on a concrete grid,
//! the run table, diagonal runs, the opening, last-turn blackening in both games, game 2's
//! setup and the round's outcome.

use crate::harness::{Reference, legal, replay};
use crate::xando::{BLACKEN, RUN_POINTS, XAndO, run_counts, score_grid, score_marks};
use oxo_rules::{Action, Game, IllegalMove, Outcome, Player};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

#[derive(Clone, Copy, PartialEq, Debug)]
enum Square {
    Empty,
    Black,
    Mark(Player),
}

/// Every maximal run (length 2 or more) of `owned` squares along rows, columns and both
/// diagonals, found by walking from each run's first square.
fn run_lengths(owned: &[[bool; 6]; 6]) -> Vec<usize> {
    let inside = |r: isize, c: isize| (0..6).contains(&r) && (0..6).contains(&c);
    let mut lengths = Vec::new();
    for r in 0..6isize {
        for c in 0..6isize {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                if !owned[r as usize][c as usize] {
                    continue;
                }
                let (pr, pc) = (r - dr, c - dc);
                if inside(pr, pc) && owned[pr as usize][pc as usize] {
                    continue; // not the first square of its run
                }
                let mut length = 0;
                let (mut rr, mut cc) = (r, c);
                while inside(rr, cc) && owned[rr as usize][cc as usize] {
                    length += 1;
                    rr += dr;
                    cc += dc;
                }
                if length >= 2 {
                    lengths.push(length);
                }
            }
        }
    }
    lengths
}

fn points(length: usize) -> i32 {
    match length {
        2 => 1,
        3 => -5,
        4 => 10,
        5 => -15,
        6 => 25,
        _ => 0,
    }
}

fn owned_by_mask(mask: u64) -> [[bool; 6]; 6] {
    let mut owned = [[false; 6]; 6];
    for (cell, square) in owned.iter_mut().flatten().enumerate() {
        *square = mask & (1 << cell) != 0;
    }
    owned
}

/// The squares of `grid` holding `player`'s symbol.
fn owned_by(grid: &[[Square; 6]; 6], player: Player) -> [[bool; 6]; 6] {
    grid.map(|row| row.map(|square| square == Square::Mark(player)))
}

fn slow_score_mask(mask: u64) -> i32 {
    run_lengths(&owned_by_mask(mask))
        .into_iter()
        .map(points)
        .sum()
}

/// Reference X and O: a 6x6 array of squares, explicit counters for the phase of the round,
/// and run scoring by walking the grid.
#[derive(Clone)]
struct SlowXAndO {
    grid: [[Square; 6]; 6],
    opening: Vec<usize>,
    game: usize,
    turns_in_game: usize,
    placed: [usize; 2],
    first_game: [i32; 2],
    result: Option<Outcome>,
}

impl SlowXAndO {
    fn score(&self, player: Player) -> i32 {
        run_lengths(&owned_by(&self.grid, player))
            .into_iter()
            .map(points)
            .sum()
    }

    fn totals(&self) -> [i32; 2] {
        [
            self.first_game[0] + self.score(Player::X),
            self.first_game[1] + self.score(Player::O),
        ]
    }

    fn opening_phase(&self) -> bool {
        self.game == 1 && self.opening.len() < 4
    }
}

impl Reference for SlowXAndO {
    fn new() -> Self {
        SlowXAndO {
            grid: [[Square::Empty; 6]; 6],
            opening: Vec::new(),
            game: 1,
            turns_in_game: 0,
            placed: [0, 0],
            first_game: [0, 0],
            result: None,
        }
    }
    fn to_move(&self) -> Player {
        let first = if self.game == 1 { Player::X } else { Player::O };
        if self.turns_in_game % 2 == 0 {
            first
        } else {
            first.other()
        }
    }
    fn legal(&self) -> Vec<Action> {
        if self.result.is_some() {
            return vec![];
        }
        let empties: Vec<usize> = (0..36)
            .filter(|&i| self.grid[i / 6][i % 6] == Square::Empty)
            .collect();
        let mut moves = Vec::new();
        if self.opening_phase() {
            moves.extend(empties.iter().map(|&i| 36 + i as Action));
        } else {
            moves.extend(empties.iter().map(|&i| i as Action));
            if self.placed[self.to_move() as usize] == 15 {
                moves.extend(empties.iter().map(|&i| 36 + i as Action));
            }
        }
        moves
    }
    fn play(&mut self, action: Action) {
        let me = self.to_move();
        let cell = action as usize % 36;
        if action >= 36 {
            self.grid[cell / 6][cell % 6] = Square::Black;
            if self.opening_phase() {
                self.opening.push(cell);
            } else {
                self.placed[me as usize] += 1;
            }
        } else {
            self.grid[cell / 6][cell % 6] = Square::Mark(me);
            self.placed[me as usize] += 1;
        }
        self.turns_in_game += 1;
        if self.grid.iter().flatten().all(|&s| s != Square::Empty) {
            if self.game == 1 {
                self.first_game = [self.score(Player::X), self.score(Player::O)];
                self.grid = [[Square::Empty; 6]; 6];
                for &square in &self.opening {
                    self.grid[square / 6][square % 6] = Square::Black;
                }
                self.game = 2;
                self.turns_in_game = 0;
                self.placed = [0, 0];
            } else {
                let [x, o] = self.totals();
                self.result = Some(if x > o {
                    Outcome::Win(Player::X)
                } else if o > x {
                    Outcome::Win(Player::O)
                } else {
                    Outcome::Draw
                });
            }
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }
    fn scores(&self) -> Option<[i32; 2]> {
        Some(self.totals())
    }
}

standard_tests!(XAndO, SlowXAndO, 5000);

/// The mask of cells named in `cells` (e.g. `["A1", "B2"]`).
fn mask(cells: &[&str]) -> u64 {
    cells
        .iter()
        .map(|name| 1u64 << XAndO::parse_action(name).unwrap())
        .fold(0, |a, b| a | b)
}

/// A finished game-1 grid (X 16 symbols, O 15, five black squares of which O blackened D6 on
/// the last turn) whose runs are exactly the source's example: X one run of six, one of four,
/// one of three and seven of two; O three of four, two of three and ten of two.
const SEED_GRID: [&str; 6] = [
    "XXXX#X", // 1
    "OO#XOX", // 2
    "OOXOOX", // 3
    "OXO#OX", // 4
    "OXXOOX", // 5
    "#OO#XX", // 6
];

fn seed_cells(symbol: u8) -> Vec<usize> {
    (0..36)
        .filter(|&i| SEED_GRID[i / 6].as_bytes()[i % 6] == symbol)
        .collect()
}

fn cells_mask(cells: &[usize]) -> u64 {
    cells.iter().fold(0, |m, &c| m | 1 << c)
}

#[test]
fn the_run_table_scores_each_length() {
    assert_eq!(RUN_POINTS, [0, 0, 1, -5, 10, -15, 25]);
    let rows = ["A1", "B1", "C1", "D1", "E1", "F1"];
    let columns = ["C1", "C2", "C3", "C4", "C5", "C6"];
    let diagonal = ["A1", "B2", "C3", "D4", "E5", "F6"];
    let anti = ["F1", "E2", "D3", "C4", "B5", "A6"];
    for length in 1..=6 {
        for line in [rows, columns, diagonal, anti] {
            let run = mask(&line[..length]);
            assert_eq!(score_marks(run), points(length), "{:?}", &line[..length]);
            let mut expected = [0; 7];
            if length >= 2 {
                expected[length] = 1;
            }
            assert_eq!(run_counts(run), expected);
        }
    }
}

#[test]
fn the_seeds_scoring_vector_on_a_concrete_grid() {
    let x = cells_mask(&seed_cells(b'X'));
    let o = cells_mask(&seed_cells(b'O'));
    assert_eq!((x.count_ones(), o.count_ones()), (16, 15));
    assert_eq!(run_counts(x), [0, 0, 7, 1, 1, 0, 1]);
    assert_eq!(run_counts(o), [0, 0, 10, 2, 3, 0, 0]);
    let mut x_runs = run_lengths(&owned_by_mask(x));
    x_runs.sort_unstable();
    assert_eq!(x_runs, [2, 2, 2, 2, 2, 2, 2, 3, 4, 6]);
    let mut o_runs = run_lengths(&owned_by_mask(o));
    o_runs.sort_unstable();
    assert_eq!(o_runs, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 4, 4, 4]);
    assert_eq!(score_grid(x, o), [37, 30]);
}

/// Game 1 of the source's grid as moves: the opening E1 C2 D4 A6, then X and O claiming their
/// squares in reading order, O blackening D6 on the last turn.
fn seed_game_one() -> Vec<String> {
    let mut moves: Vec<String> = ["#E1", "#C2", "#D4", "#A6"].map(String::from).to_vec();
    let xs = seed_cells(b'X');
    let os = seed_cells(b'O');
    for turn in 0..16 {
        moves.push(XAndO::format_action(xs[turn] as Action));
        moves.push(if turn < 15 {
            XAndO::format_action(os[turn] as Action)
        } else {
            "#D6".to_string()
        });
    }
    moves
}

fn play_text(game: &mut XAndO, text: &str) {
    let action = XAndO::parse_action(text).unwrap();
    game.try_play(action)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{game}"));
}

#[test]
fn game_one_ends_with_the_seed_scores_and_sets_up_game_two() {
    let moves = seed_game_one();
    let mut game = XAndO::new();
    for (i, text) in moves.iter().enumerate() {
        let empty = game.empty().count_ones();
        if i >= 4 {
            // Last turn of each player: both kinds of move, on every empty square.
            let last = empty <= 2;
            assert_eq!(game.on_last_turn(), last, "move {i}");
            assert_eq!(
                legal(&game).len(),
                if last { 2 } else { 1 } * empty as usize
            );
            if !last {
                let empty_cell = game.empty().trailing_zeros() as Action;
                assert!(matches!(
                    game.check(BLACKEN + empty_cell),
                    Err(IllegalMove::NotNow(_))
                ));
            }
        }
        if i == moves.len() - 1 {
            assert_eq!(game.to_move(), Player::O);
            assert_eq!(
                game.game_scores(),
                [37, 30],
                "the blackening changes no run"
            );
        }
        play_text(&mut game, text);
    }
    let opening = mask(&["E1", "C2", "D4", "A6"]);
    assert_eq!(game.game_number(), 2);
    assert_eq!(game.first_game_scores(), Some([37, 30]));
    assert_eq!(game.scores(), Some([37, 30]));
    assert_eq!(game.game_scores(), [0, 0]);
    assert_eq!(game.opening_black(), opening);
    assert_eq!(
        game.black(),
        opening,
        "D6, blackened on a last turn, is not carried over"
    );
    assert_eq!(game.marks(Player::X) | game.marks(Player::O), 0);
    assert_eq!(game.to_move(), Player::O);
    assert!(!game.in_opening());
    assert_eq!(game.turns_left(Player::O), 16);
    assert_eq!(game.turns_left(Player::X), 16);
    let actions = legal(&game);
    assert_eq!(actions.len(), 32);
    assert!(
        actions.iter().all(|&a| a < BLACKEN),
        "no blackening in game 2's first turn"
    );
    assert_eq!(
        game.check(XAndO::parse_action("#D6").unwrap()),
        Err(IllegalMove::NotNow(
            "you may blacken a square only on your last turn of the game"
        ))
    );
    assert_eq!(
        game.check(XAndO::parse_action("E1").unwrap()),
        Err(IllegalMove::Occupied)
    );
}

#[test]
fn game_two_allows_last_turn_blackening_and_the_round_goes_to_the_higher_total() {
    let mut game: XAndO = replay(
        &seed_game_one()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    // Fill game 2 in reading order, O first; both players blacken on their last turn.
    let mut grid = [[Square::Empty; 6]; 6];
    let mut turn = 0;
    while !game.is_over() {
        let mover = game.to_move();
        assert_eq!(mover, if turn % 2 == 0 { Player::O } else { Player::X });
        let cell = game.empty().trailing_zeros() as usize;
        let last = turn >= 30;
        assert_eq!(game.on_last_turn(), last);
        assert_eq!(game.turns_left(mover), 16 - turn / 2);
        if last {
            assert!(legal(&game).contains(&(BLACKEN + cell as Action)));
            game.play(BLACKEN + cell as Action);
            grid[cell / 6][cell % 6] = Square::Black;
        } else {
            game.play(cell as Action);
            grid[cell / 6][cell % 6] = Square::Mark(mover);
        }
        turn += 1;
    }
    assert_eq!(turn, 32);
    assert_eq!(
        game.black().count_ones(),
        6,
        "four opening squares and two last-turn ones"
    );
    let second: Vec<i32> = Player::BOTH
        .iter()
        .map(|&p| {
            run_lengths(&owned_by(&grid, p))
                .into_iter()
                .map(points)
                .sum()
        })
        .collect();
    let totals = [37 + second[0], 30 + second[1]];
    assert_eq!(game.game_scores(), [second[0], second[1]]);
    assert_eq!(game.scores(), Some(totals));
    assert_eq!(game.outcome(), Some(Outcome::from_scores(totals)));
    // Game 2 scores X +1 (checked by hand), O -6: X, 7 ahead after game 1, wins the round.
    assert_eq!(totals, [38, 24]);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert_eq!(game.check(0), Err(IllegalMove::GameOver));
    assert!(legal(&game).is_empty());
}

#[test]
fn the_opening_is_four_blackening_moves() {
    let mut game = XAndO::new();
    assert!(game.in_opening());
    assert_eq!(legal(&game), (36..72).collect::<Vec<Action>>());
    assert!(matches!(game.check(0), Err(IllegalMove::NotNow(_))));
    for (i, text) in ["#A1", "#B1", "#C1", "#D1"].iter().enumerate() {
        assert_eq!(
            game.to_move(),
            if i % 2 == 0 { Player::X } else { Player::O }
        );
        play_text(&mut game, text);
        if i < 3 {
            assert_eq!(game.check(BLACKEN), Err(IllegalMove::Occupied));
        }
    }
    assert!(!game.in_opening());
    assert_eq!(game.opening_black(), mask(&["A1", "B1", "C1", "D1"]));
    assert_eq!(game.to_move(), Player::X);
    assert_eq!(legal(&game), (4..36).collect::<Vec<Action>>());
    assert!(matches!(
        game.check(BLACKEN + 10),
        Err(IllegalMove::NotNow(_))
    ));
    assert_eq!(game.check(2), Err(IllegalMove::Occupied));
    assert_eq!(game.scores(), Some([0, 0]));
}

#[test]
fn runs_along_both_diagonals_score_and_black_squares_end_them() {
    // Opening squares off the diagonals except F6 and A6, which end them.
    let mut game: XAndO = replay(&["#F6", "#A6", "#A5", "#B6"]);
    let steps = [
        ("A1", "F1", [0, 0]),
        ("B2", "E2", [1, 1]),
        ("C3", "D3", [-5, -5]),
        ("D4", "C4", [10, 10]),
        ("E5", "B5", [-15, -15]),
    ];
    for (x, o, after) in steps {
        play_text(&mut game, x);
        play_text(&mut game, o);
        assert_eq!(game.scores(), Some(after), "after {x} {o}\n{game}");
    }
    assert_eq!(
        run_counts(game.marks(Player::X)),
        [0, 0, 0, 0, 0, 1, 0],
        "one run of five on the main diagonal"
    );
    assert_eq!(
        run_counts(game.marks(Player::O)),
        [0, 0, 0, 0, 0, 1, 0],
        "one run of five on the anti-diagonal"
    );
}

#[test]
fn runs_are_broken_by_gaps_and_do_not_wrap_around_the_edge() {
    // X X X . X X on row 1: a three and a two.
    assert_eq!(score_marks(mask(&["A1", "B1", "C1", "E1", "F1"])), -5 + 1);
    // Short diagonals count too.
    assert_eq!(score_marks(mask(&["B1", "C2", "D3"])), -5);
    assert_eq!(score_marks(mask(&["A5", "B6"])), 1);
    assert_eq!(score_marks(mask(&["E1", "D2"])), 1);
    // Cells adjacent in index order but not on the grid.
    for pair in [
        ["F1", "A2"],
        ["F1", "A3"],
        ["A1", "F1"],
        ["A2", "F2"],
        ["F3", "A4"],
    ] {
        assert_eq!(score_marks(mask(&pair)), 0, "{pair:?}");
    }
    // A full grid: 12 lines of six, and diagonals of 2..6 twice over.
    let diagonals = 2 * (1 - 5 + 10 - 15 + 25 - 15 + 10 - 5 + 1);
    assert_eq!(score_marks((1 << 36) - 1), 12 * 25 + diagonals);
}

#[test]
fn the_fast_scorer_agrees_with_walking_the_grid() {
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..20_000 {
        let density = rng.random_range(0..=36u32);
        let marks = (0..36).fold(0u64, |m, cell| {
            if rng.random_range(0..36) < density {
                m | 1 << cell
            } else {
                m
            }
        });
        assert_eq!(score_marks(marks), slow_score_mask(marks), "{marks:#x}");
    }
}

#[test]
fn every_round_lasts_68_turns_and_goes_to_the_higher_total() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut seen = [0; 3];
    for _ in 0..3000 {
        let (game, plies) = oxo_rules::random_playout(XAndO::new(), &mut rng);
        assert_eq!(plies, XAndO::MAX_PLIES);
        let outcome = Outcome::from_scores(game.scores().unwrap());
        assert_eq!(game.outcome(), Some(outcome));
        seen[match outcome {
            Outcome::Win(Player::X) => 0,
            Outcome::Win(Player::O) => 1,
            Outcome::Draw => 2,
        }] += 1;
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "all three results occur: {seen:?}"
    );
}

#[test]
fn blackening_moves_are_written_with_a_hash() {
    assert_eq!(XAndO::format_action(BLACKEN + 14), "#C3");
    assert_eq!(XAndO::parse_action("#c3"), Ok(BLACKEN + 14));
    assert_eq!(XAndO::parse_action(" #C3 "), Ok(BLACKEN + 14));
    assert_eq!(XAndO::parse_action("c3"), Ok(14));
    for bad in ["# C3", "#", "#G1", "##C3", "C7"] {
        assert!(XAndO::parse_action(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_display_shows_black_squares_game_and_scores() {
    let game: XAndO = replay(&["#A1", "#F6", "#A6", "#F1", "B2", "C2"]);
    let text = game.to_string();
    assert!(text.contains("A B C D E F"), "{text}");
    assert!(text.contains("  1 # . . . . #"), "{text}");
    assert!(text.contains("Game 1 of 2"), "{text}");
    assert!(
        text.contains("Opening black squares: A1 F1 A6 F6"),
        "{text}"
    );
    assert!(text.contains("X to move, 15 turns left"), "{text}");
}

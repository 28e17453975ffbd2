//! paytoplay: the standard suite, the source's worked example (docs/RULES.md), hand-made
//! positions for passing and the point economy, and an exhaustive search proving `MAX_PLIES`.

use std::collections::HashMap;

use crate::harness::{Reference, legal, replay};
use crate::paytoplay::{PASS, PayToPlay};
use oxo_rules::{Action, Game, IllegalMove, Outcome, Player};
use rand::SeedableRng;
use rand::rngs::SmallRng;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Reference paytoplay: a cell array, plain balances, a turn counter and explicit rules, the
/// cost of a cell counted as the number of lines through it (as the source text defines it).
#[derive(Clone)]
struct SlowPayToPlay {
    cells: [Option<Player>; 9],
    balance: [i32; 2],
    turn: Player,
    turns_played: usize,
    last_was_voluntary_pass: bool,
    result: Option<Outcome>,
}

impl SlowPayToPlay {
    fn cost(cell: usize) -> i32 {
        LINES.iter().filter(|line| line.contains(&cell)).count() as i32
    }

    fn funds(&self) -> i32 {
        let income = if self.turns_played == 0 { 1 } else { 2 };
        self.balance[self.turn as usize] + income
    }

    fn has_line(&self, player: Player) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&c| self.cells[c] == Some(player)))
    }

    fn by_balance(&self) -> Outcome {
        if self.balance[0] > self.balance[1] {
            Outcome::Win(Player::X)
        } else if self.balance[1] > self.balance[0] {
            Outcome::Win(Player::O)
        } else {
            Outcome::Draw
        }
    }
}

impl Reference for SlowPayToPlay {
    fn new() -> Self {
        SlowPayToPlay {
            cells: [None; 9],
            balance: [0, 0],
            turn: Player::X,
            turns_played: 0,
            last_was_voluntary_pass: false,
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
        let mut moves = Vec::new();
        if self.funds() > 0 {
            for cell in 0..9 {
                if self.cells[cell].is_none() {
                    moves.push(cell as Action);
                }
            }
        }
        moves.push(9);
        moves
    }
    fn play(&mut self, action: Action) {
        let me = self.turn as usize;
        let funds = self.funds();
        if action == 9 {
            self.balance[me] = funds;
            let voluntary = funds > 0;
            if voluntary && self.last_was_voluntary_pass {
                self.result = Some(self.by_balance());
            }
            self.last_was_voluntary_pass = voluntary;
        } else {
            let cell = action as usize;
            self.balance[me] = funds - Self::cost(cell);
            self.cells[cell] = Some(self.turn);
            self.last_was_voluntary_pass = false;
            if self.has_line(self.turn) {
                self.result = Some(Outcome::Win(self.turn));
            } else if self.cells.iter().all(Option::is_some) {
                self.result = Some(self.by_balance());
            }
        }
        self.turns_played += 1;
        self.turn = self.turn.other();
    }
    fn outcome(&self) -> Option<Outcome> {
        self.result
    }
    fn scores(&self) -> Option<[i32; 2]> {
        Some(self.balance)
    }
}

standard_tests!(PayToPlay, SlowPayToPlay, 10000);

fn play(game: &mut PayToPlay, text: &str) {
    let action = PayToPlay::parse_action(text).unwrap();
    game.try_play(action)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{game}"));
}

#[test]
fn the_seeds_worked_example_replays_exactly() {
    // Squares TL T TR / L C R / BL B BR are A1 B1 C1 / A2 B2 C2 / A3 B3 C3. Each turn: the
    // move, whether the mover had to pass, and the balances [Alice (X), Bob (O)] after it.
    let turns: [(&str, bool, [i32; 2]); 13] = [
        ("B2", false, [-3, 0]),  // Alice C
        ("A2", false, [-3, 0]),  // Bob L
        ("pass", true, [-1, 0]), // Alice forced pass
        ("A3", false, [-1, -1]), // Bob BL
        ("A1", false, [-2, -1]), // Alice TL
        ("C3", false, [-2, -2]), // Bob BR
        ("pass", true, [0, -2]), // Alice forced pass
        ("pass", true, [0, 0]),  // Bob forced pass
        ("B3", false, [0, 0]),   // Alice B
        ("B1", false, [0, 0]),   // Bob T
        ("pass", false, [2, 0]), // Alice voluntary pass
        ("C2", false, [2, 0]),   // Bob R
        ("C1", false, [1, 0]),   // Alice TR
    ];
    let mut game = PayToPlay::new();
    assert_eq!(game.scores(), Some([0, 0]));
    for (i, (text, forced, balances)) in turns.into_iter().enumerate() {
        let mover = if i % 2 == 0 { Player::X } else { Player::O };
        assert_eq!(game.to_move(), mover, "turn {i}");
        assert_eq!(game.must_pass(), forced, "turn {i}: forced pass?");
        if forced {
            assert_eq!(legal(&game), vec![PASS], "turn {i}");
        }
        assert!(!game.is_over(), "turn {i}");
        play(&mut game, text);
        assert_eq!(
            game.scores(),
            Some(balances),
            "after turn {i} ({text})\n{game}"
        );
    }
    assert_eq!(game.empty(), 0);
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert_eq!(game.balance(Player::X), 1);
    assert_eq!(game.balance(Player::O), 0);
}

#[test]
fn income_is_one_on_the_first_turn_and_two_after() {
    let mut game = PayToPlay::new();
    assert_eq!((game.income(), game.funds()), (1, 1));
    play(&mut game, "pass");
    assert_eq!((game.income(), game.funds()), (2, 2));
    play(&mut game, "B1");
    assert_eq!((game.income(), game.funds()), (2, 3));
    assert_eq!(game.scores(), Some([1, 0]));
}

#[test]
fn a_mover_without_funds_must_pass() {
    // Alice takes the centre (-3); Bob plays an edge; Alice has -1 after income.
    let game: PayToPlay = replay(&["B2", "A2"]);
    assert!(game.must_pass());
    assert_eq!(game.funds(), -1);
    assert_eq!(legal(&game), vec![PASS]);
    for cell in 0..9 {
        assert_eq!(
            game.check(cell),
            Err(IllegalMove::NotEnoughBalance),
            "cell {cell}"
        );
    }
    assert_eq!(game.check(PASS), Ok(()));
    let mut after = game;
    play(&mut after, "pass");
    assert!(
        !after.after_voluntary_pass(),
        "a forced pass is not voluntary"
    );
    assert_eq!(after.scores(), Some([-1, 0]));
}

#[test]
fn a_balance_of_exactly_zero_after_income_must_pass() {
    // Alice passes (1), Bob takes the centre (-2), Alice passes (3): Bob's funds are 0.
    let game: PayToPlay = replay(&["pass", "B2", "pass"]);
    assert_eq!(game.balance(Player::O), -2);
    assert_eq!(game.funds(), 0);
    assert!(game.must_pass());
    assert_eq!(legal(&game), vec![PASS]);
}

#[test]
fn a_mover_with_funds_may_pass_voluntarily() {
    let game = PayToPlay::new();
    assert_eq!(legal(&game), (0..=9).collect::<Vec<Action>>());
    let after: PayToPlay = replay(&["pass"]);
    assert!(!after.is_over());
    assert!(after.after_voluntary_pass());
    assert_eq!(after.scores(), Some([1, 0]));
    assert_eq!(after.to_move(), Player::O);
}

#[test]
fn two_voluntary_passes_in_a_row_end_the_game() {
    let game: PayToPlay = replay(&["pass", "pass"]);
    assert_eq!(game.scores(), Some([1, 2]));
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::O)));
    assert!(legal(&game).is_empty());
    assert_eq!(game.check(PASS), Err(IllegalMove::GameOver));
    // A placement between two voluntary passes resets the count.
    let game: PayToPlay = replay(&["pass", "B1", "pass"]);
    assert!(!game.is_over());
}

#[test]
fn a_forced_pass_between_voluntary_passes_does_not_end_the_game() {
    // Alice passes (1); Bob takes the centre (-2); Alice passes (3); Bob must pass (0);
    // Alice passes voluntarily (5): the game goes on, the last pass before hers was forced.
    let mut game: PayToPlay = replay(&["pass", "B2", "pass"]);
    assert!(game.must_pass());
    play(&mut game, "pass");
    assert!(!game.after_voluntary_pass());
    play(&mut game, "pass");
    assert!(!game.is_over(), "{game}");
    assert_eq!(game.scores(), Some([5, 0]));
    // Bob now has funds 2 and passes voluntarily: two voluntary passes in a row.
    assert!(!game.must_pass());
    play(&mut game, "pass");
    assert_eq!(game.scores(), Some([5, 2]));
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
}

#[test]
fn a_line_wins_at_once_whatever_the_balances() {
    // Alice B1 (-1), Bob A2 (0), Alice B2 (-3), Bob C2 (0), Alice forced pass (-1),
    // Bob A1 (-1), Alice B3 (-1): column B.
    let game: PayToPlay = replay(&["B1", "A2", "B2", "C2", "pass", "A1", "B3"]);
    assert_eq!(game.scores(), Some([-1, -1]));
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert_ne!(game.empty(), 0);
    assert!(legal(&game).is_empty());
    assert!(game.won_outright());
}

#[test]
fn an_occupied_cell_is_refused_when_the_mover_has_funds() {
    let game: PayToPlay = replay(&["B1"]);
    assert_eq!(game.check(1), Err(IllegalMove::Occupied));
    assert_eq!(game.check(10), Err(IllegalMove::OutOfRange));
}

#[test]
fn games_not_won_by_a_line_go_to_the_higher_balance() {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut draws = 0;
    for _ in 0..2000 {
        let mut game = PayToPlay::new();
        while !game.is_over() {
            let action = game.random_action(&mut rng);
            game.play(action);
        }
        let lined = Player::BOTH
            .into_iter()
            .any(|p| crate::tictactoe::has_line(game.marks(p)));
        assert_eq!(game.won_outright(), lined, "{game}");
        if !lined {
            let outcome = Outcome::from_scores(game.scores().unwrap());
            assert_eq!(game.outcome(), Some(outcome), "{game}");
            draws += usize::from(outcome == Outcome::Draw);
        }
    }
    assert!(draws > 0, "no drawn game in the sample");
}

#[test]
fn pass_is_written_and_read_as_pass() {
    assert_eq!(PayToPlay::format_action(PASS), "pass");
    for text in ["pass", "PASS", " Pass "] {
        assert_eq!(PayToPlay::parse_action(text), Ok(PASS));
    }
    assert_eq!(PayToPlay::parse_action("c3"), Ok(8));
    let error = PayToPlay::parse_action("D1").unwrap_err();
    assert!(error.to_string().contains("pass"), "{error}");
    assert!(PayToPlay::parse_action("passe").is_err());
}

#[test]
fn the_display_shows_balances_and_the_obligation_to_pass() {
    let game: PayToPlay = replay(&["B2", "A2"]);
    let text = game.to_string();
    assert!(text.contains("A B C"), "{text}");
    assert!(text.contains("X -3, O 0"), "{text}");
    assert!(text.contains("must pass"), "{text}");
}

/// The longest game from `game`, in turns, memoised over positions.
fn longest(
    game: PayToPlay,
    memo: &mut HashMap<PayToPlay, usize>,
    low: &mut i32,
    high: &mut i32,
) -> usize {
    if game.is_over() {
        return 0;
    }
    if let Some(&known) = memo.get(&game) {
        return known;
    }
    for player in Player::BOTH {
        *low = (*low).min(game.balance(player));
        *high = (*high).max(game.balance(player));
    }
    let mut best = 0;
    for action in legal(&game) {
        let mut next = game;
        next.play(action);
        best = best.max(1 + longest(next, memo, low, high));
    }
    memo.insert(game, best);
    best
}

#[test]
fn max_plies_is_the_longest_game_by_exhaustive_search() {
    let mut memo = HashMap::new();
    let (mut low, mut high) = (0, 0);
    let length = longest(PayToPlay::new(), &mut memo, &mut low, &mut high);
    assert_eq!(length, PayToPlay::MAX_PLIES);
    assert_eq!(memo.len(), 114_810, "reachable unfinished positions");
    assert_eq!(low, -3, "lowest balance");
    assert!(high < 100, "balances fit the state's i8");
}

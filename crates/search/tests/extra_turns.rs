//! Sign handling when the same player moves twice in a row, on a small race game with extra
//! turns whose solution depends on them.

mod common;

use std::fmt;

use common::{ExactEvaluator, Solver, legal, play_configs, reachable};
use oxo_rules::{Action, ActionList, Game, IllegalMove, Outcome, Player};
use oxo_search::{BatchedSearch, Evaluator, PuctConfig, Scheme, SearchConfig, UniformEvaluator};

/// The count that wins.
const GOAL: u8 = 12;

/// Counts that give the player who reaches them another move.
const BONUS: [u8; 3] = [2, 5, 9];

/// Race to 12: players add 1 (action 0) or 2 (action 1) to a shared count; whoever reaches
/// exactly 12 wins; reaching 2, 5 or 9 gives the mover an extra turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Race {
    count: u8,
    to_move: Player,
    winner: Option<Player>,
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "count {}, {} to move", self.count, self.to_move)
    }
}

impl Game for Race {
    const NAME: &'static str = "race";
    const WIDTH: usize = 2;
    const HEIGHT: usize = 1;
    const NUM_ACTIONS: usize = 2;
    const MAX_PLIES: usize = GOAL as usize;
    const NUM_SYMMETRIES: usize = 1;
    const HAS_SCORES: bool = false;

    fn new() -> Self {
        Race {
            count: 0,
            to_move: Player::X,
            winner: None,
        }
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        out.extend((0..2).filter(|&a| self.check(a).is_ok()));
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if action > 1 {
            Err(IllegalMove::OutOfRange)
        } else if self.winner.is_some() {
            Err(IllegalMove::GameOver)
        } else if self.count + action as u8 + 1 > GOAL {
            Err(IllegalMove::NotNow("that overshoots the goal"))
        } else {
            Ok(())
        }
    }

    fn play(&mut self, action: Action) {
        self.count += action as u8 + 1;
        if self.count == GOAL {
            self.winner = Some(self.to_move);
        } else if !BONUS.contains(&self.count) {
            self.to_move = self.to_move.other();
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Win)
    }

    fn map_action(_sym: usize, action: Action) -> Action {
        action
    }

    fn transformed(&self, _sym: usize) -> Self {
        *self
    }
}

/// The value of a count for the mover if every move passed the turn: what a search that
/// assumed alternation would aim for.
fn alternating_value(count: u8) -> i8 {
    (1..=2)
        .filter(|step| count + step <= GOAL)
        .map(|step| {
            if count + step == GOAL {
                1
            } else {
                -alternating_value(count + step)
            }
        })
        .max()
        .unwrap()
}

/// The test game only tests something if extra turns change who wins, from the start too.
#[test]
fn extra_turns_decide_the_race() {
    let mut solver = Solver::<Race>::new();
    let positions = reachable::<Race>();
    let differing: Vec<&Race> = positions
        .iter()
        .filter(|p| solver.value(p) != alternating_value(p.count))
        .collect();
    assert!(differing.len() >= 5, "{differing:?}");
    assert_ne!(solver.value(&Race::new()), alternating_value(0));
}

/// From every position, the search plays a move that keeps the solved value, and its root
/// value has the solved value's sign (every position is won or lost).
fn assert_optimal<E: Evaluator<Race>>(config: SearchConfig, evaluator: &mut E) {
    let mut solver = Solver::new();
    let positions = reachable::<Race>();
    let seeds: Vec<u64> = (0..positions.len() as u64).collect();
    let mut search = BatchedSearch::new(config, &seeds);
    for (i, &p) in positions.iter().enumerate() {
        search.set_root(i, p);
    }
    search.run(evaluator);
    for (i, p) in positions.iter().enumerate() {
        let result = search.result(i).unwrap();
        let value = solver.value(p);
        assert_eq!(
            solver.action_value(p, result.action),
            value,
            "{config:?}: {p}: played {}",
            result.action
        );
        if legal(p).len() > 1 {
            assert_eq!(
                result.value.signum(),
                f32::from(value),
                "{config:?}: {p}: {result:?}"
            );
        }
    }
}

#[test]
fn searches_play_the_race_perfectly_with_exact_values() {
    for config in play_configs(64) {
        assert_optimal(config, &mut ExactEvaluator::new());
    }
}

#[test]
fn searches_play_the_race_perfectly_from_outcomes_alone() {
    for config in play_configs(400) {
        assert_optimal(config, &mut UniformEvaluator);
    }
}

/// Whole games with PUCT tree reuse, across extra turns: every move is optimal.
#[test]
fn tree_reuse_across_extra_turns() {
    let mut solver = Solver::new();
    let config = SearchConfig {
        scheme: Scheme::Puct(PuctConfig {
            dirichlet_fraction: 0.0,
            temperature: 0.0,
            ..PuctConfig::default()
        }),
        ..SearchConfig::puct(400)
    };
    let starts: Vec<Race> = reachable::<Race>();
    let seeds: Vec<u64> = (0..starts.len() as u64).collect();
    let mut search = BatchedSearch::new(config, &seeds);
    for (i, &p) in starts.iter().enumerate() {
        search.set_root(i, p);
    }
    let mut moves = 0;
    while (0..starts.len()).any(|i| search.root(i).is_some()) {
        search.run(&mut UniformEvaluator);
        for i in 0..starts.len() {
            let Some(&position) = search.root(i) else {
                continue;
            };
            let result = search.result(i).unwrap();
            assert_eq!(result.visit_counts.iter().sum::<u32>(), 400);
            assert_eq!(
                solver.action_value(&position, result.action),
                solver.value(&position),
                "{position}"
            );
            search.advance(i, result.action);
            moves += 1;
        }
    }
    assert!(moves > 2 * starts.len(), "{moves} moves");
}

/// The solver across extra turns, where a player may move twice: from every position, in
/// every configuration with the solver on, each proven result is the exact value with a move
/// that keeps it, and the race is small enough that most are proven.
#[test]
fn the_solver_proves_the_race() {
    for config in play_configs(400) {
        let config = SearchConfig {
            solve: true,
            ..config
        };
        let (proven, results) =
            common::check_proofs(config, &reachable::<Race>(), &mut UniformEvaluator);
        assert!(2 * proven > results, "{config:?}: {proven} of {results}");
    }
}

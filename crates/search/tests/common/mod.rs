//! Shared by the search tests: an exact solver, the evaluators built on it, and position
//! enumeration.
#![allow(dead_code)] // each test binary uses a different subset

use std::collections::{HashMap, HashSet};

use oxo_rules::{Action, ActionList, Game};
use oxo_search::{
    BatchedSearch, Evaluator, GumbelConfig, PuctConfig, Scheme, SearchConfig, UniformEvaluator,
};

/// The legal actions of `game` as a vector.
pub fn legal<G: Game>(game: &G) -> Vec<Action> {
    let mut list = ActionList::new();
    game.legal_actions(&mut list);
    list.to_vec()
}

/// Exact game values by memoised negamax, from the view of the player to move; correct when
/// the same player moves twice (no sign flip then).
#[derive(Default)]
pub struct Solver<G> {
    values: HashMap<G, i8>,
}

impl<G: Game> Solver<G> {
    /// An empty table, filled on demand.
    pub fn new() -> Self {
        Solver {
            values: HashMap::new(),
        }
    }

    /// The value of a position that is not over, for its player to move: +1, 0 or -1.
    pub fn value(&mut self, game: &G) -> i8 {
        if let Some(&v) = self.values.get(game) {
            return v;
        }
        let best = legal(game)
            .into_iter()
            .map(|a| self.action_value(game, a))
            .max()
            .expect("a position that is not over has a legal action");
        self.values.insert(*game, best);
        best
    }

    /// The value of playing `action` in `game`, for the player who plays it.
    pub fn action_value(&mut self, game: &G, action: Action) -> i8 {
        let mover = game.to_move();
        let mut child = *game;
        child.play(action);
        match child.outcome() {
            Some(outcome) => outcome.value_for(mover) as i8,
            None if child.to_move() == mover => self.value(&child),
            None => -self.value(&child),
        }
    }
}

/// Uniform policy and the exact solved value: a perfect value network with no policy.
pub struct ExactEvaluator<G> {
    pub solver: Solver<G>,
}

impl<G: Game> ExactEvaluator<G> {
    /// Solves on demand.
    pub fn new() -> Self {
        ExactEvaluator {
            solver: Solver::new(),
        }
    }
}

impl<G: Game> Evaluator<G> for ExactEvaluator<G> {
    fn evaluate(&mut self, positions: &[G], logits: &mut [f32], values: &mut [f32]) {
        logits.fill(0.0);
        for (value, position) in values.iter_mut().zip(positions) {
            *value = f32::from(self.solver.value(position));
        }
    }
}

/// Wraps an evaluator, checking the search's calls: lengths as documented, no finished
/// position; and counting calls and positions.
pub struct Checked<E> {
    pub inner: E,
    pub calls: usize,
    pub positions: usize,
    pub largest_batch: usize,
}

impl<E> Checked<E> {
    /// Wraps `inner`.
    pub fn new(inner: E) -> Self {
        Checked {
            inner,
            calls: 0,
            positions: 0,
            largest_batch: 0,
        }
    }
}

impl Checked<UniformEvaluator> {
    /// The checked uniform evaluator.
    pub fn uniform() -> Self {
        Checked::new(UniformEvaluator)
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for Checked<E> {
    fn evaluate(&mut self, positions: &[G], logits: &mut [f32], values: &mut [f32]) {
        assert!(!positions.is_empty(), "empty evaluation call");
        assert_eq!(logits.len(), positions.len() * G::NUM_ACTIONS);
        assert_eq!(values.len(), positions.len());
        for position in positions {
            assert!(
                !position.is_over(),
                "evaluating a finished position:\n{position}"
            );
        }
        self.calls += 1;
        self.positions += positions.len();
        self.largest_batch = self.largest_batch.max(positions.len());
        self.inner.evaluate(positions, logits, values);
    }
}

/// Every position reachable from the start that is not over, in a fixed (depth-first) order.
pub fn reachable<G: Game>() -> Vec<G> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut stack = vec![G::new()];
    while let Some(game) = stack.pop() {
        if game.is_over() || !seen.insert(game) {
            continue;
        }
        order.push(game);
        for action in legal(&game).into_iter().rev() {
            let mut child = game;
            child.play(action);
            stack.push(child);
        }
    }
    order
}

/// Searches each of `positions` with `config` (one game slot each, all in one search) and
/// plays every game to its end by the search's own moves; every result that says its root is
/// proven must carry the position's exact value and a move that keeps it. Returns how many
/// results were proven, and how many there were.
pub fn check_proofs<G: Game, E: Evaluator<G>>(
    config: SearchConfig,
    positions: &[G],
    evaluator: &mut E,
) -> (usize, usize) {
    let mut solver = Solver::new();
    let seeds: Vec<u64> = (0..positions.len() as u64).collect();
    let mut search = BatchedSearch::new(config, &seeds);
    for (slot, &position) in positions.iter().enumerate() {
        search.set_root(slot, position);
    }
    let (mut proven, mut results) = (0, 0);
    while (0..positions.len()).any(|slot| search.root(slot).is_some()) {
        search.run(evaluator);
        for slot in 0..positions.len() {
            let Some(&root) = search.root(slot) else {
                continue;
            };
            let result = search.result(slot).unwrap().clone();
            results += 1;
            if result.proven {
                proven += 1;
                let exact = solver.value(&root);
                assert_eq!(result.value, f32::from(exact), "the value of\n{root}");
                assert_eq!(
                    solver.action_value(&root, result.action),
                    exact,
                    "move {} from\n{root}",
                    result.action
                );
            }
            search.advance(slot, result.action);
        }
    }
    (proven, results)
}

/// Play settings, without root noise: PUCT and Gumbel, one leaf and four a network call.
pub fn play_configs(simulations: u32) -> [SearchConfig; 4] {
    let puct = SearchConfig {
        scheme: Scheme::Puct(PuctConfig {
            dirichlet_fraction: 0.0,
            temperature: 0.0,
            ..PuctConfig::default()
        }),
        ..SearchConfig::puct(simulations)
    };
    let gumbel = SearchConfig {
        scheme: Scheme::Gumbel(GumbelConfig {
            gumbel_scale: 0.0,
            ..GumbelConfig::default()
        }),
        ..SearchConfig::gumbel(simulations)
    };
    [
        puct,
        SearchConfig {
            leaves_per_tree: 4,
            ..puct
        },
        gumbel,
        SearchConfig {
            leaves_per_tree: 4,
            ..gumbel
        },
    ]
}

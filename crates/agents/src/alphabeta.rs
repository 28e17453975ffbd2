//! The `alphabeta` agent: iterative-deepening negamax with alpha-beta pruning, a
//! transposition table and move ordering, over the variant's handcrafted evaluation.
//!
//! Spec: `alphabeta:depth=N` (fixed depth) or `alphabeta:ms=M` (time per move; deepens until
//! the time runs out and plays the best move of the last finished depth), plus `seed=S`.
//! A player who moves again (bonus move, extra turn) keeps the sign: negamax only negates
//! across a change of mover.

use std::hash::Hasher;
use std::time::{Duration, Instant};

use oxo_rules::{Action, ActionList, Game};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rustc_hash::FxHasher;

use crate::search_value::{WIN, terminal_value};
use crate::{Agent, AgentSpec, Evaluate, SpecError};

/// Transposition-table slots (a power of two); 2^18 entries of 16 bytes = 4 MiB per agent.
const TABLE_SIZE: usize = 1 << 18;
/// How many nodes pass between clock checks.
const CLOCK_EVERY: u64 = 1024;
/// The deepest iteration ever tried (a bound for `ms=` searches in tiny games).
const MAX_DEPTH: u32 = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    value: f32,
    best: Action,
    depth: u8,
    bound: Bound,
}

const EMPTY: Entry = Entry {
    key: 0,
    value: 0.0,
    best: Action::MAX,
    depth: 0,
    bound: Bound::Exact,
};

/// Iterative-deepening alpha-beta over [`Evaluate`].
pub struct AlphaBetaAgent {
    max_depth: u32,
    time: Option<Duration>,
    rng: SmallRng,
    name: String,
    table: Vec<Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl AlphaBetaAgent {
    /// Builds from a spec: `alphabeta:depth=N`, `alphabeta:ms=M` (default `depth=4`), `seed=S`.
    pub fn from_spec(spec: &AgentSpec) -> Result<Self, SpecError> {
        spec.expect_params(&["depth", "ms", "seed"])?;
        let time = spec.time_per_move()?;
        let default_depth = if time.is_some() { MAX_DEPTH } else { 4 };
        let max_depth = spec.param("depth", default_depth, "a depth from 1 to 64")?;
        if !(1..=MAX_DEPTH).contains(&max_depth) {
            return Err(SpecError::BadValue {
                param: "depth".into(),
                value: max_depth.to_string(),
                expected: "a depth from 1 to 64",
            });
        }
        Ok(AlphaBetaAgent {
            max_depth,
            time,
            rng: SmallRng::seed_from_u64(spec.param("seed", 0u64, "a whole number")?),
            name: spec.text.clone(),
            table: vec![EMPTY; TABLE_SIZE],
            nodes: 0,
            deadline: None,
            aborted: false,
        })
    }

    /// Searches `root` to `depth`; `None` if the clock ran out first.
    fn search_root<G: Evaluate>(
        &mut self,
        root: &G,
        order: &mut [Action],
        depth: u32,
    ) -> Option<f32> {
        let (mut alpha, beta) = (-f32::INFINITY, f32::INFINITY);
        let mut best_index = 0;
        for (index, &action) in order.iter().enumerate() {
            let value = self.child_value(root, action, depth, alpha, beta, 0);
            if self.aborted {
                return None;
            }
            if value > alpha {
                alpha = value;
                best_index = index;
            }
        }
        // The best move leads the next iteration's order.
        order[..=best_index].rotate_right(1);
        Some(alpha)
    }

    /// The value of playing `action` in `game`, from the mover's view, searching `depth - 1`
    /// plies below it.
    fn child_value<G: Evaluate>(
        &mut self,
        game: &G,
        action: Action,
        depth: u32,
        alpha: f32,
        beta: f32,
        ply: u32,
    ) -> f32 {
        let mover = game.to_move();
        let mut child = *game;
        child.play(action);
        if let Some(outcome) = child.outcome() {
            terminal_value(outcome, mover, ply + 1)
        } else if child.to_move() == mover {
            self.negamax(&child, depth - 1, alpha, beta, ply + 1)
        } else {
            -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
        }
    }

    /// Negamax value of a position that is not over, from its mover's view.
    fn negamax<G: Evaluate>(
        &mut self,
        game: &G,
        depth: u32,
        mut alpha: f32,
        beta: f32,
        ply: u32,
    ) -> f32 {
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        if self.aborted {
            return 0.0;
        }
        if depth == 0 {
            return game.evaluate();
        }
        let key = position_key(game);
        let slot = key as usize & (TABLE_SIZE - 1);
        let entry = self.table[slot];
        let mut tt_move = Action::MAX;
        if entry.key == key {
            tt_move = entry.best;
            if entry.depth as u32 >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.value >= beta,
                    Bound::Upper => entry.value <= alpha,
                };
                if usable {
                    return entry.value;
                }
            }
        }
        let mut actions = ActionList::new();
        game.legal_actions(&mut actions);
        if let Some(pos) = actions.iter().position(|&a| a == tt_move) {
            actions.swap(0, pos);
        }
        let original_alpha = alpha;
        let mut best = -f32::INFINITY;
        let mut best_move = actions[0];
        for &action in &actions {
            let value = self.child_value(game, action, depth, alpha, beta, ply);
            if value > best {
                best = value;
                best_move = action;
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        if !self.aborted {
            let bound = if best <= original_alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table[slot] = Entry {
                key,
                value: best,
                best: best_move,
                depth: depth as u8,
                bound,
            };
        }
        best
    }
}

/// A 64-bit hash of a position for the transposition table.
fn position_key<G: Game>(game: &G) -> u64 {
    let mut hasher = FxHasher::default();
    game.hash(&mut hasher);
    hasher.finish() | 1 // never 0, the empty slot's key
}

impl<G: Evaluate> Agent<G> for AlphaBetaAgent {
    fn choose(&mut self, game: &G) -> Action {
        self.deadline = self.time.map(|t| Instant::now() + t);
        self.aborted = false;
        let mut order = ActionList::new();
        game.legal_actions(&mut order);
        // Random order at the root: equal moves are chosen at random, reproducibly.
        order.shuffle(&mut self.rng);
        for depth in 1..=self.max_depth {
            match self.search_root(game, &mut order, depth) {
                Some(value) if value.abs() >= WIN - MAX_DEPTH as f32 * 2.0 => break,
                Some(_) => {}
                None => break,
            }
        }
        order[0]
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn nodes_searched(&self) -> u64 {
        self.nodes
    }
}

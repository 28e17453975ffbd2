//! The `greedy` agent: tries every legal move and keeps the one whose resulting position the
//! variant's handcrafted evaluation likes best (wins first, then blocks, threats, points).

use oxo_rules::{Action, ActionList};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::search_value::{from_child, terminal_value};
use crate::{Agent, AgentSpec, Evaluate, SpecError};

/// One-ply search over [`Evaluate`]; ties are broken at random (seeded).
pub struct GreedyAgent {
    rng: SmallRng,
    name: String,
}

impl GreedyAgent {
    /// Builds from a spec: `greedy` or `greedy:seed=N`.
    pub fn from_spec(spec: &AgentSpec) -> Result<Self, SpecError> {
        spec.expect_params(&["seed"])?;
        let seed = spec.param("seed", 0u64, "a whole number")?;
        Ok(GreedyAgent {
            rng: SmallRng::seed_from_u64(seed),
            name: spec.text.clone(),
        })
    }
}

/// The value of playing `action` in `game`, for the player who plays it, one ply deep.
pub fn one_ply_value<G: Evaluate>(game: &G, action: Action) -> f32 {
    let mover = game.to_move();
    let mut child = *game;
    child.play(action);
    match child.outcome() {
        Some(outcome) => terminal_value(outcome, mover, 1),
        None => from_child(&child, child.evaluate(), mover),
    }
}

/// The best of `actions` by `value`, ties broken uniformly at random.
pub fn best_by<R: rand::Rng>(
    actions: &[Action],
    rng: &mut R,
    mut value: impl FnMut(Action) -> f32,
) -> Action {
    let mut best = Vec::with_capacity(4);
    let mut best_value = f32::NEG_INFINITY;
    for &action in actions {
        let v = value(action);
        if v > best_value {
            best_value = v;
            best.clear();
        }
        if v == best_value {
            best.push(action);
        }
    }
    best[oxo_rules::random_below(rng, best.len() as u32) as usize]
}

impl<G: Evaluate> Agent<G> for GreedyAgent {
    fn choose(&mut self, game: &G) -> Action {
        let mut actions = ActionList::new();
        game.legal_actions(&mut actions);
        best_by(&actions, &mut self.rng, |a| one_ply_value(game, a))
    }

    fn name(&self) -> &str {
        &self.name
    }
}

/// The legal move with the best one-ply value, the first on ties: greedy's choice without
/// randomness, for tests of the evaluations.
pub fn first_best_move<G: Evaluate>(game: &G) -> Action {
    let mut actions = ActionList::new();
    game.legal_actions(&mut actions);
    let mut best = (f32::NEG_INFINITY, actions[0]);
    for &action in &actions {
        let value = one_ply_value(game, action);
        if value > best.0 {
            best = (value, action);
        }
    }
    best.1
}

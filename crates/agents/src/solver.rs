//! The `solver` agent: exact perfect play by each move's exact value
//! ([`Evaluate::exact_value`]), and the memoised negamax over the whole reachable state space
//! that gives it for variants small enough to solve in memory (`tictactoe`, `paytoplay`).
//!
//! The table of values is built once per process and variant, then shared by every solver
//! agent (arena games build many).

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use oxo_rules::{Action, ActionList, Game};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rustc_hash::FxHashMap;

use crate::greedy::best_by;
use crate::{Agent, AgentSpec, Evaluate, SpecError};

/// Exact game values of every reachable position, from the mover's view: +1 win, 0 draw,
/// -1 loss under perfect play by both sides.
pub struct ValueTable<G> {
    values: FxHashMap<G, i8>,
}

impl<G: Game> ValueTable<G> {
    /// Solves the whole game from its starting position.
    pub fn solve() -> Self {
        let mut table = ValueTable {
            values: FxHashMap::default(),
        };
        table.value(&G::new());
        table
    }

    /// The value of a position that is not over, from its mover's view (solving it if needed).
    pub fn value(&mut self, game: &G) -> i8 {
        if let Some(&v) = self.values.get(game) {
            return v;
        }
        let mut actions = ActionList::new();
        game.legal_actions(&mut actions);
        let best = actions
            .iter()
            .map(|&a| self.action_value(game, a))
            .max()
            .unwrap_or(0);
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

    /// The stored value of a solved position, if it is reachable from the start.
    pub fn get(&self, game: &G) -> Option<i8> {
        self.values.get(game).copied()
    }

    /// How many positions (not over) the table holds.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table is empty (only for a game that is over at the start).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// The exact value of playing `action` in `game`, for the player who plays it, by
/// [`Evaluate::exact_value`] of the position it leads to.
pub fn exact_action_value<G: Evaluate>(game: &G, action: Action) -> i8 {
    let mover = game.to_move();
    let mut child = *game;
    child.play(action);
    match child.outcome() {
        Some(outcome) => outcome.value_for(mover) as i8,
        None => {
            let value = child.exact_value().expect("a solvable variant");
            if child.to_move() == mover {
                value
            } else {
                -value
            }
        }
    }
}

type TableCache = Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>;

/// The solved table of variant `G`, built on first use and shared by the whole process.
pub fn shared_table<G: Game>() -> Arc<Mutex<ValueTable<G>>> {
    static CACHE: OnceLock<TableCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut tables = cache.lock().expect("solver cache poisoned");
    let entry = tables
        .entry(TypeId::of::<G>())
        .or_insert_with(|| Arc::new(Mutex::new(ValueTable::<G>::solve())));
    Arc::clone(entry)
        .downcast::<Mutex<ValueTable<G>>>()
        .expect("cache keyed by type")
}

/// Plays a move of the best exact value; among equally good moves, prefers the one the
/// handcrafted evaluation likes (so it presses weak opponents), then chooses at random.
pub struct SolverAgent<G> {
    rng: SmallRng,
    name: String,
    game: std::marker::PhantomData<G>,
}

impl<G: Evaluate> SolverAgent<G> {
    /// Builds from a spec: `solver` or `solver:seed=N`. Fails for variants too large to solve.
    pub fn from_spec(spec: &AgentSpec) -> Result<Self, SpecError> {
        spec.expect_params(&["seed"])?;
        if !G::SOLVABLE {
            return Err(SpecError::NotForVariant {
                kind: "solver".into(),
                variant: G::NAME,
            });
        }
        Ok(SolverAgent {
            rng: SmallRng::seed_from_u64(spec.param("seed", 0u64, "a whole number")?),
            name: spec.text.clone(),
            game: std::marker::PhantomData,
        })
    }
}

impl<G: Evaluate> Agent<G> for SolverAgent<G> {
    fn choose(&mut self, game: &G) -> Action {
        let mut actions = ActionList::new();
        game.legal_actions(&mut actions);
        let exact: Vec<i8> = actions
            .iter()
            .map(|&a| exact_action_value(game, a))
            .collect();
        let best = *exact
            .iter()
            .max()
            .expect("a position that is not over has moves");
        let optimal: Vec<Action> = actions
            .iter()
            .zip(&exact)
            .filter(|&(_, &v)| v == best)
            .map(|(&a, _)| a)
            .collect();
        best_by(&optimal, &mut self.rng, |a| {
            crate::greedy::one_ply_value(game, a)
        })
    }

    fn name(&self) -> &str {
        &self.name
    }
}

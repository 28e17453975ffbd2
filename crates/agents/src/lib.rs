//! Agents: anything that picks a move for the side to move, behind one [`Agent`] trait, built
//! from spec strings (`random`, `greedy`, `alphabeta:depth=6`, `alphabeta:ms=500`,
//! `uct:sims=10000`, `solver`) that read the same everywhere in the CLI.
//!
//! The handcrafted agents share each variant's [`Evaluate`] implementation (its `eval.rs` in
//! `oxo-variants`), the knowledge a person would write down about the variant.

mod alphabeta;
mod greedy;
mod random;
mod search_value;
mod solver;
mod spec;
mod uct;

pub use alphabeta::AlphaBetaAgent;
pub use greedy::{GreedyAgent, first_best_move, one_ply_value};
pub use random::RandomAgent;
pub use solver::{SolverAgent, ValueTable, exact_action_value, shared_table};
pub use spec::{AgentSpec, MAX_MS, SpecError};
pub use uct::UctAgent;

use oxo_rules::{Action, Game};

/// Picks moves in one variant. Deterministic for a given spec (including its seed).
pub trait Agent<G: Game>: Send {
    /// Chooses a legal action for the side to move in `game`, which is not over.
    fn choose(&mut self, game: &G) -> Action;

    /// The spec string this agent was built from: its name in tables and logs.
    fn name(&self) -> &str;

    /// Search work done so far (alpha-beta nodes, UCT simulations), for speed benchmarks;
    /// 0 for agents that do not search.
    fn nodes_searched(&self) -> u64 {
        0
    }

    /// What the agent plays with beyond its spec, for result files to record (a net agent:
    /// the model file, the graph and the engine that ran it); `None` where the spec says it
    /// all.
    fn plays_with(&self) -> Option<String> {
        None
    }
}

/// A variant's handcrafted knowledge: what `greedy` and `alphabeta` maximise.
pub trait Evaluate: Game {
    /// Whether [`Evaluate::exact_value`] answers, so that the `solver` agent plays the
    /// variant.
    const SOLVABLE: bool = false;

    /// How good a position that is not over looks for the player to move, in points (about
    /// 1 point per small advantage such as an open line; at most a few thousand, far below a
    /// proven win).
    fn evaluate(&self) -> f32;

    /// The exact value of a position that is not over, for the player to move, under perfect
    /// play by both sides: +1 a win, 0 a draw, -1 a loss; `None` unless
    /// [`Evaluate::SOLVABLE`]. By default it reads the table of the whole game solved in
    /// memory ([`shared_table`]), which suits games of a few million positions (tictactoe,
    /// paytoplay); a larger game that has its own exact solver overrides this.
    fn exact_value(&self) -> Option<i8> {
        Self::SOLVABLE.then(|| {
            shared_table::<Self>()
                .lock()
                .expect("solver table poisoned")
                .value(self)
        })
    }
}

/// The agent kinds that [`build_agent`] knows, with their parameters.
pub const AGENT_KINDS: &[(&str, &str)] = &[
    ("random", "uniform over legal moves; seed=N"),
    (
        "greedy",
        "best move by one-ply handcrafted evaluation; seed=N",
    ),
    (
        "alphabeta",
        "iterative-deepening alpha-beta; depth=N or ms=M, seed=N",
    ),
    (
        "uct",
        "Monte-Carlo tree search with random playouts; sims=N or ms=M, c=X, seed=N, \
         playout=uniform|tactical (tactical takes a move that wins a board at once)",
    ),
    (
        "solver",
        "exact perfect play, in variants with an exact solver (`oxo variants --json` says which); seed=N",
    ),
];

/// Builds the agent a spec names, for variant `G`.
pub fn build_agent<G: Evaluate>(spec: &AgentSpec) -> Result<Box<dyn Agent<G>>, SpecError> {
    Ok(match spec.kind.as_str() {
        "random" => Box::new(RandomAgent::from_spec(spec)?),
        "greedy" => Box::new(GreedyAgent::from_spec(spec)?),
        "alphabeta" => Box::new(AlphaBetaAgent::from_spec(spec)?),
        "uct" => Box::new(UctAgent::<G>::from_spec(spec)?),
        "solver" => Box::new(SolverAgent::<G>::from_spec(spec)?),
        _ => return Err(SpecError::UnknownKind(spec.kind.clone())),
    })
}

//! Neural-guided Monte-Carlo tree search for self-play and play, over many games at once.
//!
//! The network lives in another crate and plugs in through [`Evaluator`]: it is expensive, so
//! [`BatchedSearch`] keeps one tree per game and, each round, gathers the leaves of every
//! unfinished tree into one [`Evaluator::evaluate`] call. Two schemes are selectable by
//! [`SearchConfig::scheme`]:
//!
//! * [`Scheme::Puct`]: AlphaZero's PUCT selection with Dirichlet noise at the root, acting by
//!   visit counts at a temperature, training on the visit distribution.
//! * [`Scheme::Gumbel`]: Gumbel MuZero's search (Danihelka et al., ICLR 2022, "Policy
//!   improvement by planning with Gumbel", as implemented in DeepMind's `mctx`): Gumbel-top-k
//!   sampling and sequential halving at the root, deterministic selection inside the tree,
//!   and the improved policy `softmax(logits + sigma(completed Q))` as training target.
//!
//! Either scheme can also prove positions, with [`SearchConfig::solve`] (MCTS-Solver, Winands,
//! Björnsson and Saito, 2008): a position is won once one move wins it, lost or drawn once
//! every move is known, and a proven position is searched no further.
//!
//! Values are always from the view of the player to move in the position they belong to;
//! the search converts between players with [`Game::to_move`], so a player who moves twice
//! in a row (bonus moves, extra turns) is handled exactly. Trees live in preallocated arenas
//! that are reused between searches, so once warm the search loop does not allocate.
//!
//! [`Game::to_move`]: oxo_rules::Game::to_move

mod config;
mod evaluator;
pub mod gumbel;
mod puct;
mod rollout;
mod search;
mod tree;

#[cfg(test)]
mod mctx_replay_tests;

pub use config::{GumbelConfig, PuctConfig, Scheme, SearchConfig};
pub use evaluator::{Evaluator, UniformEvaluator};
pub use rollout::{RolloutConfig, RolloutEvaluator, mix_playouts};
pub use search::{BatchedSearch, SearchResult};

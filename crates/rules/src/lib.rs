//! The language of oxo's rules: the [`Game`] trait every variant implements, its small types,
//! board coordinates and symmetries. The variants themselves live in `oxo-variants`, one
//! folder each.
//!
//! Every variant implements [`Game`]: a small `Copy` state that search and training copy and
//! play on hundreds of millions of times. Moves are *actions*, indices into the variant's
//! action space (`row * width + col` for a cell; see `docs/RULES.md`), and legal actions are
//! written into a caller's [`ActionList`] without allocating.
//!
//! The crate has no threads, no I/O and tiny dependencies so that it also compiles to
//! WebAssembly for play in a browser.

pub mod coords;
pub mod symmetry;

mod game;

pub use game::{
    ActionList, DrawValue, Game, IllegalMove, MAX_ACTIONS, Outcome, ParseMoveError, Player,
    PlayoutPolicy, first_completing, playout, push_set_bits, random_below, random_playout,
};

/// An action index: a cell `row * width + col`, or one of the variant's extra actions
/// (`pass` in paytoplay, blackening moves in xando). See `docs/RULES.md`.
pub type Action = u16;

/// The version of these rules (the crate's version): exported models record it, so a front
/// end can tell which rules a network was trained on.
pub const RULES_VERSION: &str = env!("CARGO_PKG_VERSION");

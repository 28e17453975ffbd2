//! The pieces behind the `oxo` command that are worth testing on their own: the GTP-style
//! engine, the interactive game, game sessions of a run-time variant, and the benchmarks.

pub mod bench;
pub mod bench_net;
pub mod gtp;
pub mod line;
pub mod play;
pub mod session;

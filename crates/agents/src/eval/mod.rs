//! One handcrafted [`Evaluate`](crate::Evaluate) implementation per variant.

mod adjacency;
mod extreme;
mod paytoplay;
mod tictactoe;
mod ultimate;
mod xando;

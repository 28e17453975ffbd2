//! One handcrafted [`Evaluate`](crate::Evaluate) implementation per variant.

mod tictactoe;

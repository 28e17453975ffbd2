//! A trained model as a player: [`NetAgent`] (a `net:` spec: the model's net on an engine,
//! searching as [`oxo_play::PlaySearch`] says, valued as [`oxo_play::NetValue`] says), the
//! model files it plays ([`ModelFile`]: the `.bpk`, its checked `model.json` and recorded
//! graph; [`shipped_model`]) and the search's evaluator over a net ([`net_evaluator`]),
//! which self-play and the gate use too. `oxo play`, `oxo gtp` and `oxo arena` reach the net
//! through this crate alone; the trainer builds on it.

pub mod agent;
pub mod evaluator;
pub mod model;

pub use agent::{NET_PARAMS, NetAgent, build_any_agent};
pub use evaluator::{NetEvaluator, net_evaluator};
pub use model::{ModelFile, shipped_agent, shipped_model, spec_model};
pub use oxo_play::NET_KIND;

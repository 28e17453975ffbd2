//! The search's evaluator for a [`NetValue`] (defined in `oxo-play`, burn-free): a net's
//! engine valued with the score head's share and random playouts mixed in.

use oxo_engine::Engine;
use oxo_search::RolloutEvaluator;
use rand::rngs::SmallRng;

pub use oxo_play::NetValue;

use crate::selfplay::NetEvaluator;

/// The search's evaluator: a net's `engine` (`None`: uniform priors and value 0) valued as
/// `value` says, its playouts' moves drawn from `rng`.
pub fn net_evaluator<'n, 'r>(
    value: &NetValue,
    engine: Option<&'n mut Engine>,
    rng: &'r mut SmallRng,
) -> RolloutEvaluator<'r, NetEvaluator<'n>> {
    let net = NetEvaluator::new(engine).with_score_utility(value.score_utility);
    RolloutEvaluator::new(net, value.rollouts, rng)
}

//! The search's evaluator for a [`NetValue`] (defined in `oxo-play`, burn-free): a net's
//! engine ([`NetEvaluator`]) valued with the score head's share and random playouts mixed
//! in. The net agent, self-play and the gate all evaluate through it.

use std::time::{Duration, Instant};

use oxo_engine::Engine;
use oxo_nn::{Encode, WDL, search_value};
use oxo_play::NetValue;
use oxo_search::{Evaluator, RolloutEvaluator};
use rand::rngs::SmallRng;

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

/// A net's [`Engine`] as the search's [`Evaluator`]: encodes the batch, one
/// [`Engine::evaluate`] call, policy logits as they come, value = P(win) - P(loss). Counts its
/// calls and time.
///
/// Without a net it knows nothing: uniform priors (zero logits) and value 0, for the
/// bootstrap generations, whose playouts supply the whole value.
pub struct NetEvaluator<'a> {
    engine: Option<&'a mut Engine>,
    /// The score head's share of the value (see [`NetEvaluator::with_score_utility`]).
    score_utility: f32,
    inputs: Vec<f32>,
    /// Time spent inside [`Evaluator::evaluate`] (encoding included).
    pub time: Duration,
    /// Positions evaluated.
    pub positions: u64,
    /// Network calls made.
    pub calls: u64,
}

impl<'a> NetEvaluator<'a> {
    /// An evaluator over a net's `engine` (`None`: uniform priors and value 0), with zeroed
    /// counters.
    pub fn new(engine: Option<&'a mut Engine>) -> Self {
        NetEvaluator {
            engine,
            score_utility: 0.0,
            inputs: Vec::new(),
            time: Duration::ZERO,
            positions: 0,
            calls: 0,
        }
    }

    /// The same evaluator with the predicted score margin (clipped to `[-1, 1]`, in the
    /// trainer's target scale) weighing `weight` in each value and the win/draw/loss value
    /// `1 - weight`, as KataGo adds a score utility to its win utility: in the scoring
    /// variants the margin is a denser signal than the result. No effect on nets without a
    /// score head.
    pub fn with_score_utility(mut self, weight: f32) -> Self {
        self.score_utility = weight;
        self
    }
}

impl<G: Encode> Evaluator<G> for NetEvaluator<'_> {
    fn evaluate(&mut self, positions: &[G], policy_logits: &mut [f32], values: &mut [f32]) {
        let start = Instant::now();
        let n = positions.len();
        let Some(engine) = self.engine.as_deref_mut() else {
            policy_logits.fill(0.0);
            values.fill(0.0);
            self.positions += n as u64;
            self.calls += 1;
            return;
        };
        let size = G::INPUT_SIZE;
        self.inputs.resize(n * size, 0.0);
        for (i, position) in positions.iter().enumerate() {
            position.encode(&mut self.inputs[i * size..(i + 1) * size]);
        }
        let out = engine.evaluate(&self.inputs, n);
        policy_logits.copy_from_slice(&out.policy);
        for (i, value) in values.iter_mut().enumerate() {
            let wdl = &out.wdl[i * WDL..(i + 1) * WDL];
            *value = search_value(wdl, out.score.get(i).copied(), self.score_utility);
        }
        self.time += start.elapsed();
        self.positions += n as u64;
        self.calls += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_engine::EngineModel;
    use oxo_nn::{Device, Net, NetConfig};
    use oxo_rules::{ActionList, Game};

    /// With a score utility the value is the convex mix of the win/draw/loss value and the
    /// score head's clipped margin; the policy does not change.
    #[test]
    fn score_utility_mixes_the_score_head_into_the_value() {
        use oxo_variants::paytoplay::PayToPlay;
        let config = NetConfig::new(1, 8).with_score_head(true);
        let net = Net::new::<PayToPlay>(&config, &Device::flex());
        let mut game = PayToPlay::new();
        let mut legal = ActionList::new();
        game.legal_actions(&mut legal);
        game.play(legal[0]);
        let positions = [PayToPlay::new(), game];
        let model = EngineModel::new(&net, oxo_engine::EngineKind::Burn);
        let evaluate = |utility: f32| {
            let mut logits = vec![0.0; 2 * PayToPlay::NUM_ACTIONS];
            let mut values = [0.0; 2];
            let mut engine = model.open(1);
            NetEvaluator::new(Some(&mut engine))
                .with_score_utility(utility)
                .evaluate(&positions, &mut logits, &mut values);
            (logits, values)
        };
        let mut inputs = vec![0.0; 2 * PayToPlay::INPUT_SIZE];
        for (i, position) in positions.iter().enumerate() {
            position.encode(&mut inputs[i * PayToPlay::INPUT_SIZE..][..PayToPlay::INPUT_SIZE]);
        }
        let scores = net.evaluate(&inputs, 2).score;
        let (logits, results) = evaluate(0.0);
        let (score_logits, margins) = evaluate(1.0);
        let (_, mixed) = evaluate(0.25);
        assert_eq!(logits, score_logits);
        for i in 0..2 {
            assert!((margins[i] - scores[i].clamp(-1.0, 1.0)).abs() < 1e-6);
            let expected = 0.75 * results[i] + 0.25 * margins[i];
            assert!((mixed[i] - expected).abs() < 1e-5, "{mixed:?} {expected}");
        }
    }
}

//! The search's evaluator for a [`NetValue`] (defined in `oxo-play`, burn-free): a net's
//! engine ([`NetEvaluator`]) valued with the score head's share and random playouts mixed
//! in. Self-play, the gate and the rating all evaluate through it.

use std::time::{Duration, Instant};

use oxo_engine::Engine;
use oxo_nn::{
    Encode, WDL, encode_symmetric, fold_symmetric_policy, fold_symmetric_values, search_value,
};
use oxo_search::{Evaluator, RolloutEvaluator};
use rand::rngs::SmallRng;

pub use oxo_play::NetValue;

/// The search's evaluator: a net's `engine` (`None`: uniform priors and value 0) valued as
/// `value` says, its playouts' moves drawn from `rng`.
pub fn net_evaluator<'n, 'r>(
    value: &NetValue,
    engine: Option<&'n mut Engine>,
    rng: &'r mut SmallRng,
) -> RolloutEvaluator<'r, NetEvaluator<'n>> {
    let net = NetEvaluator::new(engine)
        .with_score_utility(value.score_utility)
        .with_symmetries(value.symmetries as usize);
    RolloutEvaluator::new(net, value.rollouts, rng)
}

/// A net's [`Engine`] as the search's [`Evaluator`]: encodes the batch, one
/// [`Engine::evaluate`] call, policy logits as they come, value = P(win) - P(loss); with
/// symmetries, each position's copies in the same call and their answers averaged. Counts
/// its calls and time.
///
/// Without a net it knows nothing: uniform priors (zero logits) and value 0, for the
/// bootstrap generations, whose playouts supply the whole value.
pub struct NetEvaluator<'a> {
    engine: Option<&'a mut Engine>,
    /// The score head's share of the value (see [`NetEvaluator::with_score_utility`]).
    score_utility: f32,
    /// Symmetric copies per position whose answers are averaged (1: none).
    symmetries: usize,
    inputs: Vec<f32>,
    /// One value per network row, before the copies are averaged.
    row_values: Vec<f32>,
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
            symmetries: 1,
            inputs: Vec::new(),
            row_values: Vec::new(),
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

    /// The same evaluator averaging the net over each position's first `count` symmetries
    /// ([`oxo_encode::symmetric`]): `count` network rows a position, for a less noisy
    /// judgement. 1 evaluates the position alone.
    pub fn with_symmetries(mut self, count: usize) -> Self {
        self.symmetries = count.max(1);
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
        let copies = self.symmetries;
        let rows = n * copies;
        self.inputs.resize(rows * G::INPUT_SIZE, 0.0);
        encode_symmetric(positions, copies, &mut self.inputs);
        let out = engine.evaluate(&self.inputs, rows);
        self.row_values.clear();
        self.row_values.extend((0..rows).map(|row| {
            let wdl = &out.wdl[row * WDL..(row + 1) * WDL];
            search_value(wdl, out.score.get(row).copied(), self.score_utility)
        }));
        fold_symmetric_policy::<G>(copies, &out.policy, policy_logits);
        fold_symmetric_values(copies, &self.row_values, values);
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
        use oxo_rules::paytoplay::PayToPlay;
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

    /// With symmetries, a position's value is the mean of the net's values of its
    /// transformed copies, and an action's logit the mean of the copies' logits for its
    /// images: exactly what evaluating each copy alone and mapping back gives.
    #[test]
    fn symmetries_average_the_copies_answers() {
        use oxo_rules::adjacency::Adjacency;
        let config = NetConfig::new(1, 8).with_score_head(true);
        let net = Net::new::<Adjacency>(&config, &Device::flex());
        let model = EngineModel::new(&net, oxo_engine::EngineKind::Burn);
        let mut game = Adjacency::new();
        for text in ["C3", "E3", "D5", "J10"] {
            game.try_play(Adjacency::parse_action(text).unwrap())
                .unwrap();
        }
        let mut engine = model.open(1);
        let mut evaluator = NetEvaluator::new(Some(&mut engine)).with_score_utility(0.5);
        let actions = Adjacency::NUM_ACTIONS;
        let k = Adjacency::NUM_SYMMETRIES;
        let mut copy_logits = vec![vec![0.0; actions]; k];
        let mut copy_values = vec![0.0; k];
        for sym in 0..k {
            let mut value = [0.0];
            evaluator.evaluate(&[game.transformed(sym)], &mut copy_logits[sym], &mut value);
            copy_values[sym] = value[0];
        }
        let mut evaluator = evaluator.with_symmetries(k);
        let (mut logits, mut value) = (vec![0.0; actions], [0.0]);
        evaluator.evaluate(&[game], &mut logits, &mut value);
        let mean_value = copy_values.iter().sum::<f32>() / k as f32;
        assert!(
            (value[0] - mean_value).abs() < 1e-5,
            "{value:?} {mean_value}"
        );
        for action in 0..actions {
            let mean: f32 = (0..k)
                .map(|sym| copy_logits[sym][Adjacency::map_action(sym, action as u16) as usize])
                .sum::<f32>()
                / k as f32;
            assert!((logits[action] - mean).abs() < 1e-4, "{action}");
        }
        assert!(copy_values.iter().any(|&v| (v - mean_value).abs() > 1e-6));
    }
}

//! The search's evaluator for a [`NetValue`] (defined in `oxo-play`, burn-free): a net's
//! engine ([`NetEvaluator`]) valued with the score head's share and random playouts mixed
//! in. The net agent, self-play and the gate all evaluate through it.

use std::time::{Duration, Instant};

use oxo_engine::Engine;
use oxo_nn::{Encode, WDL, search_value};
use oxo_play::NetValue;
use oxo_rules::DrawValue;
use oxo_search::{Evaluator, RolloutEvaluator};
use rand::rngs::SmallRng;

/// The search's evaluator: a net's `engine` (`None`: uniform priors and value 0) valued as
/// `value` says, a draw worth what `draw` says (self-play's and the gate's:
/// [`DrawValue::NEUTRAL`]; an agent's: [`NetValue::draw_for`] its side), its playouts' moves
/// drawn from `rng`.
pub fn net_evaluator<'n, 'r>(
    value: &NetValue,
    draw: DrawValue,
    engine: Option<&'n mut Engine>,
    rng: &'r mut SmallRng,
) -> RolloutEvaluator<'r, NetEvaluator<'n>> {
    let net = NetEvaluator::new(engine)
        .with_score_utility(value.score_utility)
        .with_draw_value(draw);
    RolloutEvaluator::new(net, value.rollouts, rng).with_draw_value(draw)
}

/// A net's [`Engine`] as the search's [`Evaluator`]: encodes the batch, one
/// [`Engine::evaluate`] call, policy logits as they come, value = P(win) - P(loss) (plus a
/// draw's value times P(draw), where a draw is worth something). Counts its calls and time.
///
/// Without a net it knows nothing: uniform priors (zero logits) and value 0, for the
/// bootstrap generations, whose playouts supply the whole value.
pub struct NetEvaluator<'a> {
    engine: Option<&'a mut Engine>,
    /// The score head's share of the value (see [`NetEvaluator::with_score_utility`]).
    score_utility: f32,
    /// What a draw is worth (see [`NetEvaluator::with_draw_value`]).
    draw: DrawValue,
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
            draw: DrawValue::NEUTRAL,
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

    /// The same evaluator valuing a draw as `draw` says, from the view of each position's
    /// player to move: `P(win) - P(loss) + d * P(draw)`.
    pub fn with_draw_value(mut self, draw: DrawValue) -> Self {
        self.draw = draw;
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
        for (i, (value, position)) in values.iter_mut().zip(positions).enumerate() {
            let wdl = &out.wdl[i * WDL..(i + 1) * WDL];
            let draw = self.draw.for_player(position.to_move());
            *value = search_value(wdl, out.score.get(i).copied(), self.score_utility, draw);
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
    use oxo_nn::{Device, Net, NetConfig, wdl_probabilities};
    use oxo_rules::{ActionList, Game, Player};

    /// The policy logits and values that `net`'s evaluator with `score_utility` and `draw`
    /// gives `positions`.
    fn evaluate<G: Encode>(
        net: &Net,
        positions: &[G],
        score_utility: f32,
        draw: DrawValue,
    ) -> (Vec<f32>, Vec<f32>) {
        let mut engine = EngineModel::new(net, oxo_engine::EngineKind::Burn).open(1);
        let mut logits = vec![0.0; positions.len() * G::NUM_ACTIONS];
        let mut values = vec![0.0; positions.len()];
        NetEvaluator::new(Some(&mut engine))
            .with_score_utility(score_utility)
            .with_draw_value(draw)
            .evaluate(positions, &mut logits, &mut values);
        (logits, values)
    }

    /// `positions` encoded one after another, as the net reads them.
    fn encoded<G: Encode>(positions: &[G]) -> Vec<f32> {
        let mut inputs = vec![0.0; positions.len() * G::INPUT_SIZE];
        for (position, input) in positions.iter().zip(inputs.chunks_mut(G::INPUT_SIZE)) {
            position.encode(input);
        }
        inputs
    }

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
        let with_utility = |utility| evaluate(&net, &positions, utility, DrawValue::NEUTRAL);
        let scores = net.evaluate(&encoded(&positions), 2).score;
        let (logits, results) = with_utility(0.0);
        let (score_logits, margins) = with_utility(1.0);
        let (_, mixed) = with_utility(0.25);
        assert_eq!(logits, score_logits);
        for i in 0..2 {
            assert!((margins[i] - scores[i].clamp(-1.0, 1.0)).abs() < 1e-6);
            let expected = 0.75 * results[i] + 0.25 * margins[i];
            assert!((mixed[i] - expected).abs() < 1e-5, "{mixed:?} {expected}");
        }
    }

    /// A draw's value adds `d * P(draw)` to the value of each position whose player to move
    /// is its side, and takes it from the other side's: the empty board (X to move) and the
    /// board after one move (O to move).
    #[test]
    fn a_draw_value_counts_for_its_side_and_against_the_other() {
        use oxo_variants::tictactoe::TicTacToe;
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let mut after_one = TicTacToe::new();
        after_one.play(4);
        let positions = [TicTacToe::new(), after_one];
        let wdl = net.evaluate(&encoded(&positions), 2).wdl;
        let draws = [0, 1].map(|i| wdl_probabilities(&wdl[i * WDL..(i + 1) * WDL])[1]);
        let (_, plain) = evaluate(&net, &positions, 0.0, DrawValue::NEUTRAL);
        let contempt = DrawValue {
            side: Player::X,
            value: -0.5,
        };
        let (_, valued) = evaluate(&net, &positions, 0.0, contempt);
        assert!((valued[0] - (plain[0] - 0.5 * draws[0])).abs() < 1e-5);
        assert!((valued[1] - (plain[1] + 0.5 * draws[1])).abs() < 1e-5);
    }
}

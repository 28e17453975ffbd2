//! The network's outputs read as a search reads them: win/draw/loss logits to a value, and
//! the score head's margin mixed in. Burn-free, so that every engine (burn, onnxruntime, a web
//! page's onnxruntime-web) values a position the same way.

use oxo_rules::{Action, ActionList, Game};

/// Width of the value head's output: win, draw and loss logits, from the mover's point of
/// view, in that order.
pub const WDL: usize = 3;

/// Win, draw and loss probabilities (a softmax) of the value head's logits for one position.
pub fn wdl_probabilities(logits: &[f32]) -> [f32; WDL] {
    let mut wdl = [logits[0], logits[1], logits[2]];
    softmax(&mut wdl);
    wdl
}

/// The expected result `P(win) - P(loss)` of win/draw/loss probabilities, in `[-1, 1]`: the
/// value search backs up.
pub fn expected_value(wdl: &[f32; WDL]) -> f32 {
    (wdl[0] - wdl[2]).clamp(-1.0, 1.0)
}

/// The value a search backs up for one position: the win/draw/loss value weighted
/// `1 - score_utility` plus the predicted score margin (clipped to `[-1, 1]`, the trainer's
/// target scale) weighted `score_utility`, as KataGo adds a score utility to its win utility.
/// Without a score (a net with no score head) the win/draw/loss value alone. The win/draw/loss
/// value is `P(win) - P(loss) + draw_value * P(draw)`, `draw_value` being what a draw is
/// worth to the player to move (0: the plain expected result; see `oxo_rules::DrawValue`).
pub fn search_value(
    wdl_logits: &[f32],
    score: Option<f32>,
    score_utility: f32,
    draw_value: f32,
) -> f32 {
    let wdl = wdl_probabilities(wdl_logits);
    let result = (expected_value(&wdl) + draw_value * wdl[1]).clamp(-1.0, 1.0);
    match score {
        Some(score) => (1.0 - score_utility) * result + score_utility * score.clamp(-1.0, 1.0),
        None => result,
    }
}

/// The network's own judgement of one position, without search: what `nn_eval` prints.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// Win, draw and loss probabilities for the player to move.
    pub wdl: [f32; WDL],
    /// `wdl[0] - wdl[2]`: the expected result for the player to move, in `[-1, 1]`.
    pub value: f32,
    /// The policy restricted to the legal moves (softmax of their logits), in action order.
    pub policy: Vec<(Action, f32)>,
    /// The predicted score margin, for nets with a score head.
    pub score: Option<f32>,
}

impl PositionEval {
    /// The judgement of `game` in the net's raw outputs for that one position: its
    /// `G::NUM_ACTIONS` policy logits, its three win/draw/loss logits and its score, if the
    /// net has a score head. A finished position has no legal moves: empty policy.
    pub fn of<G: Game>(
        game: &G,
        policy_logits: &[f32],
        wdl_logits: &[f32],
        score: Option<f32>,
    ) -> PositionEval {
        let wdl = wdl_probabilities(wdl_logits);
        let mut legal = ActionList::new();
        if !game.is_over() {
            game.legal_actions(&mut legal);
        }
        let mut probabilities: Vec<f32> =
            legal.iter().map(|&a| policy_logits[a as usize]).collect();
        softmax(&mut probabilities);
        PositionEval {
            wdl,
            value: expected_value(&wdl),
            policy: legal.iter().copied().zip(probabilities).collect(),
            score,
        }
    }
}

/// Softmax of `logits`, in place.
pub fn softmax(logits: &mut [f32]) {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    logits.iter_mut().for_each(|x| *x = (*x - max).exp());
    let sum: f32 = logits.iter().sum();
    logits.iter_mut().for_each(|x| *x /= sum);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Certain outcomes give +-1 and 0, the score utility weighs the clipped margin in, and a
    /// net without a score is valued by its win/draw/loss head alone.
    #[test]
    fn values_weigh_result_and_score() {
        let win = [30.0, 0.0, 0.0];
        let draw = [0.0, 30.0, 0.0];
        assert!((search_value(&win, None, 1.0, 0.0) - 1.0).abs() < 1e-6);
        assert!(search_value(&draw, None, 0.0, 0.0).abs() < 1e-6);
        assert!((search_value(&draw, Some(0.5), 1.0, 0.0) - 0.5).abs() < 1e-6);
        assert!((search_value(&win, Some(-4.0), 0.5, 0.0) - 0.0).abs() < 1e-6);
        // A draw's value counts in the result's share, in proportion to P(draw).
        assert!((search_value(&draw, None, 0.0, -0.25) + 0.25).abs() < 1e-6);
        assert!((search_value(&draw, Some(0.5), 0.5, 0.5) - 0.5).abs() < 1e-6);
        assert!((search_value(&win, None, 0.0, -0.25) - 1.0).abs() < 1e-6);
        let even = [0.0, 0.0, 0.0];
        assert!((search_value(&even, None, 0.0, 0.6) - 0.2).abs() < 1e-6);
        let mut even = [1.0, 1.0];
        softmax(&mut even);
        assert_eq!(even, [0.5, 0.5]);
    }
}

//! The [`Evaluator`] trait through which a network (or any other prior) guides the search.

use oxo_rules::Game;

/// Gives the search a policy and a value for positions, many at a time.
///
/// This is how the network plugs in. Evaluation is the expensive step, so the search always
/// calls it with a batch: the leaves of all its trees at once.
pub trait Evaluator<G: Game> {
    /// Evaluates `positions`, none of which is over.
    ///
    /// For position `i`, writes `G::NUM_ACTIONS` policy logits to
    /// `policy_logits[i * G::NUM_ACTIONS..(i + 1) * G::NUM_ACTIONS]` (the search masks illegal
    /// actions itself, so their logits may be anything finite) and a value in `[-1, 1]` to
    /// `values[i]`, from the view of the position's player to move. Both slices have exactly
    /// the lengths this implies.
    fn evaluate(&mut self, positions: &[G], policy_logits: &mut [f32], values: &mut [f32]);
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &mut E {
    fn evaluate(&mut self, positions: &[G], policy_logits: &mut [f32], values: &mut [f32]) {
        (**self).evaluate(positions, policy_logits, values);
    }
}

/// The knowledge-free evaluator: uniform policy, value 0 for every position.
///
/// With it the search is plain MCTS whose only information is the game's outcomes: a
/// baseline before any network is trained, and a reference point for tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, _positions: &[G], policy_logits: &mut [f32], values: &mut [f32]) {
        policy_logits.fill(0.0);
        values.fill(0.0);
    }
}

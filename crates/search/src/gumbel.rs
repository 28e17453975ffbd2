//! Gumbel MuZero's scheme (Danihelka et al., ICLR 2022, "Policy improvement by planning with
//! Gumbel"), following DeepMind's `mctx`:
//!
//! * at the root, Gumbel-top-k: `m` actions are sampled without replacement by the largest
//!   `g(a) + logits(a)` (Gumbel noise `g`), and sequential halving spreads the simulations
//!   over them, keeping the better half by `g + logits + sigma(completed Q)` in each phase;
//! * inside the tree, a deterministic selection makes visit frequencies track the improved
//!   policy `softmax(logits + sigma(completed Q))`;
//! * completed Q fills the Q of unvisited actions with the mixed value approximation
//!   (the paper's Appendix D), and `sigma(q) = (c_visit + max_b N(b)) * c_scale * q`.
//!
//! The training target is the improved policy at the root; the move played is the best
//! considered action after the last phase.

use oxo_rules::Game;
use rand::RngExt;
use rand::rngs::SmallRng;

use crate::config::GumbelConfig;
use crate::tree::{ROOT, Tree, sign};

/// Rescaling never divides by less than this (mctx's `epsilon`).
const RESCALE_EPSILON: f32 = 1e-8;

/// Root scores are clamped from below to this, so that no score is `-inf` (mctx's
/// `low_logit`).
const LOW_SCORE: f32 = -1e9;

/// Writes to `out` the visit count that a root action must have to be selected at each
/// simulation `0..simulations` of sequential halving with `max_considered` actions.
///
/// At simulation `i` the root selects, among the actions whose visit count equals `out[i]`,
/// the one with the best score. Each phase gives every remaining action
/// `max(1, simulations / (ceil(log2 m) * remaining))` more visits, then halves the remaining
/// actions (never below 2). With at most one considered action the sequence is `0, 1, 2, ...`.
/// This is the schedule of mctx's `get_sequence_of_considered_visits`.
pub fn considered_visits(max_considered: u32, simulations: u32, out: &mut Vec<u32>) {
    out.clear();
    let n = simulations as usize;
    if max_considered <= 1 {
        out.extend(0..simulations);
        return;
    }
    let log2_max = u32::BITS - (max_considered - 1).leading_zeros();
    let mut remaining = max_considered;
    // Actions still considered all have the same count at phase boundaries.
    let mut visits = 0;
    while out.len() < n {
        let extra = (simulations / (log2_max * remaining)).max(1);
        for _ in 0..extra {
            let take = (remaining as usize).min(n - out.len());
            out.extend(std::iter::repeat_n(visits, take));
            visits += 1;
        }
        remaining = (remaining / 2).max(2);
    }
}

/// Writes the completed Q-value of every edge of `node` to `out`, from the view of the node's
/// player to move, and returns the largest child visit count.
///
/// A visited action's Q is its child's mean value; an unvisited one gets the mixed value
/// `(v + N * sum_visited(p * q) / sum_visited(p)) / (N + 1)` of the node's raw value `v`, its
/// priors `p` and its total child visits `N`. Only completed visits count: in-flight ones have
/// no value yet.
fn completed_q<G: Game>(tree: &Tree<G>, node: u32, out: &mut Vec<f32>) -> u32 {
    let n = &tree.nodes[node as usize];
    let s = sign(n.to_move);
    let edges = tree.edges(node);
    let mut sum_visits = 0;
    let mut max_visits = 0;
    let mut sum_priors = 0.0;
    let mut weighted_q = 0.0;
    for edge in edges {
        let child = tree.child_stats(edge);
        if let Some(q) = child.q(s) {
            let prior = edge.prior.max(f32::MIN_POSITIVE);
            sum_visits += child.visits;
            max_visits = max_visits.max(child.visits);
            sum_priors += prior;
            weighted_q += prior * q;
        }
    }
    let raw_value = s * n.raw_value;
    let mixed = if sum_visits > 0 {
        (raw_value + sum_visits as f32 * (weighted_q / sum_priors)) / (sum_visits + 1) as f32
    } else {
        raw_value
    };
    out.clear();
    out.extend(
        edges
            .iter()
            .map(|e| tree.child_stats(e).q(s).unwrap_or(mixed)),
    );
    max_visits
}

/// Writes `sigma(completed Q)` for every edge of `node` to `out` (mctx's
/// `qtransform_completed_by_mix_value`): completed Q, optionally rescaled to `[0, 1]` by its
/// min and max, times `(c_visit + max_b N(b)) * c_scale`.
pub(crate) fn sigma_completed_q<G: Game>(
    tree: &Tree<G>,
    node: u32,
    config: &GumbelConfig,
    out: &mut Vec<f32>,
) {
    let max_visits = completed_q(tree, node, out);
    if config.rescale_values {
        let min = out.iter().copied().fold(f32::INFINITY, f32::min);
        let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let range = (max - min).max(RESCALE_EPSILON);
        out.iter_mut().for_each(|q| *q = (*q - min) / range);
    }
    let scale = (config.c_visit + max_visits as f32) * config.c_scale;
    out.iter_mut().for_each(|q| *q *= scale);
}

/// Replaces `sigma` (one entry per edge of `node`) by `softmax(log_prior + sigma)`: the
/// improved policy over the node's legal actions.
fn improved_policy_in_place<G: Game>(tree: &Tree<G>, node: u32, sigma: &mut [f32]) {
    let edges = tree.edges(node);
    let mut max = f32::NEG_INFINITY;
    for (x, edge) in sigma.iter_mut().zip(edges) {
        *x += edge.log_prior;
        max = max.max(*x);
    }
    let mut sum = 0.0;
    for x in sigma.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    sigma.iter_mut().for_each(|x| *x /= sum);
}

/// The deterministic interior selection: the edge maximising
/// `pi'(a) - N(a) / (1 + sum_b N(b))` with `pi'` the improved policy, so that visit
/// frequencies follow `pi'`. In-flight visits count in `N`. `scratch` is scratch space.
pub(crate) fn select_interior<G: Game>(
    tree: &Tree<G>,
    node: u32,
    config: &GumbelConfig,
    scratch: &mut Vec<f32>,
) -> usize {
    sigma_completed_q(tree, node, config, scratch);
    improved_policy_in_place(tree, node, scratch);
    let edges = tree.edges(node);
    let total: u32 = edges.iter().map(|e| tree.child_stats(e).total()).sum();
    let denominator = (1 + total) as f32;
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, edge) in edges.iter().enumerate() {
        let score = scratch[i] - tree.child_stats(edge).total() as f32 / denominator;
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    best
}

/// The root selection of sequential halving: among the root edges whose visit count (in-flight
/// visits included) equals the schedule's entry for the current simulation, the one with the
/// best `g + logits + sigma(completed Q)`. `gumbel` has one entry per root edge.
pub(crate) fn select_root<G: Game>(
    tree: &Tree<G>,
    gumbel: &[f32],
    schedule: &[u32],
    config: &GumbelConfig,
    scratch: &mut Vec<f32>,
) -> usize {
    sigma_completed_q(tree, ROOT, config, scratch);
    let simulation: u32 = tree
        .edges(ROOT)
        .iter()
        .map(|e| tree.child_stats(e).total())
        .sum();
    best_considered(tree, gumbel, scratch, schedule[simulation as usize])
}

/// The move to play after the search: the best considered action among the most visited
/// ones, by `g + logits + sigma(completed Q)`.
pub(crate) fn choose_action<G: Game>(
    tree: &Tree<G>,
    gumbel: &[f32],
    config: &GumbelConfig,
    scratch: &mut Vec<f32>,
) -> usize {
    sigma_completed_q(tree, ROOT, config, scratch);
    let max_visits = tree
        .edges(ROOT)
        .iter()
        .map(|e| tree.child_stats(e).total())
        .max()
        .unwrap_or(0);
    best_considered(tree, gumbel, scratch, max_visits)
}

/// Among root edges with exactly `considered` visits, the first with the highest
/// `max(LOW_SCORE, g + logits - max(logits) + sigma)`; edge 0 if none has (as mctx's argmax).
fn best_considered<G: Game>(
    tree: &Tree<G>,
    gumbel: &[f32],
    sigma: &[f32],
    considered: u32,
) -> usize {
    let edges = tree.edges(ROOT);
    let max_log_prior = edges
        .iter()
        .map(|e| e.log_prior)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, edge) in edges.iter().enumerate() {
        if tree.child_stats(edge).total() != considered {
            continue;
        }
        let score = (gumbel[i] + (edge.log_prior - max_log_prior) + sigma[i]).max(LOW_SCORE);
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    best
}

/// Writes the improved policy `softmax(logits + sigma(completed Q))` at the root to `policy`
/// (indexed by action; illegal actions get 0). `scratch` is scratch space.
pub(crate) fn root_policy<G: Game>(
    tree: &Tree<G>,
    config: &GumbelConfig,
    scratch: &mut Vec<f32>,
    policy: &mut [f32],
) {
    sigma_completed_q(tree, ROOT, config, scratch);
    improved_policy_in_place(tree, ROOT, scratch);
    policy.fill(0.0);
    for (p, edge) in scratch.iter().zip(tree.edges(ROOT)) {
        policy[edge.action as usize] = *p;
    }
}

/// The root's value under the improved policy `policy` (indexed by action, as
/// [`root_policy`] writes it): `sum_a policy(a) * completed_q(a)`, from the view of the root's
/// player to move. Unlike the mean of all backed-up values, it is not dragged down by the
/// visits that sequential halving forces on weaker actions. `scratch` is scratch space.
pub(crate) fn root_value<G: Game>(tree: &Tree<G>, policy: &[f32], scratch: &mut Vec<f32>) -> f32 {
    completed_q(tree, ROOT, scratch);
    tree.edges(ROOT)
        .iter()
        .zip(scratch.iter())
        .map(|(edge, q)| policy[edge.action as usize] * q)
        .sum()
}

/// Writes `count` Gumbel(0, `scale`) samples to `out`: the root noise of one search.
pub(crate) fn sample_gumbel(rng: &mut SmallRng, scale: f32, count: usize, out: &mut Vec<f32>) {
    out.clear();
    if scale == 0.0 {
        out.resize(count, 0.0);
        return;
    }
    out.extend((0..count).map(|_| {
        let u = rng.random::<f64>().max(f64::MIN_POSITIVE);
        scale * (-(-u.ln()).ln()) as f32
    }));
}

//! AlphaZero's scheme: PUCT selection, Dirichlet noise at the root, moves drawn from the visit
//! counts at a temperature.

use oxo_rules::{Action, Game};
use rand::RngExt;
use rand::rngs::SmallRng;
use rand_distr::{Distribution, Gamma};

use crate::config::PuctConfig;
use crate::tree::{ROOT, Tree, sign};

/// The edge of `node` that maximises `Q + c * P * sqrt(N) / (1 + N(a))`, first on ties.
///
/// `root_priors` replaces the edge priors (the root's noisy priors). In-flight visits count
/// as visits and each one as a loss of `virtual_loss`, so parallel leaves of one tree spread.
/// With `solve`, a proven child's Q is its exact value, and a child proven lost for the
/// player to move is never chosen (the solver never asks this of a node all of whose
/// children are proven, as such a node is proven itself).
pub(crate) fn select<G: Game>(
    tree: &Tree<G>,
    node: u32,
    root_priors: Option<&[f32]>,
    config: &PuctConfig,
    solve: bool,
) -> usize {
    let n = &tree.nodes[node as usize];
    let s = sign(n.to_move);
    let sqrt_n = ((n.visits + n.pending) as f32).sqrt();
    let first_play = s * n.value_sum / n.visits.max(1) as f32 - config.fpu_reduction;
    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, edge) in tree.edges(node).iter().enumerate() {
        let child = tree.child_stats(edge);
        let total = child.total();
        let exact = if solve { tree.child_exact(edge) } else { None };
        let q = match exact {
            Some(value) if s * value <= -1.0 => continue,
            Some(value) => s * value,
            None if total == 0 => first_play,
            None => {
                (s * child.value_sum - config.virtual_loss * child.pending as f32) / total as f32
            }
        };
        let prior = root_priors.map_or(edge.prior, |p| p[i]);
        let score = q + config.c_puct * prior * sqrt_n / (1 + total) as f32;
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    best
}

/// Writes the root's priors, mixed with Dirichlet noise as configured, to `priors` (one per
/// root edge); `noise` is scratch space.
pub(crate) fn noisy_root_priors<G: Game>(
    tree: &Tree<G>,
    config: &PuctConfig,
    rng: &mut SmallRng,
    priors: &mut Vec<f32>,
    noise: &mut Vec<f32>,
) {
    let edges = tree.edges(ROOT);
    priors.clear();
    priors.extend(edges.iter().map(|e| e.prior));
    if config.dirichlet_fraction <= 0.0 || edges.len() < 2 {
        return;
    }
    let gamma = Gamma::new(config.dirichlet_alpha, 1.0).expect("dirichlet_alpha must be > 0");
    noise.clear();
    noise.extend(edges.iter().map(|_| gamma.sample(rng)));
    let sum: f32 = noise.iter().sum();
    if sum > 0.0 {
        noise.iter_mut().for_each(|x| *x /= sum);
    } else {
        // Every sample underflowed (tiny alpha): the noise is a point mass somewhere, and
        // uniform is the closest unbiased stand-in.
        noise.fill(1.0 / edges.len() as f32);
    }
    let f = config.dirichlet_fraction;
    for (p, x) in priors.iter_mut().zip(noise.iter()) {
        *p = (1.0 - f) * *p + f * x;
    }
}

/// The move to play after a search: drawn with probability proportional to
/// `visits^(1 / temperature)`, or for temperature 0 the most visited (ties: higher mean value,
/// then lower action). With no visits at all (a zero budget), the priors stand in for them.
/// With `solve`, a move proven lost weighs nothing and comes last (if every move is, the root
/// is proven and the search picks its move from the proof instead).
pub(crate) fn choose_action<G: Game>(
    tree: &Tree<G>,
    temperature: f32,
    solve: bool,
    rng: &mut SmallRng,
) -> Action {
    let s = sign(tree.root().to_move);
    let edges = tree.edges(ROOT);
    let lost = |i: usize| solve && tree.child_exact(&edges[i]).is_some_and(|v| s * v <= -1.0);
    let max_visits = edges
        .iter()
        .map(|e| tree.child_stats(e).visits)
        .max()
        .unwrap_or(0);
    let weight = |i: usize| {
        if lost(i) {
            0.0
        } else if max_visits > 0 {
            f64::from(tree.child_stats(&edges[i]).visits) / f64::from(max_visits)
        } else {
            f64::from(edges[i].prior)
        }
    };
    if temperature <= 0.0 {
        let key = |i: usize| {
            let q = tree
                .child_stats(&edges[i])
                .q(s)
                .unwrap_or(f32::NEG_INFINITY);
            (!lost(i), weight(i), q)
        };
        let mut best = 0;
        for i in 1..edges.len() {
            if key(i) > key(best) {
                best = i;
            }
        }
        return edges[best].action;
    }
    let exponent = 1.0 / f64::from(temperature);
    let total: f64 = (0..edges.len()).map(|i| weight(i).powf(exponent)).sum();
    let mut r = rng.random::<f64>() * total;
    let mut chosen = 0;
    for i in 0..edges.len() {
        let w = weight(i).powf(exponent);
        if w > 0.0 {
            chosen = i;
            if r < w {
                break;
            }
            r -= w;
        }
    }
    edges[chosen].action
}

//! Replays the search tree that DeepMind's mctx records for Gumbel MuZero
//! (`mctx/_src/tests/test_data/gumbel_muzero_tree.json`, checked by its `tree_test.py`) and
//! checks that our Gumbel search builds the same tree: the same node expanded at every
//! simulation, the same visit counts, the same values.
//!
//! mctx's test search runs 200 simulations over 82 actions with `gumbel_scale = 0` (so it is
//! deterministic), `max_num_considered_actions = 16`, `qtransform_completed_by_mix_value` with
//! `maxvisit_init = 50`, `value_scale = 0.5`, `rescale_values = false`, zero rewards and
//! discount -1: a two-player game in which values are from the mover's view. The fixture
//! `tests/data/mctx_gumbel_tree.txt` keeps each expanded node's statistics and policy (see
//! `tests/data/extract_mctx_tree.py`). Here a [`Game`] walks the recorded tree and an
//! [`Evaluator`] returns the recorded policy and raw value of each node, so the network outputs
//! are exactly mctx's and only the search itself is compared.

use std::fmt;
use std::sync::OnceLock;

use oxo_rules::{Action, ActionList, Game, IllegalMove, Outcome, Player};

use crate::tree::{NONE, sign};
use crate::{BatchedSearch, Evaluator, GumbelConfig, Scheme, SearchConfig};

const NUM_ACTIONS: usize = 82;
const SIMULATIONS: u32 = 200;
/// A node the recording does not have.
const UNKNOWN: u32 = u32::MAX;

/// One expanded node of the recorded tree.
struct Recorded {
    parent: Option<u32>,
    action: Option<Action>,
    visits: u32,
    value: f64,
    raw_value: f64,
    priors: Vec<f64>,
    children: [u32; NUM_ACTIONS],
}

fn recorded() -> &'static [Recorded] {
    static TREE: OnceLock<Vec<Recorded>> = OnceLock::new();
    TREE.get_or_init(|| {
        let text = include_str!("../tests/data/mctx_gumbel_tree.txt");
        let mut nodes: Vec<Recorded> = Vec::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<f64> = line.split(' ').map(|f| f.parse().unwrap()).collect();
            assert_eq!(fields.len(), 6 + NUM_ACTIONS);
            assert_eq!(
                fields[0] as usize,
                nodes.len(),
                "nodes are stored in index order"
            );
            let parent = (fields[1] >= 0.0).then_some(fields[1] as u32);
            let action = (fields[2] >= 0.0).then_some(fields[2] as Action);
            if let (Some(parent), Some(action)) = (parent, action) {
                nodes[parent as usize].children[action as usize] = nodes.len() as u32;
            }
            nodes.push(Recorded {
                parent,
                action,
                visits: fields[3] as u32,
                value: fields[4],
                raw_value: fields[5],
                priors: fields[6..].to_vec(),
                children: [UNKNOWN; NUM_ACTIONS],
            });
        }
        assert_eq!(nodes.len(), SIMULATIONS as usize + 1);
        nodes
    })
}

/// A position in the recorded tree: which node, and how deep (whose turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Replay {
    node: u32,
    depth: u32,
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {} at depth {}", self.node, self.depth)
    }
}

impl Game for Replay {
    const NAME: &'static str = "mctx-replay";
    const WIDTH: usize = NUM_ACTIONS;
    const HEIGHT: usize = 1;
    const NUM_ACTIONS: usize = NUM_ACTIONS;
    const MAX_PLIES: usize = SIMULATIONS as usize;
    const NUM_SYMMETRIES: usize = 1;
    const HAS_SCORES: bool = false;

    fn new() -> Self {
        Replay { node: 0, depth: 0 }
    }

    fn to_move(&self) -> Player {
        Player::from_index(self.depth as usize % 2)
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        out.extend(0..NUM_ACTIONS as Action);
    }

    fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if (action as usize) < NUM_ACTIONS {
            Ok(())
        } else {
            Err(IllegalMove::OutOfRange)
        }
    }

    fn play(&mut self, action: Action) {
        if self.node != UNKNOWN {
            self.node = recorded()[self.node as usize].children[action as usize];
        }
        self.depth += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn map_action(_sym: usize, action: Action) -> Action {
        action
    }

    fn transformed(&self, _sym: usize) -> Self {
        *self
    }
}

/// The recorded network: each node's policy (as log-probabilities) and raw value.
struct RecordedEvaluator;

impl Evaluator<Replay> for RecordedEvaluator {
    fn evaluate(&mut self, positions: &[Replay], logits: &mut [f32], values: &mut [f32]) {
        for (i, position) in positions.iter().enumerate() {
            assert_ne!(
                position.node, UNKNOWN,
                "expanded a node that mctx did not expand"
            );
            let node = &recorded()[position.node as usize];
            for (logit, prior) in logits[i * NUM_ACTIONS..].iter_mut().zip(&node.priors) {
                *logit = prior.ln() as f32;
            }
            values[i] = node.raw_value as f32;
        }
    }
}

fn mctx_config() -> SearchConfig {
    SearchConfig {
        simulations: SIMULATIONS,
        leaves_per_tree: 1,
        reuse_tree: false,
        solve: false,
        scheme: Scheme::Gumbel(GumbelConfig {
            max_considered_actions: 16,
            gumbel_scale: 0.0,
            c_visit: 50.0,
            c_scale: 0.5,
            rescale_values: false,
        }),
    }
}

/// mctx's tree test compares with an absolute tolerance of 1e-3.
const TOLERANCE: f64 = 1e-3;

#[test]
fn gumbel_search_reproduces_the_mctx_tree() {
    let mut search = BatchedSearch::new(mctx_config(), &[0]);
    search.set_root(0, Replay::new());
    search.run(&mut RecordedEvaluator);
    let tree = search.tree(0);
    assert_eq!(tree.nodes.len(), recorded().len());
    // With no finished positions each simulation creates one node, so arena order is mctx's
    // evaluation order: node i must be the node mctx expanded at simulation i.
    for (index, node) in tree.nodes.iter().enumerate() {
        assert_eq!(
            node.game.node as usize, index,
            "simulation {index} expanded another node"
        );
        let expected = &recorded()[index];
        let parent = (node.parent != NONE).then_some(node.parent);
        assert_eq!(parent, expected.parent);
        assert_eq!(
            parent.map(|p| tree
                .edges(p)
                .iter()
                .find(|e| e.child == index as u32)
                .unwrap()
                .action),
            expected.action
        );
        assert_eq!(node.visits, expected.visits, "visits of node {index}");
        let s = sign(node.to_move);
        let value = f64::from(s * node.value_sum / node.visits as f32);
        let raw_value = f64::from(s * node.raw_value);
        assert!(
            (value - expected.value).abs() < TOLERANCE,
            "value of node {index}: {value} vs {}",
            expected.value
        );
        assert!(
            (raw_value - expected.raw_value).abs() < TOLERANCE,
            "raw value of node {index}"
        );
    }
    assert_eq!(tree.root().pending, 0);
}

/// The improved policy, the move and the value, recomputed in f64 from the recorded root:
/// completed Q with the mixed value, `sigma`, `softmax(logits + sigma)`, and the best of the
/// most visited actions by `logits + sigma` (the Gumbel noise is 0).
#[test]
fn gumbel_result_matches_the_recorded_root() {
    let mut search = BatchedSearch::new(mctx_config(), &[0]);
    search.set_root(0, Replay::new());
    search.run(&mut RecordedEvaluator);
    let result = search.result(0).unwrap();

    let nodes = recorded();
    let root = &nodes[0];
    let child = |a: usize| (root.children[a] != UNKNOWN).then(|| &nodes[root.children[a] as usize]);
    // Children's values are from their mover's view: negate for the root's.
    let q = |a: usize| child(a).map(|c| -c.value);
    let visits = |a: usize| child(a).map_or(0, |c| c.visits);
    let total: u32 = (0..NUM_ACTIONS).map(visits).sum();
    let max_visits = (0..NUM_ACTIONS).map(visits).max().unwrap();
    let visited_prior: f64 = (0..NUM_ACTIONS)
        .filter(|&a| visits(a) > 0)
        .map(|a| root.priors[a])
        .sum();
    let weighted: f64 = (0..NUM_ACTIONS)
        .filter_map(|a| q(a).map(|q| root.priors[a] * q))
        .sum();
    let mixed =
        (root.raw_value + f64::from(total) * weighted / visited_prior) / f64::from(total + 1);
    let sigma = |a: usize| (50.0 + f64::from(max_visits)) * 0.5 * q(a).unwrap_or(mixed);
    let scores: Vec<f64> = (0..NUM_ACTIONS)
        .map(|a| root.priors[a].ln() + sigma(a))
        .collect();
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = scores.iter().map(|s| (s - max).exp()).sum();

    assert_eq!(total, SIMULATIONS);
    for (a, score) in scores.iter().enumerate() {
        assert_eq!(result.visit_counts[a], visits(a));
        let expected = (score - max).exp() / sum;
        assert!(
            (f64::from(result.policy[a]) - expected).abs() < 1e-5,
            "policy of action {a}"
        );
    }
    let best = (0..NUM_ACTIONS)
        .filter(|&a| visits(a) == max_visits)
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
        .unwrap();
    assert_eq!(result.action as usize, best);
    let value: f64 = (0..NUM_ACTIONS)
        .map(|a| (scores[a] - max).exp() / sum * q(a).unwrap_or(mixed))
        .sum();
    assert!((f64::from(result.value) - value).abs() < 1e-4);
}

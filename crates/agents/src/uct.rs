//! The `uct` agent: Monte-Carlo tree search with random playouts and the UCB1 selection rule,
//! keeping the tree between moves (tree reuse).
//!
//! Spec: `uct:sims=N` (simulations per move, default 1000) or `uct:ms=M` (time per move),
//! `c=X` (exploration constant, default 1.4), `seed=S`.

use std::time::{Duration, Instant};

use oxo_rules::{Action, ActionList, Game, Player, PlayoutPolicy, playout};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::{Agent, AgentSpec, SpecError};

/// How deep below the old root tree reuse looks for the new position (our move, the
/// opponent's move, and bonus moves or extra turns in between).
const REUSE_DEPTH: usize = 4;

/// The most simulations a `uct:sims=N` move may have.
const MAX_SIMS: u32 = 100_000_000;

/// A node of the search tree. Its statistics are from the view of `mover`, the player who
/// made the move into it.
#[derive(Clone)]
struct Node<G> {
    state: G,
    action: Action,
    mover: Player,
    visits: u32,
    value_sum: f32,
    /// Children are stored contiguously: `first_child..first_child + child_count`.
    first_child: u32,
    child_count: u16,
    expanded: bool,
}

impl<G: Game> Node<G> {
    fn new(state: G, action: Action, mover: Player) -> Self {
        Node {
            state,
            action,
            mover,
            visits: 0,
            value_sum: 0.0,
            first_child: 0,
            child_count: 0,
            expanded: false,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..self.first_child as usize + self.child_count as usize
    }
}

/// UCT with random playouts (uniform, or tactical ones that take wins at once).
pub struct UctAgent<G> {
    sims: Option<u32>,
    playout: PlayoutPolicy,
    time: Option<Duration>,
    exploration: f32,
    rng: SmallRng,
    name: String,
    /// The tree, root at index 0 (empty before the first move).
    nodes: Vec<Node<G>>,
    simulations: u64,
    reused_visits: u32,
    path: Vec<usize>,
}

impl<G: Game> UctAgent<G> {
    /// Builds from a spec: `uct:sims=N` or `uct:ms=M`, `c=X`, `seed=S`, `playout=P`
    /// (`uniform`, the default, or `tactical`).
    pub fn from_spec(spec: &AgentSpec) -> Result<Self, SpecError> {
        spec.expect_params(&["sims", "ms", "c", "seed", "playout"])?;
        let time = spec.time_per_move()?;
        let sims = match (spec.params.get("sims"), time) {
            (Some(_), _) => Some(spec.bounded_param(
                "sims",
                0u32,
                1,
                MAX_SIMS,
                "simulations from 1 to 100000000",
            )?),
            (None, Some(_)) => None,
            (None, None) => Some(1000),
        };
        Ok(UctAgent {
            sims,
            playout: spec.param("playout", PlayoutPolicy::Uniform, "uniform or tactical")?,
            time,
            exploration: spec.bounded_param(
                "c",
                1.4f32,
                f32::MIN_POSITIVE,
                1e6,
                "a positive number up to 1000000",
            )?,
            rng: SmallRng::seed_from_u64(spec.param("seed", 0u64, "a whole number")?),
            name: spec.text.clone(),
            nodes: Vec::new(),
            simulations: 0,
            reused_visits: 0,
            path: Vec::new(),
        })
    }

    /// How many simulations of earlier moves the last search started from (tree reuse).
    pub fn reused_visits(&self) -> u32 {
        self.reused_visits
    }

    /// Makes the node holding `game` the root, keeping its subtree, or starts a new tree.
    fn set_root(&mut self, game: &G) {
        let found = self.find_descendant(game);
        match found {
            Some(0) => {}
            Some(index) => {
                let mut kept = Vec::with_capacity(self.nodes.len());
                self.copy_subtree(index, &mut kept);
                self.nodes = kept;
            }
            None => {
                self.nodes.clear();
                self.nodes
                    .push(Node::new(*game, Action::MAX, game.to_move().other()));
            }
        }
    }

    /// Breadth-first search of the tree's top levels for a node holding `game`.
    fn find_descendant(&self, game: &G) -> Option<usize> {
        if self.nodes.is_empty() {
            return None;
        }
        let mut level = vec![0usize];
        for _ in 0..=REUSE_DEPTH {
            if let Some(&hit) = level.iter().find(|&&i| self.nodes[i].state == *game) {
                return Some(hit);
            }
            level = level
                .iter()
                .flat_map(|&i| self.nodes[i].children())
                .collect();
        }
        None
    }

    /// Appends the subtree under `index` to `out`, root first, children contiguous.
    fn copy_subtree(&self, index: usize, out: &mut Vec<Node<G>>) {
        out.push(self.nodes[index].clone());
        let mut queue = vec![(index, 0usize)];
        while let Some((old, new)) = queue.pop() {
            let range = self.nodes[old].children();
            out[new].first_child = out.len() as u32;
            for child in range {
                queue.push((child, out.len()));
                out.push(self.nodes[child].clone());
            }
        }
    }

    /// One simulation: select down the tree by UCB1, expand a leaf, play out at random,
    /// back the result up.
    fn simulate(&mut self) {
        self.path.clear();
        let mut index = 0;
        self.path.push(index);
        while self.nodes[index].expanded && self.nodes[index].child_count > 0 {
            index = self.select_child(index);
            self.path.push(index);
        }
        let node = &self.nodes[index];
        if !node.expanded && !node.state.is_over() && node.visits > 0 {
            self.expand(index);
            index = self.select_child(index);
            self.path.push(index);
        }
        let (game, _) = playout(self.nodes[index].state, self.playout, &mut self.rng);
        let outcome = game.outcome().expect("playout ends the game");
        for &i in &self.path {
            let node = &mut self.nodes[i];
            node.visits += 1;
            node.value_sum += outcome.value_for(node.mover);
        }
        self.simulations += 1;
    }

    fn expand(&mut self, index: usize) {
        let state = self.nodes[index].state;
        let mover = state.to_move();
        let mut actions = ActionList::new();
        state.legal_actions(&mut actions);
        let first = self.nodes.len();
        for &action in &actions {
            let mut child = state;
            child.play(action);
            self.nodes.push(Node::new(child, action, mover));
        }
        let node = &mut self.nodes[index];
        node.first_child = first as u32;
        node.child_count = actions.len() as u16;
        node.expanded = true;
    }

    /// The child maximising UCB1 (unvisited children first, in order).
    fn select_child(&self, index: usize) -> usize {
        let parent = &self.nodes[index];
        let log_n = (parent.visits.max(1) as f32).ln();
        let mut best = parent.first_child as usize;
        let mut best_score = f32::NEG_INFINITY;
        for child in parent.children() {
            let node = &self.nodes[child];
            if node.visits == 0 {
                return child;
            }
            let n = node.visits as f32;
            let score = node.value_sum / n + self.exploration * (log_n / n).sqrt();
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }
}

impl<G: Game> Agent<G> for UctAgent<G> {
    fn choose(&mut self, game: &G) -> Action {
        self.set_root(game);
        self.reused_visits = self.nodes[0].visits;
        if !self.nodes[0].expanded {
            self.expand(0);
        }
        let deadline = self.time.map(|t| Instant::now() + t);
        let mut done = 0u32;
        loop {
            if self.sims.is_some_and(|s| done >= s) || deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
            self.simulate();
            done += 1;
        }
        let root = &self.nodes[0];
        let best = root
            .children()
            .max_by_key(|&c| (self.nodes[c].visits, std::cmp::Reverse(c)))
            .expect("a position that is not over has legal moves");
        self.nodes[best].action
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn nodes_searched(&self) -> u64 {
        self.simulations
    }
}

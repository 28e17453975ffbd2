//! One search tree in a preallocated arena: nodes, their edges, expansion and backup.
//!
//! Every value stored in the tree is from player `X`'s view; selection converts to the view of
//! the player to move with [`sign`]. This makes backup a plain sum up the parent chain, correct
//! whether or not players alternate.

use oxo_rules::{Action, ActionList, DrawValue, Game, Player};

/// Index of no node: an edge whose child has not been created, or the root's parent.
pub(crate) const NONE: u32 = u32::MAX;

/// The root is always node 0.
pub(crate) const ROOT: u32 = 0;

/// +1 for `X`, -1 for `O`: multiplying an `X`-view value gives `player`'s view (and back).
#[inline]
pub(crate) fn sign(player: Player) -> f32 {
    match player {
        Player::X => 1.0,
        Player::O => -1.0,
    }
}

/// Where a node is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeState {
    /// Created, not yet sent for evaluation.
    Fresh,
    /// Waiting in the current evaluation batch.
    Queued,
    /// Evaluated: its edges exist.
    Expanded,
    /// The game is over here; `raw_value` is the exact outcome.
    Terminal,
}

/// A position in the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<G> {
    pub game: G,
    pub parent: u32,
    pub first_edge: u32,
    pub num_edges: u16,
    pub state: NodeState,
    /// The player to move here (for a terminal node, the player who moved into it).
    pub to_move: Player,
    /// Completed visits: its own evaluation plus every backup through it.
    pub visits: u32,
    /// In-flight visits: selected, waiting for their leaf's evaluation.
    pub pending: u32,
    /// Sum of the backed-up values, `X`'s view.
    pub value_sum: f32,
    /// The evaluator's value (or the exact outcome of a terminal node), `X`'s view.
    pub raw_value: f32,
    /// The exact value, `X`'s view, once known: a finished game's outcome, or a position
    /// its children's exact values decide ([`Tree::prove_ancestors`]). A visit to an exact
    /// node backs this up.
    pub exact: Option<f32>,
}

/// A legal action of an expanded node.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub action: Action,
    pub child: u32,
    /// The prior probability of the action among the legal ones.
    pub prior: f32,
    /// `ln(prior)`: normalised logits, as Gumbel's scores and improved policy use them.
    pub log_prior: f32,
}

/// Visits, pending visits and value sum (`X`'s view) of an edge's child; zeros before it
/// exists.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ChildStats {
    pub visits: u32,
    pub pending: u32,
    pub value_sum: f32,
}

impl ChildStats {
    /// Completed plus in-flight visits: what selection counts.
    #[inline]
    pub fn total(&self) -> u32 {
        self.visits + self.pending
    }

    /// Mean backed-up value from the view whose sign is `s`, if visited.
    #[inline]
    pub fn q(&self, s: f32) -> Option<f32> {
        (self.visits > 0).then(|| s * self.value_sum / self.visits as f32)
    }
}

/// A tree: nodes and edges in arenas that keep their capacity across searches.
#[derive(Clone, Debug)]
pub(crate) struct Tree<G> {
    pub nodes: Vec<Node<G>>,
    pub edges: Vec<Edge>,
    /// What a finished game drawn is worth to each player, in the terminal nodes created
    /// from now on.
    pub draw: DrawValue,
}

impl<G: Game> Tree<G> {
    /// An empty tree with room for `nodes` nodes.
    pub fn with_capacity(nodes: usize) -> Self {
        Tree {
            nodes: Vec::with_capacity(nodes),
            edges: Vec::with_capacity(nodes * G::NUM_ACTIONS.min(16)),
            draw: DrawValue::NEUTRAL,
        }
    }

    /// Drops everything and makes `game` the root.
    pub fn reset(&mut self, game: G) {
        self.nodes.clear();
        self.edges.clear();
        self.push_node(game, NONE, game.to_move());
    }

    fn push_node(&mut self, game: G, parent: u32, mover: Player) -> u32 {
        let index = self.nodes.len() as u32;
        let (state, to_move, raw_value) = match game.outcome() {
            Some(outcome) => (
                NodeState::Terminal,
                mover,
                outcome.value_with_draw(Player::X, self.draw),
            ),
            None => (NodeState::Fresh, game.to_move(), 0.0),
        };
        self.nodes.push(Node {
            game,
            parent,
            first_edge: 0,
            num_edges: 0,
            state,
            to_move,
            visits: 0,
            pending: 0,
            value_sum: 0.0,
            raw_value,
            exact: (state == NodeState::Terminal).then_some(raw_value),
        });
        index
    }

    /// The root.
    #[inline]
    pub fn root(&self) -> &Node<G> {
        &self.nodes[ROOT as usize]
    }

    /// The edges of `node`.
    #[inline]
    pub fn edges(&self, node: u32) -> &[Edge] {
        let n = &self.nodes[node as usize];
        &self.edges[n.first_edge as usize..n.first_edge as usize + n.num_edges as usize]
    }

    /// The statistics of the child behind `edge`.
    #[inline]
    pub fn child_stats(&self, edge: &Edge) -> ChildStats {
        if edge.child == NONE {
            return ChildStats::default();
        }
        let c = &self.nodes[edge.child as usize];
        ChildStats {
            visits: c.visits,
            pending: c.pending,
            value_sum: c.value_sum,
        }
    }

    /// The child of `node` through its edge number `edge`, created on first use.
    pub fn child(&mut self, node: u32, edge: usize) -> u32 {
        let n = self.nodes[node as usize];
        let e = n.first_edge as usize + edge;
        if self.edges[e].child == NONE {
            let mut game = n.game;
            game.play(self.edges[e].action);
            self.edges[e].child = self.push_node(game, node, n.to_move);
        }
        self.edges[e].child
    }

    /// Gives `node` its edges: the legal actions with priors `softmax(logits)` over them,
    /// and records the evaluator's `value` (mover's view). `legal` is scratch space.
    pub fn expand(&mut self, node: u32, logits: &[f32], value: f32, legal: &mut ActionList) {
        let n = &self.nodes[node as usize];
        n.game.legal_actions(legal);
        debug_assert!(!legal.is_empty(), "expanding a finished position");
        let max = legal
            .iter()
            .map(|&a| logits[a as usize])
            .fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = legal
            .iter()
            .map(|&a| (logits[a as usize] - max).exp())
            .sum();
        let log_sum = sum.ln();
        let first_edge = self.edges.len() as u32;
        for &action in legal.iter() {
            let log_prior = logits[action as usize] - max - log_sum;
            self.edges.push(Edge {
                action,
                child: NONE,
                prior: log_prior.exp(),
                log_prior,
            });
        }
        let n = &mut self.nodes[node as usize];
        n.first_edge = first_edge;
        n.num_edges = legal.len() as u16;
        n.state = NodeState::Expanded;
        n.raw_value = sign(n.to_move) * value.clamp(-1.0, 1.0);
    }

    /// Adds one in-flight visit to `leaf` and its ancestors.
    pub fn add_pending(&mut self, leaf: u32) {
        let mut node = leaf;
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            n.pending += 1;
            node = n.parent;
        }
    }

    /// Backs the value of `leaf` (its exact value if known, else its `raw_value`) up to the
    /// root, completing one visit of every node on the way; `was_pending` says whether that
    /// visit was in flight.
    pub fn backup(&mut self, leaf: u32, was_pending: bool) {
        let leaf_node = &self.nodes[leaf as usize];
        let value = leaf_node.exact.unwrap_or(leaf_node.raw_value);
        let mut node = leaf;
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            n.value_sum += value;
            if was_pending {
                n.pending -= 1;
            }
            node = n.parent;
        }
    }

    /// MCTS-Solver's proof step, after `node` became exact: its parent, then each ancestor in
    /// turn, becomes exact if its children now decide it ([`Tree::decided_value`]); stops at
    /// the first that stays open or was already exact.
    pub fn prove_ancestors(&mut self, node: u32) {
        let mut node = self.nodes[node as usize].parent;
        while node != NONE && self.nodes[node as usize].exact.is_none() {
            let Some(value) = self.decided_value(node) else {
                return;
            };
            let n = &mut self.nodes[node as usize];
            n.exact = Some(value);
            node = n.parent;
        }
    }

    /// The exact value (`X`'s view) an expanded `node`'s children decide, if they do: a
    /// child won for the player to move decides it at once; otherwise every child must be
    /// exact, and the node is worth the best of them for its player to move.
    fn decided_value(&self, node: u32) -> Option<f32> {
        let s = sign(self.nodes[node as usize].to_move);
        let mut best = f32::NEG_INFINITY;
        let mut open = false;
        for edge in self.edges(node) {
            match self.child_exact(edge) {
                Some(value) if s * value >= 1.0 => return Some(value),
                Some(value) => best = best.max(s * value),
                None => open = true,
            }
        }
        (!open && best > f32::NEG_INFINITY).then_some(s * best)
    }

    /// The exact value of the child behind `edge`, `X`'s view, if known.
    #[inline]
    pub fn child_exact(&self, edge: &Edge) -> Option<f32> {
        match edge.child {
            NONE => None,
            child => self.nodes[child as usize].exact,
        }
    }

    /// Makes `new_root` the root, keeping only its subtree. The subtree is copied into
    /// `spare` (whose arenas are reused), which is then swapped in; `stack` is scratch space.
    pub fn reroot(&mut self, new_root: u32, spare: &mut Tree<G>, stack: &mut Vec<(u32, u32)>) {
        spare.nodes.clear();
        spare.edges.clear();
        let mut root = self.nodes[new_root as usize];
        root.parent = NONE;
        spare.nodes.push(root);
        stack.clear();
        stack.push((new_root, ROOT));
        while let Some((old, new)) = stack.pop() {
            let old_node = self.nodes[old as usize];
            let first_edge = spare.edges.len() as u32;
            for &edge in self.edges(old) {
                let mut edge = edge;
                if edge.child != NONE {
                    let mut child = self.nodes[edge.child as usize];
                    child.parent = new;
                    let index = spare.nodes.len() as u32;
                    spare.nodes.push(child);
                    stack.push((edge.child, index));
                    edge.child = index;
                }
                spare.edges.push(edge);
            }
            let new_node = &mut spare.nodes[new as usize];
            new_node.first_edge = first_edge;
            new_node.num_edges = old_node.num_edges;
        }
        spare.draw = self.draw;
        std::mem::swap(self, spare);
    }
}

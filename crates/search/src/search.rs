//! [`BatchedSearch`]: one tree per game, all trees' leaves evaluated together.

use oxo_rules::{Action, ActionList, DrawValue, Game};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::config::{Scheme, SearchConfig};
use crate::evaluator::Evaluator;
use crate::tree::{Edge, NodeState, ROOT, Tree, sign};
use crate::{gumbel, puct};

/// What one search concluded about its root position.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Completed visits of each action (indexed by action, `G::NUM_ACTIONS` long; 0 for
    /// illegal actions). They sum to the simulation budget, or less where the search ended
    /// early (a time limit, a proven root).
    pub visit_counts: Vec<u32>,
    /// The policy training target, indexed by action: the improved policy
    /// `softmax(logits + sigma(completed Q))` for Gumbel, the visit distribution for PUCT.
    pub policy: Vec<f32>,
    /// The search's value of the root in `[-1, 1]`, from the view of its player to move. PUCT:
    /// the mean of all backed-up values (its visits concentrate on the best moves). Gumbel:
    /// the improved policy's expected completed Q, `sum_a policy(a) * completed_q(a)`, because
    /// sequential halving forces visits on weaker moves that would drag a plain mean down
    /// (mctx's tree summary reports that mean).
    pub value: f32,
    /// The move to play.
    pub action: Action,
    /// Whether the solver proved the root ([`SearchConfig::solve`]): `value` is then the
    /// position's exact value (+1 won, -1 lost, a draw's value) and `action` keeps it.
    pub proven: bool,
}

/// One game's tree with the per-search state around it.
struct Slot<G> {
    tree: Tree<G>,
    /// Arenas that tree reuse copies the kept subtree into, then swaps.
    spare: Tree<G>,
    reroot_stack: Vec<(u32, u32)>,
    rng: SmallRng,
    /// Whether the slot holds a position to search.
    active: bool,
    /// Whether `result` belongs to the current root.
    has_result: bool,
    temperature: f32,
    /// PUCT: the root priors with Dirichlet noise, one per root edge.
    root_priors: Vec<f32>,
    /// Gumbel: the root's Gumbel noise, one per root edge.
    gumbel: Vec<f32>,
    /// Gumbel: the sequential-halving schedule of considered visit counts.
    schedule: Vec<u32>,
    result: SearchResult,
}

/// The leaves waiting for one evaluation call, and the buffers it writes.
struct Batch<G> {
    positions: Vec<G>,
    /// `(slot, node)` of each position.
    leaves: Vec<(u32, u32)>,
    logits: Vec<f32>,
    values: Vec<f32>,
}

impl<G: Game> Batch<G> {
    fn queue(&mut self, slot: usize, tree: &mut Tree<G>, node: u32) {
        tree.nodes[node as usize].state = NodeState::Queued;
        tree.add_pending(node);
        self.positions.push(tree.nodes[node as usize].game);
        self.leaves.push((slot as u32, node));
    }
}

/// Searches many games at once: one tree per game, and each round one [`Evaluator`] call
/// for the new leaves of every tree.
///
/// Typical self-play use: [`set_root`](Self::set_root) each game, then repeatedly
/// [`run`](Self::run), read each game's [`result`](Self::result), and
/// [`advance`](Self::advance) it by the move played. Each game has its own random generator
/// seeded at construction, so its results depend only on its seed, its positions and the
/// evaluator, not on the other games in the batch.
pub struct BatchedSearch<G: Game> {
    config: SearchConfig,
    slots: Vec<Slot<G>>,
    batch: Batch<G>,
    scratch: Vec<f32>,
    noise: Vec<f32>,
    legal: ActionList,
    /// Whether this search's roots have their noise and schedule (after their evaluation).
    roots_prepared: bool,
}

impl<G: Game> BatchedSearch<G> {
    /// One (empty) game slot per seed, searching with `config`.
    ///
    /// Panics on a configuration that cannot run: `leaves_per_tree` of 0, or Dirichlet noise
    /// with a non-positive alpha.
    pub fn new(config: SearchConfig, seeds: &[u64]) -> Self {
        assert!(
            config.leaves_per_tree >= 1,
            "leaves_per_tree must be at least 1"
        );
        let temperature = match config.scheme {
            Scheme::Puct(puct) => {
                assert!(
                    puct.dirichlet_fraction <= 0.0 || puct.dirichlet_alpha > 0.0,
                    "dirichlet_alpha must be positive"
                );
                puct.temperature
            }
            Scheme::Gumbel(_) => 1.0,
        };
        // A tree never holds more nodes than its root has visits: the budget plus the root.
        let nodes = config.simulations as usize + 1;
        let spare_nodes = if reuses_tree(&config) { nodes } else { 0 };
        let slots = seeds
            .iter()
            .map(|&seed| Slot {
                tree: Tree::with_capacity(nodes),
                spare: Tree::with_capacity(spare_nodes),
                reroot_stack: Vec::with_capacity(spare_nodes),
                rng: SmallRng::seed_from_u64(seed),
                active: false,
                has_result: false,
                temperature,
                root_priors: Vec::with_capacity(G::NUM_ACTIONS),
                gumbel: Vec::with_capacity(G::NUM_ACTIONS),
                schedule: Vec::with_capacity(config.simulations as usize),
                result: SearchResult {
                    visit_counts: vec![0; G::NUM_ACTIONS],
                    policy: vec![0.0; G::NUM_ACTIONS],
                    value: 0.0,
                    action: 0,
                    proven: false,
                },
            })
            .collect();
        let leaves = seeds.len() * config.leaves_per_tree as usize;
        BatchedSearch {
            config,
            slots,
            batch: Batch {
                positions: Vec::with_capacity(leaves),
                leaves: Vec::with_capacity(leaves),
                logits: Vec::with_capacity(leaves * G::NUM_ACTIONS),
                values: Vec::with_capacity(leaves),
            },
            scratch: Vec::with_capacity(G::NUM_ACTIONS),
            noise: Vec::with_capacity(G::NUM_ACTIONS),
            legal: ActionList::new(),
            roots_prepared: false,
        }
    }

    /// The configuration searches run with.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The number of game slots.
    pub fn num_games(&self) -> usize {
        self.slots.len()
    }

    /// Starts game `game` afresh at `position` (which must not be over), dropping its tree.
    pub fn set_root(&mut self, game: usize, position: G) {
        assert!(!position.is_over(), "cannot search a finished position");
        let slot = &mut self.slots[game];
        slot.tree.reset(position);
        slot.active = true;
        slot.has_result = false;
    }

    /// Sets what a draw is worth in game `game` ([`DrawValue::NEUTRAL`] until set): its
    /// finished positions drawn are valued so from now on, in new trees and in the one kept
    /// by [`advance`](Self::advance). Values already in the tree stay as they are, so an
    /// agent sets it before its first search of a game, or with a new root.
    pub fn set_draw_value(&mut self, game: usize, draw: DrawValue) {
        let slot = &mut self.slots[game];
        slot.tree.draw = draw;
        slot.spare.draw = draw;
    }

    /// Empties slot `game`: [`run`](Self::run) skips it until the next
    /// [`set_root`](Self::set_root).
    pub fn clear(&mut self, game: usize) {
        let slot = &mut self.slots[game];
        slot.active = false;
        slot.has_result = false;
    }

    /// The position game `game` searches from, if the slot is in use.
    pub fn root(&self, game: usize) -> Option<&G> {
        let slot = &self.slots[game];
        slot.active.then(|| &slot.tree.root().game)
    }

    /// Sets game `game`'s move temperature. PUCT draws its move at it (see
    /// [`PuctConfig::temperature`]); Gumbel multiplies its root noise by it (1 until set:
    /// [`GumbelConfig::gumbel_scale`] as configured). At 0 either picks its best move.
    /// Self-play typically uses 1 for the opening moves and 0 afterwards, so that the games,
    /// whose results the value learns, are not decided by exploration noise.
    ///
    /// [`PuctConfig::temperature`]: crate::PuctConfig::temperature
    /// [`GumbelConfig::gumbel_scale`]: crate::GumbelConfig::gumbel_scale
    pub fn set_temperature(&mut self, game: usize, temperature: f32) {
        self.slots[game].temperature = temperature;
    }

    /// Plays `action` (which must be legal) in game `game`. If the game is then over, the slot
    /// is emptied. Otherwise, with PUCT and [`SearchConfig::reuse_tree`], the subtree of the
    /// move is kept and its visits count toward the next search; Gumbel always starts a fresh
    /// tree, as sequential halving needs a root without visits.
    pub fn advance(&mut self, game: usize, action: Action) {
        let reuse = reuses_tree(&self.config);
        let slot = &mut self.slots[game];
        assert!(slot.active, "advance on an empty slot");
        let mut position = slot.tree.root().game;
        assert!(position.is_legal(action), "illegal action {action}");
        position.play(action);
        slot.has_result = false;
        if position.is_over() {
            slot.active = false;
            return;
        }
        let kept = match slot.tree.root().state {
            NodeState::Expanded if reuse => slot
                .tree
                .edges(ROOT)
                .iter()
                .find(|e| e.action == action)
                .map(|e| e.child)
                .filter(|&c| {
                    slot.tree.nodes.get(c as usize).map(|n| n.state) == Some(NodeState::Expanded)
                }),
            _ => None,
        };
        match kept {
            Some(child) => slot
                .tree
                .reroot(child, &mut slot.spare, &mut slot.reroot_stack),
            None => slot.tree.reset(position),
        }
    }

    /// The result of the last [`run`](Self::run) for game `game`, unless its root changed since.
    pub fn result(&self, game: usize) -> Option<&SearchResult> {
        let slot = &self.slots[game];
        slot.has_result.then_some(&slot.result)
    }

    /// Searches every game in use up to the simulation budget, then fills in their results.
    ///
    /// Each round every unfinished tree selects up to [`SearchConfig::leaves_per_tree`]
    /// leaves; all of them go to one `evaluator` call and are then expanded and backed up.
    /// Visits to finished positions are backed up at once with their exact outcome.
    pub fn run<E: Evaluator<G> + ?Sized>(&mut self, evaluator: &mut E) {
        self.run_until(evaluator, &mut || false);
    }

    /// [`run`](Self::run), ending early once `stop` answers true: it is asked after each
    /// evaluation round, so every tree has at least its root evaluated, and the results
    /// describe the simulations done so far. This is how a search keeps to a time budget
    /// (the caller's clock: the search itself reads none, so it also runs where there is
    /// none, as in WebAssembly). PUCT's result is then its usual one over fewer visits;
    /// Gumbel's sequential halving is cut short, so give Gumbel a budget that fits the time.
    ///
    /// This is the stepwise search ([`begin`](Self::begin), [`pending`](Self::pending),
    /// [`supply`](Self::supply)) with the evaluator called in the loop.
    pub fn run_until<E: Evaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        stop: &mut dyn FnMut() -> bool,
    ) {
        self.begin();
        while !self.batch.positions.is_empty() {
            let batch = &mut self.batch;
            let len = batch.positions.len();
            batch.logits.clear();
            batch.logits.resize(len * G::NUM_ACTIONS, 0.0);
            batch.values.clear();
            batch.values.resize(len, 0.0);
            evaluator.evaluate(&batch.positions, &mut batch.logits, &mut batch.values);
            // The roots' own evaluation always completes: stop is asked only after a round of
            // simulations.
            let stop_now = self.roots_prepared && stop();
            self.absorb(stop_now);
        }
    }

    /// Starts a stepwise search of every game in use: queues the roots that need the
    /// evaluator. Then, while [`pending`](Self::pending) is not empty, evaluate those
    /// positions (as [`Evaluator::evaluate`] would) and hand the answers to
    /// [`supply`](Self::supply); once it is empty every game has its [`result`](Self::result).
    ///
    /// This is the search for callers that cannot be called back, such as a web page whose
    /// network answers asynchronously; [`run`](Self::run) is the same loop.
    pub fn begin(&mut self) {
        self.batch.positions.clear();
        self.batch.leaves.clear();
        self.roots_prepared = false;
        for (index, slot) in self.slots.iter_mut().enumerate() {
            slot.has_result = false;
            if slot.active && slot.tree.root().state == NodeState::Fresh {
                self.batch.queue(index, &mut slot.tree, ROOT);
            }
        }
        if self.batch.positions.is_empty() {
            self.absorb(false);
        }
    }

    /// The positions waiting for an evaluation, in the order [`supply`](Self::supply) takes
    /// their answers; empty when the search is over.
    pub fn pending(&self) -> &[G] {
        &self.batch.positions
    }

    /// Takes the evaluation of [`pending`](Self::pending): `G::NUM_ACTIONS` policy logits
    /// and one value per position, laid out as [`Evaluator::evaluate`] writes them; expands
    /// and backs them up, then queues the next round's leaves. With `stop` the search ends
    /// here (as [`run_until`](Self::run_until)'s `stop`; it is ignored while only the roots
    /// have been evaluated, so that every game has a result).
    ///
    /// # Panics
    ///
    /// If the slices' lengths do not match the pending positions.
    pub fn supply(&mut self, policy_logits: &[f32], values: &[f32], stop: bool) {
        let len = self.batch.positions.len();
        assert_eq!(policy_logits.len(), len * G::NUM_ACTIONS, "policy logits");
        assert_eq!(values.len(), len, "values");
        self.batch.logits.clear();
        self.batch.logits.extend_from_slice(policy_logits);
        self.batch.values.clear();
        self.batch.values.extend_from_slice(values);
        self.absorb(stop);
    }

    /// Expands and backs up the evaluated batch (in `batch.logits` and `batch.values`), then,
    /// unless `stop`, selects the next round's leaves; where none is left, or on `stop`,
    /// fills in every game's result. The roots' own round ignores `stop`: they are prepared
    /// and searched on, so that every game has a result.
    fn absorb(&mut self, stop: bool) {
        let batch = &mut self.batch;
        let actions = G::NUM_ACTIONS;
        for (i, &(slot, node)) in batch.leaves.iter().enumerate() {
            let tree = &mut self.slots[slot as usize].tree;
            let logits = &batch.logits[i * actions..(i + 1) * actions];
            tree.expand(node, logits, batch.values[i], &mut self.legal);
            tree.backup(node, true);
        }
        batch.positions.clear();
        batch.leaves.clear();
        if !self.roots_prepared {
            for slot in self.slots.iter_mut().filter(|s| s.active) {
                prepare_root(&self.config, slot, &mut self.noise);
            }
            self.roots_prepared = true;
        } else if stop {
            self.finish_all();
            return;
        }
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if slot.active {
                select_leaves(
                    &self.config,
                    index,
                    slot,
                    &mut self.batch,
                    &mut self.scratch,
                );
            }
        }
        if self.batch.positions.is_empty() {
            self.finish_all();
        }
    }

    /// Fills in the result of every game in use from its tree.
    fn finish_all(&mut self) {
        for slot in self.slots.iter_mut().filter(|s| s.active) {
            finish(&self.config, slot, &mut self.scratch);
        }
    }

    /// Game `game`'s tree, for tests that inspect it.
    #[cfg(test)]
    pub(crate) fn tree(&self, game: usize) -> &Tree<G> {
        &self.slots[game].tree
    }
}

/// Whether `advance` keeps subtrees: asked for, and PUCT.
fn reuses_tree(config: &SearchConfig) -> bool {
    config.reuse_tree && matches!(config.scheme, Scheme::Puct(_))
}

/// Sets up a root before its simulations: Dirichlet noise for PUCT; Gumbel noise and the
/// sequential-halving schedule for Gumbel.
fn prepare_root<G: Game>(config: &SearchConfig, slot: &mut Slot<G>, noise: &mut Vec<f32>) {
    match &config.scheme {
        Scheme::Puct(puct) => {
            puct::noisy_root_priors(
                &slot.tree,
                puct,
                &mut slot.rng,
                &mut slot.root_priors,
                noise,
            );
        }
        Scheme::Gumbel(gumbel) => {
            let num_edges = slot.tree.root().num_edges as usize;
            let scale = gumbel.gumbel_scale * slot.temperature;
            gumbel::sample_gumbel(&mut slot.rng, scale, num_edges, &mut slot.gumbel);
            let considered = gumbel.max_considered_actions.min(num_edges as u32);
            gumbel::considered_visits(considered, config.simulations, &mut slot.schedule);
        }
    }
}

/// Runs the selection phase of one round in one tree: descends from the root until a
/// leaf, up to `leaves_per_tree` times, queueing new leaves and backing up finished
/// positions at once. Stops early when the budget is reached or a descent runs into a leaf
/// already queued this round.
fn select_leaves<G: Game>(
    config: &SearchConfig,
    index: usize,
    slot: &mut Slot<G>,
    batch: &mut Batch<G>,
    scratch: &mut Vec<f32>,
) {
    let tree = &mut slot.tree;
    let mut queued = 0;
    while queued < config.leaves_per_tree {
        let root = tree.root();
        // Every completed or in-flight simulation is one root visit beyond its own evaluation.
        if root.visits - 1 + root.pending >= config.simulations
            || (config.solve && root.exact.is_some())
        {
            return;
        }
        let mut node = ROOT;
        loop {
            match tree.nodes[node as usize].state {
                // A proven position is searched no further: its visit backs up its exact value.
                NodeState::Expanded
                    if config.solve
                        && node != ROOT
                        && tree.nodes[node as usize].exact.is_some() =>
                {
                    tree.backup(node, false);
                    break;
                }
                NodeState::Expanded => {
                    let edge = match &config.scheme {
                        Scheme::Puct(puct) => {
                            let priors = (node == ROOT).then_some(&slot.root_priors[..]);
                            puct::select(tree, node, priors, puct, config.solve)
                        }
                        Scheme::Gumbel(gumbel) if node == ROOT => {
                            gumbel::select_root(tree, &slot.gumbel, &slot.schedule, gumbel, scratch)
                        }
                        Scheme::Gumbel(gumbel) => {
                            gumbel::select_interior(tree, node, gumbel, scratch)
                        }
                    };
                    node = tree.child(node, edge);
                    let child = &tree.nodes[node as usize];
                    if config.solve && child.state == NodeState::Terminal && child.visits == 0 {
                        tree.prove_ancestors(node);
                    }
                }
                NodeState::Terminal => {
                    tree.backup(node, false);
                    break;
                }
                NodeState::Fresh => {
                    batch.queue(index, tree, node);
                    queued += 1;
                    break;
                }
                NodeState::Queued => return,
            }
        }
    }
}

/// Fills in a slot's result from its searched tree.
fn finish<G: Game>(config: &SearchConfig, slot: &mut Slot<G>, scratch: &mut Vec<f32>) {
    let tree = &slot.tree;
    let root = tree.root();
    let result = &mut slot.result;
    result.visit_counts.fill(0);
    for edge in tree.edges(ROOT) {
        result.visit_counts[edge.action as usize] = tree.child_stats(edge).visits;
    }
    match &config.scheme {
        Scheme::Puct(_) => {
            let total: u32 = result.visit_counts.iter().sum();
            result.policy.fill(0.0);
            for edge in tree.edges(ROOT) {
                let visits = result.visit_counts[edge.action as usize];
                result.policy[edge.action as usize] = if total > 0 {
                    visits as f32 / total as f32
                } else {
                    edge.prior
                };
            }
            result.value = sign(root.to_move) * root.value_sum / root.visits as f32;
            result.action =
                puct::choose_action(tree, slot.temperature, config.solve, &mut slot.rng);
        }
        Scheme::Gumbel(gumbel) => {
            gumbel::root_policy(tree, gumbel, scratch, &mut result.policy);
            result.value = gumbel::root_value(tree, &result.policy, scratch);
            let best = gumbel::choose_action(tree, &slot.gumbel, gumbel, scratch);
            result.action = tree.edges(ROOT)[best].action;
        }
    }
    result.proven = false;
    if let (true, Some(exact)) = (config.solve, root.exact) {
        result.value = sign(root.to_move) * exact;
        result.action = tree.edges(ROOT)[proven_move(tree, exact)].action;
        result.proven = true;
    }
    slot.has_result = true;
}

/// The root edge that keeps the root's proven value `exact` (`X`'s view): among the children
/// worth it, for a win one that ends the game at once if there is one, then the most visited
/// (for a loss, the defence the search found hardest to refute).
fn proven_move<G: Game>(tree: &Tree<G>, exact: f32) -> usize {
    let won = sign(tree.root().to_move) * exact >= 1.0;
    let edges = tree.edges(ROOT);
    let key = |edge: &Edge| {
        let finishes = tree.nodes[edge.child as usize].state == NodeState::Terminal;
        (won && finishes, tree.child_stats(edge).visits)
    };
    (0..edges.len())
        .filter(|&i| tree.child_exact(&edges[i]) == Some(exact))
        .max_by_key(|&i| key(&edges[i]))
        .expect("a proven root has a child worth its value")
}

#[cfg(test)]
mod tests {
    use oxo_rules::Player;
    use oxo_variants::tictactoe::TicTacToe;

    use super::*;
    use crate::UniformEvaluator;
    use crate::tree::NONE;

    /// Checks what every searched tree must satisfy: parent links match edges, each expanded
    /// node's visits and value sum are its own evaluation plus its children's, terminal nodes
    /// hold only their outcome, and nothing is left in flight.
    fn check_invariants<G: Game>(tree: &Tree<G>) {
        for (i, node) in tree.nodes.iter().enumerate() {
            assert_eq!(node.pending, 0);
            if i == ROOT as usize {
                assert_eq!(node.parent, NONE);
            } else {
                assert!(tree.edges(node.parent).iter().any(|e| e.child == i as u32));
            }
            match node.state {
                NodeState::Expanded => {
                    let edges = tree.edges(i as u32);
                    let visits: u32 = edges.iter().map(|e| tree.child_stats(e).visits).sum();
                    let sum: f32 = edges.iter().map(|e| tree.child_stats(e).value_sum).sum();
                    assert_eq!(node.visits, 1 + visits);
                    assert!((node.value_sum - node.raw_value - sum).abs() < 1e-3);
                }
                NodeState::Terminal => {
                    assert!(node.visits >= 1);
                    assert_eq!(node.value_sum, node.visits as f32 * node.raw_value);
                }
                state => panic!("node {i} left {state:?}"),
            }
        }
    }

    fn capacities<G: Game>(search: &BatchedSearch<G>) -> Vec<usize> {
        let mut out = vec![
            search.batch.positions.capacity(),
            search.batch.leaves.capacity(),
            search.batch.logits.capacity(),
            search.batch.values.capacity(),
            search.scratch.capacity(),
            search.noise.capacity(),
        ];
        for slot in &search.slots {
            out.extend([
                slot.tree.nodes.capacity(),
                slot.tree.edges.capacity(),
                slot.spare.nodes.capacity(),
                slot.spare.edges.capacity(),
                slot.root_priors.capacity(),
                slot.gumbel.capacity(),
                slot.schedule.capacity(),
            ]);
        }
        out
    }

    /// Gumbel at temperature 0 (no root noise) is deterministic: eight differently seeded
    /// games pick the same move and target; at 1 (scale 1) they do not all agree.
    #[test]
    fn gumbel_at_temperature_zero_drops_its_noise() {
        let seeds: Vec<u64> = (1..=8).collect();
        let actions = |temperature: f32| {
            let mut search = BatchedSearch::<TicTacToe>::new(SearchConfig::gumbel(32), &seeds);
            for game in 0..seeds.len() {
                search.set_root(game, TicTacToe::new());
                search.set_temperature(game, temperature);
            }
            search.run(&mut UniformEvaluator);
            (0..seeds.len())
                .map(|game| search.result(game).unwrap().clone())
                .collect::<Vec<_>>()
        };
        let quiet = actions(0.0);
        assert!(quiet.iter().all(|r| r.action == quiet[0].action));
        assert!(quiet.iter().all(|r| r.policy == quiet[0].policy));
        let noisy = actions(1.0);
        assert!(noisy.iter().any(|r| r.action != noisy[0].action));
    }

    /// `run_until` stops after the round in which `stop` first answers true: the result
    /// counts the simulations done by then, with nothing left in flight, and the same search
    /// then runs a full budget again.
    #[test]
    fn run_until_stops_when_asked() {
        for config in [SearchConfig::puct(500), SearchConfig::gumbel(500)] {
            let mut search = BatchedSearch::<TicTacToe>::new(config, &[1]);
            search.set_root(0, TicTacToe::new());
            let mut rounds = 0;
            search.run_until(&mut UniformEvaluator, &mut || {
                rounds += 1;
                rounds == 10
            });
            let visits: u32 = search.result(0).unwrap().visit_counts.iter().sum();
            assert_eq!(visits, 10, "{config:?}: one simulation a round");
            assert_eq!(search.tree(0).root().pending, 0);
            assert!(TicTacToe::new().is_legal(search.result(0).unwrap().action));
            search.set_root(0, TicTacToe::new());
            search.run(&mut UniformEvaluator);
            let visits: u32 = search.result(0).unwrap().visit_counts.iter().sum();
            assert_eq!(visits, 500, "{config:?}");
        }
    }

    /// A finished game drawn is worth what the slot's draw value says, to its side and the
    /// opposite to the other, in the tree searched and in the subtree kept for the next
    /// move; neutral, 0. X to move in `X O X / X O O / O X _` fills the last cell and draws.
    #[test]
    fn a_draw_is_valued_as_the_slot_says() {
        let mut last_cell = TicTacToe::new();
        for cell in [0, 1, 2, 4, 3, 5, 7, 6] {
            last_cell.play(cell);
        }
        let root_value = |draw: DrawValue| {
            let mut search = BatchedSearch::<TicTacToe>::new(SearchConfig::puct(8), &[1]);
            search.set_draw_value(0, draw);
            search.set_root(0, last_cell);
            search.run(&mut UniformEvaluator);
            search.result(0).unwrap().value
        };
        // The root's value is the mean of its own evaluation (0) and its visits to the draw.
        let contempt = |side| DrawValue { side, value: -0.5 };
        let near_half = |value: f32| (0.4..=0.5).contains(&value);
        assert_eq!(root_value(DrawValue::NEUTRAL), 0.0);
        assert!(near_half(-root_value(contempt(Player::X))));
        assert_eq!(
            root_value(contempt(Player::O)),
            -root_value(contempt(Player::X))
        );

        // Kept across moves: X's draw value set before the game, two moves played; the
        // tree kept, and the nodes added to it, value the draw as X does.
        let mut search = BatchedSearch::<TicTacToe>::new(SearchConfig::puct(64), &[1]);
        search.set_draw_value(0, contempt(Player::X));
        let mut before = TicTacToe::new();
        for cell in [0, 1, 2, 4, 3, 5] {
            before.play(cell);
        }
        search.set_root(0, before);
        search.run(&mut UniformEvaluator);
        search.advance(0, 7);
        search.advance(0, 6);
        search.run(&mut UniformEvaluator);
        assert!(near_half(-search.result(0).unwrap().value));
    }

    /// A deterministic evaluator whose answers depend on the position: a policy and value
    /// from its legal moves, so different leaves get different numbers.
    struct ShapedEvaluator;

    impl Evaluator<TicTacToe> for ShapedEvaluator {
        fn evaluate(&mut self, positions: &[TicTacToe], logits: &mut [f32], values: &mut [f32]) {
            let actions = TicTacToe::NUM_ACTIONS;
            for (i, position) in positions.iter().enumerate() {
                let mut legal = ActionList::new();
                position.legal_actions(&mut legal);
                let key = legal.iter().fold(7u32, |k, &a| {
                    k.wrapping_mul(31).wrapping_add(u32::from(a) + 1)
                });
                for (a, logit) in logits[i * actions..(i + 1) * actions]
                    .iter_mut()
                    .enumerate()
                {
                    *logit = ((key as usize + a * 13) % 17) as f32 / 8.0;
                }
                values[i] = (key % 19) as f32 / 9.5 - 1.0;
            }
        }
    }

    /// The stepwise search (begin, pending, supply) is `run` and `run_until`: driven by hand
    /// with the same evaluator it reaches the same results, stopping included, for both
    /// schemes and several games with several leaves each.
    #[test]
    fn stepwise_search_matches_run() {
        let seeds = [3, 5, 8];
        let configs = [
            SearchConfig {
                leaves_per_tree: 2,
                ..SearchConfig::puct(60)
            },
            SearchConfig::gumbel(60),
        ];
        for config in configs {
            for stop_after in [None, Some(4)] {
                let new_search = || {
                    let mut search = BatchedSearch::<TicTacToe>::new(config, &seeds);
                    for game in 0..seeds.len() {
                        search.set_root(game, TicTacToe::new());
                    }
                    search
                };
                let mut looped = new_search();
                let mut rounds = 0;
                looped.run_until(&mut ShapedEvaluator, &mut || {
                    rounds += 1;
                    Some(rounds) == stop_after
                });
                let mut stepped = new_search();
                stepped.begin();
                let mut rounds = 0;
                let mut first = true;
                while !stepped.pending().is_empty() {
                    let positions = stepped.pending().to_vec();
                    let mut logits = vec![0.0; positions.len() * TicTacToe::NUM_ACTIONS];
                    let mut values = vec![0.0; positions.len()];
                    ShapedEvaluator.evaluate(&positions, &mut logits, &mut values);
                    if !first {
                        rounds += 1;
                    }
                    first = false;
                    stepped.supply(&logits, &values, Some(rounds) == stop_after);
                }
                for game in 0..seeds.len() {
                    assert_eq!(looped.result(game), stepped.result(game), "{config:?}");
                    check_invariants(stepped.tree(game));
                }
                if stop_after.is_some() {
                    let visits: u32 = stepped.result(0).unwrap().visit_counts.iter().sum();
                    assert!(visits < 60, "{config:?}: stopped early");
                }
            }
        }
    }

    /// Whole games with several leaves per tree, with PUCT's tree reuse and with Gumbel: the
    /// trees stay consistent through every search and reroot, and no buffer ever grows (for
    /// tictactoe the preallocated arenas already fit the worst case).
    #[test]
    fn trees_stay_consistent_and_buffers_do_not_grow() {
        let puct = SearchConfig {
            leaves_per_tree: 2,
            ..SearchConfig::puct(100)
        };
        let gumbel = SearchConfig {
            leaves_per_tree: 2,
            ..SearchConfig::gumbel(100)
        };
        for config in [puct, gumbel] {
            let mut search = BatchedSearch::<TicTacToe>::new(config, &[1, 2, 3, 4]);
            let before = capacities(&search);
            for _ in 0..3 {
                for game in 0..4 {
                    search.set_root(game, TicTacToe::new());
                }
                while (0..4).any(|g| search.root(g).is_some()) {
                    search.run(&mut UniformEvaluator);
                    for game in 0..4 {
                        if search.root(game).is_none() {
                            continue;
                        }
                        check_invariants(search.tree(game));
                        let action = search.result(game).unwrap().action;
                        search.advance(game, action);
                        // A kept subtree (PUCT) must be consistent; a new root is just fresh.
                        if search.root(game).is_some() {
                            let tree = search.tree(game);
                            let reused = tree.root().state == NodeState::Expanded;
                            assert_eq!(reused, matches!(config.scheme, Scheme::Puct(_)));
                            if reused {
                                check_invariants(tree);
                            }
                        }
                    }
                }
            }
            assert_eq!(capacities(&search), before, "{config:?}");
        }
    }
}

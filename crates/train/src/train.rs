//! Training: a replay window of the most recent positions, uniform batches of its
//! full-search positions, each under a random symmetry of the variant.
//!
//! The window grows with the data, as KataGo's does: `window = min(max_window,
//! max(min_window, window_factor * total_positions^window_exponent))` positions, counted
//! over all moves (fast-search ones included, as the window's age), newest games first.

use oxo_nn::{Batch, Encode, Net, Trainer, WDL, expected_value, wdl_probabilities};
use oxo_rules::{Action, Game, Player};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::config::{CellTarget, RunConfig, TrainSection};
use crate::records::GenerationRecords;
use crate::selfplay::mix;

/// One training example: a full-search position with its targets.
#[derive(Clone, Debug)]
pub struct Sample<G> {
    /// The position.
    pub position: G,
    /// The improved policy over its legal actions.
    pub policy: Vec<(Action, f32)>,
    /// The game's result from the mover's view: +1 win, 0 draw, -1 loss.
    pub outcome: f32,
    /// The value target, win/draw/loss probabilities from the mover's view: the result,
    /// mixed with the search's root value by `train.value_search_weight`.
    pub wdl: [f32; WDL],
    /// The final score margin from the mover's view, scaled and clipped to [-1, 1].
    pub score: f32,
    /// The cell head's target for every cell (`train.cell_target`), from the mover's view:
    /// its owner at the end of the game (+1 mover, -1 opponent, 0 nobody) or the points
    /// still to be scored there (scaled, clipped to [-1, 1]), for nets with a cell head
    /// (`net.ownership_head`); empty otherwise.
    pub cells: Vec<f32>,
}

/// The replay window's size for `total` positions played.
pub fn window_size(config: &RunConfig, total: u64) -> usize {
    let t = &config.train;
    let grown = t.window_factor * (total as f64).powf(t.window_exponent);
    (grown as usize).clamp(t.min_window, t.max_window)
}

/// The replay window as it is gathered, newest games first.
pub struct WindowSamples<G> {
    /// The full-search samples so far.
    pub samples: Vec<Sample<G>>,
    /// Positions (moves) of the games so far, fast-search ones included.
    pub positions: usize,
    window: usize,
}

impl<G: Game> WindowSamples<G> {
    /// An empty window of `window` positions.
    pub fn new(window: usize) -> Self {
        WindowSamples {
            samples: Vec::new(),
            positions: 0,
            window,
        }
    }

    /// Whether the window holds its `window` positions.
    pub fn is_full(&self) -> bool {
        self.positions >= self.window
    }

    /// Adds the samples of `records`' games, newest (last) first, until the window is full.
    pub fn add(&mut self, config: &RunConfig, records: &GenerationRecords) {
        let search_weight = config.train.value_search_weight;
        let score_search_weight = config.train.score_search_weight;
        let cell_target = config
            .net
            .ownership_head
            .then_some(config.train.cell_target);
        for record in records.games.iter().rev() {
            if self.is_full() {
                break;
            }
            self.positions += record.actions.len();
            let outcome = record.outcome();
            let (before, end) = record.replay::<G>();
            let outright = end.won_outright();
            let moves = match cell_target {
                Some(CellTarget::Points) => move_points(&before, &record.actions, &end),
                _ => Vec::new(),
            };
            for (ply, (position, target)) in before.iter().zip(&record.targets).enumerate() {
                if !target.full {
                    continue;
                }
                let mover = position.to_move();
                let outcome = outcome.value_for(mover);
                let result = score_target(&config.train, record.scores, outright, mover, outcome);
                let score = mix_search(result, target.value, score_search_weight);
                let cells = match cell_target {
                    None => Vec::new(),
                    Some(CellTarget::Owner) => ownership_target(&end, mover),
                    Some(CellTarget::Points) => {
                        points_target::<G>(&moves[ply..], mover, config.train.cell_points_scale)
                    }
                };
                self.samples.push(Sample {
                    position: *position,
                    policy: target.policy.clone(),
                    outcome,
                    wdl: value_target(outcome, target.value, search_weight),
                    score,
                    cells,
                });
            }
        }
    }
}

/// The score target from `mover`'s view of a game that ended `outcome` for them (+1, 0,
/// -1) with final `scores` (`None` without scores: 0), `outright` if it was won by an event
/// the scores do not count: `train.outright_win_score` for such a win when it is set, else
/// the margin divided by `train.score_scale`, clipped to [-1, 1].
fn score_target(
    train: &TrainSection,
    scores: Option<[i32; 2]>,
    outright: bool,
    mover: Player,
    outcome: f32,
) -> f32 {
    match train.outright_win_score {
        Some(win) if outright => win * outcome,
        _ => scores.map_or(0.0, |s| {
            let margin = (s[mover.index()] - s[mover.other().index()]) as f32;
            (margin / train.score_scale).clamp(-1.0, 1.0)
        }),
    }
}

/// `(1 - search_weight) * result + search_weight * search_value`, the search's value clipped to
/// the targets' [-1, 1]: the score target with `train.score_search_weight`.
fn mix_search(result: f32, search_value: f32, search_weight: f32) -> f32 {
    (1.0 - search_weight) * result + search_weight * search_value.clamp(-1.0, 1.0)
}

/// Every cell's owner in the final position `end` from `mover`'s view: +1 for `mover`, -1
/// for the opponent, 0 for nobody.
fn ownership_target<G: Game>(end: &G, mover: Player) -> Vec<f32> {
    (0..G::WIDTH * G::HEIGHT)
        .map(|cell| match end.owner(cell) {
            Some(owner) if owner == mover => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        })
        .collect()
}

/// One move of a game as the points target sees it: the cell it marked, who made it, and
/// the score margin it made, from its mover's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovePoints {
    /// The cell of the move's action (`None` for an action on no cell).
    pub cell: Option<usize>,
    /// Who made it.
    pub mover: Player,
    /// Its mover's score less the opponent's after it, less the same before it.
    pub margin: i32,
}

/// The [`MovePoints`] of each of a game's `actions`, played from `before[i]` (the positions
/// before each one; `end` the position after the last).
pub fn move_points<G: Game>(before: &[G], actions: &[Action], end: &G) -> Vec<MovePoints> {
    let margin = |game: &G, player: Player| {
        game.scores()
            .map_or(0, |s| s[player.index()] - s[player.other().index()])
    };
    let after = before.iter().skip(1).chain(std::iter::once(end));
    before
        .iter()
        .zip(after)
        .zip(actions)
        .map(|((game, next), &action)| {
            let mover = game.to_move();
            MovePoints {
                cell: G::action_cell(action),
                mover,
                margin: margin(next, mover) - margin(game, mover),
            }
        })
        .collect()
}

/// The points target of a position whose mover is `mover` and whose game's remaining moves
/// are `rest`: for each cell, the margin those moves made on it from `mover`'s view,
/// divided by `scale` and clipped to [-1, 1].
pub fn points_target<G: Game>(rest: &[MovePoints], mover: Player, scale: f32) -> Vec<f32> {
    let mut cells = vec![0.0f32; G::WIDTH * G::HEIGHT];
    for m in rest {
        if let Some(cell) = m.cell {
            let sign = if m.mover == mover { 1.0 } else { -1.0 };
            cells[cell] += sign * m.margin as f32;
        }
    }
    cells
        .into_iter()
        .map(|points| (points / scale).clamp(-1.0, 1.0))
        .collect()
}

/// The win/draw/loss class of a game result from the mover's view (+1, 0 or -1).
fn result_class(outcome: f32) -> usize {
    if outcome > 0.0 {
        0
    } else if outcome < 0.0 {
        2
    } else {
        1
    }
}

/// The WDL target of a position whose game ended `outcome` (+1, 0, -1) and whose search
/// valued it `search_value` (in [-1, 1]), both from the mover's view:
/// `(1 - search_weight) * onehot(outcome) + search_weight * wdl(search_value)`, where
/// `wdl(q) = (max(q, 0), 1 - |q|, max(-q, 0))`: expectation `q`, and no mass on the side
/// the search thinks is losing, so an undecided search (`q` near 0) reads as a draw.
pub fn value_target(outcome: f32, search_value: f32, search_weight: f32) -> [f32; WDL] {
    let q = search_value.clamp(-1.0, 1.0);
    let mut wdl = [q.max(0.0), 1.0 - q.abs(), (-q).max(0.0)].map(|p| search_weight * p);
    wdl[result_class(outcome)] += 1.0 - search_weight;
    wdl
}

/// One row of a training batch: slices of the [`Buffers`] a sample is written into.
pub struct Row<'a> {
    /// The encoded position, `G::INPUT_SIZE` floats.
    pub input: &'a mut [f32],
    /// The policy target, `G::NUM_ACTIONS` floats.
    pub policy: &'a mut [f32],
    /// The WDL target, [`WDL`] floats.
    pub wdl: &'a mut [f32],
    /// The score target.
    pub score: &'a mut f32,
    /// The cell head's target, one float per cell (empty when the net has no cell head).
    pub cells: &'a mut [f32],
}

/// Writes `sample` under symmetry `sym` into one row of a batch: the encoded transformed
/// position, the policy and the cell target with every action and cell mapped, the WDL target
/// and the score.
pub fn write_sample<G: Encode>(sample: &Sample<G>, sym: usize, row: Row) {
    sample.position.transformed(sym).encode(row.input);
    row.policy.fill(0.0);
    for &(action, p) in &sample.policy {
        row.policy[G::map_action(sym, action) as usize] = p;
    }
    row.wdl.copy_from_slice(&sample.wdl);
    *row.score = sample.score;
    for (cell, &target) in sample.cells.iter().enumerate() {
        row.cells[G::map_action(sym, cell as Action) as usize] = target;
    }
}

/// Buffers of one training batch.
#[derive(Default)]
struct Buffers {
    inputs: Vec<f32>,
    policy: Vec<f32>,
    wdl: Vec<f32>,
    score: Vec<f32>,
    ownership: Vec<f32>,
}

impl Buffers {
    /// Fills the buffers with `indices`' samples, each under a random symmetry.
    fn fill<G: Encode>(&mut self, samples: &[Sample<G>], indices: &[usize], rng: &mut SmallRng) {
        let n = indices.len();
        let cells = samples.first().map_or(0, |s| s.cells.len());
        self.inputs.resize(n * G::INPUT_SIZE, 0.0);
        self.policy.resize(n * G::NUM_ACTIONS, 0.0);
        self.wdl.resize(n * WDL, 0.0);
        self.score.resize(n, 0.0);
        self.ownership.resize(n * cells, 0.0);
        for (row, &i) in indices.iter().enumerate() {
            let sym = rng.random_range(0..G::NUM_SYMMETRIES);
            let row = Row {
                input: &mut self.inputs[row * G::INPUT_SIZE..(row + 1) * G::INPUT_SIZE],
                policy: &mut self.policy[row * G::NUM_ACTIONS..(row + 1) * G::NUM_ACTIONS],
                wdl: &mut self.wdl[row * WDL..(row + 1) * WDL],
                score: &mut self.score[row],
                cells: &mut self.ownership[row * cells..(row + 1) * cells],
            };
            write_sample(&samples[i], sym, row);
        }
    }

    /// The filled buffers as a batch of `n` rows; score and ownership targets only if `score`
    /// and the samples have them.
    fn batch(&self, n: usize, score: bool) -> Batch<'_> {
        Batch {
            size: n,
            inputs: &self.inputs,
            policy: &self.policy,
            wdl: &self.wdl,
            score: score.then_some(&self.score[..]),
            ownership: (!self.ownership.is_empty()).then_some(&self.ownership[..]),
        }
    }
}

/// How the net trained this generation predicts a probe of its window.
struct Diagnostics {
    /// Mean policy entropy in nats, masked to the legal actions.
    policy_entropy: f64,
    /// How often the most likely of win/draw/loss is the game's result.
    value_accuracy: f64,
    /// Mean cross-entropy of the WDL head against the game's result alone.
    value_result_loss: f64,
    /// Mean squared error of the value the search uses, P(win) - P(loss), against the
    /// result (+1, 0, -1). Unlike the training loss it does not depend on
    /// `train.value_search_weight`, so runs with different value targets compare by it.
    value_result_mse: f64,
}

/// [`Diagnostics`] of `net` on the samples at `indices`.
fn diagnostics<G: Encode>(net: &Net, samples: &[Sample<G>], indices: &[usize]) -> Diagnostics {
    let n = indices.len();
    let mut inputs = vec![0.0; n * G::INPUT_SIZE];
    for (row, &i) in indices.iter().enumerate() {
        samples[i]
            .position
            .encode(&mut inputs[row * G::INPUT_SIZE..(row + 1) * G::INPUT_SIZE]);
    }
    let out = net.evaluate(&inputs, n);
    let mut legal = oxo_rules::ActionList::new();
    let (mut entropy, mut correct) = (0.0f64, 0usize);
    let (mut result_loss, mut result_se) = (0.0f64, 0.0f64);
    for (row, &i) in indices.iter().enumerate() {
        let sample = &samples[i];
        sample.position.legal_actions(&mut legal);
        let logits = &out.policy[row * G::NUM_ACTIONS..(row + 1) * G::NUM_ACTIONS];
        let max = legal
            .iter()
            .map(|&a| logits[a as usize])
            .fold(f32::NEG_INFINITY, f32::max);
        let sum: f64 = legal
            .iter()
            .map(|&a| ((logits[a as usize] - max) as f64).exp())
            .sum();
        for &a in &legal {
            let p = ((logits[a as usize] - max) as f64).exp() / sum;
            if p > 0.0 {
                entropy -= p * p.ln();
            }
        }
        let wdl = &out.wdl[row * WDL..(row + 1) * WDL];
        let predicted = (0..WDL).max_by(|&a, &b| wdl[a].total_cmp(&wdl[b])).unwrap();
        let result = result_class(sample.outcome);
        correct += (predicted == result) as usize;
        let probabilities = wdl_probabilities(wdl);
        result_loss -= (probabilities[result] as f64).max(1e-12).ln();
        result_se += (expected_value(&probabilities) as f64 - sample.outcome as f64).powi(2);
    }
    Diagnostics {
        policy_entropy: entropy / n as f64,
        value_accuracy: correct as f64 / n as f64,
        value_result_loss: result_loss / n as f64,
        value_result_mse: result_se / n as f64,
    }
}

/// How a trainer on several threads trains a run's config, data-parallel with one replica of
/// the net a thread ([`Trainer::set_threads`]): each replica steps on the config's
/// `train.batch_size` samples, so a step on `replicas` threads trains `replicas` times the
/// batch at the learning rate times the square root of `replicas` (the square-root rule for
/// Adam, Malladi et al. 2022), and a generation's budget of samples takes a `replicas`-th of
/// its steps. A replica on a full batch runs at one thread's full speed, where a split
/// batch ran each thread on a smaller and slower one (docs/performance.md); twice the batch
/// at the square root of 2 times the rate learned as much per sample
/// (docs/experiments.md, "Twice the batch at the same samples").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplicaRule {
    /// Replicas of the net, one a thread (at least 1).
    pub replicas: usize,
}

impl ReplicaRule {
    /// The rule for a trainer on `threads` threads (0 counts as 1).
    pub fn new(threads: usize) -> Self {
        ReplicaRule {
            replicas: threads.max(1),
        }
    }

    /// A step's batch: one replica's `batch_size` for each replica.
    pub fn batch(&self, batch_size: usize) -> usize {
        batch_size * self.replicas
    }

    /// The learning rate of a step of [`ReplicaRule::batch`] for a config's `learning_rate`.
    pub fn learning_rate(&self, learning_rate: f64) -> f64 {
        learning_rate * (self.replicas as f64).sqrt()
    }

    /// The steps that train a budget of `steps` one-replica batches (at least one).
    pub fn steps(&self, steps: usize) -> usize {
        steps.div_ceil(self.replicas).max(1)
    }
}

/// Takes `steps` training steps of generation `generation` on the samples of `window`
/// (none without samples) from `start`; returns the steps' metrics: mean losses, the window,
/// speed and diagnostics.
pub fn fit<G: Encode>(
    trainer: &mut Trainer,
    config: &RunConfig,
    window: &WindowSamples<G>,
    generation: u64,
    steps: usize,
    start: std::time::Instant,
    observer: &crate::observe::Observer,
) -> serde_json::Value {
    let (samples, positions) = (&window.samples, window.positions);
    let batch_size = ReplicaRule::new(trainer.threads()).batch(config.train.batch_size);
    let mut rng = SmallRng::seed_from_u64(mix(config.seed, generation, 0x7A));
    let mut buffers = Buffers::default();
    let mut sums = [0.0f64; 5];
    let bar = observer.bar(steps as u64, "training steps");
    let mut taken = 0;
    if !samples.is_empty() {
        let score = config.net.score_head && G::HAS_SCORES;
        for _ in 0..steps {
            let indices: Vec<usize> = (0..batch_size)
                .map(|_| rng.random_range(0..samples.len()))
                .collect();
            buffers.fill(samples, &indices, &mut rng);
            let losses = trainer.train_step(&buffers.batch(batch_size, score));
            for (sum, x) in sums.iter_mut().zip([
                losses.total,
                losses.policy,
                losses.value,
                losses.score,
                losses.ownership,
            ]) {
                *sum += x as f64;
            }
            taken += 1;
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let mean = |i: usize| sums[i] / taken.max(1) as f64;
    let mut fields = serde_json::json!({
        "loss_total": mean(0),
        "loss_policy": mean(1),
        "loss_value": mean(2),
        "loss_score": mean(3),
        "loss_ownership": mean(4),
        "steps": taken,
        "batch_size": batch_size,
        "learning_rate": trainer.learning_rate(),
        "window_positions": positions,
        "window_samples": samples.len(),
        "seconds": seconds,
        "positions_per_sec": (taken * batch_size) as f64 / seconds.max(1e-9),
    });
    if !samples.is_empty() {
        let probe: Vec<usize> = (0..samples.len().min(256))
            .map(|_| rng.random_range(0..samples.len()))
            .collect();
        let probed = diagnostics(&trainer.net(), samples, &probe);
        fields["policy_entropy"] = probed.policy_entropy.into();
        fields["value_accuracy"] = probed.value_accuracy.into();
        fields["value_result_loss"] = probed.value_result_loss.into();
        fields["value_result_mse"] = probed.value_result_mse.into();
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_rules::ActionList;
    use oxo_variants::tictactoe::TicTacToe;

    /// N replicas step on N batches at the square root of N times the rate, in an N-th of
    /// the steps (rounded up, at least one); one replica trains the config as written.
    #[test]
    fn each_replica_trains_a_full_batch() {
        let one = ReplicaRule::new(0);
        assert_eq!((one.replicas, one.batch(128), one.steps(80)), (1, 128, 80));
        assert_eq!(one.learning_rate(1e-3), 1e-3);
        let four = ReplicaRule::new(4);
        assert_eq!(
            [
                four.batch(128),
                four.steps(80),
                four.steps(81),
                four.steps(1)
            ],
            [512, 20, 21, 1]
        );
        assert!((four.learning_rate(1e-3) - 2e-3).abs() < 1e-15);
    }

    #[test]
    fn symmetry_augmentation_maps_policy_and_ownership_targets() {
        let mut position = TicTacToe::new();
        for a in [0, 4, 5] {
            position.play(a);
        }
        let mut legal = ActionList::new();
        position.legal_actions(&mut legal);
        // A distinct probability per legal action.
        let policy: Vec<(Action, f32)> = legal
            .iter()
            .enumerate()
            .map(|(i, &a)| (a, (i + 1) as f32))
            .collect();
        let sample = Sample {
            position,
            policy: policy.clone(),
            outcome: -1.0,
            wdl: value_target(-1.0, 0.5, 0.0),
            score: 0.5,
            // A made-up cell target, distinct enough to show where each cell goes.
            cells: (0..9).map(|c| [1.0, 0.0, -1.0][c % 3]).collect(),
        };
        let mut input = vec![0.0; TicTacToe::INPUT_SIZE];
        let mut target = vec![0.0; TicTacToe::NUM_ACTIONS];
        let mut wdl = vec![0.0; WDL];
        let mut score = 0.0;
        let mut owned = vec![0.0; 9];
        let mut plain = vec![0.0; TicTacToe::INPUT_SIZE];
        position.encode(&mut plain);
        let cells = TicTacToe::WIDTH * TicTacToe::HEIGHT;
        for sym in 0..TicTacToe::NUM_SYMMETRIES {
            let row = Row {
                input: &mut input,
                policy: &mut target,
                wdl: &mut wdl,
                score: &mut score,
                cells: &mut owned,
            };
            write_sample(&sample, sym, row);
            assert_eq!(score, 0.5);
            let transformed = position.transformed(sym);
            let mut mapped_legal = ActionList::new();
            transformed.legal_actions(&mut mapped_legal);
            for &(a, p) in &policy {
                let m = TicTacToe::map_action(sym, a);
                assert_eq!(target[m as usize], p, "sym {sym} action {a}");
                assert!(mapped_legal.contains(&m));
            }
            let total: f32 = policy.iter().map(|x| x.1).sum();
            assert_eq!(target.iter().sum::<f32>(), total);
            // Every plane's cell c moves to map_action(sym, c).
            for plane in 0..TicTacToe::PLANES {
                for c in 0..cells {
                    let m = TicTacToe::map_action(sym, c as Action) as usize;
                    assert_eq!(input[plane * cells + m], plain[plane * cells + c]);
                }
            }
            for c in 0..cells {
                let m = TicTacToe::map_action(sym, c as Action) as usize;
                assert_eq!(owned[m], sample.cells[c]);
            }
            assert_eq!(wdl, [0.0, 0.0, 1.0]);
        }
    }

    /// docs/RULES.md's adjacency vectors: a lone mark on the X3 square C3 scores 3; an X touching
    /// one X and one O scores 4, on an X2 square 8. The points target credits each move's
    /// margin to its cell, signed for the position's mover, from that position on.
    #[test]
    fn the_points_target_credits_each_moves_margin_to_its_cell() {
        use oxo_variants::adjacency::Adjacency;
        let cell = |name: &str| Adjacency::parse_action(name).unwrap();
        // X C3 (X3, alone: 3), O A1 (1), X D6 (1), O E5 (touching the X on D6: 1 + 2 = 3),
        // X D5 (X2, touching the X on D6 and the O on E5: (1 + 1 + 2) * 2 = 8).
        let actions: Vec<Action> = ["C3", "A1", "D6", "E5", "D5"]
            .iter()
            .map(|m| cell(m))
            .collect();
        let mut game = Adjacency::new();
        let mut before = Vec::new();
        for &a in &actions {
            before.push(game);
            game.play(a);
        }
        let moves = move_points(&before, &actions, &game);
        let margins: Vec<i32> = moves.iter().map(|m| m.margin).collect();
        assert_eq!(margins, [3, 1, 1, 3, 8]);
        assert!(
            moves
                .iter()
                .zip(&actions)
                .all(|(m, &a)| m.cell == Some(a as usize))
        );
        // From the start, X's view: X's cells count for it, O's against.
        let target = points_target::<Adjacency>(&moves, Player::X, 16.0);
        assert_eq!(target[cell("C3") as usize], 3.0 / 16.0);
        assert_eq!(target[cell("E5") as usize], -3.0 / 16.0);
        assert_eq!(target[cell("D5") as usize], 8.0 / 16.0);
        assert_eq!(target[cell("K11") as usize], 0.0);
        // From ply 3 (O to move), O's view: moves already made count nothing; clipped at 1.
        let target = points_target::<Adjacency>(&moves[3..], Player::O, 4.0);
        assert_eq!(target[cell("C3") as usize], 0.0);
        assert_eq!(target[cell("E5") as usize], 3.0 / 4.0);
        assert_eq!(target[cell("D5") as usize], -1.0);
        // Unclipped, the targets sum to the rest of the game's margin (scaled).
        let sum: f32 = points_target::<Adjacency>(&moves[1..], Player::O, 100.0)
            .iter()
            .sum();
        assert!(
            (sum - (1.0 - 1.0 + 3.0 - 8.0) / 100.0).abs() < 1e-6,
            "{sum}"
        );
    }

    #[test]
    fn an_outright_win_scores_the_set_target_and_other_games_their_margin() {
        let mut train = RunConfig::from_toml(crate::config::tests::SMALL)
            .unwrap()
            .train;
        train.score_scale = 20.0;
        let (x, o) = (Player::X, Player::O);
        // X wins outright with fewer points, 10 to 14.
        let scores = Some([10, 14]);
        train.outright_win_score = None;
        assert_eq!(score_target(&train, scores, true, x, 1.0), -0.2);
        assert_eq!(score_target(&train, scores, true, o, -1.0), 0.2);
        train.outright_win_score = Some(0.75);
        assert_eq!(score_target(&train, scores, true, x, 1.0), 0.75);
        assert_eq!(score_target(&train, scores, true, o, -1.0), -0.75);
        // A win on the scores keeps its margin, clipped.
        assert_eq!(score_target(&train, Some([50, 4]), false, x, 1.0), 1.0);
        assert_eq!(score_target(&train, Some([14, 10]), false, o, -1.0), -0.2);
        assert_eq!(score_target(&train, None, false, x, 0.0), 0.0);
    }

    #[test]
    fn score_targets_mix_the_margin_with_the_search_value() {
        assert_eq!(mix_search(0.5, -0.25, 0.0), 0.5);
        assert_eq!(mix_search(0.5, -0.25, 1.0), -0.25);
        assert_eq!(mix_search(0.5, -0.25, 0.5), 0.125);
        // A search value beyond the targets' range counts as its bound.
        assert_eq!(mix_search(-1.0, 3.0, 0.5), 0.0);
    }

    #[test]
    fn value_targets_mix_the_result_with_the_search_value() {
        assert_eq!(value_target(1.0, -0.5, 0.0), [1.0, 0.0, 0.0]);
        assert_eq!(value_target(0.0, 0.5, 1.0), [0.5, 0.5, 0.0]);
        assert_eq!(value_target(-1.0, 0.5, 0.5), [0.25, 0.25, 0.5]);
        for (outcome, q, w) in [(1.0, -0.3, 0.3), (0.0, 0.9, 0.7), (-1.0, -2.0, 0.5)] {
            let t = value_target(outcome, q, w);
            assert!(t.iter().all(|&p| p >= 0.0), "{t:?}");
            assert!((t.iter().sum::<f32>() - 1.0).abs() < 1e-6, "{t:?}");
            // The target's expected value is the same mix of the two values.
            let expected = (1.0 - w) * outcome + w * q.clamp(-1.0, 1.0);
            assert!((t[0] - t[2] - expected).abs() < 1e-6, "{t:?}");
        }
    }
}

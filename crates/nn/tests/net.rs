//! Network tests on small nets: output shapes for every variant, training drives the loss down
//! on tic-tac-toe's solved values, save and load are exact, and bad files are clear errors.

use std::collections::HashMap;
use std::path::Path;

use oxo_nn::{
    Batch, Device, Encode, FileInfo, FileKind, Losses, Net, NetConfig, NnError, TrainConfig,
    Trainer, WDL,
};
use oxo_rules::{ActionList, Game};
use oxo_variants::adjacency::Adjacency;
use oxo_variants::extreme::Extreme;
use oxo_variants::paytoplay::PayToPlay;
use oxo_variants::tictactoe::TicTacToe;
use oxo_variants::ultimate::Ultimate;
use oxo_variants::xando::XAndO;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The smallest useful net: one block of eight channels.
fn tiny() -> NetConfig {
    NetConfig::new(1, 8)
}

/// `count` positions of random games of `G`, encoded back to back.
fn random_inputs<G: Encode>(count: usize, seed: u64) -> Vec<f32> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut inputs = vec![0.0; count * G::INPUT_SIZE];
    let mut game = G::new();
    for chunk in inputs.chunks_mut(G::INPUT_SIZE) {
        if game.is_over() {
            game = G::new();
        }
        game.encode(chunk);
        game.play(game.random_action(&mut rng));
    }
    inputs
}

/// Evaluates a few positions of `G` and checks the output lengths.
fn check_shapes<G: Encode>() {
    let config = tiny().with_score_head(G::HAS_SCORES);
    let net = Net::new::<G>(&config, &Device::flex());
    let batch = 3;
    let out = net.evaluate(&random_inputs::<G>(batch, 1), batch);
    assert_eq!(out.policy.len(), batch * G::NUM_ACTIONS, "{}", G::NAME);
    assert_eq!(out.wdl.len(), batch * WDL, "{}", G::NAME);
    assert_eq!(
        out.score.len(),
        if G::HAS_SCORES { batch } else { 0 },
        "{}",
        G::NAME
    );
    assert!(
        out.policy
            .iter()
            .chain(&out.wdl)
            .chain(&out.score)
            .all(|x| x.is_finite())
    );
    assert_eq!(net.shape().actions, G::NUM_ACTIONS);
}

#[test]
fn nets_can_be_shared_between_search_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Net>();
    fn movable<T: Send>() {}
    movable::<oxo_nn::Trainer>();
}

#[test]
fn output_shapes_for_every_variant() {
    check_shapes::<TicTacToe>();
    check_shapes::<Ultimate>();
    check_shapes::<Extreme>();
    check_shapes::<PayToPlay>();
    check_shapes::<XAndO>();
    check_shapes::<Adjacency>();
}

/// Tic-tac-toe's exact value for the player to move (+1 win, 0 draw, -1 loss), memoised.
fn negamax(game: TicTacToe, memo: &mut HashMap<TicTacToe, i8>) -> i8 {
    if let Some(outcome) = game.outcome() {
        return outcome.value_for(game.to_move()) as i8;
    }
    if let Some(&value) = memo.get(&game) {
        return value;
    }
    let mut legal = ActionList::new();
    game.legal_actions(&mut legal);
    let mut best = -1;
    for &action in &legal {
        let mut next = game;
        next.play(action);
        best = best.max(-negamax(next, memo));
    }
    memo.insert(game, best);
    best
}

/// Training examples of solved tic-tac-toe: a few dozen positions, each with the optimal moves
/// as a uniform policy target and the exact result as a one-hot win/draw/loss target.
struct Solved {
    size: usize,
    inputs: Vec<f32>,
    policy: Vec<f32>,
    wdl: Vec<f32>,
}

fn solved_positions(count: usize) -> Solved {
    let mut memo = HashMap::new();
    let mut rng = SmallRng::seed_from_u64(3);
    let mut seen = Vec::new();
    while seen.len() < count {
        let mut game = TicTacToe::new();
        let plies = (rng.next_u32() % 7) as usize;
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            game.play(game.random_action(&mut rng));
        }
        if !game.is_over() && !seen.contains(&game) {
            seen.push(game);
        }
    }
    let mut solved = Solved {
        size: count,
        inputs: vec![0.0; count * TicTacToe::INPUT_SIZE],
        policy: vec![0.0; count * 9],
        wdl: vec![0.0; count * WDL],
    };
    for (i, game) in seen.iter().enumerate() {
        game.encode(&mut solved.inputs[i * TicTacToe::INPUT_SIZE..]);
        let value = negamax(*game, &mut memo);
        let mut legal = ActionList::new();
        game.legal_actions(&mut legal);
        let best: Vec<u16> = legal
            .iter()
            .copied()
            .filter(|&a| {
                let mut next = *game;
                next.play(a);
                -negamax(next, &mut memo) == value
            })
            .collect();
        for &a in &best {
            solved.policy[i * 9 + a as usize] = 1.0 / best.len() as f32;
        }
        solved.wdl[i * WDL + (1 - value) as usize] = 1.0;
    }
    solved
}

impl Solved {
    fn batch(&self) -> Batch<'_> {
        Batch {
            size: self.size,
            inputs: &self.inputs,
            policy: &self.policy,
            wdl: &self.wdl,
            score: None,
            ownership: None,
        }
    }
}

#[test]
fn training_learns_solved_tictactoe() {
    let data = solved_positions(40);
    let train = TrainConfig {
        learning_rate: 1e-2,
        ..TrainConfig::default()
    };
    let mut trainer = Trainer::new::<TicTacToe>(&NetConfig::new(1, 16), &train, &Device::flex());
    let first = trainer.train_step(&data.batch());
    let mut last = first;
    for _ in 0..300 {
        last = trainer.train_step(&data.batch());
    }
    assert_eq!(trainer.steps(), 301);
    // The policy loss cannot fall below the targets' entropy (several moves are often
    // optimal); it should come close to it, and the value loss close to 0.
    let entropy = -data
        .policy
        .iter()
        .filter(|&&p| p > 0.0)
        .map(|p| p * p.ln())
        .sum::<f32>()
        / data.size as f32;
    assert!(
        last.policy < entropy + 0.1 && last.value < 0.1 && last.total < 0.5 * first.total,
        "loss did not fall enough: {first:?} -> {last:?} (policy entropy {entropy})"
    );
    // The inference copy predicts the right result for nearly every training position.
    let out = trainer.net().evaluate(&data.inputs, data.size);
    let argmax = |row: &[f32]| {
        (0..row.len())
            .max_by(|&a, &b| row[a].total_cmp(&row[b]))
            .unwrap()
    };
    let right = (0..data.size)
        .filter(|&i| argmax(&out.wdl[i * WDL..][..WDL]) == argmax(&data.wdl[i * WDL..][..WDL]))
        .count();
    assert!(
        right >= data.size * 9 / 10,
        "{right} of {} results right",
        data.size
    );
}

/// Trains a fresh net of `config` 100 steps on `inputs` with uniform policy targets, draws
/// as value targets and the given extra targets, checks that the head's loss (`loss`) at
/// least halves, and returns the trainer.
fn check_head_trains<G: Encode>(
    config: &NetConfig,
    inputs: &[f32],
    score: Option<&[f32]>,
    ownership: Option<&[f32]>,
    loss: fn(&Losses) -> f32,
) -> Trainer {
    let size = inputs.len() / G::INPUT_SIZE;
    let policy = vec![1.0 / G::NUM_ACTIONS as f32; size * G::NUM_ACTIONS];
    let wdl: Vec<f32> = (0..size).flat_map(|_| [0.0, 1.0, 0.0]).collect();
    let batch = Batch {
        size,
        inputs,
        policy: &policy,
        wdl: &wdl,
        score,
        ownership,
    };
    let mut trainer = Trainer::new::<G>(config, &TrainConfig::default(), &Device::flex());
    let first = trainer.train_step(&batch);
    assert!(loss(&first) > 0.0, "{first:?}");
    let mut last = first;
    for _ in 0..100 {
        last = trainer.train_step(&batch);
    }
    assert!(loss(&last) < loss(&first) * 0.5, "{first:?} -> {last:?}");
    trainer
}

#[test]
fn score_head_trains() {
    let inputs = random_inputs::<PayToPlay>(16, 4);
    let score: Vec<f32> = (0..16).map(|i| (i as f32 / 8.0) - 1.0).collect();
    let config = tiny().with_score_head(true);
    check_head_trains::<PayToPlay>(&config, &inputs, Some(&score), None, |l| l.score);
}

#[test]
fn ownership_head_trains_and_leaves_inference_alone() {
    let inputs = random_inputs::<Ultimate>(16, 5);
    // A target the trunk can compute: each cell's mark (+1 the mover's, -1 the opponent's,
    // planes 0 and 1 of the encoding).
    let planes = Ultimate::PLANES * 81;
    let ownership: Vec<f32> = (0..16 * 81)
        .map(|i| {
            let (position, cell) = (i / 81, i % 81);
            inputs[position * planes + cell] - inputs[position * planes + 81 + cell]
        })
        .collect();
    let config = tiny().with_ownership_head(true);
    let trainer =
        check_head_trains::<Ultimate>(&config, &inputs, None, Some(&ownership), |l| l.ownership);
    // The head is saved and loaded with the rest of the net.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.bpk");
    let net = trainer.net();
    net.save(&path).unwrap();
    let loaded = Net::load::<Ultimate>(&path, &Device::flex()).unwrap();
    assert!(loaded.config().ownership_head);
    assert_eq!(net.evaluate(&inputs, 16), loaded.evaluate(&inputs, 16));
}

impl Solved {
    /// These positions followed by `other`'s, one batch.
    fn then(&self, other: &Solved) -> Solved {
        let join = |a: &[f32], b: &[f32]| [a, b].concat();
        Solved {
            size: self.size + other.size,
            inputs: join(&self.inputs, &other.inputs),
            policy: join(&self.policy, &other.policy),
            wdl: join(&self.wdl, &other.wdl),
        }
    }
}

/// Data-parallel training takes the whole batch's step: on a batch of the same positions
/// repeated, two or four replicas (each with one copy, and its batch norm statistics; four
/// replicas' gradients summed as a tree) take the step one thread takes on the positions once,
/// loss and weights; on two different halves the step differs from one thread's (each
/// replica's batch norm sees its half alone), so the shards are real.
#[test]
fn replicas_take_the_whole_batchs_step() {
    let dir = tempfile::tempdir().unwrap();
    let (data, other) = (solved_positions(12), solved_positions(20));
    let device = Device::flex();
    let train = TrainConfig::default();
    let start = dir.path().join("start.bpk");
    Trainer::new::<TicTacToe>(&tiny(), &train, &device)
        .save(&start)
        .unwrap();
    let trainer = |threads: usize| {
        let mut trainer = Trainer::load::<TicTacToe>(&start, &tiny(), &train, &device).unwrap();
        trainer.set_threads(threads);
        trainer
    };
    for replicas in [2, 4] {
        let (mut one, mut many) = (trainer(1), trainer(replicas));
        let repeated = (2..replicas).fold(data.then(&data), |batch, _| batch.then(&data));
        for step in 0..4 {
            let (a, b) = (
                one.train_step(&data.batch()),
                many.train_step(&repeated.batch()),
            );
            for (x, y) in [(a.total, b.total), (a.policy, b.policy), (a.value, b.value)] {
                assert!(
                    (x - y).abs() < 1e-5,
                    "{replicas} replicas, step {step}: loss {x} against {y}"
                );
            }
        }
        let eval = |t: &Trainer| t.net().evaluate(&data.inputs, data.size);
        let (a, b) = (eval(&one), eval(&many));
        for (x, y) in a
            .policy
            .iter()
            .chain(&a.wdl)
            .zip(b.policy.iter().chain(&b.wdl))
        {
            assert!(
                (x - y).abs() < 1e-4,
                "{replicas} replicas, after four steps: {x} against {y}"
            );
        }
    }
    let mixed = data.then(&other.then(&other));
    let (mut one, mut two) = (trainer(1), trainer(2));
    let (a, b) = (
        one.train_step(&mixed.batch()),
        two.train_step(&mixed.batch()),
    );
    // Above the 1e-5 that equal halves agree within: how far apart depends on the random
    // initial weights, and was 3.7e-5 at the least seen.
    let gap = [(a.total, b.total), (a.policy, b.policy), (a.value, b.value)]
        .iter()
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f32, f32::max);
    assert!(
        b.total.is_finite() && gap > 1e-5,
        "two different halves: losses {a:?} against {b:?}"
    );
}

/// A tiny tictactoe trainer after five steps on `data`.
fn trained_five_steps(data: &Solved, train: &TrainConfig, device: &Device) -> Trainer {
    let mut trainer = Trainer::new::<TicTacToe>(&tiny(), train, device);
    for _ in 0..5 {
        trainer.train_step(&data.batch());
    }
    trainer
}

#[test]
fn save_then_load_is_exact_and_resumes_training() {
    let dir = tempfile::tempdir().unwrap();
    let data = solved_positions(12);
    let device = Device::flex();
    let train = TrainConfig::default();
    let mut trainer = trained_five_steps(&data, &train, &device);

    // A model file reproduces the inference outputs bit for bit.
    let model = dir.path().join("model.bpk");
    let net = trainer.net();
    net.save(&model).unwrap();
    let loaded = Net::load::<TicTacToe>(&model, &device).unwrap();
    assert_eq!(loaded.config(), &tiny());
    assert_eq!(
        net.evaluate(&data.inputs, data.size),
        loaded.evaluate(&data.inputs, data.size)
    );
    let info = FileInfo::read(&model).unwrap();
    assert_eq!(
        (info.kind, info.shape.variant.as_str()),
        (FileKind::Model, "tictactoe")
    );

    // A checkpoint restores weights, batch-norm statistics, optimiser state and step count:
    // the next step is the same on the original and on the restored trainer.
    let checkpoint = dir.path().join("checkpoint.bpk");
    trainer.save(&checkpoint).unwrap();
    let mut resumed = Trainer::load::<TicTacToe>(&checkpoint, &tiny(), &train, &device).unwrap();
    assert_eq!(resumed.steps(), 5);
    let eval = |t: &Trainer| t.net().evaluate(&data.inputs, data.size);
    assert_eq!(eval(&trainer), eval(&resumed));
    let a = trainer.train_step(&data.batch());
    let b = resumed.train_step(&data.batch());
    assert_eq!(a, b);
    let (after, resumed_after) = (eval(&trainer), eval(&resumed));
    for (x, y) in after.policy.iter().zip(&resumed_after.policy) {
        assert!((x - y).abs() < 1e-5, "{x} vs {y}");
    }
    // No scratch files are left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// A warm start takes a trained model's weights (and batch-norm statistics) with a fresh
/// optimiser, and refuses a model of another size with a message naming both sizes.
#[test]
fn a_warm_start_begins_from_the_models_weights() {
    let dir = tempfile::tempdir().unwrap();
    let data = solved_positions(12);
    let device = Device::flex();
    let train = TrainConfig::default();
    let trainer = trained_five_steps(&data, &train, &device);
    let model = dir.path().join("model.bpk");
    trainer.net().save(&model).unwrap();
    let checkpoint = dir.path().join("checkpoint.bpk");
    trainer.save(&checkpoint).unwrap();
    let eval = |t: &Trainer| t.net().evaluate(&data.inputs, data.size);
    for file in [&model, &checkpoint] {
        let warm = Trainer::from_model::<TicTacToe>(file, &tiny(), &train, &device).unwrap();
        assert_eq!(warm.steps(), 0);
        assert_eq!(eval(&warm), eval(&trainer));
    }
    let fresh = Trainer::new::<TicTacToe>(&tiny(), &train, &device);
    assert_ne!(eval(&fresh), eval(&trainer));

    let error = Trainer::from_model::<TicTacToe>(&model, &NetConfig::new(2, 8), &train, &device)
        .err()
        .unwrap();
    assert!(matches!(error, NnError::Mismatch { .. }), "{error}");
    assert!(error.to_string().contains("\"blocks\":2"), "{error}");
    let error = Trainer::from_model::<Ultimate>(&model, &tiny(), &train, &device)
        .err()
        .unwrap();
    assert!(error.to_string().contains("ultimate"), "{error}");
}

/// The error a load gave, or a panic naming what was loaded.
fn load_error(result: Result<Net, NnError>) -> NnError {
    match result {
        Ok(_) => panic!("a bad file loaded"),
        Err(e) => e,
    }
}

#[test]
fn foreign_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let device = Device::flex();
    let model = dir.path().join("tictactoe.bpk");
    Net::new::<TicTacToe>(&tiny(), &device)
        .save(&model)
        .unwrap();

    // Another variant.
    let error = load_error(Net::load::<PayToPlay>(&model, &device));
    assert!(matches!(error, NnError::Mismatch { .. }), "{error}");
    let message = error.to_string();
    assert!(
        message.contains("paytoplay") && message.contains("tictactoe"),
        "{message}"
    );

    // A model where a checkpoint is expected, and the other way round.
    let train = TrainConfig::default();
    let error = Trainer::load::<TicTacToe>(&model, &tiny(), &train, &device)
        .err()
        .unwrap();
    assert!(error.to_string().contains("checkpoint"), "{error}");
    let checkpoint = dir.path().join("checkpoint.bpk");
    Trainer::new::<TicTacToe>(&tiny(), &train, &device)
        .save(&checkpoint)
        .unwrap();
    // A checkpoint's network loads for inference, but not as another variant's.
    Net::load::<TicTacToe>(&checkpoint, &device).unwrap();
    let error = load_error(Net::load::<Ultimate>(&checkpoint, &device));
    assert!(matches!(error, NnError::Mismatch { .. }), "{error}");

    // Another network size.
    let error = Trainer::load::<TicTacToe>(&checkpoint, &NetConfig::new(2, 8), &train, &device)
        .err()
        .unwrap();
    assert!(matches!(error, NnError::Mismatch { .. }), "{error}");
    assert!(error.to_string().contains("\"blocks\":2"), "{error}");
}

#[test]
fn missing_and_corrupt_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let device = Device::flex();
    let error = load_error(Net::load::<TicTacToe>(
        &dir.path().join("nothing.bpk"),
        &device,
    ));
    match &error {
        NnError::Io { source, .. } => assert_eq!(source.kind(), std::io::ErrorKind::NotFound),
        other => panic!("{other}"),
    }
    assert!(error.to_string().contains("nothing.bpk"));

    let garbage = dir.path().join("garbage.bpk");
    std::fs::write(&garbage, b"this is not a model").unwrap();
    let error = load_error(Net::load::<TicTacToe>(&garbage, &device));
    assert!(matches!(error, NnError::Corrupt { .. }), "{error}");

    // A real model file cut short, and one with flipped bytes in its tensor data.
    let model = dir.path().join("model.bpk");
    Net::new::<TicTacToe>(&tiny(), &device)
        .save(&model)
        .unwrap();
    let bytes = std::fs::read(&model).unwrap();
    let truncated = dir.path().join("truncated.bpk");
    std::fs::write(&truncated, &bytes[..bytes.len() - 100]).unwrap();
    let error = load_error(Net::load::<TicTacToe>(&truncated, &device));
    assert!(matches!(error, NnError::Corrupt { .. }), "{error}");
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    let damaged = dir.path().join("damaged.bpk");
    std::fs::write(&damaged, &flipped).unwrap();
    let error = load_error(Net::load::<TicTacToe>(&damaged, &device));
    assert!(error.to_string().contains("checksum"), "{error}");
    let header_cut = dir.path().join("header_cut.bpk");
    std::fs::write(&header_cut, &bytes[..40]).unwrap();
    let error = load_error(Net::load::<TicTacToe>(&header_cut, &device));
    assert!(matches!(error, NnError::Corrupt { .. }), "{error}");

    // A plain Burnpack file without oxo metadata.
    let plain = dir.path().join("plain.bpk");
    std::fs::write(&plain, burn_pack_without_metadata()).unwrap();
    let error = load_error(Net::load::<TicTacToe>(&plain, &device));
    assert!(error.to_string().contains("oxo.format"), "{error}");
    assert!(Path::new(&plain).exists());
}

/// The bytes of a valid Burnpack file holding no oxo metadata: a model file with the metadata
/// block's keys renamed would do, but the simplest is an empty pack.
fn burn_pack_without_metadata() -> Vec<u8> {
    burn_pack::Writer::new(Vec::new())
        .into_bytes()
        .unwrap()
        .to_vec()
}

//! Speed measurements behind `oxo bench nn` and `oxo bench selfplay`.

use std::time::{Duration, Instant};

use burn::tensor::{Tensor, TensorData};
use oxo_engine::{EngineKind, EngineModel};
use oxo_nn::{Batch, Device, Encode, Net, NetConfig, NetShape, TrainConfig, Trainer, WDL};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::config::RunConfig;
use crate::selfplay::{SelfPlayStats, play_games};

/// Floating-point operations (multiply-adds count 2) of one forward pass of a net of
/// `config` on one position of `shape`; batch norm, ReLU and biases are ignored.
pub fn forward_flops(shape: &NetShape, config: &NetConfig) -> f64 {
    // The trunk's grid: a vector per cell, or per block of a patch stem.
    let block = (config.patch * config.patch) as f64;
    let cells = (shape.height * shape.width) as f64 / block;
    let (planes, c) = (shape.planes as f64, config.channels as f64);
    let conv = |cin: f64, cout: f64, k: f64| 2.0 * k * cin * cout * cells;
    let stem = if config.patch == 1 {
        conv(planes, c, 9.0)
    } else {
        conv(planes, c, block)
    };
    let trunk = stem + config.blocks as f64 * 2.0 * conv(c, c, 9.0);
    let (pc, vc, hidden) = (
        config.policy_channels as f64,
        config.value_channels as f64,
        config.value_hidden as f64,
    );
    let policy_out = if config.patch == 1 {
        2.0 * pc * cells * shape.actions as f64
    } else {
        2.0 * pc * block * cells
    };
    let policy = conv(c, pc, 1.0) + policy_out;
    let value = conv(c, vc, 1.0) + 2.0 * vc * cells * hidden + 2.0 * hidden * (WDL as f64 + 1.0);
    trunk + policy + value
}

/// The fp32 matmul rate of `device` in FLOP/s: the best of a few `n x n` products.
pub fn matmul_peak(device: &Device, n: usize, seconds: f64) -> f64 {
    let data = |seed: u64| {
        let mut rng = SmallRng::seed_from_u64(seed);
        let values: Vec<f32> = (0..n * n).map(|_| rng.random::<f32>() - 0.5).collect();
        Tensor::<2>::from_data(TensorData::new(values, [n, n]), device)
    };
    let (a, b) = (data(1), data(2));
    // Warm up.
    let _ = a.clone().matmul(b.clone()).into_data();
    let start = Instant::now();
    let mut best = 0.0f64;
    while start.elapsed().as_secs_f64() < seconds {
        let t = Instant::now();
        let _ = a.clone().matmul(b.clone()).into_data();
        best = best.max(2.0 * (n as f64).powi(3) / t.elapsed().as_secs_f64());
    }
    best
}

/// One measured rate of `oxo bench nn`.
#[derive(Clone, Debug, Serialize)]
pub struct NnRate {
    /// What was measured: `eval` or `train`.
    pub what: String,
    /// The engine that ran it (training: always `burn`).
    pub engine: EngineKind,
    /// Batch size.
    pub batch: usize,
    /// Positions per second.
    pub positions_per_sec: f64,
    /// FLOP/s this implies.
    pub flops: f64,
    /// `flops` as a fraction of the measured matmul peak.
    pub of_peak: f64,
}

/// What `oxo bench nn` measures: which engines, at which batch sizes, on how many threads.
#[derive(Clone, Debug)]
pub struct NnBench {
    /// The engines whose inference is measured, in order (one that cannot run here is
    /// skipped, with the message [`oxo_engine::resolve`] prints).
    pub engines: Vec<EngineKind>,
    /// Inference batch sizes.
    pub batches: Vec<usize>,
    /// The training batch size.
    pub train_batch: usize,
    /// Threads each network call may use (burn's rayon pool, onnxruntime's intra-op pool).
    pub threads: usize,
    /// Seconds per rate.
    pub seconds: f64,
}

/// Network speed of `net` (variant `G`): inference on each engine at each batch size, one
/// training rate (burn), and the fp32 matmul peak they are compared with, on `device`, all
/// with `bench.threads` threads.
pub fn bench_nn<G: Encode>(net: &Net, bench: &NnBench, device: &Device) -> (f64, Vec<NnRate>) {
    rayon::ThreadPoolBuilder::new()
        .num_threads(bench.threads.max(1))
        .build()
        .expect("a rayon pool builds")
        .install(|| bench_nn_here::<G>(net, bench, device))
}

/// [`bench_nn`] on the current rayon pool.
fn bench_nn_here<G: Encode>(net: &Net, bench: &NnBench, device: &Device) -> (f64, Vec<NnRate>) {
    let seconds = bench.seconds;
    let peak = matmul_peak(device, 1024, seconds);
    let flops = forward_flops(net.shape(), net.config());
    let mut rng = SmallRng::seed_from_u64(3);
    let mut inputs_for = |n: usize| -> Vec<f32> {
        (0..n * G::INPUT_SIZE)
            .map(|_| (rng.random::<f32>() < 0.3) as u8 as f32)
            .collect()
    };
    let rate = |engine: EngineKind, what: &str, batch: usize, rate: f64, passes: f64| NnRate {
        what: what.into(),
        engine,
        batch,
        positions_per_sec: rate,
        flops: rate * passes * flops,
        of_peak: rate * passes * flops / peak,
    };
    let mut rates = Vec::new();
    for &kind in &bench.engines {
        let model = EngineModel::new(net, kind);
        if model.kind() != kind {
            continue;
        }
        let mut engine = model.open(bench.threads);
        for &batch in &bench.batches {
            let inputs = inputs_for(batch);
            let per_sec = per_second(seconds, batch, || {
                engine.evaluate(&inputs, batch);
            });
            rates.push(rate(kind, "eval", batch, per_sec, 1.0));
        }
    }
    let train_batch = bench.train_batch;
    let inputs = inputs_for(train_batch);
    let per_sec = train_rate::<G>(net.config(), train_batch, seconds, device, inputs);
    // Forward plus backward: about three forward passes.
    rates.push(rate(EngineKind::Burn, "train", train_batch, per_sec, 3.0));
    (peak, rates)
}

/// Positions per second of `step`, which handles `batch` positions, run once to warm up and
/// then repeatedly for about `seconds`.
fn per_second(seconds: f64, batch: usize, mut step: impl FnMut()) -> f64 {
    step();
    let start = Instant::now();
    let mut positions = 0;
    while start.elapsed().as_secs_f64() < seconds {
        step();
        positions += batch;
    }
    positions as f64 / start.elapsed().as_secs_f64()
}

/// Training positions per second of a net of `config` at `train_batch` on `inputs`.
fn train_rate<G: Encode>(
    config: &NetConfig,
    train_batch: usize,
    seconds: f64,
    device: &Device,
    inputs: Vec<f32>,
) -> f64 {
    let mut trainer = Trainer::new::<G>(config, &TrainConfig::default(), device);
    let policy = vec![1.0 / G::NUM_ACTIONS as f32; train_batch * G::NUM_ACTIONS];
    let wdl: Vec<f32> = (0..train_batch).flat_map(|_| [0.0, 1.0, 0.0]).collect();
    let score = vec![0.0; train_batch];
    let ownership = vec![0.0; train_batch * G::WIDTH * G::HEIGHT];
    let batch = Batch {
        size: train_batch,
        inputs: &inputs,
        policy: &policy,
        wdl: &wdl,
        score: config.score_head.then_some(&score[..]),
        ownership: config.ownership_head.then_some(&ownership[..]),
    };
    per_second(seconds, train_batch, || {
        trainer.train_step(&batch);
    })
}

/// Self-play speed of `G` under `config` with `net` (on `device` for burn), on each engine
/// in turn: rounds of `games_per_generation` games until `duration` has passed, per engine.
/// An engine that cannot run here is skipped, with the message [`oxo_engine::resolve`]
/// prints.
pub fn bench_selfplay<G: Encode>(
    net: &Net,
    config: &RunConfig,
    engines: &[EngineKind],
    duration: Duration,
) -> Vec<(EngineKind, SelfPlayStats)> {
    let mut results = Vec::new();
    for &engine in engines {
        if oxo_engine::resolve(engine) != engine {
            continue;
        }
        let config = RunConfig {
            engine,
            ..config.clone()
        };
        let mut total = SelfPlayStats::default();
        let mut round = 0;
        let start = Instant::now();
        while round == 0 || start.elapsed() < duration {
            let games = config.selfplay.games_per_generation;
            let (_, stats) = play_games::<G>(Some(net), &config, games, round, &|| {});
            total.add(&stats);
            round += 1;
        }
        results.push((engine, total));
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_rules::tictactoe::TicTacToe;

    #[test]
    fn benches_run_and_report_sane_numbers() {
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let bench = NnBench {
            engines: vec![EngineKind::Burn],
            batches: vec![1, 16],
            train_batch: 16,
            threads: 1,
            seconds: 0.05,
        };
        let (peak, rates) = bench_nn::<TicTacToe>(&net, &bench, &Device::flex());
        assert!(peak > 1e6, "{peak}");
        assert_eq!(rates.len(), 3);
        assert!(
            rates
                .iter()
                .all(|r| r.positions_per_sec > 0.0 && r.of_peak > 0.0)
        );
        let config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        let engines = [EngineKind::Burn];
        let results =
            bench_selfplay::<TicTacToe>(&net, &config, &engines, Duration::from_millis(10));
        let (engine, stats) = &results[0];
        assert_eq!(*engine, EngineKind::Burn);
        assert!(stats.games >= 8 && stats.eval_share() > 0.0 && stats.eval_share() <= 1.0);
    }
}

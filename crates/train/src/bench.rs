//! Speed measurements behind `oxo bench nn` and `oxo bench selfplay`.

use std::time::{Duration, Instant};

use burn::tensor::{Tensor, TensorData};
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
    /// Batch size.
    pub batch: usize,
    /// Positions per second.
    pub positions_per_sec: f64,
    /// FLOP/s this implies.
    pub flops: f64,
    /// `flops` as a fraction of the measured matmul peak.
    pub of_peak: f64,
}

/// Network speed of variant `G` with `config`: inference at `batches`, one training rate at
/// `train_batch`, and the matmul peak they are compared with, all on `device`. Each rate
/// runs about `seconds`.
pub fn bench_nn<G: Encode>(
    config: &NetConfig,
    batches: &[usize],
    train_batch: usize,
    seconds: f64,
    device: &Device,
) -> (f64, Vec<NnRate>) {
    let peak = matmul_peak(device, 1024, seconds);
    let shape = NetShape::of::<G>();
    let flops = forward_flops(&shape, config);
    let mut rng = SmallRng::seed_from_u64(3);
    let mut inputs_for = |n: usize| -> Vec<f32> {
        (0..n * G::INPUT_SIZE)
            .map(|_| (rng.random::<f32>() < 0.3) as u8 as f32)
            .collect()
    };
    let net = Net::new::<G>(config, device);
    let mut rates = Vec::new();
    for &batch in batches {
        let inputs = inputs_for(batch);
        net.evaluate(&inputs, batch);
        let start = Instant::now();
        let mut positions = 0;
        while start.elapsed().as_secs_f64() < seconds {
            net.evaluate(&inputs, batch);
            positions += batch;
        }
        let rate = positions as f64 / start.elapsed().as_secs_f64();
        rates.push(NnRate {
            what: "eval".into(),
            batch,
            positions_per_sec: rate,
            flops: rate * flops,
            of_peak: rate * flops / peak,
        });
    }
    let mut trainer = Trainer::new::<G>(config, &TrainConfig::default(), device);
    let inputs = inputs_for(train_batch);
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
    trainer.train_step(&batch);
    let start = Instant::now();
    let mut positions = 0;
    while start.elapsed().as_secs_f64() < seconds {
        trainer.train_step(&batch);
        positions += train_batch;
    }
    let rate = positions as f64 / start.elapsed().as_secs_f64();
    // Forward plus backward: about three forward passes.
    rates.push(NnRate {
        what: "train".into(),
        batch: train_batch,
        positions_per_sec: rate,
        flops: rate * 3.0 * flops,
        of_peak: rate * 3.0 * flops / peak,
    });
    (peak, rates)
}

/// Self-play speed of `G` under `config` with a random net on `device`: plays rounds of
/// `games_per_generation` games until `duration` has passed.
pub fn bench_selfplay<G: Encode>(
    config: &RunConfig,
    duration: Duration,
    device: &Device,
) -> SelfPlayStats {
    let net = Net::new::<G>(&config.net, device);
    let mut total = SelfPlayStats::default();
    let mut round = 0;
    let start = Instant::now();
    while round == 0 || start.elapsed() < duration {
        let (_, stats) = play_games::<G>(
            Some(&net),
            config,
            config.selfplay.games_per_generation,
            round,
            &|| {},
        );
        total.add(&stats);
        round += 1;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_rules::tictactoe::TicTacToe;

    #[test]
    fn benches_run_and_report_sane_numbers() {
        let (peak, rates) =
            bench_nn::<TicTacToe>(&NetConfig::new(1, 8), &[1, 16], 16, 0.05, &Device::flex());
        assert!(peak > 1e6, "{peak}");
        assert_eq!(rates.len(), 3);
        assert!(
            rates
                .iter()
                .all(|r| r.positions_per_sec > 0.0 && r.of_peak > 0.0)
        );
        let config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        let stats =
            bench_selfplay::<TicTacToe>(&config, Duration::from_millis(10), &Device::flex());
        assert!(stats.games >= 8 && stats.eval_share() > 0.0 && stats.eval_share() <= 1.0);
    }
}

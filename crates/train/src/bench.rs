//! Speed measurements behind `oxo bench nn`, `oxo bench train` and `oxo bench selfplay`.

use std::time::{Duration, Instant};

use burn::tensor::{Tensor, TensorData};
use oxo_agents::Evaluate;
use oxo_engine::{EngineKind, EngineModel};
use oxo_nn::{Batch, Device, Encode, Net, NetConfig, NetShape, TrainConfig, Trainer, WDL};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::config::RunConfig;
use crate::error::Result;
use crate::selfplay::{SelfPlayStats, play_games};
use crate::train::ReplicaRule;

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

/// One measured inference rate of `oxo bench nn`.
#[derive(Clone, Debug, Serialize)]
pub struct NnRate {
    /// The engine that ran it.
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
    /// Threads each network call may use (burn's rayon pool, onnxruntime's intra-op pool).
    pub threads: usize,
    /// Seconds per rate.
    pub seconds: f64,
}

/// Inference speed of `net` (variant `G`) on each engine at each batch size, and the fp32
/// matmul peak it is compared with, on `device`, all with `bench.threads` threads.
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
    let rate = |engine: EngineKind, batch: usize, rate: f64| NnRate {
        engine,
        batch,
        positions_per_sec: rate,
        flops: rate * flops,
        of_peak: rate * flops / peak,
    };
    let mut rates = Vec::new();
    for &kind in &bench.engines {
        let model = EngineModel::new(net, kind);
        if model.kind() != kind {
            continue;
        }
        let mut engine = model.open(bench.threads);
        for &batch in &bench.batches {
            let inputs = random_planes::<G>(&mut rng, batch);
            let per_sec = per_second(seconds, batch, || {
                engine.evaluate(&inputs, batch);
            })
            .mean;
            rates.push(rate(kind, batch, per_sec));
        }
    }
    (peak, rates)
}

/// `positions` random inputs for `G`, each plane value 1 with probability 0.3 (the speed of
/// a net does not depend on what it reads).
fn random_planes<G: Encode>(rng: &mut SmallRng, positions: usize) -> Vec<f32> {
    (0..positions * G::INPUT_SIZE)
        .map(|_| (rng.random::<f32>() < 0.3) as u8 as f32)
        .collect()
}

/// How fast a repeated step ran.
#[derive(Clone, Copy, Debug)]
struct Pace {
    /// Positions per second over the whole measurement.
    mean: f64,
    /// Positions per second at the median step's duration: on a machine shared with other
    /// work, the rate of the steps nothing slowed, which the mean mixes with the others.
    median: f64,
}

/// The durations of a repeated step that handles `batch` positions, over one or more
/// measurements.
#[derive(Clone, Debug)]
struct StepTimes {
    batch: usize,
    /// Each timed step's duration, in seconds.
    durations: Vec<f64>,
    /// The time the timed steps took, in seconds, from the first one's start to the last
    /// one's end in each measurement.
    elapsed: f64,
}

impl StepTimes {
    fn new(batch: usize) -> Self {
        StepTimes {
            batch,
            durations: Vec::with_capacity(1 << 12),
            elapsed: 0.0,
        }
    }

    /// Runs `step` once to warm up, then repeatedly for about `seconds`, adding each run's
    /// duration; returns this measurement's positions per second.
    fn measure(&mut self, seconds: f64, mut step: impl FnMut()) -> f64 {
        step();
        let start = Instant::now();
        let mut steps = 0;
        while steps == 0 || start.elapsed().as_secs_f64() < seconds {
            let began = Instant::now();
            step();
            self.durations.push(began.elapsed().as_secs_f64());
            steps += 1;
        }
        let elapsed = start.elapsed().as_secs_f64();
        self.elapsed += elapsed;
        (steps * self.batch) as f64 / elapsed
    }

    /// The pace over every measurement so far.
    fn pace(&self) -> Pace {
        let mut durations = self.durations.clone();
        durations.sort_by(f64::total_cmp);
        Pace {
            mean: (durations.len() * self.batch) as f64 / self.elapsed,
            median: self.batch as f64 / durations[durations.len() / 2],
        }
    }
}

/// The pace of `step`, which handles `batch` positions, run once to warm up and then
/// repeatedly for about `seconds`.
fn per_second(seconds: f64, batch: usize, step: impl FnMut()) -> Pace {
    let mut times = StepTimes::new(batch);
    times.measure(seconds, step);
    times.pace()
}

/// What `oxo bench train` measures.
#[derive(Clone, Debug)]
pub struct TrainBench {
    /// Thread counts to train on, in order ([`Trainer::set_threads`]).
    pub threads: Vec<usize>,
    /// One replica's batch size: a step on N threads trains N times it, as a run's trainer
    /// does ([`ReplicaRule`]).
    pub batch: usize,
    /// Seconds per measurement.
    pub seconds: f64,
    /// Measurements per thread count, taken in rounds: each round trains once on every
    /// count in turn, so that a speed-up compares rates measured seconds apart, where a
    /// shared machine's speed drifts from one minute to the next (docs/performance.md).
    pub rounds: usize,
}

/// One training rate of `oxo bench train`.
#[derive(Clone, Debug, Serialize)]
pub struct TrainRate {
    /// Threads it trained on.
    pub threads: usize,
    /// Batch size of a step: one replica's for each thread ([`ReplicaRule::batch`]).
    pub batch: usize,
    /// Training samples per second, over all its rounds.
    pub samples_per_sec: f64,
    /// Training samples per second at the median step's duration (the rate without the
    /// steps that other work on the machine slowed).
    pub median_samples_per_sec: f64,
    /// Training samples per second in each round.
    pub round_samples_per_sec: Vec<f64>,
    /// Over the first thread count's rate: the median over the rounds of the two rates
    /// measured in the same round.
    pub speedup: f64,
    /// FLOP/s this implies: three forward passes a sample (forward, and backward for the
    /// inputs and for the weights).
    pub flops: f64,
    /// The fp32 matmul peak on as many threads, measured just before the first round.
    pub peak_flops: f64,
    /// `flops` over `peak_flops`.
    pub of_peak: f64,
}

/// What `oxo bench train` found: a training rate per thread count and, where onnxruntime
/// loads, its one-thread inference rate at batch 64, the rate the engine best at this work
/// reaches on these layers.
#[derive(Clone, Debug, Serialize)]
pub struct TrainReport {
    /// Training, one rate per entry of [`TrainBench::threads`].
    pub rates: Vec<TrainRate>,
    /// onnxruntime's inference on one thread at batch 64.
    pub inference: Option<NnRate>,
}

/// Training speed of a net of `net`'s size (variant `G`; it trains from random weights, at a
/// trained net's speed) on `device`: AdamW steps on a fixed batch of random positions, on
/// each thread count of `bench`, in rounds, with onnxruntime's one-thread inference rate of
/// `net` for scale.
pub fn bench_train<G: Encode>(net: &Net, bench: &TrainBench, device: &Device) -> TrainReport {
    let config = net.config();
    let flops = forward_flops(net.shape(), config);
    let inference = {
        let nn = NnBench {
            engines: vec![EngineKind::Onnxruntime],
            batches: vec![64],
            threads: 1,
            seconds: bench.seconds,
        };
        bench_nn::<G>(net, &nn, device).1.pop()
    };
    let mut benches: Vec<ThreadsBench> = bench
        .threads
        .iter()
        .map(|&threads| ThreadsBench::new::<G>(config, threads, bench, device))
        .collect();
    let mut rounds = vec![Vec::with_capacity(bench.rounds); benches.len()];
    for _ in 0..bench.rounds.max(1) {
        for (bench_of, rates) in benches.iter_mut().zip(&mut rounds) {
            rates.push(bench_of.measure(bench.seconds));
        }
    }
    let rates = benches
        .iter()
        .zip(&rounds)
        .map(|(b, rates)| {
            let pace = b.times.pace();
            let flops = 3.0 * pace.mean * flops;
            TrainRate {
                threads: b.threads,
                batch: b.examples.size,
                samples_per_sec: pace.mean,
                median_samples_per_sec: pace.median,
                round_samples_per_sec: rates.clone(),
                speedup: median_ratio(rates, &rounds[0]),
                flops,
                peak_flops: b.peak_flops,
                of_peak: flops / b.peak_flops,
            }
        })
        .collect();
    TrainReport { rates, inference }
}

/// The median of `a[i] / b[i]` over the rounds.
fn median_ratio(a: &[f64], b: &[f64]) -> f64 {
    let mut ratios: Vec<f64> = a.iter().zip(b).map(|(a, b)| a / b).collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

/// Training on one thread count of `oxo bench train`: its threads, its trainer and the batch
/// it steps on, kept from round to round.
struct ThreadsBench {
    threads: usize,
    pool: rayon::ThreadPool,
    trainer: Trainer,
    examples: Examples,
    times: StepTimes,
    peak_flops: f64,
}

/// A batch's owned data: random positions with uniform policy targets and drawn results.
struct Examples {
    size: usize,
    inputs: Vec<f32>,
    policy: Vec<f32>,
    wdl: Vec<f32>,
    score: Option<Vec<f32>>,
    ownership: Option<Vec<f32>>,
}

impl ThreadsBench {
    /// A trainer of a net of `config` on `threads` threads, and the fp32 matmul peak there.
    fn new<G: Encode>(
        config: &NetConfig,
        threads: usize,
        bench: &TrainBench,
        device: &Device,
    ) -> Self {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .expect("a rayon pool builds");
        let peak_flops = pool.install(|| matmul_peak(device, 1024, bench.seconds));
        let mut trainer = Trainer::new::<G>(config, &TrainConfig::default(), device);
        trainer.set_threads(threads);
        let size = ReplicaRule::new(threads).batch(bench.batch);
        let examples = Examples {
            size,
            inputs: random_planes::<G>(&mut SmallRng::seed_from_u64(3), size),
            policy: vec![1.0 / G::NUM_ACTIONS as f32; size * G::NUM_ACTIONS],
            wdl: (0..size).flat_map(|_| [0.0, 1.0, 0.0]).collect(),
            score: config.score_head.then(|| vec![0.0; size]),
            ownership: config
                .ownership_head
                .then(|| vec![0.0; size * G::WIDTH * G::HEIGHT]),
        };
        ThreadsBench {
            threads,
            pool,
            trainer,
            examples,
            times: StepTimes::new(size),
            peak_flops,
        }
    }

    /// Trains for about `seconds` on this count's threads; its samples per second.
    fn measure(&mut self, seconds: f64) -> f64 {
        let ThreadsBench {
            pool,
            trainer,
            examples: e,
            times,
            ..
        } = self;
        let batch = Batch {
            size: e.size,
            inputs: &e.inputs,
            policy: &e.policy,
            wdl: &e.wdl,
            score: e.score.as_deref(),
            ownership: e.ownership.as_deref(),
        };
        pool.install(|| {
            times.measure(seconds, || {
                trainer.train_step(&batch);
            })
        })
    }
}

/// Self-play speed of `G` under `config` with `net` (on `device` for burn), on each engine
/// in turn: rounds of `games_per_generation` games until `duration` has passed, per engine.
/// An engine that cannot run here is skipped, with the message [`oxo_engine::resolve`]
/// prints.
///
/// # Errors
/// If the config's self-play opponents cannot be built ([`play_games`]).
pub fn bench_selfplay<G: Encode + Evaluate>(
    net: &Net,
    config: &RunConfig,
    engines: &[EngineKind],
    duration: Duration,
) -> Result<Vec<(EngineKind, SelfPlayStats)>> {
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
            let (_, stats) = play_games::<G>(Some(net), &config, games, round, &|| {})?;
            total.add(&stats);
            round += 1;
        }
        results.push((engine, total));
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxo_variants::tictactoe::TicTacToe;

    #[test]
    fn the_median_pace_leaves_out_the_slowed_steps() {
        let mut step = 0;
        let pace = per_second(0.2, 10, || {
            step += 1;
            let pause = if step % 5 == 0 { 20 } else { 2 };
            std::thread::sleep(Duration::from_millis(pause));
        });
        assert!(pace.median > 1.5 * pace.mean, "{pace:?}");
        assert!(pace.median <= 10.0 / 0.002, "{pace:?}");
    }

    #[test]
    fn a_speedup_pairs_the_rates_of_each_round() {
        // The second count was measured twice as fast in each round, while the machine's
        // speed moved between rounds: each round's ratio is 2, the ratio of the means not.
        let first = [100.0, 300.0, 110.0];
        let second = [200.0, 600.0, 220.0];
        assert_eq!(median_ratio(&second, &first), 2.0);
        assert_eq!(median_ratio(&[1.0, 5.0, 3.0], &[1.0, 1.0, 1.0]), 3.0);
    }

    #[test]
    fn benches_run_and_report_sane_numbers() {
        let net = Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex());
        let bench = NnBench {
            engines: vec![EngineKind::Burn],
            batches: vec![1, 16],
            threads: 1,
            seconds: 0.05,
        };
        let (peak, rates) = bench_nn::<TicTacToe>(&net, &bench, &Device::flex());
        assert!(peak > 1e6, "{peak}");
        assert_eq!(rates.len(), 2);
        assert!(
            rates
                .iter()
                .all(|r| r.positions_per_sec > 0.0 && r.of_peak > 0.0)
        );
        let train = TrainBench {
            threads: vec![1, 2],
            batch: 16,
            seconds: 0.05,
            rounds: 3,
        };
        let report = bench_train::<TicTacToe>(&net, &train, &Device::flex());
        let threads: Vec<usize> = report.rates.iter().map(|r| r.threads).collect();
        assert_eq!(threads, [1, 2]);
        assert!(
            report
                .rates
                .iter()
                .all(|r| r.round_samples_per_sec.len() == 3)
        );
        assert_eq!(report.rates[0].speedup, 1.0);
        assert!(report.rates[1].speedup > 0.0);
        assert!(
            report
                .rates
                .iter()
                .all(|r| r.samples_per_sec > 0.0 && r.of_peak > 0.0 && r.of_peak < 1.5)
        );
        assert!(report.rates.iter().all(|r| r.median_samples_per_sec > 0.0));
        let config = RunConfig::from_toml(crate::config::tests::SMALL).unwrap();
        let engines = [EngineKind::Burn];
        let results =
            bench_selfplay::<TicTacToe>(&net, &config, &engines, Duration::from_millis(10))
                .unwrap();
        let (engine, stats) = &results[0];
        assert_eq!(*engine, EngineKind::Burn);
        assert!(stats.games >= 8 && stats.eval_share() > 0.0 && stats.eval_share() <= 1.0);
    }
}

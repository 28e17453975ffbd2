//! Throughput of the flex CPU backend on ultimate (9x9), for sizing self-play and training:
//! `cargo test -p oxo-nn --test speed -- --ignored --nocapture` (the test profile, opt-level 2:
//! about half the speed of a release build).

use std::time::{Duration, Instant};

use oxo_nn::{Batch, Device, Encode, Net, NetConfig, TrainConfig, Trainer, WDL};
use oxo_rules::Game;
use oxo_variants::ultimate::Ultimate;
use rand::SeedableRng;
use rand::rngs::SmallRng;

/// How long each measurement runs.
const SPAN: Duration = Duration::from_secs(2);

/// `count` encoded positions from random games.
fn inputs(count: usize) -> Vec<f32> {
    let mut rng = SmallRng::seed_from_u64(9);
    let mut out = vec![0.0; count * Ultimate::INPUT_SIZE];
    let mut game = Ultimate::new();
    for chunk in out.chunks_mut(Ultimate::INPUT_SIZE) {
        if game.is_over() {
            game = Ultimate::new();
        }
        game.encode(chunk);
        game.play(game.random_action(&mut rng));
    }
    out
}

/// Positions per second of `work`, which handles `per_call` positions, after one warm-up call.
fn rate(per_call: usize, mut work: impl FnMut()) -> f64 {
    work();
    let start = Instant::now();
    let mut calls = 0;
    while start.elapsed() < SPAN {
        work();
        calls += 1;
    }
    (calls * per_call) as f64 / start.elapsed().as_secs_f64()
}

#[test]
#[ignore = "a measurement, not a test: run it by hand"]
fn ultimate_throughput() {
    let device = Device::flex();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            for (blocks, channels) in [(4, 32), (6, 64)] {
                let config = NetConfig::new(blocks, channels);
                let net = Net::new::<Ultimate>(&config, &device);
                let mut line = format!("{threads} thread(s), {blocks}x{channels}: inference");
                for batch in [1, 16, 64, 256] {
                    let data = inputs(batch);
                    let r = rate(batch, || {
                        net.evaluate(&data, batch);
                    });
                    line += &format!(" b{batch} {r:.0}/s");
                }
                let batch = 256;
                let data = inputs(batch);
                let policy = vec![1.0 / 81.0; batch * 81];
                let wdl: Vec<f32> = (0..batch).flat_map(|_| [0.0, 1.0, 0.0]).collect();
                let mut trainer =
                    Trainer::new::<Ultimate>(&config, &TrainConfig::default(), &device);
                let examples = Batch {
                    size: batch,
                    inputs: &data,
                    policy: &policy,
                    wdl: &wdl,
                    score: None,
                    ownership: None,
                };
                assert_eq!(wdl.len(), batch * WDL);
                let r = rate(batch, || {
                    trainer.train_step(&examples);
                });
                println!("{line}; training b{batch} {r:.0}/s");
            }
        });
    }
}

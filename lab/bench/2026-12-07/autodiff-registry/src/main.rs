//! What burn-autodiff's one graph registry per process costs a training step, on any machine.
//!
//! Every autodiff operation registers its node in a map shared by the whole process (one
//! mutex), and after each backward pass `cleanup_orphaned_entries` clones that map (one entry
//! per live node of every graph in the process) and tries each entry's graph lock
//! (burn-autodiff 0.22.1, `runtime/graph.rs`). oxo's trainer runs a replica per thread, each
//! with its own graph, so a replica's backward pass walks the nodes of all the others.
//!
//! Two measurements, each on tensors of 8 floats so that the registry is most of the work:
//! 1. one thread's forward-and-backward pass over a chain of `NODES` operations while `live`
//!    other chains of the same length are alive and unused (as other replicas' graphs are in
//!    the middle of their forward passes), live = 0, 1, 3, 7, 15: the cost that grows with the
//!    replicas without any second core;
//! 2. the same pass (no other chains) on 1, 2, ... threads at once (the counts given as the
//!    one argument, comma separated; default 1,2): whether the registry's mutex lets several
//!    threads' passes run side by side.
//!
//! Prints one JSON object.
//!
//!     CARGO_TARGET_DIR=target cargo run --release \
//!         --manifest-path lab/bench/2026-12-07/autodiff-registry/Cargo.toml [-- 1,2,4,8,16]

use burn::tensor::{Device, Tensor, TensorData};
use std::time::{Duration, Instant};

/// Operations in one chain: about the autodiff nodes of one replica's forward pass and loss
/// on oxo's 4-block nets (11 a residual block).
const NODES: usize = 100;
/// How long each measurement runs.
const SECONDS: f64 = 2.0;

/// A chain of `NODES` operations from one leaf of 8 floats, summed to a scalar.
fn chain(device: &Device) -> Tensor<1> {
    let leaf = Tensor::<1>::from_data(TensorData::new(vec![0.5f32; 8], [8]), device).require_grad();
    let mut x = leaf;
    for i in 0..NODES - 1 {
        x = if i % 2 == 0 {
            x.mul_scalar(1.0001)
        } else {
            x.add_scalar(0.0001)
        };
    }
    x.sum()
}

/// Forward-and-backward passes a second on this thread, for `SECONDS`.
fn passes_per_second(device: &Device) -> f64 {
    let deadline = Duration::from_secs_f64(SECONDS);
    let start = Instant::now();
    let mut passes = 0u64;
    while start.elapsed() < deadline {
        let grads = chain(device).backward();
        drop(grads);
        passes += 1;
    }
    passes as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let device = Device::flex().autodiff();
    // Warm up the allocator and the registry.
    passes_per_second(&device);

    let mut with_live = Vec::new();
    for live in [0usize, 1, 3, 7, 15] {
        let held: Vec<Tensor<1>> = (0..live).map(|_| chain(&device)).collect();
        let rate = passes_per_second(&device);
        drop(held);
        with_live.push(format!(
            "{{\"live_chains\":{live},\"passes_per_sec\":{rate:.1},\"us_per_pass\":{:.2}}}",
            1e6 / rate
        ));
    }

    let counts: Vec<usize> = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "1,2".into())
        .split(',')
        .map(|n| n.trim().parse().expect("thread counts: e.g. 1,2,4"))
        .collect();
    let mut threads = Vec::new();
    for count in counts {
        let rates: Vec<f64> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..count)
                .map(|_| scope.spawn(|| passes_per_second(&device)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a pass thread"))
                .collect()
        });
        let total: f64 = rates.iter().sum();
        threads.push(format!(
            "{{\"threads\":{count},\"passes_per_sec\":{total:.1}}}"
        ));
    }

    println!(
        "{{\"nodes_per_chain\":{NODES},\"floats_per_tensor\":8,\"seconds\":{SECONDS},\"burn\":\"0.22.1\",\"with_live_chains\":[{}],\"threads\":[{}]}}",
        with_live.join(","),
        threads.join(",")
    );
}

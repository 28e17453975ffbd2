//! `oxo bench nn`, `oxo bench train` and `oxo bench selfplay`: the network's speed on each
//! inference engine side by side, in one run; its training speed on each thread count; and
//! what it makes of self-play.

use std::path::PathBuf;
use std::time::Duration;

use oxo_engine::EngineKind;
use oxo_nn::{Device, Encode, Net, NetConfig};
use oxo_train::RunConfig;
use oxo_train::bench::{NnBench, NnRate, TrainBench, TrainRate};
use oxo_train::selfplay::SelfPlayStats;
use oxo_variants::{Variant, with_variant};

/// The net a bench measures.
pub enum NetChoice {
    /// A model file (a shipped model, a run's `best.bpk`).
    Model(PathBuf),
    /// A random net of this size: the speed is the same as a trained one's.
    Random(NetConfig),
}

impl NetChoice {
    /// Loads or builds the net for variant `G` on `device`; an error in words for a model
    /// that cannot be loaded, or a size that does not fit the variant.
    fn net<G: Encode>(&self, device: &Device) -> Result<Net, String> {
        match self {
            NetChoice::Model(path) => {
                Net::load::<G>(path, device).map_err(|e| format!("--model: {e}"))
            }
            NetChoice::Random(config) => {
                let shape = oxo_nn::NetShape::of::<G>();
                if !shape.fits_patch(config.patch) {
                    return Err(format!(
                        "--patch {} does not fit {}: the patches must tile its {}x{} grid and \
                         every action be a cell (try --patch 1)",
                        config.patch,
                        G::NAME,
                        shape.height,
                        shape.width
                    ));
                }
                Ok(Net::new::<G>(config, device))
            }
        }
    }
}

/// One line naming what ran: each engine (with onnxruntime's library), the threads.
fn engines_line(engines: &[EngineKind]) -> String {
    engines
        .iter()
        .filter(|&&kind| oxo_engine::resolve(kind) == kind)
        .map(|&kind| oxo_engine::describe(kind))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `oxo bench nn`: a table (or one JSON object) of evaluations per second by engine and batch,
/// with onnxruntime's speed over burn's where both ran.
pub fn run_nn(
    variant: Variant,
    net: &NetChoice,
    bench: &NnBench,
    device: &Device,
    json: bool,
) -> Result<(), String> {
    let (net, (peak, rates)) = with_variant!(variant, G => {
        let net = net.net::<G>(device)?;
        let result = oxo_train::bench::bench_nn::<G>(&net, bench, device);
        (net, result)
    });
    let config = net.config();
    if json {
        let out = serde_json::json!({
            "variant": variant.name(), "blocks": config.blocks, "channels": config.channels,
            "patch": config.patch, "threads": bench.threads,
            "engines": engines_line(&bench.engines),
            "matmul_peak_flops": peak, "rates": rates,
            "git_commit": oxo_arena::record::build_commit(),
        });
        println!("{out}");
        return Ok(());
    }
    println!(
        "{variant}, net {}x{}, patch {}, {} thread(s); fp32 matmul peak (1024^3, burn): {:.2} GFLOP/s",
        config.blocks,
        config.channels,
        config.patch,
        bench.threads,
        peak / 1e9
    );
    println!("engines: {}", engines_line(&bench.engines));
    println!(
        "{:<16} {:>6} {:>14} {:>10} {:>9} {:>9}",
        "engine", "batch", "positions/s", "GFLOP/s", "of peak", "vs burn"
    );
    for r in &rates {
        println!(
            "{:<16} {:>6} {:>14.0} {:>10.2} {:>8.1}% {:>9}",
            r.engine.name(),
            r.batch,
            r.positions_per_sec,
            r.flops / 1e9,
            100.0 * r.of_peak,
            versus_burn(r, &rates)
        );
    }
    Ok(())
}

/// `r`'s rate over burn's at the same batch (`2.95x`), or empty.
fn versus_burn(r: &NnRate, rates: &[NnRate]) -> String {
    rates
        .iter()
        .find(|b| b.engine == EngineKind::Burn && b.batch == r.batch)
        .filter(|_| r.engine != EngineKind::Burn)
        .map(|b| format!("{:.2}x", r.positions_per_sec / b.positions_per_sec))
        .unwrap_or_default()
}

/// `oxo bench train`: a line (or one JSON object) per thread count: samples/s, GFLOP/s, the
/// share of the matmul peak on as many threads, the speed-up over the first count (the median
/// of each round's), and the FLOP rate over onnxruntime's one-thread inference rate.
pub fn run_train(
    variant: Variant,
    net: &NetChoice,
    bench: &TrainBench,
    device: &Device,
    json: bool,
) -> Result<(), String> {
    let (config, report) = with_variant!(variant, G => {
        let net = net.net::<G>(device)?;
        let report = oxo_train::bench::bench_train::<G>(&net, bench, device);
        (net.config().clone(), report)
    });
    if json {
        let out = serde_json::json!({
            "variant": variant.name(), "net": config, "engine": "burn",
            "burn_version": oxo_train::run_info::BURN_VERSION, "report": report,
            "git_commit": oxo_arena::record::build_commit(),
        });
        println!("{out}");
        return Ok(());
    }
    println!(
        "{variant}, net {}x{}, patch {}, batch {} a thread, AdamW on burn {}",
        config.blocks,
        config.channels,
        config.patch,
        bench.batch,
        oxo_train::run_info::BURN_VERSION
    );
    let inference = report.inference.as_ref();
    match inference {
        Some(r) => println!(
            "onnxruntime inference, 1 thread, batch {}: {:.0} positions/s, {:.2} GFLOP/s",
            r.batch,
            r.positions_per_sec,
            r.flops / 1e9
        ),
        None => println!("onnxruntime inference: not measured (onnxruntime does not load here)"),
    }
    println!(
        "{:>7} {:>6} {:>10} {:>9} {:>15} {:>8} {:>8} {:>13} {:>9} {:>9}",
        "threads",
        "batch",
        "samples/s",
        "GFLOP/s",
        "peak GFLOP/s",
        "of peak",
        "speedup",
        "of inference",
        "median/s",
        "median x"
    );
    let first = report.rates.first();
    let median_speedup = |r: &TrainRate| {
        r.median_samples_per_sec
            / first.map_or(r.median_samples_per_sec, |f| f.median_samples_per_sec)
    };
    for r in &report.rates {
        let of_inference = inference.map_or(String::new(), |i| {
            format!("{:.1}%", 100.0 * r.flops / i.flops)
        });
        println!(
            "{:>7} {:>6} {:>10.0} {:>9.2} {:>15.2} {:>7.1}% {:>7.2}x {:>13} {:>9.0} {:>8.2}x",
            r.threads,
            r.batch,
            r.samples_per_sec,
            r.flops / 1e9,
            r.peak_flops / 1e9,
            100.0 * r.of_peak,
            r.speedup,
            of_inference,
            r.median_samples_per_sec,
            median_speedup(r),
        );
    }
    Ok(())
}

/// `oxo bench selfplay`: each engine's self-play rates, one line (or JSON object) each, then
/// the games per second of each engine over burn's.
pub fn run_selfplay(
    variant: Variant,
    net: &NetChoice,
    config: &RunConfig,
    engines: &[EngineKind],
    duration: Duration,
    device: &Device,
    json: bool,
) -> Result<(), String> {
    let results = with_variant!(variant, G => {
        let net = net.net::<G>(device)?;
        oxo_train::bench::bench_selfplay::<G>(&net, config, engines, duration)
            .map_err(|e| e.to_string())?
    });
    let burn = results
        .iter()
        .find(|(kind, _)| *kind == EngineKind::Burn)
        .map(|(_, stats)| stats.games_per_sec());
    for (engine, stats) in &results {
        let ratio = burn.map(|b| stats.games_per_sec() / b);
        if json {
            let mut out = serde_json::to_value(stats).expect("stats serialise");
            out["variant"] = variant.name().into();
            out["engine"] = oxo_engine::describe(*engine).into();
            out["games_per_sec"] = stats.games_per_sec().into();
            out["evals_per_sec"] = stats.evals_per_sec().into();
            out["eval_share"] = stats.eval_share().into();
            out["games_per_sec_vs_burn"] = ratio.into();
            println!("{out}");
        } else {
            println!("{}", selfplay_line(variant, *engine, stats, ratio));
        }
    }
    Ok(())
}

/// One engine's self-play rates in words.
fn selfplay_line(
    variant: Variant,
    engine: EngineKind,
    stats: &SelfPlayStats,
    ratio: Option<f64>,
) -> String {
    let versus = match ratio {
        Some(r) if engine != EngineKind::Burn => format!("; {r:.2}x burn's games/s"),
        _ => String::new(),
    };
    format!(
        "{variant} on {}: {} games in {:.1}s, workers {}: {:.2} games/s, {:.0} positions/s, \
         {:.0} evaluations/s (mean batch {:.1}); {:.1}% of the workers' time in network \
         evaluation{versus}",
        oxo_engine::describe(engine),
        stats.games,
        stats.seconds,
        stats.workers,
        stats.games_per_sec(),
        stats.positions_per_sec(),
        stats.evals_per_sec(),
        stats.evaluations as f64 / stats.eval_calls.max(1) as f64,
        100.0 * stats.eval_share()
    )
}

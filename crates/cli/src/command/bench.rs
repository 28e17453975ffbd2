//! `oxo bench`: speed of the rules, the handcrafted agents, the network and self-play.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use oxo_cli::bench;
use oxo_cli::bench_net::{self, NetChoice};
use oxo_variants::Variant;

use super::args::{
    DeviceArg, EngineArg, parse_batch, parse_rounds, parse_seconds, parse_threads, parse_variant,
    variant_help,
};
use super::train::load_config;

#[derive(clap::Subcommand)]
pub enum BenchTarget {
    /// Network evaluations/s at each batch size on each engine side by side, and the fp32
    /// matmul peak they are compared with.
    Nn(NnArgs),
    /// Training samples/s, GFLOP/s and share of the matmul peak per thread count, beside
    /// onnxruntime's one-thread inference rate; and the rate at the median step's duration,
    /// which steps slowed by other work on the machine do not pull down.
    Train(TrainArgs),
    /// Self-play speed on each engine in turn: games/s, evaluations/s, share of time in the
    /// net.
    Selfplay(SelfplayArgs),
    /// Random playouts per second (one thread, all threads) and mean game length.
    Rules(RulesArgs),
    /// Search speed of the alphabeta and uct agents (nodes or simulations per second).
    Agents(AgentsArgs),
}

impl BenchTarget {
    pub fn run(self) -> Result<(), String> {
        match self {
            BenchTarget::Nn(args) => args.run(),
            BenchTarget::Train(args) => args.run(),
            BenchTarget::Selfplay(args) => args.run(),
            BenchTarget::Rules(args) => {
                args.run();
                Ok(())
            }
            BenchTarget::Agents(args) => {
                args.run();
                Ok(())
            }
        }
    }
}

#[derive(clap::Args)]
pub struct NnArgs {
    #[arg(long, value_parser = parse_variant, help = variant_help(), default_value = "ultimate")]
    variant: Variant,
    /// A model file to measure (e.g. models/ultimate/model.bpk); without it, a random net
    /// of --blocks, --channels, --patch, --policy-channels and --value-channels.
    #[arg(long)]
    model: Option<PathBuf>,
    #[command(flatten)]
    engines: EngineArg,
    /// Threads per network call (burn's pool and onnxruntime's intra-op threads).
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    threads: usize,
    /// Residual blocks.
    #[arg(long, default_value_t = 4)]
    blocks: usize,
    /// Channels.
    #[arg(long, default_value_t = 32)]
    channels: usize,
    /// Side of the stem's patches (1: a vector per cell; 4 for extreme's small boards,
    /// 3 for ultimate's), as `net.patch` in a config.
    #[arg(long, default_value_t = 1)]
    patch: usize,
    /// Width of the policy head's 1x1 convolution (`net.policy_channels`).
    #[arg(long, default_value_t = 2)]
    policy_channels: usize,
    /// Width of the value head's 1x1 convolution (`net.value_channels`).
    #[arg(long, default_value_t = 2)]
    value_channels: usize,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Inference batch sizes, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64,256", value_parser = parse_batch)]
    batches: Vec<usize>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    device: DeviceArg,
}

impl NnArgs {
    fn run(self) -> Result<(), String> {
        let net = match self.model {
            Some(path) => NetChoice::Model(path),
            None => {
                let mut config =
                    oxo_nn::NetConfig::new(self.blocks, self.channels).with_patch(self.patch);
                config.policy_channels = self.policy_channels;
                config.value_channels = self.value_channels;
                NetChoice::Random(config)
            }
        };
        let bench = oxo_train::bench::NnBench {
            engines: self.engines.engines.0,
            batches: self.batches,
            threads: self.threads,
            seconds: self.seconds,
        };
        bench_net::run_nn(self.variant, &net, &bench, &self.device.device, self.json)
    }
}

#[derive(clap::Args)]
pub struct TrainArgs {
    #[arg(long, value_parser = parse_variant, help = variant_help(), default_value = "ultimate")]
    variant: Variant,
    /// Measure the net of this model file (e.g. models/ultimate/model.bpk); without it, the
    /// config's.
    #[arg(long)]
    model: Option<PathBuf>,
    /// The run configuration whose net and batch size are measured (default: the variant's
    /// built-in one, as `oxo train`).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Thread counts to train on, comma separated (default: 1 and every core).
    #[arg(long, value_delimiter = ',', value_parser = parse_threads)]
    threads: Option<Vec<usize>>,
    /// One replica's batch size (default: the config's `train.batch_size`); N threads train
    /// N times it a step, one replica a thread, as `oxo train`'s trainer does.
    #[arg(long, value_parser = parse_batch)]
    batch: Option<usize>,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 3.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Measurements per thread count, 1 to 100, in rounds over the counts; each speed-up is
    /// the median of the rounds' own ratios, so a machine whose speed drifts from minute to
    /// minute moves it less.
    #[arg(long, default_value_t = 3, value_parser = parse_rounds)]
    rounds: usize,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    device: DeviceArg,
}

impl TrainArgs {
    fn run(self) -> Result<(), String> {
        let config = load_config(self.variant, self.config.as_deref())?;
        let net = match self.model {
            Some(path) => NetChoice::Model(path),
            None => NetChoice::Random(config.net.clone()),
        };
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        let mut threads = self.threads.unwrap_or_else(|| vec![1, cores]);
        threads.dedup();
        let bench = oxo_train::bench::TrainBench {
            threads,
            batch: self.batch.unwrap_or(config.train.batch_size),
            seconds: self.seconds,
            rounds: self.rounds,
        };
        bench_net::run_train(self.variant, &net, &bench, &self.device.device, self.json)
    }
}

#[derive(clap::Args)]
pub struct SelfplayArgs {
    #[arg(long, value_parser = parse_variant, help = variant_help(), default_value = "ultimate")]
    variant: Variant,
    /// The model that plays (default: a random net of the config's size).
    #[arg(long)]
    model: Option<PathBuf>,
    #[command(flatten)]
    engines: EngineArg,
    /// The run configuration (default: the variant's built-in one, as `oxo train`).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Seconds to measure (at least one generation's games are played).
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Worker threads, one core and one network call at a time each (default: the
    /// config's `selfplay.workers`; 0 is one per core).
    #[arg(long, alias = "threads")]
    workers: Option<usize>,
    /// Games searched at once over all workers (default: the config's
    /// `selfplay.parallel_games`; raises `games_per_generation` to match); a GPU wants
    /// large batches.
    #[arg(long)]
    parallel_games: Option<usize>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    device: DeviceArg,
}

impl SelfplayArgs {
    fn run(self) -> Result<(), String> {
        let mut config = load_config(self.variant, self.config.as_deref())?;
        if let Some(workers) = self.workers {
            config.selfplay.workers = workers;
        }
        if let Some(parallel) = self.parallel_games {
            let max = oxo_train::config::MAX_PARALLEL_GAMES;
            if !(1..=max).contains(&parallel) {
                return Err(format!(
                    "--parallel-games {parallel} is out of range: allowed 1..={max}"
                ));
            }
            // A generation smaller than the games searched at once would cap the batch.
            let s = &mut config.selfplay;
            s.parallel_games = parallel;
            s.games_per_generation = s.games_per_generation.max(parallel);
        }
        config
            .validate()
            .map_err(|e| format!("--workers or --parallel-games: {e}"))?;
        let net = match self.model {
            Some(path) => NetChoice::Model(path),
            None => NetChoice::Random(config.net.clone()),
        };
        let duration = Duration::from_secs_f64(self.seconds);
        bench_net::run_selfplay(
            self.variant,
            &net,
            &config,
            &self.engines.engines.0,
            duration,
            &self.device.device,
            self.json,
        )
    }
}

#[derive(clap::Args)]
pub struct RulesArgs {
    /// Measure only this variant (default: all).
    #[arg(long, value_parser = parse_variant, help = variant_help())]
    variant: Option<Variant>,
    /// Print one JSON object per variant per line instead of a table.
    #[arg(long)]
    json: bool,
    /// Seconds to measure each rate.
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
    seconds: f64,
    /// Threads for the all-threads rate, 1 to 1024 (default: every core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
}

impl RulesArgs {
    fn run(self) {
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
        if !self.json {
            println!("{}", bench::table_header());
        }
        let duration = Duration::from_secs_f64(self.seconds);
        for variant in self.variant.map_or(Variant::ALL.to_vec(), |v| vec![v]) {
            let result = bench::bench_variant(variant, duration, threads);
            if self.json {
                println!(
                    "{}",
                    serde_json::to_string(&result).expect("results serialise")
                );
            } else {
                println!("{}", result.table_row());
            }
        }
    }
}

#[derive(clap::Args)]
pub struct AgentsArgs {
    /// Measure only this variant (default: all).
    #[arg(long, value_parser = parse_variant, help = variant_help())]
    variant: Option<Variant>,
    /// Print one JSON object per measurement per line instead of a table.
    #[arg(long)]
    json: bool,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 200)]
    move_ms: u64,
}

impl AgentsArgs {
    fn run(self) {
        if !self.json {
            println!("{:<10} {:<34} {:>14}", "variant", "agent", "nodes/s (1t)");
        }
        for variant in self.variant.map_or(Variant::ALL.to_vec(), |v| vec![v]) {
            for result in bench::bench_agents(variant, self.move_ms, 5) {
                if self.json {
                    println!(
                        "{}",
                        serde_json::to_string(&result).expect("results serialise")
                    );
                } else {
                    println!(
                        "{:<10} {:<34} {:>14.0}",
                        result.variant, result.agent, result.nodes_per_sec
                    );
                }
            }
        }
    }
}

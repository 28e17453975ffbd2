//! `oxo`: play, serve, rate and benchmark the tic-tac-toe variants.

use std::io::{self, IsTerminal};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use oxo_agents::AgentSpec;
use oxo_arena::{ArenaConfig, Report};
use oxo_cli::bench_net::{self, NetChoice};
use oxo_cli::{bench, gtp, play, session};
use oxo_rules::{Variant, with_variant};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// Self-play reinforcement learning for tic-tac-toe variants.
#[derive(Parser)]
#[command(name = "oxo", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game against the computer at the terminal (or through a pipe).
    Play {
        #[arg(long, value_parser = parse_variant, help = variant_help())]
        variant: Variant,
        /// The computer's agent, e.g. `alphabeta:ms=1000` or `uct:sims=10000` (default: the
        /// variant's shipped model with the search its model.json records, or `alphabeta:ms=1000`
        /// where none ships).
        #[arg(long, value_parser = parse_agent)]
        agent: Option<AgentSpec>,
    },
    /// Serve a GTP-style engine on stdin/stdout (protocol in README.md).
    Gtp {
        /// The variant to start with (the `variant` command switches).
        #[arg(long, value_parser = parse_variant, help = variant_help())]
        variant: Variant,
        /// The agent that answers `genmove`, e.g. `random` or `uct:sims=1000` (default: the
        /// variant's shipped model with the search its model.json records, or `random` where
        /// none ships).
        #[arg(long, value_parser = parse_agent)]
        agent: Option<AgentSpec>,
    },
    /// Rate agents in a round robin: paired games, Elo with 95% intervals, JSON and SVG.
    Arena {
        #[arg(long, value_parser = parse_variant, help = variant_help())]
        variant: Variant,
        /// Comma-separated agent specs; the first is the rating anchor (Elo 0).
        #[arg(long, value_parser = parse_agent_list)]
        agents: AgentList,
        /// Games per pairing, 1 to 1000000 (rounded up to even: each opening is played with
        /// both colours).
        #[arg(long, default_value_t = 100, value_parser = parse_games)]
        games: usize,
        /// Worker threads, 1 to 1024 (default: every core).
        #[arg(long, value_parser = parse_threads)]
        threads: Option<usize>,
        /// Random moves before the agents take over, 0 to 8 (default: 0 for tictactoe, 2
        /// otherwise).
        #[arg(long, value_parser = parse_opening_plies)]
        opening_plies: Option<usize>,
        /// Seed for openings and agents.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write PREFIX.json and PREFIX.svg (default: arena-VARIANT).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Train a network by self-play (resumes a run directory where it stopped).
    Train {
        #[arg(long, value_parser = parse_variant, help = variant_help())]
        variant: Variant,
        /// The run configuration (default: the variant's built-in one, the repository's
        /// configs/VARIANT.toml as this oxo was built; see --print-config).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Print the configuration this command would use (with its comments when it is the
        /// built-in one) and exit without training.
        #[arg(long)]
        print_config: bool,
        /// The run: a directory (default: runs/VARIANT), or a store URL (`s3://BUCKET/PREFIX`,
        /// `gs://`, `az://`, `file:///DIR`) that many processes share; credentials and
        /// endpoint from the environment (`AWS_ENDPOINT`, `AWS_ACCESS_KEY_ID`,
        /// `AWS_ALLOW_HTTP`, ...).
        #[arg(long)]
        run: Option<String>,
        /// Run one role of a store run: `selfplay` (any number of workers), `trainer`
        /// (exactly one), `gate` (one), or `all` (the three in turn; the default for a URL).
        /// With a directory, the directory is then a store run.
        #[arg(long, value_parser = parse_role)]
        role: Option<oxo_train::roles::Role>,
        /// Start this trainer although another one wrote to the store in the last two
        /// minutes: that one was killed and this one replaces it.
        #[arg(long)]
        takeover: bool,
        /// Where a store run's processes keep the models they fetch (default: a folder of
        /// the system's temporary directory).
        #[arg(long)]
        cache: Option<PathBuf>,
        /// Threads this process of a store run plays on, 1 to 1024 (default: the config's
        /// selfplay.workers).
        #[arg(long, value_parser = parse_threads)]
        threads: Option<usize>,
        /// Stop at the first stage boundary after this many minutes (above 0, at most a year).
        #[arg(long, allow_negative_numbers = true, value_parser = parse_minutes)]
        minutes: Option<f64>,
        /// Start a new run from this model's weights (a model file or checkpoint of the
        /// config's variant and net size) instead of a random net; read only when the run
        /// directory holds no run yet, so the same command resumes.
        #[arg(long, value_name = "MODEL")]
        init: Option<PathBuf>,
        #[command(flatten)]
        device: DeviceArg,
    },
    /// Where a store run stands (`oxo train --run URL`): generation, best net, the last gate
    /// decision, each self-play worker's games per hour; from the store alone.
    Status {
        /// The run's store: a URL or a directory.
        #[arg(long)]
        run: String,
    },
    /// Export a trained network for other front ends: ONNX, safetensors, model.json, README.
    Export {
        /// The model (or checkpoint) file, e.g. runs/ultimate/models/best.bpk.
        #[arg(long)]
        model: PathBuf,
        /// The directory to write (created if needed).
        #[arg(long)]
        out: PathBuf,
        /// The search the model plays best with, recorded in model.json for `oxo play` and
        /// `oxo gtp` to use by default: a net agent's search parameters, e.g. `search=puct,ms=400`
        /// or `sims=200`.
        #[arg(long, default_value = oxo_train::play_search::DEFAULT_PLAY_SEARCH)]
        search: String,
    },
    /// Measure speed.
    Bench {
        #[command(subcommand)]
        target: BenchTarget,
    },
}

#[derive(Subcommand)]
enum BenchTarget {
    /// Network evaluations/s at batch 1, 16, 64, 256 on each engine side by side, training
    /// positions/s, and the fp32 matmul peak they are compared with.
    Nn {
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
        /// Training batch size.
        #[arg(long, default_value_t = 128, value_parser = parse_batch)]
        train_batch: usize,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        device: DeviceArg,
    },
    /// Self-play speed on each engine in turn: games/s, evaluations/s, share of time in the
    /// net.
    Selfplay {
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
    },
    /// Random playouts per second (one thread, all threads) and mean game length.
    Rules {
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
    },
    /// Search speed of the alphabeta and uct agents (nodes or simulations per second).
    Agents {
        /// Measure only this variant (default: all).
        #[arg(long, value_parser = parse_variant, help = variant_help())]
        variant: Option<Variant>,
        /// Print one JSON object per measurement per line instead of a table.
        #[arg(long)]
        json: bool,
        /// Milliseconds per move.
        #[arg(long, default_value_t = 200)]
        move_ms: u64,
    },
}

/// `--device`, as every command that runs the network takes it.
#[derive(clap::Args)]
struct DeviceArg {
    /// Where the network runs: cpu (flex); cuda or cuda:N, vulkan or vulkan:N (GPUs, in an
    /// oxo built with `--features cuda` or `--features vulkan`).
    #[arg(long = "device", default_value = "cpu", value_parser = oxo_nn::device_from_name)]
    device: oxo_nn::Device,
}

/// `--engine`, as the benches take it.
#[derive(clap::Args)]
struct EngineArg {
    /// The inference engines to measure side by side: onnxruntime, burn, or both.
    #[arg(long = "engine", default_value = "both", value_parser = parse_engines)]
    engines: EngineList,
}

/// A parsed `--engine` list.
#[derive(Clone)]
struct EngineList(Vec<oxo_engine::EngineKind>);

fn parse_engines(text: &str) -> Result<EngineList, String> {
    match text {
        "both" => Ok(EngineList(oxo_engine::EngineKind::ALL.to_vec())),
        _ => text
            .parse()
            .map(|kind| EngineList(vec![kind]))
            .map_err(|e: String| format!("{e}, or both")),
    }
}

/// The longest `--minutes` accepted: a year.
const MAX_MINUTES: f64 = 365.0 * 24.0 * 60.0;

fn parse_minutes(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(m) if m > 0.0 && m <= MAX_MINUTES => Ok(m),
        _ => Err(format!(
            "'{text}' is not a time limit: give minutes above 0 and at most {MAX_MINUTES} (a year)"
        )),
    }
}

/// A count in `low..=high`, or an error naming `what` and the range.
fn parse_count(text: &str, what: &str, low: usize, high: usize) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not {what}: give a number from {low} to {high}"
        )),
    }
}

fn parse_games(text: &str) -> Result<usize, String> {
    parse_count(text, "a number of games", 1, 1_000_000)
}

/// Random opening moves: a few vary the games; more than 8 would decide them at random.
fn parse_opening_plies(text: &str) -> Result<usize, String> {
    parse_count(text, "a number of opening moves", 0, 8)
}

fn parse_threads(text: &str) -> Result<usize, String> {
    parse_count(text, "a thread count", 1, 1024)
}

/// A parsed `--agents` list.
#[derive(Clone)]
struct AgentList(Vec<AgentSpec>);

fn variant_help() -> String {
    format!("Variant: {}", Variant::names())
}

fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse()
        .map_err(|e: oxo_rules::variant::UnknownVariant| e.to_string())
}

fn parse_agent(text: &str) -> Result<AgentSpec, String> {
    text.parse()
        .map_err(|e: oxo_agents::SpecError| e.to_string())
}

fn parse_agent_list(text: &str) -> Result<AgentList, String> {
    let specs = AgentSpec::parse_list(text).map_err(|e| e.to_string())?;
    if specs.len() < 2 {
        return Err("give at least two agents, comma separated, e.g. random,greedy".into());
    }
    for (i, spec) in specs.iter().enumerate() {
        if specs[..i].iter().any(|earlier| earlier.text == spec.text) {
            return Err(format!(
                "agent '{}' is listed twice: list each agent once (a second copy can differ \
                 by seed=N)",
                spec.text
            ));
        }
    }
    Ok(AgentList(specs))
}

fn parse_batch(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=65536).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a batch size: give a number from 1 to 65536"
        )),
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!(
            "'{text}' is not a duration: give seconds between 0 and 3600, e.g. 2"
        )),
    }
}

/// Restores SIGPIPE's default action (Rust ignores it, so a write to a closed pipe is an
/// error and `println!` panics): `oxo train | head -1` then ends quietly, as Unix tools do,
/// when `head` stops reading.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is always valid.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let command = Cli::parse().command;
    if !matches!(command, Command::Train { .. }) {
        tracing_subscriber::registry()
            .with(stderr_log("warn"))
            .init();
    }
    let result = match command {
        Command::Play { variant, agent } => play::play(
            variant,
            &agent.unwrap_or_else(|| session::default_agent(variant, "alphabeta:ms=1000")),
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
        ),
        Command::Gtp { variant, agent } => run_gtp(variant, agent),
        Command::Arena {
            variant,
            agents,
            games,
            threads,
            opening_plies,
            seed,
            out,
        } => {
            // Tictactoe is too small for random openings; paytoplay's empty board is a solved
            // win for O, so every game from it would repeat the same story.
            let default_plies = if variant == Variant::TicTacToe { 0 } else { 2 };
            let config = ArenaConfig {
                games_per_pair: games.max(2),
                opening_plies: opening_plies.unwrap_or(default_plies),
                seed,
            };
            let out = out.unwrap_or_else(|| PathBuf::from(format!("arena-{variant}")));
            run_arena(variant, &agents.0, &config, threads, &out)
        }
        Command::Train {
            variant,
            config,
            print_config,
            run,
            role,
            takeover,
            cache,
            threads,
            minutes,
            init,
            device,
        } => {
            let location = run.unwrap_or_else(|| format!("runs/{variant}"));
            if print_config {
                print_train_config(variant, config)
            } else if role.is_some() || oxo_train::roles::is_url(&location) {
                let options = oxo_train::roles::RoleOptions {
                    time_limit: minutes.map(|m| Duration::from_secs_f64(m * 60.0)),
                    cache,
                    takeover,
                    threads,
                    progress: io::stderr().is_terminal(),
                    ..Default::default()
                };
                let role = role.unwrap_or(oxo_train::roles::Role::All);
                run_store_train(
                    variant,
                    config,
                    &location,
                    role,
                    init,
                    &options,
                    &device.device,
                )
            } else {
                run_train(
                    variant,
                    config,
                    Some(PathBuf::from(location)),
                    minutes,
                    init,
                    &device.device,
                )
            }
        }
        Command::Status { run } => run_status(&run),
        Command::Export { model, out, search } => run_export(&model, &out, &search),
        Command::Bench { target } => run_bench(target),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// The terminal's share of the log lines: the events `RUST_LOG` lets through (by default
/// warnings and errors, such as an inference engine falling back), on standard error. A
/// training run's `log.txt` gets every event at INFO and above besides.
fn stderr_log<S>(default: &str) -> impl Layer<S>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    tracing_subscriber::fmt::layer()
        .with_writer(io::stderr)
        .with_ansi(io::stderr().is_terminal())
        .without_time()
        .with_target(false)
        .with_filter(filter)
}

fn run_gtp(variant: Variant, agent: Option<AgentSpec>) -> Result<(), String> {
    let mut engine = gtp::Engine::new(variant, agent).map_err(|e| e.to_string())?;
    engine
        .run(io::stdin().lock(), io::stdout().lock())
        .map_err(|e| format!("i/o error: {e}"))
}

fn run_export(model: &Path, out: &Path, search: &str) -> Result<(), String> {
    oxo_train::play_search::check_search_params(search).map_err(|e| format!("--search: {e}"))?;
    let info = oxo_nn::FileInfo::read(model).map_err(|e| e.to_string())?;
    let variant: Variant = info
        .shape
        .variant
        .parse()
        .map_err(|e| format!("{}: {e}", model.display()))?;
    let written = with_variant!(variant, G => oxo_train::export_model::<G>(model, out, search))
        .map_err(|e| e.to_string())?;
    for path in written {
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn run_arena(
    variant: Variant,
    agents: &[AgentSpec],
    config: &ArenaConfig,
    threads: Option<usize>,
    out: &Path,
) -> Result<(), String> {
    // PREFIX.json, PREFIX.svg: appended, so a prefix with a dot (`c_scale-0.3`) keeps it.
    let with_suffix = |suffix: &str| {
        let mut path = out.as_os_str().to_owned();
        path.push(suffix);
        PathBuf::from(path)
    };
    let (json_path, svg_path) = (with_suffix(".json"), with_suffix(".svg"));
    // Fail before hours of games, not after them: the results' temporary file must be
    // writable (the results themselves stay untouched until the games are over).
    let probe = with_suffix(".json.tmp");
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| format!("cannot write {}: {e}", json_path.display()))?;
    let pairs = agents.len() * (agents.len() - 1) / 2;
    let total = (pairs * config.games_per_pair.div_ceil(2) * 2) as u64;
    let bar = indicatif::ProgressBar::new(total).with_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
        )
        .expect("valid progress template"),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let report: Report = pool
        .install(|| {
            with_variant!(variant, G => oxo_arena::run_tournament_with::<G>(agents, config, &oxo_train::build_any_agent::<G>, &|| bar.inc(1)))
        })
        .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    println!("{}", report.table());
    let json = serde_json::to_string_pretty(&report).expect("reports serialise");
    write_atomically(&json_path, json.as_bytes())?;
    write_atomically(&svg_path, oxo_arena::chart::ratings_svg(&report).as_bytes())?;
    println!("wrote {} and {}", json_path.display(), svg_path.display());
    Ok(())
}

/// Writes a file through a temporary file and a rename, so it is never seen half written.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let temp = path.with_extension(format!(
        "{}.tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    std::fs::write(&temp, bytes)
        .and_then(|()| std::fs::rename(&temp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The run configuration at `path`, or the variant's built-in one.
fn load_config(variant: Variant, path: Option<PathBuf>) -> Result<oxo_train::RunConfig, String> {
    config_and_text(variant, path).map(|(config, _)| config)
}

/// The run configuration at `path` (or the variant's built-in one) and its text, checked to be
/// a config of `variant`.
fn config_and_text(
    variant: Variant,
    path: Option<PathBuf>,
) -> Result<(oxo_train::RunConfig, String), String> {
    let Some(path) = path else {
        let text = oxo_train::RunConfig::default_text(variant).to_string();
        return Ok((oxo_train::RunConfig::default_for(variant), text));
    };
    let (config, text) = oxo_train::RunConfig::load_with_text(&path).map_err(|e| e.to_string())?;
    if config.variant != variant.name() {
        return Err(format!(
            "{}: a {} config, but --variant is {variant}",
            path.display(),
            config.variant
        ));
    }
    Ok((config, text))
}

/// `oxo train --print-config`: the text of the config `oxo train` would use (the file given,
/// or the built-in one with its comments).
fn print_train_config(variant: Variant, path: Option<PathBuf>) -> Result<(), String> {
    let (_, text) = config_and_text(variant, path)?;
    print!("{text}");
    Ok(())
}

/// `oxo train --run URL` or `--role ROLE`: one role (or all three) of a store run. Log lines
/// go to standard error (at INFO unless `RUST_LOG` says otherwise): a store has no log file.
fn run_store_train(
    variant: Variant,
    config: Option<PathBuf>,
    location: &str,
    role: oxo_train::roles::Role,
    init: Option<PathBuf>,
    options: &oxo_train::roles::RoleOptions,
    device: &oxo_nn::Device,
) -> Result<(), String> {
    use oxo_train::roles::ConfigChoice;
    if let Some(init) = init {
        return Err(format!(
            "--init {}: a store run starts from a random net; --init works with a run directory",
            init.display()
        ));
    }
    if !oxo_train::roles::is_url(location)
        && std::path::Path::new(location).join("state.json").exists()
    {
        return Err(format!(
            "{location} is a run directory of `oxo train` without --role; a store run needs \
             another directory or a URL"
        ));
    }
    tracing_subscriber::registry()
        .with(stderr_log("info"))
        .init();
    let choice = match config {
        Some(_) => ConfigChoice::Given(load_config(variant, config)?),
        None => ConfigChoice::StoredOr(oxo_train::RunConfig::default_for(variant)),
    };
    let run = oxo_train::roles::StoreRun::open(location, Some(variant.name()), choice, options)
        .map_err(|e| e.to_string())?;
    let summary =
        with_variant!(variant, G => oxo_train::roles::run_role::<G>(&run, role, device, options))
            .map_err(|e| e.to_string())?;
    println!("{summary}");
    Ok(())
}

/// `oxo status --run URL`.
fn run_status(location: &str) -> Result<(), String> {
    let options = oxo_train::roles::RoleOptions::default();
    let run = oxo_train::roles::StoreRun::open(
        location,
        None,
        oxo_train::roles::ConfigChoice::Stored,
        &options,
    )
    .map_err(|e| e.to_string())?;
    print!(
        "{}",
        oxo_train::roles::status::report(&run).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// A `--role` value.
fn parse_role(s: &str) -> Result<oxo_train::roles::Role, String> {
    s.parse()
}

fn run_train(
    variant: Variant,
    config: Option<PathBuf>,
    run: Option<PathBuf>,
    minutes: Option<f64>,
    init: Option<PathBuf>,
    device: &oxo_nn::Device,
) -> Result<(), String> {
    let config = load_config(variant, config)?;
    let root = run.unwrap_or_else(|| PathBuf::from(format!("runs/{variant}")));
    let run = oxo_train::RunDir::open(&root, &config).map_err(|e| e.to_string())?;
    let run_log = oxo_train::logging::run_log_layer(&run).map_err(|e| e.to_string())?;
    tracing_subscriber::registry()
        .with(stderr_log("warn"))
        .with(run_log)
        .init();
    let options = oxo_train::LoopOptions {
        time_limit: minutes.map(|m| Duration::from_secs_f64(m * 60.0)),
        max_stages: None,
        command: std::env::args().collect(),
        progress: true,
        init,
    };
    let state = with_variant!(variant, G => oxo_train::run_loop::<G>(&run, device, &options))
        .map_err(|e| e.to_string())?;
    println!(
        "{}: generation {} next {:?}; best model gen {} ({}); {} games, {} positions",
        root.display(),
        state.generation,
        state.next,
        state.best,
        run.best_path().display(),
        state.total_games,
        state.total_positions
    );
    Ok(())
}

fn run_bench(target: BenchTarget) -> Result<(), String> {
    match target {
        BenchTarget::Nn {
            variant,
            model,
            engines,
            threads,
            blocks,
            channels,
            patch,
            policy_channels,
            value_channels,
            seconds,
            batches,
            train_batch,
            json,
            device,
        } => {
            let net = match model {
                Some(path) => NetChoice::Model(path),
                None => {
                    let mut config = oxo_nn::NetConfig::new(blocks, channels).with_patch(patch);
                    config.policy_channels = policy_channels;
                    config.value_channels = value_channels;
                    NetChoice::Random(config)
                }
            };
            let bench = oxo_train::bench::NnBench {
                engines: engines.engines.0,
                batches,
                train_batch,
                threads,
                seconds,
            };
            return bench_net::run_nn(variant, &net, &bench, &device.device, json);
        }
        BenchTarget::Selfplay {
            variant,
            model,
            engines,
            config,
            seconds,
            workers,
            parallel_games,
            json,
            device,
        } => {
            let mut config = load_config(variant, config)?;
            if let Some(workers) = workers {
                config.selfplay.workers = workers;
            }
            if let Some(parallel) = parallel_games {
                // A generation smaller than the games searched at once would cap the batch.
                let s = &mut config.selfplay;
                s.parallel_games = parallel;
                s.games_per_generation = s.games_per_generation.max(parallel);
            }
            config
                .validate()
                .map_err(|e| format!("--workers or --parallel-games: {e}"))?;
            let net = match model {
                Some(path) => NetChoice::Model(path),
                None => NetChoice::Random(config.net.clone()),
            };
            let duration = Duration::from_secs_f64(seconds);
            let engines = &engines.engines.0;
            return bench_net::run_selfplay(
                variant,
                &net,
                &config,
                engines,
                duration,
                &device.device,
                json,
            );
        }
        _ => {}
    }
    match target {
        BenchTarget::Rules {
            variant,
            json,
            seconds,
            threads,
        } => {
            let threads = threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
            });
            if !json {
                println!("{}", bench::table_header());
            }
            for variant in variant.map_or(Variant::ALL.to_vec(), |v| vec![v]) {
                let duration = Duration::from_secs_f64(seconds);
                let result = bench::bench_variant(variant, duration, threads);
                if json {
                    println!(
                        "{}",
                        serde_json::to_string(&result).expect("results serialise")
                    );
                } else {
                    println!("{}", result.table_row());
                }
            }
        }
        BenchTarget::Agents {
            variant,
            json,
            move_ms,
        } => {
            if !json {
                println!("{:<10} {:<34} {:>14}", "variant", "agent", "nodes/s (1t)");
            }
            for variant in variant.map_or(Variant::ALL.to_vec(), |v| vec![v]) {
                for result in bench::bench_agents(variant, move_ms, 5) {
                    if json {
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
        BenchTarget::Nn { .. } | BenchTarget::Selfplay { .. } => unreachable!("handled above"),
    }
    Ok(())
}

//! `oxo`: train, play, serve, rate, judge, export, average, grow and benchmark networks for
//! the tic-tac-toe variants, and list the variants. Each command lives in its own module under `command/`; this file
//! parses the command line and hands over.

mod command;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use command::{arena, average, bench, export, grow, gtp, judge, play, status, train, variants};

/// Self-play reinforcement learning for tic-tac-toe variants: train networks, play them,
/// serve them as a GTP-style engine, rate agents, export and benchmark.
#[derive(Parser)]
#[command(name = "oxo", version, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game against the computer at the terminal (or through a pipe).
    Play(play::PlayArgs),
    /// Serve a GTP-style engine on stdin/stdout.
    ///
    /// One command a line, each answered `= ...` or `? ...`; `list_commands` names them.
    Gtp(gtp::GtpArgs),
    /// Rate agents in a round robin: paired games, Elo with 95% intervals, JSON and SVG.
    Arena(arena::ArenaArgs),
    /// Train a network by self-play: self-play, the trainer and the gate at once.
    ///
    /// The run (a directory, or a store URL many processes share, each playing one
    /// `--role`) resumes where it stopped by the same command.
    Train(train::TrainArgs),
    /// Where a run stands, from its directory or store, changing nothing.
    ///
    /// Its newest candidate and best net, the last gate decision, the training budget, its
    /// wall-clock time, its last rating and each self-play worker's games per hour.
    Status(status::StatusArgs),
    /// Export a trained network as a directory for other front ends.
    ///
    /// The directory holds model.onnx, model.safetensors, model.bpk, model.json (the input
    /// encoding, the moves, the outputs, how to play it) and a README.
    Export(export::ExportArgs),
    /// Average the weights of snapshots of one network into one model file.
    ///
    /// Stochastic weight averaging, e.g. of a run's last generations.
    Average(average::AverageArgs),
    /// Grow a trained network (Net2Net), so training starts from what it knows.
    ///
    /// Deeper, with new residual blocks that start silent, or reading the input planes its
    /// variant's encoding gained since it was trained.
    Grow(grow::GrowArgs),
    /// Judge an agent's moves by a variant's exact solver.
    ///
    /// The share of won and drawn positions (reached by random moves and by the agent's own
    /// play) where its move keeps the exact value, and its games as X against `solver`.
    Judge(judge::JudgeArgs),
    /// List the variants: one name a line, or --json with each one's shape.
    Variants(variants::VariantsArgs),
    /// Measure speed: the network, self-play, the rules and the handcrafted agents.
    Bench {
        #[command(subcommand)]
        target: bench::BenchTarget,
    },
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

/// mimalloc keeps the large buffers a training step frees for the next step, where glibc's
/// malloc returns them to the kernel and faults them in again: training ran 1.3x faster
/// (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let command = Cli::parse().command;
    // `oxo train` sets up its own log: INFO on standard error and in the run's log.txt.
    if !matches!(command, Command::Train(_)) {
        tracing_subscriber::registry()
            .with(command::stderr_log("warn"))
            .init();
    }
    let result = match command {
        Command::Play(args) => args.run(),
        Command::Gtp(args) => args.run(),
        Command::Arena(args) => args.run(),
        Command::Train(args) => args.run(),
        Command::Status(args) => args.run(),
        Command::Export(args) => args.run(),
        Command::Average(args) => args.run(),
        Command::Grow(args) => args.run(),
        Command::Judge(args) => args.run(),
        Command::Variants(args) => args.run(),
        Command::Bench { target } => target.run(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

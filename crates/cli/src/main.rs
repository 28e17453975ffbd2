//! `oxo`: play, serve, rate and benchmark the tic-tac-toe variants. Each command lives in its
//! own module under `command/`; this file parses the command line and hands over.

mod command;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use command::{arena, average, bench, export, grow, gtp, play, status, train};

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
    Play(play::PlayArgs),
    /// Serve a GTP-style engine on stdin/stdout (protocol in README.md).
    Gtp(gtp::GtpArgs),
    /// Rate agents in a round robin: paired games, Elo with 95% intervals, JSON and SVG.
    Arena(arena::ArenaArgs),
    /// Train a network by self-play (resumes a run directory where it stopped).
    Train(train::TrainArgs),
    /// Where a store run stands (`oxo train --run URL`): generation, best net, the last gate
    /// decision, each self-play worker's games per hour; from the store alone.
    Status(status::StatusArgs),
    /// Export a trained network for other front ends: ONNX, safetensors, model.json, README.
    Export(export::ExportArgs),
    /// Average the weights of several snapshots of one network (stochastic weight averaging):
    /// e.g. a run's last generations, into one model file.
    Average(average::AverageArgs),
    /// Grow a trained network (Net2Net): deeper, with new residual blocks that start silent,
    /// or reading input planes its encoding gained since, so training starts from what it knows.
    Grow(grow::GrowArgs),
    /// Measure speed.
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

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let command = Cli::parse().command;
    // `oxo train` sets up its own log: a run directory's log file, or a store role's INFO.
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

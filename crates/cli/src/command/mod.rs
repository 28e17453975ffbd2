//! One module per `oxo` command, as KataGo's `command/` has one file per command: each holds
//! the command's arguments and the function that runs it. `args` holds the argument types
//! and checks that several commands share.

pub mod arena;
pub mod args;
pub mod average;
pub mod bench;
pub mod export;
pub mod grow;
pub mod gtp;
pub mod judge;
pub mod play;
pub mod status;
pub mod train;
pub mod variants;

use std::io::{self, IsTerminal};

use tracing_subscriber::{EnvFilter, Layer};

/// The terminal's share of the log lines: the events `RUST_LOG` lets through (by default
/// `default`: warnings and errors, such as an inference engine falling back), on standard
/// error. A training run's `log.txt` gets every event at INFO and above besides.
pub fn stderr_log<S>(default: &str) -> impl Layer<S>
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

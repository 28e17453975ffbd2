//! Where training's log lines go. The stages report through `tracing` events (`info!` for
//! each stage's summary, `warn!` for a repair such as a restored best model); the program
//! decides where they are shown. A run keeps its own history: [`run_log_layer`] appends every
//! event at INFO and above to the run's `log.txt` ([`Journal::log_path`](crate::observe::Journal::log_path)),
//! whatever `RUST_LOG` says about the terminal.

use std::fs::OpenOptions;
use std::path::Path;
use std::sync::Mutex;

use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::registry::LookupSpan;

use crate::error::{TrainError, io_error};

/// A layer that appends events at INFO and above to the log file `path`: plain text, one
/// timestamped (UTC) entry per event, appended so that a crash can at worst cut the last one.
pub fn run_log_layer<S>(path: &Path) -> Result<impl Layer<S> + Send + Sync + use<S>, TrainError>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| io_error(path, e))?;
    Ok(tracing_subscriber::fmt::layer()
        .with_writer(Mutex::new(file))
        .with_ansi(false)
        .with_target(false)
        .with_filter(LevelFilter::INFO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt;

    /// Events at INFO and above reach `log.txt`, each with its level; DEBUG does not; a
    /// second layer (a resumed run) appends instead of replacing.
    #[test]
    fn events_at_info_and_above_are_appended_to_the_run_log() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run").join("log.txt");
        for word in ["first", "second"] {
            let subscriber = tracing_subscriber::registry().with(run_log_layer(&path).unwrap());
            tracing::subscriber::with_default(subscriber, || {
                tracing::info!("{word} run started");
                tracing::warn!("{word} repair");
                tracing::debug!("{word} detail");
            });
        }
        let log = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 4, "{log}");
        assert!(lines[0].contains("INFO") && lines[0].ends_with("first run started"));
        assert!(lines[1].contains("WARN") && lines[1].ends_with("first repair"));
        assert!(lines[3].ends_with("second repair"), "{log}");
        assert!(!log.contains("detail"), "{log}");
    }
}

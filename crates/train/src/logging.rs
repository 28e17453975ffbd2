//! Where training's log lines go. The roles report through `tracing` events (`info!` for
//! each step's summary, `warn!` for a repair such as a restored best copy); the program
//! decides where they are shown. A run keeps its own history: [`RunLog`] appends every event
//! at INFO and above to the run's `log.txt`
//! ([`Journal::log_path`](crate::observe::Journal::log_path)), whatever `RUST_LOG` says about
//! the terminal, those from before the run was opened (where its log lies) included.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use tracing::Subscriber;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::registry::LookupSpan;

use crate::error::{Result, io_error};

/// A run's log file, known once the run is open: until [`RunLog::open`] the events wait in
/// memory, then they and every later one are appended to the file.
#[derive(Clone, Default)]
pub struct RunLog(Arc<Mutex<Sink>>);

/// Where [`RunLog`]'s events go now.
enum Sink {
    /// Held until the file is known.
    Pending(Vec<u8>),
    /// Appended to the run's log file.
    File(File),
}

impl Default for Sink {
    fn default() -> Self {
        Sink::Pending(Vec::new())
    }
}

impl RunLog {
    /// A log whose file is not known yet.
    pub fn new() -> Self {
        RunLog::default()
    }

    /// A layer that writes events at INFO and above to this log: plain text, one
    /// timestamped (UTC) entry per event, appended so that a crash can at worst cut the
    /// last one.
    pub fn layer<S>(&self) -> impl Layer<S> + Send + Sync + use<S>
    where
        S: Subscriber + for<'a> LookupSpan<'a>,
    {
        let log = self.clone();
        tracing_subscriber::fmt::layer()
            .with_writer(move || log.clone())
            .with_ansi(false)
            .with_target(false)
            .with_filter(LevelFilter::INFO)
    }

    /// From now on appends to the file `path` (created with its directory if missing),
    /// first the events held so far.
    pub fn open(&self, path: &Path) -> Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        let mut sink = self.0.lock().expect("no writer panics holding the log");
        if let Sink::Pending(held) = &*sink {
            file.write_all(held).map_err(|e| io_error(path, e))?;
        }
        *sink = Sink::File(file);
        Ok(())
    }
}

impl Write for RunLog {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match &mut *self.0.lock().expect("no writer panics holding the log") {
            Sink::Pending(held) => held.extend_from_slice(bytes),
            Sink::File(file) => file.write_all(bytes)?,
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut *self.0.lock().expect("no writer panics holding the log") {
            Sink::Pending(_) => Ok(()),
            Sink::File(file) => file.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt;

    /// Events at INFO and above reach `log.txt`, each with its level, those from before the
    /// file was known first; DEBUG does not; a second log (a resumed run) appends instead of
    /// replacing.
    #[test]
    fn events_at_info_and_above_are_appended_to_the_run_log() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run").join("log.txt");
        for word in ["first", "second"] {
            let log = RunLog::new();
            let subscriber = tracing_subscriber::registry().with(log.layer());
            tracing::subscriber::with_default(subscriber, || {
                tracing::warn!("{word} early warning");
                log.open(&path).unwrap();
                tracing::info!("{word} run started");
                tracing::debug!("{word} detail");
            });
        }
        let log = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 4, "{log}");
        assert!(lines[0].contains("WARN") && lines[0].ends_with("first early warning"));
        assert!(lines[1].contains("INFO") && lines[1].ends_with("first run started"));
        assert!(lines[3].ends_with("second run started"), "{log}");
        assert!(!log.contains("detail"), "{log}");
    }
}

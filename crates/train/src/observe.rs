//! Observability: the run's journal (every metrics record as a line of `metrics.jsonl` and
//! each numeric field as a TensorBoard scalar in `tb/`), and indicatif progress bars.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;
use tensorboard_rs::summary_writer::SummaryWriter;

use crate::error::{Result, io_error};

/// The local copy of a run's metrics in a directory (the run's own for a directory run, the
/// process's cache for an object store run): `metrics.jsonl`, one line a record, appended,
/// and TensorBoard events under `tb/`, written by every process and role that records.
pub struct Journal {
    dir: PathBuf,
    writer: Mutex<Option<SummaryWriter>>,
}

impl Journal {
    /// The journal in `dir`.
    pub fn new(dir: &Path) -> Self {
        Journal {
            dir: dir.to_path_buf(),
            writer: Mutex::new(None),
        }
    }

    /// `metrics.jsonl`.
    pub fn metrics_path(&self) -> PathBuf {
        self.dir.join("metrics.jsonl")
    }

    /// `log.txt`, where the command that trains appends its log lines.
    pub fn log_path(&self) -> PathBuf {
        self.dir.join("log.txt")
    }

    /// Adds record `name` of `role` (a JSON object) as a line of `metrics.jsonl` with
    /// `role` and `name` in it, and its numeric fields as scalars `ROLE/FIELD` at step
    /// `step` (a generation). One `write` of a whole line to a file opened to append, so
    /// the roles' lines never interleave and a crash cuts at most the last.
    pub fn append(&self, role: &str, name: &str, step: u64, fields: &Value) -> Result<()> {
        let mut object = fields.as_object().cloned().unwrap_or_default();
        {
            let mut writer = self
                .writer
                .lock()
                .expect("no role panics holding the journal");
            let writer = writer.get_or_insert_with(|| SummaryWriter::new(self.dir.join("tb")));
            for (field, value) in &object {
                if let Some(x) = value.as_f64() {
                    writer.add_scalar(&format!("{role}/{field}"), x as f32, step as usize);
                }
            }
            writer.flush();
        }
        object.insert("role".into(), role.into());
        object.insert("name".into(), name.into());
        let mut line = Value::Object(object).to_string();
        line.push('\n');
        let path = self.metrics_path();
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| file.write_all(line.as_bytes()))
            .map_err(|e| io_error(&path, e))
    }
}

/// Progress bars, drawn or not.
#[derive(Clone, Copy, Default)]
pub struct Observer {
    /// Whether to draw progress bars (off in tests and when output is not a terminal).
    pub progress: bool,
}

impl Observer {
    /// An observer; `progress` turns the progress bars on.
    pub fn new(progress: bool) -> Self {
        Observer { progress }
    }

    /// A progress bar of `len` items named `what`, hidden unless progress is on.
    pub fn bar(&self, len: u64, what: &str) -> ProgressBar {
        if !self.progress {
            return ProgressBar::hidden();
        }
        ProgressBar::new(len).with_style(
            ProgressStyle::with_template(&format!(
                "{{spinner}} {what:<16} {{bar:30}} {{pos}}/{{len}} {{elapsed_precise}} (eta {{eta}})"
            ))
            .expect("valid progress template"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records of several roles written at once all arrive whole, each with its role and
    /// name, and TensorBoard events are written beside them.
    #[test]
    fn records_of_roles_at_once_arrive_as_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::new(dir.path());
        std::thread::scope(|scope| {
            for role in ["trainer", "gate", "selfplay"] {
                let journal = &journal;
                scope.spawn(move || {
                    for n in 0..40u64 {
                        let fields =
                            serde_json::json!({"seconds": n as f64, "note": "x".repeat(300)});
                        journal
                            .append(role, &format!("gen-{n:05}"), n, &fields)
                            .unwrap();
                    }
                });
            }
        });
        let metrics = journal.metrics_path();
        // The event file is written by the writer's own thread, done when it is dropped.
        drop(journal);
        let text = std::fs::read_to_string(metrics).unwrap();
        let records: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 120);
        assert_eq!(records.iter().filter(|r| r["role"] == "gate").count(), 40);
        assert!(std::fs::read_dir(dir.path().join("tb")).unwrap().count() > 0);
    }
}

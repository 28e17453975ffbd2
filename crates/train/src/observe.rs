//! Observability: metrics as JSON lines (`metrics.jsonl`) and tensorboard scalars (`tb/`),
//! and indicatif progress bars.

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;
use tensorboard_rs::summary_writer::SummaryWriter;

use crate::rundir::{Result, RunDir};

/// Writes one process's metrics: each record a line of `metrics.jsonl` and, for each
/// numeric field, a tensorboard scalar `STAGE/FIELD` at step = generation.
pub struct Observer {
    writer: Option<SummaryWriter>,
    /// Whether to draw progress bars (off in tests and when output is not a terminal).
    pub progress: bool,
}

impl Default for Observer {
    fn default() -> Self {
        Observer::new(false)
    }
}

impl Observer {
    /// An observer; `progress` turns the progress bars on.
    pub fn new(progress: bool) -> Self {
        Observer {
            writer: None,
            progress,
        }
    }

    /// Records `fields` of stage `stage` in generation `generation`.
    pub fn record(
        &mut self,
        run: &RunDir,
        generation: u64,
        stage: &str,
        fields: Value,
    ) -> Result<()> {
        let mut object = match fields {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        let writer = self
            .writer
            .get_or_insert_with(|| SummaryWriter::new(run.tb_path()));
        for (name, value) in &object {
            if let Some(x) = value.as_f64() {
                writer.add_scalar(&format!("{stage}/{name}"), x as f32, generation as usize);
            }
        }
        writer.flush();
        object.insert("generation".into(), generation.into());
        object.insert("stage".into(), stage.into());
        object.insert("time".into(), crate::rundir::unix_now().into());
        run.append_jsonl(
            &run.metrics_path(),
            &format!("{generation}/{stage}"),
            Value::Object(object),
        )
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

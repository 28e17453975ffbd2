//! `oxo average`: one network from several snapshots of a run, their weights averaged.

use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct AverageArgs {
    /// The model file to write (a `.bpk`, as `oxo export --model` and `net:path=` read).
    #[arg(long)]
    out: PathBuf,
    /// The model files or checkpoints to average: snapshots of one network, e.g. a run's
    /// last generations, `R/models/gen-000{90..99}.bpk`.
    #[arg(required = true, num_args = 1..)]
    models: Vec<PathBuf>,
}

impl AverageArgs {
    pub fn run(self) -> Result<(), String> {
        self.refuse_repeats()?;
        if self.models.contains(&self.out) {
            return Err(format!(
                "--out {} is one of the files to average: name a new file",
                self.out.display()
            ));
        }
        let models: Vec<&Path> = self.models.iter().map(PathBuf::as_path).collect();
        let info = oxo_nn::average_models(&models, &self.out).map_err(|e| e.to_string())?;
        println!(
            "wrote {}: the mean of {} {} networks",
            self.out.display(),
            models.len(),
            info.shape.variant
        );
        Ok(())
    }

    /// A mean needs two or more different files: one file, or a file named twice (by any
    /// path), would only copy or overweight it.
    fn refuse_repeats(&self) -> Result<(), String> {
        if self.models.len() < 2 {
            return Err(
                "a mean needs at least two model files: name the snapshots to average".into(),
            );
        }
        let mut seen: Vec<(PathBuf, &Path)> = Vec::new();
        for model in &self.models {
            let real = model
                .canonicalize()
                .map_err(|e| format!("{}: {e}", model.display()))?;
            if let Some((_, first)) = seen.iter().find(|(path, _)| *path == real) {
                return Err(format!(
                    "{} and {} are the same file: name each snapshot once",
                    first.display(),
                    model.display()
                ));
            }
            seen.push((real, model));
        }
        Ok(())
    }
}

//! `oxo export`: a trained network for other front ends (ONNX, safetensors, the oxo model
//! file, model.json, README).

use std::path::PathBuf;

use oxo_variants::{Variant, with_variant};

#[derive(clap::Args)]
pub struct ExportArgs {
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
    /// The value the model plays best with, recorded in model.json beside the search: a net
    /// agent's value parameters, e.g. `score=0.5` (the score head's share, the win/draw/loss
    /// head's the rest) or `rollouts=16,mix=0.5` (default: the value its run trained with).
    #[arg(long)]
    value: Option<String>,
    /// Overwrite an export already in --out (without it, a directory that holds any of the
    /// export's files is refused and left as it is).
    #[arg(long)]
    replace: bool,
}

impl ExportArgs {
    pub fn run(self) -> Result<(), String> {
        let (model, search) = (&self.model, &self.search);
        oxo_train::play_search::check_search_params(search)
            .map_err(|e| format!("--search: {e}"))?;
        let value = self
            .value
            .as_deref()
            .map(oxo_play::value::check_value_params)
            .transpose()
            .map_err(|e| format!("--value: {e}"))?;
        self.refuse_to_overwrite()?;
        let info = oxo_nn::FileInfo::read(model).map_err(|e| e.to_string())?;
        let variant: Variant = info
            .shape
            .variant
            .parse()
            .map_err(|e| format!("{}: {e}", model.display()))?;
        let written =
            with_variant!(variant, G => oxo_train::export_model::<G>(model, &self.out, search, value))
                .map_err(|e| e.to_string())?;
        for path in written {
            println!("wrote {}", path.display());
        }
        Ok(())
    }

    /// Without `--replace`, an error naming the export files already in `--out`.
    fn refuse_to_overwrite(&self) -> Result<(), String> {
        let present: Vec<&str> = oxo_train::export::EXPORT_FILES
            .iter()
            .copied()
            .filter(|file| self.out.join(file).exists())
            .collect();
        match self.replace || present.is_empty() {
            true => Ok(()),
            false => Err(format!(
                "{} already holds an export ({}): give --replace to overwrite it, or another --out",
                self.out.display(),
                present.join(", ")
            )),
        }
    }
}

//! `oxo grow`: a larger network that starts as the function of a trained one.

use std::path::PathBuf;

use oxo_nn::{FileInfo, NetShape};
use oxo_variants::{Variant, with_variant};

#[derive(clap::Args)]
pub struct GrowArgs {
    /// The model file to write (a `.bpk`, as `oxo train --init` and `net:path=` read).
    #[arg(long)]
    out: PathBuf,
    /// Residual blocks of the grown network (default: the model's). New blocks go after the
    /// model's own and start silent, so the grown net plays exactly as the model does until
    /// training (`oxo train --init OUT` with `net.blocks` set to this) puts them to use.
    #[arg(long)]
    blocks: Option<usize>,
    /// The model file or checkpoint to grow, e.g. models/adjacency/model.bpk. Where its
    /// variant's encoding has gained input planes since it was trained, the grown net reads
    /// them too, with weights that start at zero.
    model: PathBuf,
}

impl GrowArgs {
    pub fn run(self) -> Result<(), String> {
        if self.model == self.out {
            return Err(format!(
                "--out {} is the model to grow: name a new file",
                self.out.display()
            ));
        }
        if let Some(blocks) = self.blocks.filter(|&b| b > oxo_nn::MAX_BLOCKS) {
            return Err(format!(
                "--blocks {blocks} is out of range: a network has at most {} blocks",
                oxo_nn::MAX_BLOCKS
            ));
        }
        let before = FileInfo::read(&self.model).map_err(|e| e.to_string())?;
        let variant: Variant = before
            .shape
            .variant
            .parse()
            .map_err(|e| format!("{}: {e}", self.model.display()))?;
        let shape = with_variant!(variant, G => NetShape::of::<G>());
        let blocks = self.blocks.unwrap_or(before.config.blocks);
        let info = oxo_nn::grow_model(&self.model, blocks, &shape, &self.out)
            .map_err(|e| e.to_string())?;
        println!(
            "wrote {}: the {variant} network of {} grown from {} blocks and {} input planes to \
             {} blocks of {} channels and {} planes (train it with net.blocks = {} and --init {})",
            self.out.display(),
            self.model.display(),
            before.config.blocks,
            before.shape.planes,
            info.config.blocks,
            info.config.channels,
            info.shape.planes,
            info.config.blocks,
            self.out.display()
        );
        Ok(())
    }
}

//! `oxo variants`: the registered variants, for people and for the scripts and pages outside
//! Rust that need the list (one name a line, or `--json` with each one's shape).

use oxo_agents::Evaluate;
use oxo_encode::Encode;
use oxo_variants::{Variant, with_variant};
use serde::Serialize;

#[derive(clap::Args)]
pub struct VariantsArgs {
    /// One JSON object a line: name, grid, actions, input planes, symmetries, scores, solver.
    #[arg(long)]
    json: bool,
}

/// What a front end needs to know of a variant before it reads its rules.
#[derive(Serialize)]
struct Shape {
    name: &'static str,
    width: usize,
    height: usize,
    actions: usize,
    planes: usize,
    symmetries: usize,
    scores: bool,
    solver: bool,
}

fn shape<G: Encode + Evaluate>() -> Shape {
    Shape {
        name: G::NAME,
        width: G::WIDTH,
        height: G::HEIGHT,
        actions: G::NUM_ACTIONS,
        planes: G::PLANES,
        symmetries: G::NUM_SYMMETRIES,
        scores: G::HAS_SCORES,
        solver: G::SOLVABLE,
    }
}

impl VariantsArgs {
    pub fn run(self) -> Result<(), String> {
        for variant in Variant::ALL {
            if self.json {
                let shape = with_variant!(variant, G => shape::<G>());
                println!(
                    "{}",
                    serde_json::to_string(&shape).map_err(|e| e.to_string())?
                );
            } else {
                println!("{variant}");
            }
        }
        Ok(())
    }
}

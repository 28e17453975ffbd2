//! `oxo gtp`: a GTP-style engine on stdin/stdout (the protocol: `oxo_cli::gtp`).

use std::io;

use oxo_agents::AgentSpec;
use oxo_cli::gtp;
use oxo_variants::Variant;

use super::args::{parse_agent, parse_variant, variant_help};

#[derive(clap::Args)]
pub struct GtpArgs {
    /// The variant to start with (the `variant` command switches).
    #[arg(long, value_parser = parse_variant, help = variant_help())]
    variant: Variant,
    /// The agent that answers `genmove`, e.g. `random` or `uct:sims=1000` (default: the
    /// variant's shipped model with the search its model.json records, or `random` where
    /// none ships).
    #[arg(long, value_parser = parse_agent)]
    agent: Option<AgentSpec>,
}

impl GtpArgs {
    pub fn run(self) -> Result<(), String> {
        let mut engine = gtp::Engine::new(self.variant, self.agent).map_err(|e| e.to_string())?;
        if let Some(setting) = engine.agent_setting() {
            eprintln!("oxo gtp: genmove plays {setting}");
        }
        engine
            .run(io::stdin().lock(), io::stdout().lock())
            .map_err(|e| format!("i/o error: {e}"))
    }
}

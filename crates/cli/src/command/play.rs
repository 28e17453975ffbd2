//! `oxo play`: a game against the computer at the terminal (or through a pipe).

use std::io;

use oxo_agents::AgentSpec;
use oxo_cli::{play, session};
use oxo_variants::Variant;

use super::args::{parse_agent, parse_variant, variant_help};

#[derive(clap::Args)]
pub struct PlayArgs {
    #[arg(long, value_parser = parse_variant, help = variant_help())]
    variant: Variant,
    /// The computer's agent, e.g. `alphabeta:ms=1000` or `uct:sims=10000` (default: the
    /// variant's shipped model with the search its model.json records, or `alphabeta:ms=1000`
    /// where none ships).
    #[arg(long, value_parser = parse_agent)]
    agent: Option<AgentSpec>,
}

impl PlayArgs {
    pub fn run(self) -> Result<(), String> {
        let variant = self.variant;
        let agent = self
            .agent
            .unwrap_or_else(|| session::default_agent(variant, "alphabeta:ms=1000"));
        play::play(
            variant,
            &agent,
            &mut io::stdin().lock(),
            &mut io::stdout().lock(),
        )
    }
}

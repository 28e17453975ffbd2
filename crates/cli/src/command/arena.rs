//! `oxo arena`: a round robin of agents, paired games, Elo with 95% intervals, JSON and SVG.

use std::path::{Path, PathBuf};

use oxo_arena::{ArenaConfig, Report};
use oxo_variants::{Variant, with_variant};

use super::args::{
    AgentList, parse_agent_list, parse_games, parse_opening_plies, parse_threads, parse_variant,
    variant_help,
};

#[derive(clap::Args)]
pub struct ArenaArgs {
    #[arg(long, value_parser = parse_variant, help = variant_help())]
    variant: Variant,
    /// Comma-separated agent specs; the first is the rating anchor (Elo 0).
    #[arg(long, value_parser = parse_agent_list)]
    agents: AgentList,
    /// Games per pairing, 1 to 1000000 (rounded up to even: each opening is played with
    /// both colours).
    #[arg(long, default_value_t = 100, value_parser = parse_games)]
    games: usize,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Random moves before the agents take over, 0 to 8 (default: 0 for tictactoe, 2
    /// otherwise).
    #[arg(long, value_parser = parse_opening_plies)]
    opening_plies: Option<usize>,
    /// Seed for openings and agents.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write PREFIX.json and PREFIX.svg (default: arena-VARIANT).
    #[arg(long)]
    out: Option<PathBuf>,
}

impl ArenaArgs {
    pub fn run(self) -> Result<(), String> {
        let variant = self.variant;
        // Tictactoe is too small for random openings; paytoplay's empty board is a solved
        // win for O, so every game from it would repeat the same story.
        let default_plies = if variant == Variant::TicTacToe { 0 } else { 2 };
        let config = ArenaConfig {
            games_per_pair: self.games.max(2),
            opening_plies: self.opening_plies.unwrap_or(default_plies),
            seed: self.seed,
        };
        let out = self
            .out
            .unwrap_or_else(|| PathBuf::from(format!("arena-{variant}")));
        run_arena(variant, &self.agents.0, &config, self.threads, &out)
    }
}

/// What `PREFIX.json` holds: the report and what made it.
#[derive(serde::Serialize)]
struct ResultsFile<'a> {
    #[serde(flatten)]
    report: &'a Report,
    made_by: MadeBy,
}

/// The oxo build and command line that made a result file, so that it says how to make it
/// again (each agent's model, graph and engine are in its standing).
#[derive(serde::Serialize)]
pub(super) struct MadeBy {
    oxo_version: &'static str,
    /// The git commit oxo was built from, if it was built in a git checkout.
    git_commit: Option<String>,
    command: Vec<String>,
}

impl MadeBy {
    /// This process: its build and command line.
    pub(super) fn now() -> MadeBy {
        MadeBy {
            oxo_version: env!("CARGO_PKG_VERSION"),
            git_commit: oxo_arena::record::build_commit(),
            command: std::env::args().collect(),
        }
    }
}

fn run_arena(
    variant: Variant,
    agents: &[oxo_agents::AgentSpec],
    config: &ArenaConfig,
    threads: Option<usize>,
    out: &Path,
) -> Result<(), String> {
    // PREFIX.json, PREFIX.svg: appended, so a prefix with a dot (`c_scale-0.3`) keeps it.
    let with_suffix = |suffix: &str| {
        let mut path = out.as_os_str().to_owned();
        path.push(suffix);
        PathBuf::from(path)
    };
    let (json_path, svg_path) = (with_suffix(".json"), with_suffix(".svg"));
    // Fail before hours of games, not after them: the results' temporary file must be
    // writable (the results themselves stay untouched until the games are over).
    let probe = with_suffix(".json.tmp");
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| format!("cannot write {}: {e}", json_path.display()))?;
    let pairs = agents.len() * (agents.len() - 1) / 2;
    let total = (pairs * config.games_per_pair.div_ceil(2) * 2) as u64;
    let bar = indicatif::ProgressBar::new(total).with_style(
        indicatif::ProgressStyle::with_template(
            "{spinner} {bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
        )
        .expect("valid progress template"),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let report: Report = pool
        .install(|| {
            with_variant!(variant, G => oxo_arena::run_tournament_with::<G>(agents, config, &oxo_player::build_any_agent::<G>, &|| bar.inc(1)))
        })
        .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    println!("{}", report.table());
    let results = ResultsFile {
        report: &report,
        made_by: MadeBy::now(),
    };
    let json = serde_json::to_string_pretty(&results).expect("reports serialise");
    let svg = oxo_arena::chart::ratings_svg(&report);
    for (path, bytes) in [(&json_path, json.as_bytes()), (&svg_path, svg.as_bytes())] {
        oxo_arena::record::write_atomic(path, bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    println!("wrote {} and {}", json_path.display(), svg_path.display());
    Ok(())
}

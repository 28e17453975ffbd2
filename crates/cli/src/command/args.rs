//! Argument types and value checks that several commands share: each bad value is refused
//! with what is accepted.

use oxo_agents::AgentSpec;
use oxo_variants::Variant;

/// `--device`, as every command that runs the network takes it.
#[derive(clap::Args)]
pub struct DeviceArg {
    /// Where the network runs: cpu (flex); cuda or cuda:N, vulkan or vulkan:N (GPUs, in an
    /// oxo built with `--features cuda` or `--features vulkan`).
    #[arg(long = "device", default_value = "cpu", value_parser = oxo_nn::device_from_name)]
    pub device: oxo_nn::Device,
}

/// `--engine`, as the benches take it.
#[derive(clap::Args)]
pub struct EngineArg {
    /// The inference engines to measure side by side: onnxruntime, burn, or both.
    #[arg(long = "engine", default_value = "both", value_parser = parse_engines)]
    pub engines: EngineList,
}

/// A parsed `--engine` list.
#[derive(Clone)]
pub struct EngineList(pub Vec<oxo_engine::EngineKind>);

fn parse_engines(text: &str) -> Result<EngineList, String> {
    match text {
        "both" => Ok(EngineList(oxo_engine::EngineKind::ALL.to_vec())),
        _ => text
            .parse()
            .map(|kind| EngineList(vec![kind]))
            .map_err(|e: String| format!("{e}, or both")),
    }
}

/// The longest `--minutes` accepted: a year.
const MAX_MINUTES: f64 = 365.0 * 24.0 * 60.0;

pub fn parse_minutes(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(m) if m > 0.0 && m <= MAX_MINUTES => Ok(m),
        _ => Err(format!(
            "'{text}' is not a time limit: give minutes above 0 and at most {MAX_MINUTES} (a year)"
        )),
    }
}

/// A count in `low..=high`, or an error naming `what` and the range.
fn parse_count(text: &str, what: &str, low: usize, high: usize) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not {what}: give a number from {low} to {high}"
        )),
    }
}

pub fn parse_games(text: &str) -> Result<usize, String> {
    parse_count(text, "a number of games", 1, 1_000_000)
}

/// Random opening moves: a few vary the games; more than 8 would decide them at random.
pub fn parse_opening_plies(text: &str) -> Result<usize, String> {
    parse_count(text, "a number of opening moves", 0, 8)
}

pub fn parse_threads(text: &str) -> Result<usize, String> {
    parse_count(text, "a thread count", 1, 1024)
}

/// Rounds of a benchmark: one at least; a median needs a few, and 100 is many more.
pub fn parse_rounds(text: &str) -> Result<usize, String> {
    parse_count(text, "a number of rounds", 1, 100)
}

/// A parsed `--agents` list.
#[derive(Clone)]
pub struct AgentList(pub Vec<AgentSpec>);

pub fn variant_help() -> String {
    format!("Variant: {}", Variant::names())
}

pub fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse()
        .map_err(|e: oxo_variants::UnknownVariant| e.to_string())
}

pub fn parse_agent(text: &str) -> Result<AgentSpec, String> {
    text.parse()
        .map_err(|e: oxo_agents::SpecError| e.to_string())
}

pub fn parse_agent_list(text: &str) -> Result<AgentList, String> {
    let specs = AgentSpec::parse_list(text).map_err(|e| e.to_string())?;
    if specs.len() < 2 {
        return Err("give at least two agents, comma separated, e.g. random,greedy".into());
    }
    for (i, spec) in specs.iter().enumerate() {
        if specs[..i].iter().any(|earlier| earlier.text == spec.text) {
            return Err(format!(
                "agent '{}' is listed twice: list each agent once (a second copy can differ \
                 by seed=N)",
                spec.text
            ));
        }
    }
    Ok(AgentList(specs))
}

pub fn parse_batch(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=65536).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a batch size: give a number from 1 to 65536"
        )),
    }
}

pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!(
            "'{text}' is not a duration: give seconds between 0 and 3600, e.g. 2"
        )),
    }
}

/// A `--role` value.
pub fn parse_role(s: &str) -> Result<oxo_train::roles::Role, String> {
    s.parse()
}

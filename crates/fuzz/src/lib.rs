//! The fuzz targets: each function takes arbitrary bytes, feeds them to one of oxo's parsers
//! or file readers, and panics only where oxo itself would (a bug): a crash, a hang or an
//! answer that breaks the parser's own promise (a parsed move that does not print back the
//! same). `fuzz/` runs them under libFuzzer (`cargo +nightly fuzz run TARGET`); this crate's
//! tests replay the seed corpus and a few thousand mutations of it on stable, in CI.
//!
//! Input that is not UTF-8 goes to the text parsers as it is read from a user: lossily
//! decoded. The file readers get the bytes as a file, the way they meet one.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use oxo_agents::{AgentSpec, Evaluate, build_agent};
use oxo_nn::{Device, Encode, Net};
use oxo_play::play_search::PlaySearch;
use oxo_play::{ModelJson, NetValue};
use oxo_rules::Game;
use oxo_train::{GenerationRecords, RunConfig};
use oxo_variants::{Variant, with_variant};

/// A fuzz target: takes any bytes, panics only on a bug.
pub type Target = fn(&[u8]);

/// The fuzz targets by name, as `fuzz/fuzz_targets/NAME.rs` and the corpus folders call them.
pub const TARGETS: &[(&str, Target)] = &[
    ("notation", notation),
    ("agent_spec", agent_spec),
    ("config", config),
    ("gtp", gtp),
    ("records", records),
    ("model", model),
    ("model_json", model_json),
];

/// Move notation of every variant: a move that parses prints back as text that parses to
/// the same move, and checking it against a new game never panics; variant names parse or
/// are refused.
pub fn notation(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = text.parse::<Variant>();
    for variant in Variant::ALL {
        with_variant!(variant, G => round_trip::<G>(&text));
    }
}

/// Parses `text` as a move of `G`; a move that parses must print back as the same move.
fn round_trip<G: Game>(text: &str) {
    if let Ok(action) = G::parse_action(text) {
        let printed = G::format_action(action);
        assert_eq!(
            G::parse_action(&printed),
            Ok(action),
            "{}: '{text}' parsed to {action}, printed as '{printed}'",
            G::NAME
        );
        let _ = G::new().check(action);
    }
}

/// Agent specs: parsed, then built for every variant (the handcrafted agents), or, for
/// `net`, its search and value settings checked (loading a model is the `model` target's).
pub fn agent_spec(data: &[u8]) {
    let Ok(spec) = String::from_utf8_lossy(data).parse::<AgentSpec>() else {
        return;
    };
    if spec.kind == oxo_play::NET_KIND {
        let _ = PlaySearch::from_spec(&spec);
        let _ = NetValue::from_spec(&spec);
        return;
    }
    for variant in Variant::ALL {
        with_variant!(variant, G => build::<G>(&spec));
    }
}

/// Builds the agent `spec` names for `G` and lets it choose the first move.
fn build<G: Evaluate>(spec: &AgentSpec) {
    if let Ok(mut agent) = build_agent::<G>(spec) {
        // Only a cheap agent is asked to move: a spec may ask for minutes of search.
        if matches!(spec.kind.as_str(), "random" | "greedy") {
            let game = G::new();
            let action = agent.choose(&game);
            assert!(game.is_legal(action), "{}: illegal first move", spec.text);
        }
    }
}

/// Run configurations (TOML): parsed and validated, never a panic.
pub fn config(data: &[u8]) {
    let _ = RunConfig::from_toml(&String::from_utf8_lossy(data));
}

/// The GTP engine: the bytes as its input, lines and all, with `random` answering `genmove`;
/// the engine never panics. `nn_eval` lines are left out: each loads a network and opens an
/// inference session (about 12 ms, a hundred times any other command); the network's file is
/// the `model` target's, and `nn_eval` itself is tested in `crates/cli/tests/gtp.rs`.
pub fn gtp(data: &[u8]) {
    let spec: AgentSpec = "random:seed=1".parse().expect("a valid spec");
    let mut engine = oxo_cli::gtp::Engine::new(Variant::TicTacToe, Some(spec))
        .expect("random plays every variant");
    let input: Vec<u8> = data
        .split_inclusive(|&b| b == b'\n')
        .filter(|line| !asks_for_nn_eval(line))
        .flatten()
        .copied()
        .collect();
    let mut answers = Vec::new();
    engine
        .run(&input[..], &mut answers)
        .expect("writing to memory cannot fail");
}

/// Whether the engine reads a GTP line (cleaned and split from its id as the engine does)
/// as the command `nn_eval`.
fn asks_for_nn_eval(line: &[u8]) -> bool {
    let text = oxo_cli::line::clean(line);
    oxo_cli::gtp::split_id(&text)
        .and_then(|(_, command)| command.split_whitespace().next())
        .is_some_and(|command| command.eq_ignore_ascii_case("nn_eval"))
}

/// Self-play record files: the first byte picks the variant they are read as, the rest is
/// the file.
pub fn records(data: &[u8]) {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let path = scratch_file("records", file);
    with_variant!(variant_of(pick), G => {
        let _ = GenerationRecords::load::<G>(&path);
    });
}

/// Model and checkpoint files: the first byte picks the variant they are loaded as, the rest
/// is the file. A file that loads must evaluate the starting position to finite numbers.
pub fn model(data: &[u8]) {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let path = scratch_file("model.bpk", file);
    with_variant!(variant_of(pick), G => load::<G>(&path));
}

/// A model's `model.json`: the first byte picks the variant it is checked against, the rest
/// is its text (lossily decoded). It parses or is refused in words; a description that
/// parses has play settings that check, and its text written again parses, with the same
/// search and network.
pub fn model_json(data: &[u8]) {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let Ok(description) = ModelJson::parse(&String::from_utf8_lossy(text)) else {
        return;
    };
    description
        .play
        .check()
        .expect("a parsed model.json's play settings check");
    with_variant!(variant_of(pick), G => {
        let _ = description.check_game(G::NAME, G::NUM_ACTIONS, [G::PLANES, G::HEIGHT, G::WIDTH]);
    });
    let again = ModelJson::parse(&description.to_text()).expect("written text parses");
    assert_eq!(again.play.search, description.play.search);
    assert_eq!(again.network, description.network);
}

/// Loads the net at `path` for `G`; one that loads must give finite outputs.
fn load<G: Encode>(path: &Path) {
    if let Ok(net) = Net::load::<G>(path, &Device::flex()) {
        let eval = net.evaluate_position(&G::new());
        assert!(
            eval.value.is_finite(),
            "a loaded net gave a non-finite value"
        );
    }
}

/// The variant a selector byte picks.
fn variant_of(pick: u8) -> Variant {
    Variant::ALL[pick as usize % Variant::ALL.len()]
}

/// Writes `bytes` to the file `name` in this process's scratch directory and returns its
/// path (the readers under test take paths, as oxo's commands do).
fn scratch_file(name: &str, bytes: &[u8]) -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("oxo-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory in the temp dir");
        dir
    });
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("the scratch directory is writable");
    path
}

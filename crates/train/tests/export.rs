//! Export is a contract other programs rely on. For every variant, a network is exported with
//! `export_model`, and `scripts/oxo_onnx.py` (Python: numpy and onnxruntime), given nothing
//! but the exported directory and move lists, replays the moves with its own port of the
//! rules, encodes the positions as `model.json` describes, runs `model.onnx` and prints the
//! policy over the legal moves and the value. Its input planes must equal oxo's exactly, and
//! its outputs oxo's own network outputs to within [`TOLERANCE`].
//!
//! Needs `python3` with `numpy` and `onnxruntime` (`.ci/run` installs them from PyPI).

use std::path::Path;
use std::process::Command;

use oxo_nn::{Device, Encode, Net, NetConfig};
use oxo_rules::{Action, Game};
use oxo_train::play_search::DEFAULT_PLAY_SEARCH;
use oxo_variants::extreme::Extreme;
use oxo_variants::tictactoe::TicTacToe;
use oxo_variants::ultimate::Ultimate;
use oxo_variants::{Variant, with_variant};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde_json::Value;

/// Largest difference allowed between onnxruntime's and burn's probabilities and values
/// (both compute in f32; they differ by summation order only).
const TOLERANCE: f64 = 1e-4;

/// Positions compared per variant.
const POSITIONS: usize = 60;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/oxo_onnx.py");

/// Random positions of `G` (finished ones excluded) with the moves that reach them.
fn random_positions<G: Game>(count: usize, seed: u64) -> Vec<(Vec<Action>, G)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let stop = rng.random_range(0..G::MAX_PLIES);
        let mut game = G::new();
        let mut moves = Vec::new();
        while !game.is_over() && moves.len() < stop {
            let action = game.random_action(&mut rng);
            game.play(action);
            moves.push(action);
        }
        if !game.is_over() {
            positions.push((moves, game));
        }
    }
    positions
}

fn move_line<G: Game>(moves: &[Action]) -> String {
    moves
        .iter()
        .map(|&a| G::format_action(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the Python program with `args`; its stdout, or a panic with its stderr.
fn python(args: &[&str]) -> String {
    let output = Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .output()
        .expect("python3 runs (install Python 3 with numpy and onnxruntime)");
    assert!(
        output.status.success(),
        "{SCRIPT} {args:?} failed (pip install numpy onnxruntime?):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

fn close(a: f64, b: f64, what: &str, line: &str) {
    assert!(
        (a - b).abs() <= TOLERANCE,
        "{what}: onnxruntime {a} vs oxo {b} after moves '{line}'"
    );
}

/// Exports a fresh network of `G` and checks the Python program against it.
fn check_variant<G: Encode>(seed: u64) {
    let config = NetConfig::new(1, 8)
        .with_score_head(G::HAS_SCORES)
        .with_ownership_head(G::HAS_OWNERSHIP);
    check_net::<G>(seed, &config);
}

/// Exports a fresh network of `G` and size `config` and checks the Python program against it.
fn check_net<G: Encode>(seed: u64, config: &NetConfig) {
    let dir = tempfile::tempdir().unwrap();
    let net = Net::new::<G>(config, &Device::flex());
    let model = dir.path().join("net.bpk");
    net.save(&model).unwrap();
    let out = dir.path().join("export");
    oxo_train::export_model::<G>(&model, &out, DEFAULT_PLAY_SEARCH, None).unwrap();
    let out_arg = out.to_str().unwrap();
    // Training's ownership head (ultimate, extreme) is no output, so its weights stay out.
    let onnx = std::fs::read(out.join("model.onnx")).unwrap();
    assert!(
        !onnx.windows(9).any(|w| w == b"ownership"),
        "{}: model.onnx holds unused ownership weights",
        G::NAME
    );

    let positions = random_positions::<G>(POSITIONS, seed);
    // Planes, exactly, for a few positions.
    for (moves, game) in positions.iter().take(5) {
        let mut expected = vec![0.0f32; G::INPUT_SIZE];
        game.encode(&mut expected);
        let line = move_line::<G>(moves);
        let mut args = vec![out_arg, "--planes"];
        args.extend(line.split_whitespace());
        let planes: Vec<f32> = serde_json::from_str(python(&args).trim()).unwrap();
        assert_eq!(planes, expected, "{}: planes after '{line}'", G::NAME);
    }
    // Outputs, for all of them in one batch.
    let lines: Vec<String> = positions.iter().map(|(m, _)| move_line::<G>(m)).collect();
    let batch = dir.path().join("positions.txt");
    std::fs::write(&batch, lines.join("\n") + "\n").unwrap();
    let answers = python(&[out_arg, "--batch", batch.to_str().unwrap()]);
    let answers: Vec<Value> = answers
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        answers.len(),
        positions.len(),
        "{}: one answer per line",
        G::NAME
    );
    for ((line, (_, game)), answer) in lines.iter().zip(&positions).zip(&answers) {
        let eval = net.evaluate_position(game);
        close(
            answer["value"].as_f64().unwrap(),
            eval.value as f64,
            "value",
            line,
        );
        for (k, p) in eval.wdl.iter().enumerate() {
            close(answer["wdl"][k].as_f64().unwrap(), *p as f64, "wdl", line);
        }
        match eval.score {
            Some(score) => close(
                answer["score"].as_f64().unwrap(),
                score as f64,
                "score",
                line,
            ),
            None => assert!(answer.get("score").is_none(), "no score head, no score"),
        }
        let policy = answer["policy"].as_object().unwrap();
        assert_eq!(
            policy.len(),
            eval.policy.len(),
            "legal moves after '{line}'"
        );
        for (action, p) in &eval.policy {
            let name = G::format_action(*action);
            let theirs = policy.get(&name).unwrap_or_else(|| {
                panic!(
                    "{}: {name} missing from the Python policy after '{line}'",
                    G::NAME
                )
            });
            close(theirs.as_f64().unwrap(), *p as f64, &name, line);
        }
    }
}

#[test]
fn the_exported_directory_has_every_file_and_a_complete_description() {
    let dir = tempfile::tempdir().unwrap();
    let net = Net::new::<Ultimate>(&NetConfig::new(1, 8), &Device::flex());
    let model = dir.path().join("net.bpk");
    net.save(&model).unwrap();
    let written =
        oxo_train::export_model::<Ultimate>(&model, dir.path(), DEFAULT_PLAY_SEARCH, None).unwrap();
    assert_eq!(written.len(), oxo_train::export::EXPORT_FILES.len());
    assert!(written.iter().all(|p| p.is_file()));
    let exported = oxo_player::ModelFile::open::<Ultimate>(&dir.path().join("model.bpk")).unwrap();
    let json = exported.description.expect("a model.json");
    assert_eq!(json.variant, "ultimate");
    assert_eq!(json.input.planes.len(), Ultimate::PLANES);
    assert_eq!(json.actions.moves[80], "I9");
    assert_eq!(json.outputs.len(), 2);
    assert_eq!(json.play.rollouts, 0, "no run, no playouts");
    // The exported burn file loads back as the same network.
    let again = Net::load::<Ultimate>(&dir.path().join("model.bpk"), &Device::flex()).unwrap();
    let game = Ultimate::new();
    assert_eq!(again.evaluate_position(&game), net.evaluate_position(&game));
}

/// A model from a run that mixed playouts or its score head into its values says so (how
/// many playouts, their weight and policy; the score head's share) in `model.json`, and the
/// net agent reads it back, so the model is played as it was trained.
#[test]
fn the_runs_playouts_travel_with_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir_all(run.join("models")).unwrap();
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tictactoe.toml");
    let config = std::fs::read_to_string(config)
        .unwrap()
        .replace(
            "[selfplay]\n",
            "[selfplay]\nrollouts = 12\nrollout_weight = 0.25\nrollout_policy = \"tactical\"\n\
             score_utility = 0.75\n",
        )
        .replace("score_head = false", "score_head = true")
        .replace("score_scale = 1.0", "score_scale = 7.5");
    std::fs::write(run.join("config.toml"), config).unwrap();
    std::fs::write(run.join("run.json"), "{}").unwrap();
    let model = run.join("models/best.bpk");
    Net::new::<TicTacToe>(&NetConfig::new(1, 8).with_score_head(true), &Device::flex())
        .save(&model)
        .unwrap();
    let out = dir.path().join("out");
    oxo_train::export_model::<TicTacToe>(&model, &out, DEFAULT_PLAY_SEARCH, None).unwrap();
    // The score output names the run's scale: the output times it is the margin in points.
    let described = |out: &Path| {
        oxo_player::ModelFile::open::<TicTacToe>(&out.join("model.bpk"))
            .unwrap()
            .description
            .expect("a model.json")
    };
    let score_scale = |out: &Path| {
        let json = described(out);
        json.outputs
            .iter()
            .find(|o| o.name == "score")
            .unwrap()
            .scale
    };
    let play_value = |out: &Path| described(out).play.value().unwrap();
    let play_search = |out: &Path| described(out).play.search;
    assert_eq!(score_scale(&out), Some(7.5));
    let value = play_value(&out);
    assert_eq!(value.rollouts.playouts, 12);
    assert_eq!(value.rollouts.weight, 0.25);
    assert_eq!(value.rollouts.policy, oxo_rules::PlayoutPolicy::Tactical);
    assert_eq!(value.score_utility, 0.75);
    // The exported model.bpk keeps the run's provenance (what a warm start from it records).
    let provenance = oxo_train::export::provenance(&out.join("model.bpk"));
    assert_eq!(provenance["run"], run.display().to_string());
    assert_eq!(play_search(&out), DEFAULT_PLAY_SEARCH);
    // Re-exporting the exported model.bpk in place keeps its value and provenance and
    // records the search it is given.
    oxo_train::export_model::<TicTacToe>(&out.join("model.bpk"), &out, "sims=300", None).unwrap();
    assert_eq!(play_value(&out), value);
    assert_eq!(score_scale(&out), Some(7.5));
    let provenance = oxo_train::export::provenance(&out.join("model.bpk"));
    assert_eq!(provenance["run"], run.display().to_string());
    assert_eq!(play_search(&out), "sims=300");
    // A value given to the export replaces the trained one, and a later re-export keeps it.
    let measured = oxo_play::value::check_value_params("score=0.5").unwrap();
    oxo_train::export_model::<TicTacToe>(&out.join("model.bpk"), &out, "sims=300", Some(measured))
        .unwrap();
    assert_eq!(play_value(&out), measured);
    oxo_train::export_model::<TicTacToe>(&out.join("model.bpk"), &out, "sims=300", None).unwrap();
    assert_eq!(play_value(&out), measured);
}

#[test]
fn exporting_a_missing_or_foreign_model_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = oxo_train::export_model::<Ultimate>(
        &dir.path().join("none.bpk"),
        dir.path(),
        DEFAULT_PLAY_SEARCH,
        None,
    );
    assert!(missing.unwrap_err().to_string().contains("none.bpk"));
    let model = dir.path().join("ttt.bpk");
    Net::new::<TicTacToe>(&NetConfig::new(1, 8), &Device::flex())
        .save(&model)
        .unwrap();
    let foreign = oxo_train::export_model::<Ultimate>(
        &model,
        &dir.path().join("out"),
        DEFAULT_PLAY_SEARCH,
        None,
    );
    assert!(foreign.unwrap_err().to_string().contains("tictactoe"));
    assert!(!Path::new(&dir.path().join("out/model.onnx")).exists());
}

/// A patch stem (one vector per small board) rearranges the policy logits in the traced
/// graph: the ONNX file must put every logit on its own cell, as burn does.
#[test]
fn onnxruntime_matches_oxo_on_extreme_with_a_patch_stem() {
    let mut config = NetConfig::new(1, 8).with_score_head(true).with_patch(4);
    config.policy_channels = 4;
    check_net::<Extreme>(4, &config);
}

/// Every registered variant: a variant without its Python port (or one whose port reads a
/// position differently) fails here.
#[test]
fn onnxruntime_matches_oxo_on_every_variant() {
    for (seed, variant) in (1..).zip(Variant::ALL) {
        with_variant!(variant, G => check_variant::<G>(seed));
    }
}

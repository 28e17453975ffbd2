//! Numbers out of range on the command line are refused by the flag that carries them,
//! before any work and without writing anything.

mod common;

use std::path::Path;
use std::process::Output;

use common::oxo_output as oxo;

fn refused(output: &Output) -> String {
    assert!(!output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn grow_refuses_more_blocks_than_a_network_may_have_before_building_it() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/tictactoe/model.bpk");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("grown.bpk");
    let output = oxo(&[
        "grow",
        "--blocks",
        "100000",
        "--out",
        out.to_str().unwrap(),
        model.to_str().unwrap(),
    ]);
    let stderr = refused(&output);
    assert!(
        stderr.contains("--blocks 100000 is out of range"),
        "{stderr}"
    );
    assert!(stderr.contains("at most 64"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn bench_selfplay_names_parallel_games_when_it_is_out_of_range() {
    for games in ["0", "100000000"] {
        let output = oxo(&[
            "bench",
            "selfplay",
            "--variant",
            "tictactoe",
            "--parallel-games",
            games,
            "--seconds",
            "1",
        ]);
        let stderr = refused(&output);
        assert!(
            stderr.contains(&format!("--parallel-games {games} is out of range")),
            "{stderr}"
        );
        assert!(!stderr.contains("games_per_generation"), "{stderr}");
    }
}

#[test]
fn bench_train_refuses_rounds_out_of_range_before_measuring() {
    for rounds in ["0", "101", "three"] {
        let output = oxo(&[
            "bench",
            "train",
            "--variant",
            "tictactoe",
            "--rounds",
            rounds,
        ]);
        let stderr = refused(&output);
        assert!(
            stderr.contains(&format!(
                "'{rounds}' is not a number of rounds: give a number from 1 to 100"
            )),
            "{stderr}"
        );
        assert!(output.stdout.is_empty(), "measured before refusing");
    }
}

/// A copy of the shipped tictactoe model in a new directory, with `model_json` as its
/// `model.json` (none where `None`); the directory and the `net:` spec that plays it.
fn tictactoe_copy(model_json: Option<&str>) -> (tempfile::TempDir, String) {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/tictactoe");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(shipped.join("model.bpk"), dir.path().join("model.bpk")).unwrap();
    if let Some(text) = model_json {
        std::fs::write(dir.path().join("model.json"), text).unwrap();
    }
    let spec = format!("net:path={},sims=8", dir.path().join("model.bpk").display());
    (dir, spec)
}

/// `model.json` is part of a model: garbage in it, a CRC-32 that is not 8 hex digits, or no
/// `model.json` at all is refused by `oxo gtp` and `oxo arena` by name, before any game,
/// rather than played with default settings; `bare=1` plays the file alone and `oxo gtp`
/// says the settings it used.
#[test]
fn a_broken_or_missing_model_json_is_refused_by_name() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/tictactoe/model.json");
    let good = std::fs::read_to_string(shipped).unwrap();
    let mut crc: serde_json::Value = serde_json::from_str(&good).unwrap();
    crc["play"]["onnx"] = "model.onnx".into();
    crc["play"]["onnx_crc32"] = "abc".into();
    for (text, says) in [
        (Some("garbage"), "model.json: expected value"),
        (
            Some(&*crc.to_string()),
            "play.onnx_crc32 'abc' must be 8 hex digits",
        ),
        (None, "bare=1"),
    ] {
        let (dir, spec) = tictactoe_copy(text);
        let out = dir.path().join("results");
        for args in [
            vec!["gtp", "--variant", "tictactoe", "--agent", &spec],
            vec![
                "arena",
                "--variant",
                "tictactoe",
                "--agents",
                &format!("random,{spec}"),
                "--games",
                "2",
                "--out",
                out.to_str().unwrap(),
            ],
        ] {
            let stderr = refused(&oxo(&args));
            assert!(stderr.contains(says), "{args:?}: {stderr}");
            assert!(!out.exists(), "{args:?}: nothing written");
        }
    }
    let (_dir, spec) = tictactoe_copy(None);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_oxo"))
        .args([
            "gtp",
            "--variant",
            "tictactoe",
            "--agent",
            &format!("{spec},bare=1"),
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("genmove plays net:search=gumbel,"),
        "{stderr}"
    );
}

/// `--takeover` means something only for a store run's trainer: on a run directory it is
/// refused, not ignored, and nothing is written.
#[test]
fn takeover_on_a_run_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let output = oxo(&[
        "train",
        "--variant",
        "tictactoe",
        "--run",
        run.to_str().unwrap(),
        "--takeover",
    ]);
    let stderr = refused(&output);
    assert!(
        stderr.contains("--takeover") && stderr.contains("leave --takeover out"),
        "{stderr}"
    );
    assert!(!run.exists());
}

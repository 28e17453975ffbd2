//! `scripts/start_games.py` on a real `oxo arena` result file: it picks exactly the games the
//! options select, and `oxo train` accepts the config it writes, every move checked.

use std::process::Command;

mod common;
use common::oxo;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/start_games.py");
const BASE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/tictactoe.toml");

#[test]
fn start_games_picks_the_lost_games_and_train_accepts_them() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("match");
    oxo(&[
        "arena",
        "--variant",
        "tictactoe",
        "--agents",
        "greedy,random",
        "--games",
        "40",
        "--threads",
        "1",
        "--out",
        results.to_str().unwrap(),
    ]);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(results.with_extension("json")).unwrap())
            .unwrap();
    let lost: Vec<String> = report["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["o"] == 1 && g["result"] == "x")
        .map(|g| {
            let moves: Vec<&str> = g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            moves.join(" ")
        })
        .collect();
    assert!(!lost.is_empty(), "random lost no game as O to greedy in 40");

    let output = Command::new("python3")
        .args([
            SCRIPT, "--base", BASE, "--prob", "0.25", "--side", "o", "--agent", "random",
        ])
        .arg(results.with_extension("json"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let config_text = String::from_utf8(output.stdout).unwrap();
    let config_path = dir.path().join("run.toml");
    std::fs::write(&config_path, &config_text).unwrap();
    let printed = oxo(&[
        "train",
        "--variant",
        "tictactoe",
        "--config",
        config_path.to_str().unwrap(),
        "--print-config",
    ]);
    let config: toml::Value = toml::from_str(&printed).unwrap();
    let mut picked: Vec<&str> = config["selfplay"]["start_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    let mut expected: Vec<&str> = lost.iter().map(String::as_str).collect();
    expected.sort();
    expected.dedup();
    picked.sort();
    assert_eq!(picked, expected);
    assert_eq!(config["selfplay"]["start_game_prob"].as_float(), Some(0.25));
}

//! `oxo judge`: the solver keeps every value and draws tictactoe as X against itself; a random
//! agent does not; a variant without an exact solver is refused, naming those that have one.

mod common;

use common::{oxo, oxo_output};

/// Judges `agent` in tictactoe and returns the record.
fn judge(agent: &str, dir: &std::path::Path) -> serde_json::Value {
    let out = dir.join(format!("{agent}.json"));
    oxo(&[
        "judge",
        "--variant",
        "tictactoe",
        "--agent",
        agent,
        "--random-positions",
        "40",
        "--own-games",
        "2",
        "--plies",
        "1..6",
        "--first-games",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

#[test]
fn the_solver_keeps_every_value_and_a_random_agent_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let perfect = judge("solver", dir.path());
    assert_eq!(perfect["kept"]["share"], 1.0, "{perfect}");
    assert!(perfect["kept_random"]["judged"].as_u64().unwrap() > 20);
    assert!(perfect["kept_own"]["judged"].as_u64().unwrap() > 0);
    assert_eq!(
        perfect["first_against_solver"],
        serde_json::json!(["draw", "draw"])
    );
    assert!(perfect["made_by"]["command"].is_array());
    let random = judge("random", dir.path());
    let share = random["kept"]["share"].as_f64().unwrap();
    assert!(share < 0.9, "random moves keep {share} of the values");
    for position in random["positions"].as_array().unwrap() {
        let ply = position["moves"].as_array().unwrap().len();
        assert!((1..=6).contains(&ply), "{position}");
    }
}

#[test]
fn a_variant_without_a_solver_is_refused_naming_those_with_one() {
    let output = oxo_output(&[
        "judge",
        "--variant",
        "ultimate",
        "--out",
        "/nonexistent/x.json",
    ]);
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("ultimate has no exact solver"), "{err}");
    assert!(
        err.contains("tictactoe") && err.contains("paytoplay"),
        "{err}"
    );
}

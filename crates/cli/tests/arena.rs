//! `oxo arena`'s result file says how it was made: the oxo build and command line, and for
//! each net agent the model file, graph and engine it played with.

mod common;
use common::oxo;

#[test]
fn arena_results_record_the_build_the_command_and_what_each_net_played_with() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("match");
    let args = [
        "arena",
        "--variant",
        "tictactoe",
        "--agents",
        "random,net:sims=4,engine=burn",
        "--games",
        "2",
        "--threads",
        "1",
        "--out",
        prefix.to_str().unwrap(),
    ];
    oxo(&args);
    let text = std::fs::read_to_string(prefix.with_extension("json")).unwrap();
    let results: serde_json::Value = serde_json::from_str(&text).unwrap();

    let made_by = &results["made_by"];
    assert_eq!(made_by["oxo_version"], env!("CARGO_PKG_VERSION"));
    let command: Vec<&str> = made_by["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|arg| arg.as_str().unwrap())
        .collect();
    assert_eq!(command[1..], args, "the arguments after the program");
    let commit = &made_by["git_commit"];
    assert!(
        commit.is_null()
            || commit
                .as_str()
                .is_some_and(|c| c.len() == 40 && c.chars().all(|d| d.is_ascii_hexdigit())),
        "{commit}"
    );

    let standings = results["standings"].as_array().unwrap();
    assert!(
        standings[0].get("plays_with").is_none(),
        "random's spec says it all"
    );
    let net = standings[1]["plays_with"].as_str().unwrap();
    assert!(
        net.starts_with("net:search=")
            && net.contains("; model ")
            && net.contains("tictactoe")
            && net.ends_with(" on burn"),
        "{net}"
    );
}

/// Runs `scripts/arena_tally.py` with `args`, returning its exit status and its output.
fn tally(args: &[&str]) -> (bool, String) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/arena_tally.py");
    let output = std::process::Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text.into_owned())
}

#[test]
fn the_tally_counts_the_net_wherever_it_stands_in_the_agents() {
    let dir = tempfile::tempdir().unwrap();
    for (name, agents) in [
        ("net-first", "net:sims=4,engine=burn,random"),
        ("two-nets", "net:sims=4,engine=burn,net:sims=2,engine=burn"),
    ] {
        let prefix = dir.path().join(name);
        let prefix = prefix.to_str().unwrap();
        oxo(&[
            "arena",
            "--variant",
            "tictactoe",
            "--agents",
            agents,
            "--games",
            "4",
            "--threads",
            "1",
            "--out",
            prefix,
        ]);
    }
    let file = dir.path().join("net-first.json");
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let net = &results["standings"][0];
    let expected = format!(
        "{}-{}-{} in 4 games",
        net["wins"], net["draws"], net["losses"]
    );
    let (ok, text) = tally(&["first", file.to_str().unwrap()]);
    assert!(
        ok && text.starts_with(&format!("first: {expected}")),
        "{text}"
    );
    let file = file.to_str().unwrap();
    let (ok, text) = tally(&["--pair", "a", "b", "a", file, "b", file]);
    assert!(
        ok && text.contains("b against a, game by game: 4 games, 0 results differ, +0.0 points"),
        "{text}"
    );
    let (ok, text) = tally(&["--pair", "a", "c", "a", file]);
    assert!(
        !ok && text.contains("--pair names labels not given: c"),
        "{text}"
    );

    let two = dir.path().join("two-nets.json");
    let (ok, text) = tally(&["two", two.to_str().unwrap()]);
    assert!(!ok && text.contains("say which with --agent"), "{text}");
    let (ok, text) = tally(&["--agent", "1", "two", two.to_str().unwrap()]);
    assert!(ok && text.starts_with("two: "), "{text}");
}

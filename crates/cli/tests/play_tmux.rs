//! `oxo play` in a real terminal: scripts/play-in-tmux.sh types into a tmux pane until the
//! game ends, for every variant. Needs tmux (`.ci/run` installs it).

use std::process::Command;

#[test]
fn a_person_plays_every_variant_to_the_end_in_a_terminal() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/play-in-tmux.sh");
    let tmux = Command::new("tmux").arg("-V").output();
    assert!(
        tmux.is_ok_and(|o| o.status.success()),
        "tmux is needed for this test: install it (apt-get install tmux)"
    );
    for (variant, sign) in [
        ("tictactoe", "x"),
        ("ultimate", "o"),
        ("extreme", "x"),
        ("paytoplay", "o"),
        ("xando", "x"),
        ("adjacency", "o"),
    ] {
        let output = Command::new("bash")
            .args([script, env!("CARGO_BIN_EXE_oxo"), variant, sign])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("Game over"),
            "{variant}: {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

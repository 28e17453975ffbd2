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

//! `oxo export` through the binary: an export already in `--out` is refused by name and left
//! as it is, unless `--replace` says to overwrite it.

mod common;

use std::fs;
use std::path::Path;

use common::oxo_output;

fn export(model: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["export", "--model", model.to_str().unwrap()];
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(extra);
    oxo_output(&args)
}

#[test]
fn an_existing_export_is_overwritten_only_when_asked() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/tictactoe/model.bpk");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    assert!(export(&model, &out, &[]).status.success());

    let json = out.join("model.json");
    fs::write(&json, "kept").unwrap();
    let refused = export(&model, &out, &[]);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("already holds an export") && stderr.contains("--replace"),
        "{stderr}"
    );
    assert!(stderr.contains("model.json"), "{stderr}");
    assert_eq!(
        fs::read_to_string(&json).unwrap(),
        "kept",
        "the refusal wrote nothing"
    );

    let replaced = export(&model, &out, &["--replace"]);
    assert!(
        replaced.status.success(),
        "{}",
        String::from_utf8_lossy(&replaced.stderr)
    );
    assert!(fs::read_to_string(&json).unwrap().contains("\"variant\""));
}

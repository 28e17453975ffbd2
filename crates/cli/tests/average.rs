//! `oxo average` through the binary: a mean of one file, or of a file named twice (by any
//! path), is refused in words, and nothing is written.

mod common;

use std::path::Path;

use common::oxo_output;

#[test]
fn one_file_or_a_file_twice_is_refused() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let model = models.join("tictactoe/model.bpk");
    let again = models.join("paytoplay/../tictactoe/model.bpk");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mean.bpk");
    for (files, expected) in [
        (vec![&model], "at least two model files"),
        (vec![&model, &again], "are the same file"),
    ] {
        let mut args = vec!["average", "--out", out.to_str().unwrap()];
        args.extend(files.iter().map(|file| file.to_str().unwrap()));
        let output = oxo_output(&args);
        assert!(!output.status.success(), "{files:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{files:?}: {stderr}");
        assert!(!out.exists(), "{files:?} wrote {}", out.display());
    }
}

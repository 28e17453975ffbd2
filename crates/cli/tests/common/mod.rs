//! Helpers shared by the CLI's integration tests.

use std::process::Command;

/// Runs the `oxo` binary under test with `args`, asserts that it succeeded (showing its
/// standard error where it did not) and returns its standard output.
pub fn oxo(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_oxo"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "oxo {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

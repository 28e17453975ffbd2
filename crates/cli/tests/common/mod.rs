//! Helpers shared by the CLI's integration tests.

use std::process::{Command, Output};

/// Runs the `oxo` binary under test with `args` and returns what it did, success or not.
pub fn oxo_output(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oxo"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs the `oxo` binary under test with `args`, asserts that it succeeded (showing its
/// standard error where it did not) and returns its standard output.
#[allow(dead_code)] // each test binary compiles this module; some call only oxo_output
pub fn oxo(args: &[&str]) -> String {
    let output = oxo_output(args);
    assert!(
        output.status.success(),
        "oxo {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

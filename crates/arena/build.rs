//! Records the git commit this crate is built from as `OXO_GIT_COMMIT` (empty outside a git
//! checkout), so that every result file and run's `run.json` names the code that made it, wherever it
//! runs.

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!("cargo:rustc-env=OXO_GIT_COMMIT={commit}");
    // Every commit or checkout appends to the HEAD log.
    println!("cargo:rerun-if-changed=../../.git/logs/HEAD");
}

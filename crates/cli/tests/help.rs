//! `oxo --help` names every command, training included, and each command's help says what
//! it works on.

mod common;
use common::oxo;

/// Every command of `oxo`, in the order `oxo --help` lists them.
const COMMANDS: [&str; 9] = [
    "play", "gtp", "arena", "train", "status", "export", "average", "grow", "bench",
];

/// `text` with every run of whitespace made one space, so that a phrase matches however the
/// help is wrapped.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn top_level_help_names_every_command_training_included() {
    let help = oxo(&["--help"]);
    for command in COMMANDS {
        assert!(
            help.lines()
                .any(|line| line.split_whitespace().next() == Some(command)),
            "oxo --help does not list `{command}`:\n{help}"
        );
    }
    let about = help.lines().next().unwrap_or_default();
    assert!(
        about.contains("train"),
        "oxo --help's first line does not say it trains: {about}"
    );
}

#[test]
fn every_command_has_its_own_help() {
    for command in COMMANDS {
        let help = oxo(&[command, "--help"]);
        assert!(
            help.contains(&format!("Usage: oxo {command}")),
            "oxo {command} --help:\n{help}"
        );
    }
}

#[test]
fn status_help_names_both_a_run_directory_and_a_store_url() {
    let help = flat(&oxo(&["status", "--help"]));
    assert!(help.contains("its directory or URL"), "{help}");
    assert!(help.contains("oxo train --run"), "{help}");
}

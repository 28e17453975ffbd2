//! Every registered variant has what lives outside Rust: a config (built in, so a missing one
//! fails the build), fuzz seeds, a shipped model, an entry on the browser page, a ladder in
//! `scripts/arena-ladders.sh`, and `oxo variants` lists it. Its Python port is checked by
//! the export test over every variant (`oxo-train`'s `tests/export.rs`).

mod common;

use std::path::{Path, PathBuf};

use common::oxo;
use oxo_variants::Variant;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    let path = repository().join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The variants a check found wanting, named in the failure.
fn lacking(what: &str, has: impl Fn(&str) -> bool) {
    let missing: Vec<&str> = Variant::ALL
        .iter()
        .map(|v| v.name())
        .filter(|name| !has(name))
        .collect();
    assert!(missing.is_empty(), "no {what} for {missing:?}");
}

#[test]
fn oxo_variants_lists_every_registered_variant() {
    let names: Vec<String> = oxo(&["variants"]).lines().map(str::to_string).collect();
    assert_eq!(names, Variant::ALL.map(|v| v.name().to_string()));
    for (line, variant) in oxo(&["variants", "--json"]).lines().zip(Variant::ALL) {
        let shape: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(shape["name"], variant.name(), "{line}");
        assert!(shape["actions"].as_u64().unwrap() > 0, "{line}");
    }
}

#[test]
fn every_variant_has_fuzz_seeds() {
    lacking("fuzz/seeds/config/NAME.toml", |name| {
        repository()
            .join(format!("fuzz/seeds/config/{name}.toml"))
            .is_file()
    });
}

#[test]
fn every_variant_has_a_shipped_model() {
    lacking(
        "models/NAME/ with model.bpk, model.json and model.onnx",
        |name| {
            ["model.bpk", "model.json", "model.onnx"]
                .iter()
                .all(|file| repository().join("models").join(name).join(file).is_file())
        },
    );
}

#[test]
fn every_variant_is_on_the_browser_page() {
    let page = read("web/index.html");
    lacking("<option> on web/index.html", |name| {
        page.contains(&format!("<option value=\"{name}\">{name}</option>"))
    });
}

#[test]
fn every_variant_has_a_ladder() {
    let script = read("scripts/arena-ladders.sh");
    lacking(
        "`run NAME AGENTS` line in scripts/arena-ladders.sh",
        |name| {
            script
                .lines()
                .any(|line| line.starts_with(&format!("run {name} ")))
        },
    );
}

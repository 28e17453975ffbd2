//! The manual is checked like code: README.md stays short, its results tables are what
//! `scripts/results_table.py` writes from the result files, every relative link in the
//! README and the guides names a file of the repository, and the README's dependency graph
//! is the workspace's.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn readme_is_at_most_350_lines() {
    let lines = read(&repository().join("README.md")).lines().count();
    assert!(lines <= 350, "README.md has {lines} lines");
}

#[test]
fn results_tables_are_what_the_script_writes() {
    let output = Command::new("python3")
        .arg(repository().join("scripts/results_table.py"))
        .arg("--check")
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The targets of the Markdown links `[text](target)` in `text` that are neither URLs nor
/// anchors within the page, without their `#fragment`.
fn relative_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("](") {
        rest = &rest[start + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        let path = target.split('#').next().unwrap_or("");
        if !path.is_empty() && !path.contains("://") && !path.starts_with("mailto:") {
            links.push(path.to_string());
        }
        rest = &rest[end..];
    }
    links
}

#[test]
fn every_relative_link_in_the_manual_resolves() {
    let root = repository();
    let mut pages = vec![root.join("README.md"), root.join("lab/README.md")];
    for entry in fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let dir = page.parent().unwrap();
        for link in relative_links(&read(page)) {
            if !dir.join(&link).exists() {
                broken.push(format!(
                    "{}: {link}",
                    page.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn shipped_models_point_to_the_rules_in_the_repository() {
    let root = repository();
    assert!(root.join("docs/RULES.md").is_file());
    for entry in fs::read_dir(root.join("models")).unwrap() {
        let folder = entry.unwrap().path();
        if !folder.is_dir() {
            continue;
        }
        let meta = folder.join("model.json");
        let text = read(&meta);
        assert!(
            text.contains("docs/RULES.md"),
            "{} does not cite docs/RULES.md",
            meta.display()
        );
        let cited = text.matches("RULES.md").count();
        let in_docs = text.matches("docs/RULES.md").count();
        assert_eq!(
            cited,
            in_docs,
            "{} cites a RULES.md outside docs/",
            meta.display()
        );
    }
}

/// Each workspace crate's short name (`rules` for `oxo-rules`) and the short names of the
/// workspace crates it depends on (normal dependencies only).
fn workspace_graph(root: &Path) -> BTreeMap<String, Vec<String>> {
    let mut graph = BTreeMap::new();
    for entry in fs::read_dir(root.join("crates")).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let cargo: toml::Table = read(&manifest).parse().unwrap();
        let name = cargo["package"]["name"].as_str().unwrap();
        let mut deps: Vec<String> = cargo
            .get("dependencies")
            .and_then(|d| d.as_table())
            .map(|d| {
                d.keys()
                    .filter_map(|k| k.strip_prefix("oxo-"))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        deps.sort();
        graph.insert(name.strip_prefix("oxo-").unwrap().to_string(), deps);
    }
    graph
}

/// The graph the README draws: the code block after its "Dependencies" line, one line per
/// group, `a, b <- x, y` (a trailing `(...)` is a comment).
fn readme_graph(readme: &str) -> BTreeMap<String, Vec<String>> {
    let block = readme
        .split("Dependencies (each crate on the ones listed after it):")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .expect("the README's dependency block");
    let mut graph = BTreeMap::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let line = line.split('(').next().unwrap_or("");
        let (crates, deps) = line.split_once("<-").unwrap_or((line, ""));
        let mut deps: Vec<String> = deps
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string)
            .collect();
        deps.sort();
        for name in crates.split(',').map(str::trim) {
            graph.insert(name.to_string(), deps.clone());
        }
    }
    graph
}

#[test]
fn readme_dependency_graph_is_the_workspace_graph() {
    let root = repository();
    assert_eq!(
        readme_graph(&read(&root.join("README.md"))),
        workspace_graph(&root)
    );
}

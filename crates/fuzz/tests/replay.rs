//! The short fuzz run CI does on stable: every fuzz target gets its seed corpus
//! (`fuzz/seeds/TARGET/`), every input that once crashed it (`fuzz/regressions/TARGET/`, kept
//! as regression tests), and mutations of the seeds: bytes flipped, inserted, deleted,
//! truncated and spliced, from a fixed seed. `OXO_FUZZ_MUTATIONS` sets how many per target
//! (default 1000), `OXO_FUZZ_TARGETS` which targets (names separated by commas; default all).
//! The long coverage-guided runs are `cargo +nightly fuzz` (fuzz/README.md).

use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The inputs in `fuzz/DIR/TARGET/`, in name order (none where the folder does not exist).
fn inputs(dir: &str, target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz")
        .join(dir)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect()
}

/// One random mutation of `input`, splicing from `other` now and then.
fn mutate(rng: &mut StdRng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let at = rng.random_range(0..=out.len());
        match rng.random_range(0..6) {
            0 if at < out.len() => out[at] ^= 1 << rng.random_range(0..8),
            1 if at < out.len() => out[at] = rng.random(),
            2 => out.insert(at, rng.random()),
            3 if at < out.len() => {
                out.remove(at);
            }
            4 => out.truncate(at),
            _ => {
                let from = rng.random_range(0..=other.len());
                out.splice(at.., other[from..].iter().copied());
            }
        }
    }
    out
}

#[test]
fn every_target_survives_its_seeds_regressions_and_mutations() {
    let mutations: usize = std::env::var("OXO_FUZZ_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    let only = std::env::var("OXO_FUZZ_TARGETS").ok();
    let chosen = |name: &str| {
        only.as_ref()
            .is_none_or(|list| list.split(',').any(|n| n == name))
    };
    for &(name, target) in oxo_fuzz::TARGETS.iter().filter(|(name, _)| chosen(name)) {
        let started = Instant::now();
        let seeds = inputs("seeds", name);
        assert!(!seeds.is_empty(), "fuzz/seeds/{name} is empty");
        for (path, bytes) in seeds.iter().chain(&inputs("regressions", name)) {
            eprintln!("{name}: {}", path.display());
            target(bytes);
        }
        let mut rng = StdRng::seed_from_u64(0x0f22);
        for _ in 0..mutations {
            let (_, input) = &seeds[rng.random_range(0..seeds.len())];
            let (_, other) = &seeds[rng.random_range(0..seeds.len())];
            let mutant = mutate(&mut rng, input, other);
            target(&mutant);
        }
        eprintln!(
            "{name}: {mutations} mutations in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
}

//! Replays every seed of `fuzz/corpus/<target>/` through its fuzz target's body, under stable: the
//! committed seeds (and any crash input added there as a regression) must not panic.

use std::path::PathBuf;

fn corpus_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

fn replay(target: &str) {
    let (_, body) = crown_fuzz_targets::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .expect("a target of that name");
    let dir = corpus_dir(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} has no seeds", dir.display());
    for f in files {
        let data = std::fs::read(&f).expect("read a seed");
        eprintln!("{target}: {}", f.display());
        body(&data);
    }
}

#[test]
fn fen_corpus() {
    replay("fen");
}

#[test]
fn pdn_corpus() {
    replay("pdn");
}

#[test]
fn input_corpus() {
    replay("input");
}

#[test]
fn book_corpus() {
    replay("book");
}

#[test]
fn weights_corpus() {
    replay("weights");
}

#[test]
fn egdb_corpus() {
    replay("egdb");
}

#[test]
fn dataset_corpus() {
    replay("dataset");
}

#[test]
fn every_target_has_a_cargo_fuzz_binary() {
    let manifest = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/Cargo.toml"),
    )
    .expect("read fuzz/Cargo.toml");
    for (name, _) in crown_fuzz_targets::TARGETS {
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no [[bin]] {name}"
        );
    }
}

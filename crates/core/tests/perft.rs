//! Perft against the published counts in `shared/perft/perft.json` (see its README for sources).
//!
//! `cargo test` runs every entry up to 20 million nodes; `cargo xtask perft` (the ignored test) runs
//! every depth in the file.

use crown_core::{
    perft, perft_hashed, ImpasseSetup, PerftConvention, PerftTable, Position, Variant,
};
use std::path::PathBuf;

/// The shared data folder: `$CROWN_SHARED`, else `../shared` beside the repository.
fn shared_dir() -> PathBuf {
    match std::env::var_os("CROWN_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

struct Entry {
    variant: Variant,
    fen: String,
    setup: Option<String>,
    convention: PerftConvention,
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    let path = shared_dir().join("perft/perft.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (set CROWN_SHARED)", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).expect("perft.json is JSON");
    json.as_array()
        .expect("a list of entries")
        .iter()
        .map(|e| {
            let variant: Variant = e["variant"].as_str().unwrap().parse().unwrap();
            let convention = match e["convention"].as_str().unwrap() {
                "distinct" => PerftConvention::Distinct,
                "paths" => PerftConvention::Paths,
                other => panic!("unknown convention {other}"),
            };
            let mut counts: Vec<(u32, u64)> = e["counts"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
                .collect();
            counts.sort();
            Entry {
                variant,
                fen: e["fen"].as_str().unwrap().to_string(),
                setup: e["setup"].as_str().map(str::to_string),
                convention,
                counts,
            }
        })
        .collect()
}

fn check(max_nodes: u64, max_depth: u32) -> usize {
    check_with(max_nodes, max_depth, false)
}

fn check_with(max_nodes: u64, max_depth: u32, deep: bool) -> usize {
    let mut checked = 0;
    for e in entries() {
        let pos = Position::from_fen(e.variant, &e.fen).unwrap();
        if let Some(setup) = &e.setup {
            let setup: ImpasseSetup = setup.parse().unwrap();
            assert_eq!(
                pos,
                Position::impasse(setup),
                "setup {setup} is the FEN of the entry"
            );
        }
        for &(depth, expected) in &e.counts {
            if expected > max_nodes || depth > max_depth {
                continue;
            }
            if deep && expected > 500_000_000 {
                // Deep counts use the transposition table to finish in reasonable time.
                let mut table = PerftTable::new(1024);
                let got = perft_hashed(&pos, depth, e.convention, &mut table);
                assert_eq!(
                    got, expected,
                    "hashed: {} {} {:?} depth {depth}",
                    e.variant, e.fen, e.convention
                );
                eprintln!(
                    "{} {} {:?} depth {depth}: {got} (hashed)",
                    e.variant, e.fen, e.convention
                );
            } else {
                let got = perft(&pos, depth, e.convention);
                assert_eq!(
                    got, expected,
                    "{} {} {:?} depth {depth}",
                    e.variant, e.fen, e.convention
                );
                // The hashed perft must agree with the plain one.
                if !deep {
                    let mut table = PerftTable::new(4);
                    let hashed = perft_hashed(&pos, depth, e.convention, &mut table);
                    assert_eq!(
                        hashed, expected,
                        "hashed: {} {} {:?} depth {depth}",
                        e.variant, e.fen, e.convention
                    );
                }
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn published_counts_up_to_twenty_million_nodes() {
    let n = check(20_000_000, u32::MAX);
    assert!(n >= 90, "only {n} counts checked");
}

#[test]
#[ignore = "deep perft: minutes in release mode; run with `cargo xtask perft`"]
fn published_counts_all_depths() {
    let max_depth = std::env::var("CROWN_PERFT_MAX_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(13);
    let n = check_with(u64::MAX, max_depth, true);
    eprintln!("{n} perft counts match");
}

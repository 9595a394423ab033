//! How often the engine names the right outcome of endgame positions, with and without the
//! endgame databases, against the databases' own values (a benchmark for docs/engine.md, not a
//! test).
//!
//! ```text
//! cargo run --release -p crown-ai --features egdb --example egdb_tally -- DIR [POSITIONS] [MS] [PIECES] [any|even] [ENGINE_DIR]
//! ```
//!
//! Builds the American databases up to PIECES (default 4) in DIR when they are missing, draws
//! POSITIONS (default 200) random American positions with 3 to PIECES pieces (`even`: exactly
//! PIECES, split as evenly as possible) and no capture pending (seeded, so every run draws the same ones), searches each for MS ms (default 100)
//! without and with the databases (those in ENGINE_DIR when given, e.g. smaller ones, so that the
//! engine must search into them), and counts the searches whose score names the database value:
//! a win or loss score (searched or from the databases) names a win or loss; an evaluation of at
//! least +0.50 (a half man) names a win, at most −0.50 a loss, anything between a draw.

use crown_ai::{Engine, EngineOptions, Limits, Score};
use crown_core::rng::Rng;
use crown_core::{Game, Position, Variant};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

fn named(score: Score) -> crown_egdb::Wdl {
    match score {
        Score::Win(_) | Score::DatabaseWin(_) => crown_egdb::Wdl::Win,
        Score::Loss(_) | Score::DatabaseLoss(_) => crown_egdb::Wdl::Loss,
        Score::Value(v) if v >= 50 => crown_egdb::Wdl::Win,
        Score::Value(v) if v <= -50 => crown_egdb::Wdl::Loss,
        Score::Value(_) => crown_egdb::Wdl::Draw,
    }
}

fn random_position(rng: &mut Rng, max_pieces: u32, even: bool) -> Position {
    loop {
        let n = if even {
            u64::from(max_pieces)
        } else {
            3 + rng.below(u64::from(max_pieces) - 2)
        };
        let mut squares: Vec<u64> = Vec::new();
        while squares.len() < n as usize {
            let s = 1 + rng.below(32);
            if !squares.contains(&s) {
                squares.push(s);
            }
        }
        // At least one piece each.
        let split = if even {
            n as usize / 2
        } else {
            1 + rng.below(n - 1) as usize
        };
        let piece = |s: u64, rng: &mut Rng| {
            if rng.below(2) == 0 {
                format!("K{s}")
            } else {
                s.to_string()
            }
        };
        let white: Vec<String> = squares[..split].iter().map(|&s| piece(s, rng)).collect();
        let black: Vec<String> = squares[split..].iter().map(|&s| piece(s, rng)).collect();
        let side = if rng.below(2) == 0 { 'W' } else { 'B' };
        let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
        if let Ok(p) = Position::from_fen(Variant::American, &fen) {
            if !p.must_capture() && !p.legal_moves().is_empty() {
                return p;
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(
        args.next()
            .expect("usage: egdb_tally DIR [POSITIONS] [MS] [PIECES]"),
    );
    let count: usize = args.next().map_or(200, |s| s.parse().expect("POSITIONS"));
    let ms: u64 = args.next().map_or(100, |s| s.parse().expect("MS"));
    let pieces: u32 = args.next().map_or(4, |s| s.parse().expect("PIECES"));
    let even = args.next().is_some_and(|s| s == "even");
    let engine_dir = args.next().map(PathBuf::from);
    let t = Instant::now();
    let report = crown_egdb::build(
        &crown_egdb::BuildOptions {
            variant: Variant::American,
            pieces,
            dir: dir.clone(),
            threads: None,
        },
        &(),
    )
    .expect("build");
    eprintln!(
        "databases ready in {:.1} s: {report:?}",
        t.elapsed().as_secs_f64()
    );
    let tb = Arc::new(crown_egdb::Tablebase::open(&dir).expect("open"));
    let engine_tb = match &engine_dir {
        Some(d) => Arc::new(crown_egdb::Tablebase::open(d).expect("open ENGINE_DIR")),
        None => tb.clone(),
    };
    eprintln!("truth: {}; engine: {}", tb.describe(), engine_tb.describe());
    // Seeded: the same positions on every run.
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let positions: Vec<Position> = (0..count)
        .map(|_| random_position(&mut rng, pieces, even))
        .collect();
    let stop = AtomicBool::new(false);
    for with in [false, true] {
        let (mut right, mut proven, mut total_ms) = (0, 0, 0u64);
        let mut truths = [0usize; 3];
        for p in &positions {
            let truth = tb.probe(p).expect("probe").wdl;
            truths[truth as usize] += 1;
            let mut e = Engine::new(EngineOptions {
                hash_mib: 16,
                threads: 1,
                level: None,
            });
            if with {
                e.set_tables(Some(engine_tb.clone()));
            }
            let r = e.search(
                &Game::from_position(*p),
                &Limits::movetime(ms),
                &stop,
                &mut |_| {},
            );
            total_ms += r.time_ms;
            if named(r.score) == truth {
                right += 1;
            }
            if r.score.plies_to_end().is_some() {
                proven += 1;
            }
        }
        println!(
            "tables {}: right outcome {right}/{count} ({:.1} %), proven win/loss {proven}, mean time {} ms (database: {} losses, {} draws, {} wins)",
            if with { "on " } else { "off" },
            100.0 * right as f64 / count as f64,
            total_ms / count as u64,
            truths[0],
            truths[1],
            truths[2]
        );
    }
}

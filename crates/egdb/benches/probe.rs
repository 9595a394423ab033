//! Probe rate, cold (fresh `Tablebase`, every block read from disk) and cached (the same positions
//! again), over random positions of every loaded class of the directory in `CROWN_EGDB_DIR`
//! (default: the per-user data directory). `cargo bench -p crown-egdb --bench probe`.

use crown_core::rng::Rng;
use crown_core::{Color, Position, Setup, SquareSet};
use crown_egdb::{ClassIndex, Tablebase};
use std::time::Instant;

fn main() {
    let Some(dir) = Tablebase::default_dir() else {
        eprintln!("set CROWN_EGDB_DIR");
        return;
    };
    let classes = Tablebase::open(&dir).expect("open databases").classes();
    if classes.is_empty() {
        eprintln!("no databases in {}", dir.display());
        return;
    }
    // Deterministic pseudo-random positions (crown_core::rng, SplitMix64: the same sequence as the
    // hand-written generator this replaced), both sides to move.
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let mut next = || rng.next_u64();
    let mut positions = Vec::new();
    while positions.len() < 200_000 {
        let c = &classes[(next() % classes.len() as u64) as usize];
        let ci = ClassIndex::new(c.variant, c.material);
        let (men, kings) = ci.board_at(next() % ci.size());
        let mut setup = Setup {
            men: [SquareSet(men[0]), SquareSet(men[1])],
            kings: [SquareSet(kings[0]), SquareSet(kings[1])],
            side_to_move: Color::Black,
        };
        if next() % 2 == 1 {
            setup = Setup {
                men: [
                    SquareSet(men[1].reverse_bits()),
                    SquareSet(men[0].reverse_bits()),
                ],
                kings: [
                    SquareSet(kings[1].reverse_bits()),
                    SquareSet(kings[0].reverse_bits()),
                ],
                side_to_move: Color::White,
            };
        }
        if let Ok(p) = Position::from_setup(c.variant, &setup) {
            positions.push(p);
        }
    }
    for pass in ["cold", "cached"] {
        // A fresh Tablebase: an empty block cache (the operating system's file cache stays warm).
        let tb = Tablebase::open(&dir).expect("open");
        if pass == "cached" {
            for p in &positions {
                let _ = tb.probe(p);
            }
        }
        let start = Instant::now();
        let mut ok = 0u64;
        for p in &positions {
            ok += u64::from(tb.probe(p).is_ok());
        }
        let s = start.elapsed().as_secs_f64();
        println!(
            "{pass}: {} probes in {s:.3} s = {:.0} probes/s ({ok} answered; {})",
            positions.len(),
            positions.len() as f64 / s,
            tb.describe()
        );
    }
}

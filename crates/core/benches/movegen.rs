//! Move generation speed: legal-move lists, playing moves, and shallow perft, for each game.
//!
//! `cargo bench -p crown-core --bench movegen`. The `legal_moves` and `play` groups report moves per
//! second ("elem/s") over a fixed set of positions; the `perft` group reports leaves per second.
//! `crown perft --variant american --depth 12` is the headline figure for the whole generator.

use criterion::{criterion_main, Criterion, Throughput};
use crown_core::{perft, MoveList, PerftConvention, Position, Variant};
use std::hint::black_box;

/// Start and middlegame positions of each game (the middlegames are `crown bench` positions).
const POSITIONS: &[(Variant, &str)] = &[
    (Variant::American, "B:W21-32:B1-12"),
    (
        Variant::American,
        "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,8,7,6,5,12,10,15",
    ),
    (Variant::American, "W:WK14,K22,25,30:BK1,6,9,10"),
    (Variant::Pool, "B:W21-32:B1-12"),
    (Variant::Pool, "B:WK18,24,28,31:BK3,5,9,12"),
    (Variant::Impasse, "W:W21-32:B1-12"),
    (
        Variant::Impasse,
        "W:W17,K22,25,26,27,K23,31:B2,K11,5,K8,9,10",
    ),
];

fn positions(variant: Variant) -> Vec<Position> {
    POSITIONS
        .iter()
        .filter(|(v, _)| *v == variant)
        .map(|(v, fen)| Position::from_fen(*v, fen).expect("benchmark FEN"))
        .collect()
}

fn bench(c: &mut Criterion) {
    for variant in Variant::ALL {
        let ps = positions(variant);
        let mut list = MoveList::new();
        let moves: u64 = ps
            .iter()
            .map(|p| {
                p.legal_moves_into(&mut list);
                list.len() as u64
            })
            .sum();
        let mut g = c.benchmark_group(variant.id());
        g.throughput(Throughput::Elements(moves));
        g.bench_function("legal_moves", |b| {
            b.iter(|| {
                let mut n = 0;
                for p in &ps {
                    p.legal_moves_into(&mut list);
                    n += list.len();
                }
                black_box(n)
            })
        });
        g.bench_function("legal_moves_and_play", |b| {
            b.iter(|| {
                let mut h = 0;
                for p in &ps {
                    p.legal_moves_into(&mut list);
                    for m in list.iter() {
                        h ^= p.after(m).zobrist();
                    }
                }
                black_box(h)
            })
        });
        g.finish();
        let start = Position::new(variant);
        let depth = match variant {
            Variant::Impasse => 4,
            _ => 7,
        };
        let leaves = perft(&start, depth, PerftConvention::Distinct);
        let mut g = c.benchmark_group(format!("{}_perft", variant.id()));
        g.throughput(Throughput::Elements(leaves));
        g.sample_size(20);
        g.bench_function(format!("start_depth_{depth}"), |b| {
            b.iter(|| perft(black_box(&start), depth, PerftConvention::Distinct))
        });
        g.finish();
    }
}

// The macro defines an undocumented `pub fn benches`.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::bench);
}
use group::benches;
criterion_main!(benches);

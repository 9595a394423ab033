//! Reading speed on tinsley.pdn (724 games, 343 KB): parse only, and parse + replay.
//!
//! `cargo bench -p crown-notation --bench pdn`; the throughput lines give games/s ("elem/s") and
//! MB/s ("B/s").

use criterion::{criterion_main, Criterion, Throughput};
use crown_notation::{replay, PdnReader};
use std::hint::black_box;
use std::path::PathBuf;

fn tinsley() -> Vec<u8> {
    let shared = std::env::var("CROWN_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    std::fs::read(shared.join("data/pdn/tinsley.pdn")).expect("tinsley.pdn")
}

fn parse_only(data: &[u8]) -> usize {
    PdnReader::new(data).filter(|g| g.is_ok()).count()
}

fn parse_replay(data: &[u8]) -> usize {
    PdnReader::new(data)
        .filter_map(Result::ok)
        .filter(|g| replay(g).is_ok())
        .count()
}

fn bench(c: &mut Criterion) {
    let data = tinsley();
    let games = PdnReader::new(&data[..]).count() as u64;
    for (unit, throughput) in [
        ("games", Throughput::Elements(games)),
        ("bytes", Throughput::Bytes(data.len() as u64)),
    ] {
        let mut g = c.benchmark_group(format!("tinsley_{unit}"));
        g.throughput(throughput);
        g.bench_function("parse", |b| b.iter(|| parse_only(black_box(&data))));
        g.bench_function("parse_replay", |b| {
            b.iter(|| parse_replay(black_box(&data)))
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

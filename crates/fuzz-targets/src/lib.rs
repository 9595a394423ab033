//! The bodies of Crown's fuzz targets, one plain function per target: `fuzz/fuzz_targets/*.rs`
//! (cargo-fuzz, nightly, libFuzzer) call them on the fuzzer's bytes, and `tests/corpus.rs` replays
//! the seed corpora of `fuzz/corpus/<target>/` through them under stable, as an ordinary test.
//!
//! Each function must never panic on any input: a panic is a bug in the code under test (bad input
//! must give an error). `cargo xtask ci` runs each target for a short time when nightly and
//! cargo-fuzz are there (CONTRIBUTING.md, "Fuzzing").

mod binary;
mod text;

pub use binary::{book, dataset, egdb, weights};
pub use text::{fen, input, pdn};

/// The body of a fuzz target: it reads any bytes and panics only on a bug.
pub type Target = fn(&[u8]);

/// The fuzz targets by name (the name of the cargo-fuzz binary and of its corpus directory), each
/// with its body.
pub const TARGETS: [(&str, Target); 7] = [
    ("fen", fen),
    ("pdn", pdn),
    ("input", input),
    ("book", book),
    ("weights", weights),
    ("egdb", egdb),
    ("dataset", dataset),
];

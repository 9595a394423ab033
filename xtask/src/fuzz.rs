//! `cargo xtask fuzz [SECONDS]`: every cargo-fuzz target of `fuzz/` for a short time each (the CI
//! step). Needs the nightly toolchain (`rustup toolchain list`); without it the step is skipped with
//! a note. cargo-fuzz is installed from crates.io (`cargo install cargo-fuzz --locked`, built from
//! source) when missing. Each target starts from its committed seeds `fuzz/corpus/<target>/`; what
//! libFuzzer adds goes to a scratch corpus under `fuzz/target/`, so the committed seeds stay as they
//! are. A crash (panic, out-of-memory, time-out) fails the step; libFuzzer leaves the input in
//! `fuzz/artifacts/<target>/`, to be added to the target's corpus as a regression seed once fixed.

use crate::run;
use std::process::Command;
use std::time::Instant;

/// The cargo-fuzz binaries of `fuzz/Cargo.toml`, in the order they run.
const TARGETS: [&str; 7] = ["fen", "pdn", "input", "book", "weights", "egdb", "dataset"];
/// Seconds per target in CI.
pub(crate) const CI_SECONDS: u32 = 20;

fn have_nightly() -> bool {
    Command::new("rustup")
        .args(["run", "nightly", "rustc", "--version"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn have_cargo_fuzz() -> bool {
    Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Run every target for `seconds` seconds; `true` when none crashed (or nightly is missing).
pub(crate) fn fuzz(seconds: u32) -> bool {
    if !have_nightly() {
        eprintln!("fuzz: no nightly toolchain, skipping the fuzz targets (rustup toolchain install nightly)");
        return true;
    }
    let start = Instant::now();
    if !have_cargo_fuzz() && !run("cargo", &["install", "cargo-fuzz", "--locked"]) {
        return false;
    }
    let installed = start.elapsed().as_secs();
    if !run("cargo", &["+nightly", "fuzz", "build"]) {
        return false;
    }
    let built = start.elapsed().as_secs();
    let max_time = format!("-max_total_time={seconds}");
    let mut ok = true;
    for target in TARGETS {
        let scratch = format!("fuzz/target/corpus/{target}");
        let seeds = format!("fuzz/corpus/{target}");
        if let Err(e) = std::fs::create_dir_all(&scratch) {
            eprintln!("fuzz: cannot create {scratch}: {e}");
            return false;
        }
        // Scratch corpus first: libFuzzer writes the inputs it finds to the first directory.
        ok &= run(
            "cargo",
            &[
                "+nightly",
                "fuzz",
                "run",
                target,
                &scratch,
                &seeds,
                "--",
                &max_time,
                "-rss_limit_mb=2048",
                "-timeout=10",
            ],
        );
    }
    eprintln!(
        "fuzz: {} s in all (cargo-fuzz install {installed} s, build {} s, runs {} s)",
        start.elapsed().as_secs(),
        built - installed,
        start.elapsed().as_secs() - built
    );
    ok
}

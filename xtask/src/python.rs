//! `cargo xtask python`: the Python package (`apps/python`, PyO3 + maturin) and the Hub client
//! tests, in a virtual environment of their own.
//!
//! Steps: a venv in `<target>/python/venv` (made with `python3 -m venv` when missing) with the
//! pinned [`TOOLS`] from PyPI; rustfmt and clippy of the crate (it is outside the workspace, so
//! `cargo fmt --all` and `cargo clippy --workspace` do not see it); `maturin build --release` of
//! the wheel into `<target>/python/wheels` (its own cargo target `<target>/python/cargo`, since the
//! crate is its own workspace); `pip install` of that wheel; `cargo build -p crown-cli` for the
//! `crown` binary the Hub tests drive; then pytest over `apps/python/tests` (the package's tests
//! and pydraughts driving `crown engine`). Clippy and maturin run `--locked`: a stale
//! `apps/python/Cargo.lock` fails the check instead of being rewritten by it (refresh it with
//! `cargo check` in `apps/python`, which changes only what is needed).

use crate::run;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The PyPI packages of the venv, pinned: the wheel builder, the test runner and the Hub client.
const TOOLS: [&str; 3] = ["maturin==1.16.0", "pytest==9.2.0", "pydraughts==0.6.7"];

use crate::root;

fn target_dir() -> PathBuf {
    std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target"))
}

/// Run `cmd args` with extra environment `env`; false (and a message) when it fails.
fn run_env(cmd: &Path, args: &[&str], env: &[(&str, &Path)]) -> bool {
    eprintln!("$ {} {}", cmd.display(), args.join(" "));
    let mut c = Command::new(cmd);
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    match c.status() {
        Ok(s) => s.success(),
        Err(e) => {
            eprintln!("cannot run {}: {e}", cmd.display());
            false
        }
    }
}

/// The newest `crown_checkers-*.whl` in `dir`.
fn newest_wheel(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.starts_with("crown_checkers-") && n.ends_with(".whl")
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
}

/// Build, install and test the Python package; run the pydraughts Hub tests.
pub fn python() -> bool {
    let root = root();
    let base = target_dir().join("python");
    let venv = base.join("venv");
    let py = venv.join("bin").join("python");
    if !py.is_file() && !run("python3", &["-m", "venv", &venv.to_string_lossy()]) {
        eprintln!("python3 -m venv failed (Debian: apt-get install python3-venv)");
        return false;
    }
    let mut pip = vec!["-m", "pip", "install", "--quiet"];
    pip.extend(TOOLS);
    if !run_env(&py, &pip, &[]) {
        return false;
    }
    let manifest = root.join("apps/python/Cargo.toml");
    let manifest = manifest.to_string_lossy();
    let cargo_target = base.join("cargo");
    let env: [(&str, &Path); 2] = [("CARGO_TARGET_DIR", &cargo_target), ("PYO3_PYTHON", &py)];
    let wheels = base.join("wheels");
    let maturin = venv.join("bin").join("maturin");
    let ok = run_env(
        Path::new("cargo"),
        &["fmt", "--manifest-path", &manifest, "--check"],
        &env,
    ) && run_env(
        Path::new("cargo"),
        &[
            "clippy",
            "--locked",
            "--manifest-path",
            &manifest,
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        &env,
    ) && run_env(
        &maturin,
        &[
            "build",
            "--release",
            "--locked",
            "--manifest-path",
            &manifest,
            "--out",
            &wheels.to_string_lossy(),
        ],
        &env,
    );
    if !ok {
        return false;
    }
    let Some(wheel) = newest_wheel(&wheels) else {
        eprintln!("no wheel in {}", wheels.display());
        return false;
    };
    let crown = target_dir().join("debug").join("crown");
    run_env(
        &py,
        &[
            "-m",
            "pip",
            "install",
            "--quiet",
            "--force-reinstall",
            "--no-deps",
            &wheel.to_string_lossy(),
        ],
        &[],
    ) && run("cargo", &["build", "-p", "crown-cli"])
        && run_env(
            &py,
            &[
                "-m",
                "pytest",
                "-q",
                &root.join("apps/python/tests").to_string_lossy(),
            ],
            &[("CROWN_BIN", &crown)],
        )
}

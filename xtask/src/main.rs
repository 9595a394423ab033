//! `cargo xtask`: project automation.
//!
//! - `cargo xtask ci`: every check and test: rustfmt check, the module circle check (`circles`), the training tools' Python tests (`tools/train/test_*.py`),
//!   clippy with `-D warnings`, the Rust tests
//!   (nextest when installed, else `cargo test`) and doctests, `cargo xtask python`, each fuzz target for 20 s (`fuzz`),
//!   the wasm binding tests under Node and the browser end-to-end tests. First installs Debian's Chromium, ChromeDriver, Node.js, npm,
//!   PostgreSQL (for the server's `PgStore` tests) and nginx (for the server's reverse-proxy test)
//!   with apt-get when they are missing (as root, as on CI).
//! - `cargo xtask circles`: `tools/import_circles.py`, which fails when two modules of a crate reach
//!   each other (ARCHITECTURE.md: modules depend on each other in one direction).
//! - `cargo xtask perft`: the deep perft counts of `shared/perft/perft.json` (release build, minutes).
//! - `cargo xtask wasm`: builds crown-wasm for `wasm32-unknown-unknown` and writes the JS glue and the
//!   `.wasm` file to `apps/wasm/www/pkg` (see `wasm.rs`: installs the target and wasm-bindgen-cli at
//!   the exact version in Cargo.lock when missing, from source; nothing prebuilt is downloaded).
//! - `cargo xtask wasm-test`: the crown-wasm binding tests under Node (wasm-bindgen-test-runner).
//! - `cargo xtask e2e [NAME…]`: `wasm`, then the browser end-to-end tests in headless Chromium
//!   (`apps/wasm/e2e`, Node + playwright-core driving `/usr/bin/chromium`); with NAMEs, only the
//!   test files whose name contains one of them (`cargo xtask e2e bot`).
//! - `cargo xtask fuzz [SECONDS]`: every cargo-fuzz target of `fuzz/` for SECONDS (default 20) each,
//!   with nightly (skipped without it), installing cargo-fuzz from crates.io when missing (see
//!   `fuzz.rs`); a crash fails.
//! - `cargo xtask python`: the Python package `apps/python` (rustfmt, clippy, `maturin build`, the
//!   wheel installed in a venv of `<target>/python`) and its pytest suite, which also drives
//!   `crown engine` through pydraughts' Hub client (see `python.rs`).
//! - `cargo xtask sprt --base REV [...]`: the current build against revision REV by `crown match`
//!   until a pentanomial SPRT decides (see `crates/arena/src/sprt.rs`).

use std::process::{Command, ExitCode};

mod fuzz;
mod python;
mod sprt;
mod wasm;

/// The repository root: the parent of the xtask crate of the checkout that `cargo xtask` runs in.
///
/// `cargo run` sets `CARGO_MANIFEST_DIR` for the process it starts, so this is the invoking
/// checkout even when several checkouts (git worktrees) share one `CARGO_TARGET_DIR` and this binary
/// was compiled in another of them; the compile-time path is only the fallback for a binary started
/// by hand.
pub(crate) fn root() -> std::path::PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|| std::path::PathBuf::from("."))
}

pub(crate) fn run(cmd: &str, args: &[&str]) -> bool {
    eprintln!("$ {cmd} {}", args.join(" "));
    match Command::new(cmd).args(args).status() {
        Ok(s) => s.success(),
        Err(e) => {
            eprintln!("cannot run {cmd}: {e}");
            false
        }
    }
}

fn has_nextest() -> bool {
    Command::new("cargo")
        .args(["nextest", "--version"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn ci() -> bool {
    // Install first: the server's PostgreSQL test runs with the Rust tests.
    let tools = ensure_test_tools();
    let rust = tools
        && run("cargo", &["fmt", "--all", "--check"])
        && circles()
        && train_tools()
        && run(
            "cargo",
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        )
        && if has_nextest() {
            run(
                "cargo",
                &["nextest", "run", "--workspace", "--no-fail-fast"],
            ) && run("cargo", &["test", "--workspace", "--doc"])
        } else {
            run("cargo", &["test", "--workspace", "--no-fail-fast"])
        };
    rust && python::python() && fuzz::fuzz(fuzz::CI_SECONDS) && wasm::test() && wasm::e2e(&[])
}

/// The module import circles of every crate (`tools/import_circles.py`): fails when there is one.
fn circles() -> bool {
    let root = root();
    let script = root.join("tools").join("import_circles.py");
    let (script, root) = (script.to_string_lossy(), root.to_string_lossy());
    run("python3", &[&script, &root])
}

/// The training tools' own tests (`tools/train/test_*.py`: the data manifest), standard library only.
fn train_tools() -> bool {
    let dir = root().join("tools").join("train");
    run(
        "python3",
        &[
            "-m",
            "unittest",
            "discover",
            "-s",
            &dir.to_string_lossy(),
            "-p",
            "test_*.py",
        ],
    )
}

fn have(cmd: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {cmd} >/dev/null 2>&1")])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Whether Debian's PostgreSQL server binaries (`/usr/lib/postgresql/*/bin/initdb`) are installed.
fn have_postgresql() -> bool {
    std::fs::read_dir("/usr/lib/postgresql")
        .map(|dirs| {
            dirs.flatten()
                .any(|d| d.path().join("bin/initdb").is_file())
        })
        .unwrap_or(false)
}

/// Whether Debian's nginx is installed (`/usr/sbin/nginx`, which is not on a non-root `PATH`).
fn have_nginx() -> bool {
    have("nginx") || std::path::Path::new("/usr/sbin/nginx").is_file()
}

/// Debian's Chromium and ChromeDriver, and Node.js with npm, for the browser tests; PostgreSQL for
/// the server's `PgStore` test (it runs its own `initdb` + `pg_ctl` in a temporary directory);
/// nginx for the server's reverse-proxy test (`apps/server/tests/proxy_nginx.rs`, nginx run as the
/// current user with a configuration in a temporary directory).
fn ensure_test_tools() -> bool {
    let mut missing = Vec::new();
    if !have_postgresql() {
        missing.push("postgresql");
    }
    if !have_nginx() {
        missing.push("nginx");
    }
    if !have("chromium") {
        missing.push("chromium");
    }
    if !have("chromedriver") {
        missing.push("chromium-driver");
    }
    if !have("node") {
        missing.push("nodejs");
    }
    if !have("npm") {
        missing.push("npm");
    }
    if missing.is_empty() {
        return true;
    }
    eprintln!(
        "installing {} with apt-get for the tests",
        missing.join(" ")
    );
    let mut args = vec!["install", "-y"];
    args.extend(missing.iter().copied());
    run("apt-get", &["update"])
        && Command::new("apt-get")
            .args(&args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
}

fn perft() -> bool {
    run(
        "cargo",
        &[
            "test",
            "--release",
            "-p",
            "crown-core",
            "--test",
            "perft",
            "--",
            "--ignored",
            "--nocapture",
        ],
    )
}

fn main() -> ExitCode {
    // Every task runs Crown's binaries (tests, the browser end-to-end server, the Python checks):
    // none of them may build endgame databases in the background into the per-user directory.
    std::env::set_var("CROWN_EGDB_BUILD", "0");
    let task = std::env::args().nth(1).unwrap_or_default();
    let ok = match task.as_str() {
        "ci" => ci(),
        "circles" => circles(),
        "perft" => perft(),
        "wasm" => wasm::build(),
        "wasm-test" => wasm::test(),
        "e2e" => wasm::e2e(&std::env::args().skip(2).collect::<Vec<_>>()),
        "fuzz" => match std::env::args().nth(2).map(|s| s.parse::<u32>()) {
            None => fuzz::fuzz(fuzz::CI_SECONDS),
            Some(Ok(seconds)) => fuzz::fuzz(seconds),
            Some(Err(_)) => {
                eprintln!("usage: cargo xtask fuzz [SECONDS]");
                false
            }
        },
        "python" => python::python(),
        "sprt" => sprt::sprt(&std::env::args().skip(2).collect::<Vec<_>>()),
        _ => {
            eprintln!("usage: cargo xtask <ci|circles|perft|wasm|wasm-test|e2e|fuzz|python|sprt>");
            false
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

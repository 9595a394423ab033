//! `cargo xtask wasm`, `wasm-test` and `e2e`: the browser build of Crown and its tests.
//! `wasm` also copies the puzzle sets to `apps/wasm/www/pkg/puzzles/` (fetched by the Puzzles page).
//!
//! The wasm32 build has WebAssembly SIMD (`simd128`, `.cargo/config.toml`): the network
//! evaluation's fast kernel. A `RUSTFLAGS` (or `CARGO_ENCODED_RUSTFLAGS`) in the environment
//! replaces the config's flags, so these commands add `simd128` to it ([`keep_simd128`]).
//!
//! Tools are installed from source when missing: `rustup target add wasm32-unknown-unknown`, and
//! `cargo install wasm-bindgen-cli --version <the wasm-bindgen version in Cargo.lock>` (the CLI must
//! match the crate exactly). Nothing prebuilt is downloaded at build time.

use crate::run;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

use crate::root;

/// The version of the `wasm-bindgen` package recorded in Cargo.lock.
fn locked_wasm_bindgen_version() -> Option<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).ok()?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\"" {
            let v = lines.next()?.trim();
            return v
                .strip_prefix("version = \"")
                .and_then(|v| v.strip_suffix('"'))
                .map(str::to_string);
        }
    }
    None
}

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Install the wasm target and wasm-bindgen-cli when missing.
fn ensure_tools() -> bool {
    let installed = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if !installed.lines().any(|l| l.trim() == TARGET) && !run("rustup", &["target", "add", TARGET])
    {
        return false;
    }
    let Some(version) = locked_wasm_bindgen_version() else {
        eprintln!("Cargo.lock has no wasm-bindgen package: is apps/wasm in the workspace?");
        return false;
    };
    let have = output("wasm-bindgen", &["--version"]).unwrap_or_default();
    let runner = output("wasm-bindgen-test-runner", &["--version"]).unwrap_or_default();
    let want = format!("wasm-bindgen {version}");
    if have.trim() != want || !runner.contains(&version) {
        eprintln!(
            "wasm-bindgen-cli {version} is missing (found '{}'), installing it",
            have.trim()
        );
        if !run(
            "cargo",
            &["install", "wasm-bindgen-cli", "--version", &version],
        ) {
            return false;
        }
    }
    true
}

/// The flag that turns on WebAssembly SIMD (as `.cargo/config.toml` gives it for wasm32).
const SIMD128: &str = "target-feature=+simd128";

/// Keep `simd128` in `cargo`'s wasm32 builds when the environment's rustflags would replace the
/// config's: append it to `CARGO_ENCODED_RUSTFLAGS` or `RUSTFLAGS`, whichever cargo reads (with
/// `--target` given they apply to the wasm32 code only, never to build scripts).
fn keep_simd128(cargo: &mut Command) {
    if let Ok(flags) = std::env::var("CARGO_ENCODED_RUSTFLAGS") {
        if !flags.contains(SIMD128) {
            let sep = if flags.is_empty() { "" } else { "\x1f" };
            cargo.env(
                "CARGO_ENCODED_RUSTFLAGS",
                format!("{flags}{sep}-C\x1f{SIMD128}"),
            );
        }
    } else if let Ok(flags) = std::env::var("RUSTFLAGS") {
        if !flags.contains(SIMD128) {
            cargo.env("RUSTFLAGS", format!("{flags} -C {SIMD128}"));
        }
    }
}

/// `cargo xtask wasm`: release build of crown-wasm and its JS glue in `apps/wasm/www/pkg`.
pub fn build() -> bool {
    if !ensure_tools() {
        return false;
    }
    let args = ["build", "--release", "-p", "crown-wasm", "--target", TARGET];
    eprintln!("$ cargo {}", args.join(" "));
    let mut cargo = Command::new("cargo");
    cargo.args(args);
    keep_simd128(&mut cargo);
    if !cargo.status().map(|s| s.success()).unwrap_or(false) {
        return false;
    }
    let root = root();
    let target_dir = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("target"));
    let wasm = target_dir
        .join(TARGET)
        .join("release")
        .join("crown_wasm.wasm");
    let out = root.join("apps/wasm/www/pkg");
    run(
        "wasm-bindgen",
        &[
            "--target",
            "web",
            "--no-typescript",
            "--out-dir",
            &out.to_string_lossy(),
            &wasm.to_string_lossy(),
        ],
    ) && copy_puzzles(&root, &out.join("puzzles"))
}

/// The committed puzzle sets (`crates/puzzle/puzzles/*.jsonl`) beside the `.wasm` file in
/// `pkg/puzzles/`: the Puzzles page fetches a game's set when it first needs it, so the sets are
/// not part of the app's first load.
fn copy_puzzles(root: &Path, dest: &Path) -> bool {
    let src = root.join("crates/puzzle/puzzles");
    if let Err(e) = std::fs::create_dir_all(dest) {
        eprintln!("creating {}: {e}", dest.display());
        return false;
    }
    for variant in ["american", "pool", "impasse"] {
        let name = format!("{variant}.jsonl");
        if let Err(e) = std::fs::copy(src.join(&name), dest.join(&name)) {
            eprintln!(
                "copying {} to {}: {e}",
                src.join(&name).display(),
                dest.display()
            );
            return false;
        }
    }
    true
}

/// `cargo xtask wasm-test`: the wasm-bindgen-test tests of crown-wasm, run by Node.
pub fn test() -> bool {
    if !ensure_tools() {
        return false;
    }
    eprintln!("$ CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner cargo test -p crown-wasm --target {TARGET}");
    let mut cargo = Command::new("cargo");
    cargo
        .args(["test", "-p", "crown-wasm", "--target", TARGET])
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner",
        );
    keep_simd128(&mut cargo);
    cargo.status().map(|s| s.success()).unwrap_or(false)
}

/// `cargo xtask e2e [NAME…]`: build the web app, install the test driver (npm,
/// `package-lock.json`), run the browser tests in headless Chromium (with NAMEs, only the files of
/// `apps/wasm/e2e/tests` whose name contains one of them). Screenshots go to
/// `target/e2e-artifacts/`.
pub fn e2e(filters: &[String]) -> bool {
    if !build() {
        return false;
    }
    let dir = root().join("apps/wasm/e2e");
    let dir_s = dir.to_string_lossy().to_string();
    let installed = dir.join("node_modules/playwright-core").exists()
        && dir.join("node_modules/axe-core").exists();
    if !installed
        && !run(
            "npm",
            &["ci", "--no-audit", "--no-fund", "--prefix", &dir_s],
        )
    {
        return false;
    }
    // The tests run against the real crown-server when the workspace has it; the bot tests also
    // run the `crown` binary beside it (`crown bot`, `crown engine`).
    let mut server_bin = std::env::var("CROWN_SERVER_BIN").ok();
    let mut crown_bin = std::env::var("CROWN_BIN").ok();
    if server_bin.is_none() && root().join("apps/server/Cargo.toml").exists() {
        if !run("cargo", &["build", "-p", "crown-server", "-p", "crown-cli"]) {
            return false;
        }
        let target_dir = std::env::var("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|_| root().join("target"));
        let bin = |name: &str| {
            target_dir
                .join("debug")
                .join(name)
                .to_string_lossy()
                .into_owned()
        };
        server_bin = Some(bin("crown-server"));
        crown_bin.get_or_insert_with(|| bin("crown"));
    }
    eprintln!(
        "$ CROWN_SERVER_BIN={} CROWN_BIN={} node --test apps/wasm/e2e/tests{}",
        server_bin.as_deref().unwrap_or(""),
        crown_bin.as_deref().unwrap_or(""),
        if filters.is_empty() {
            String::new()
        } else {
            format!(" (files whose name contains {})", filters.join(" or "))
        }
    );
    let mut node = Command::new("node");
    if let Some(bin) = &server_bin {
        node.env("CROWN_SERVER_BIN", bin);
    }
    if let Some(bin) = &crown_bin {
        node.env("CROWN_BIN", bin);
    }
    // Every `*.test.js` file of the suite, in name order, so a new file is never left out.
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir.join("tests")) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".test.js"))
            .collect(),
        Err(e) => {
            eprintln!("reading {}: {e}", dir.join("tests").display());
            return false;
        }
    };
    files.sort();
    // `cargo xtask e2e NAME…`: only the files whose name contains one of the NAMEs.
    if !filters.is_empty() {
        files.retain(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            filters.iter().any(|f| name.contains(f.as_str()))
        });
        if files.is_empty() {
            eprintln!("no test file's name contains {}", filters.join(" or "));
            return false;
        }
    }
    node.arg("--test")
        .arg("--test-concurrency=1")
        .args(&files)
        .current_dir(root())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

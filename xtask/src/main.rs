//! `cargo xtask`: project automation.
//!
//! - `cargo xtask ci`: rustfmt check, clippy with `-D warnings`, and every test (nextest when
//!   installed, else `cargo test`), then the doctests.
//! - `cargo xtask perft`: the deep perft counts of `shared/perft/perft.json` (release build, minutes).

use std::process::{Command, ExitCode};

fn run(cmd: &str, args: &[&str]) -> bool {
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
    run("cargo", &["fmt", "--all", "--check"])
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
        }
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
    let task = std::env::args().nth(1).unwrap_or_default();
    let ok = match task.as_str() {
        "ci" => ci(),
        "perft" => perft(),
        _ => {
            eprintln!("usage: cargo xtask <ci|perft>");
            false
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

//! `cargo xtask sprt`: play the current build against a base revision until a pentanomial SPRT
//! decides (see `crown match --sprt` and docs/engine.md).
//!
//! The base revision is checked out with `git worktree add --detach` into `target/sprt/<hash>` and
//! its `crown` built there (release, its own target directory); the current `crown` is built in
//! release; then `nice -n 10 crown match --engine-b-bin <base crown> --sprt elo0,elo1 ...` runs, and
//! prints LLR, Elo with its 95 % interval, the pentanomial counts and the verdict.

use crate::run;
use std::path::{Path, PathBuf};
use std::process::Command;

const USAGE: &str = "usage: cargo xtask sprt --base REV [--variant american|pool|impasse] \
[--tc MS | --nodes N] [--elo0 0] [--elo1 5] [--alpha 0.05] [--beta 0.05] [--concurrency 2] \
[--max-games 20000] [--engine SPEC] [--seed N] [--openings FILE|acf3] [--pdn FILE]";

/// Options of `cargo xtask sprt`.
struct Options {
    base: String,
    variant: String,
    tc: Option<String>,
    nodes: Option<String>,
    elo0: String,
    elo1: String,
    alpha: String,
    beta: String,
    concurrency: String,
    max_games: String,
    engine: String,
    seed: String,
    openings: Option<String>,
    pdn: Option<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        base: String::new(),
        variant: "american".into(),
        tc: None,
        nodes: None,
        elo0: "0".into(),
        elo1: "5".into(),
        alpha: "0.05".into(),
        beta: "0.05".into(),
        concurrency: "2".into(),
        max_games: "20000".into(),
        engine: "hash=16".into(),
        seed: "1".into(),
        openings: None,
        pdn: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--base" => o.base = value()?,
            "--variant" => o.variant = value()?,
            "--tc" => o.tc = Some(value()?),
            "--nodes" => o.nodes = Some(value()?),
            "--elo0" => o.elo0 = value()?,
            "--elo1" => o.elo1 = value()?,
            "--alpha" => o.alpha = value()?,
            "--beta" => o.beta = value()?,
            "--concurrency" => o.concurrency = value()?,
            "--max-games" => o.max_games = value()?,
            "--engine" => o.engine = value()?,
            "--seed" => o.seed = value()?,
            "--openings" => o.openings = Some(value()?),
            "--pdn" => o.pdn = Some(value()?),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if o.base.is_empty() {
        return Err("--base REV is required".into());
    }
    if o.tc.is_some() && o.nodes.is_some() {
        return Err("give --tc MS or --nodes N, not both".into());
    }
    if o.tc.is_none() && o.nodes.is_none() {
        o.nodes = Some("20000".into());
    }
    Ok(o)
}

fn output(cmd: &str, args: &[&str], dir: &Path) -> Option<String> {
    let out = Command::new(cmd)
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Check out `rev` into `target/sprt/<hash>` (kept between runs) and build its `crown` there.
/// Returns the binary's path.
fn build_base(root: &Path, rev: &str) -> Result<PathBuf, String> {
    let hash = output(
        "git",
        &["rev-parse", "--short=12", &format!("{rev}^{{commit}}")],
        root,
    )
    .ok_or_else(|| format!("git cannot resolve revision '{rev}'"))?;
    let dir = root.join("target/sprt").join(&hash);
    if !dir.join("Cargo.toml").is_file() {
        let _ = std::fs::create_dir_all(root.join("target/sprt"));
        let d = dir.to_string_lossy().to_string();
        if !run("git", &["worktree", "add", "--detach", &d, &hash]) {
            return Err(format!("git worktree add {d} {hash} failed"));
        }
    }
    eprintln!(
        "$ (in {}) cargo build --release -p crown-cli",
        dir.display()
    );
    let ok = Command::new("cargo")
        .args(["build", "--release", "-p", "crown-cli"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        return Err(format!("building {rev} ({hash}) failed"));
    }
    Ok(dir.join("target/release/crown"))
}

/// Run `cargo xtask sprt ARGS`.
pub fn sprt(args: &[String]) -> bool {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return false;
        }
    };
    let root = crate::root();
    let base = match build_base(&root, &o.base) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return false;
        }
    };
    if !run("cargo", &["build", "--release", "-p", "crown-cli"]) {
        return false;
    }
    let new = root.join("target/release/crown");
    let (new, base) = (
        new.to_string_lossy().to_string(),
        base.to_string_lossy().to_string(),
    );
    let sprt = format!("{},{}", o.elo0, o.elo1);
    let mut m: Vec<&str> = vec![
        "-n",
        "10",
        &new,
        "match",
        "--variant",
        &o.variant,
        "--engine-a",
        &o.engine,
        "--engine-b",
        &o.engine,
        "--engine-b-bin",
        &base,
        "--sprt",
        &sprt,
        "--alpha",
        &o.alpha,
        "--beta",
        &o.beta,
        "--concurrency",
        &o.concurrency,
        "--games",
        &o.max_games,
        "--seed",
        &o.seed,
    ];
    if let Some(ms) = &o.tc {
        m.extend(["--movetime", ms]);
    }
    if let Some(n) = &o.nodes {
        m.extend(["--nodes", n]);
    }
    if let Some(f) = &o.openings {
        m.extend(["--openings", f]);
    }
    if let Some(f) = &o.pdn {
        m.extend(["--pdn", f]);
    }
    eprintln!("A = current build, B = {} ({base})", o.base);
    run("nice", &m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options() {
        let o = parse(&args("--base main")).unwrap();
        assert_eq!(o.base, "main");
        // No time control given: a node budget, so results do not depend on the load.
        assert_eq!(o.nodes.as_deref(), Some("20000"));
        assert_eq!((o.elo0.as_str(), o.elo1.as_str()), ("0", "5"));
        let o = parse(&args("--base HEAD~1 --tc 20 --variant pool --elo1 10")).unwrap();
        assert_eq!((o.tc.as_deref(), o.nodes), (Some("20"), None));
        assert_eq!(o.variant, "pool");
        assert!(parse(&args("--tc 20")).is_err());
        assert!(parse(&args("--base x --tc 20 --nodes 5")).is_err());
        assert!(parse(&args("--base x --frobnicate 1")).is_err());
        assert!(parse(&args("--base")).is_err());
    }
}

//! Helpers shared by the `crown` CLI integration tests (`mod common;` in each test file).

use std::path::Path;
use std::process::Command;

/// Build the `variant` endgame databases of up to `pieces` pieces into `dir` with
/// `crown egdb build`, and assert that it succeeded (stderr in the message when not).
pub fn build_egdb(variant: &str, pieces: u32, dir: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_crown"))
        .args(["egdb", "build", "--variant", variant, "--pieces"])
        .arg(pieces.to_string())
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("run crown egdb build");
    assert_eq!(
        out.status.code(),
        Some(0),
        "crown egdb build --variant {variant} --pieces {pieces} --dir {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The arguments of `crown match --openings acf3 --games GAMES --nodes NODES --engine-a hash=1`
/// (the ACF deck is embedded, so no shared data is needed), then `extra`.
#[allow(dead_code)] // not every test file plays matches
pub fn match_args<'a>(games: &'a str, nodes: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--openings",
        "acf3",
        "--games",
        games,
        "--nodes",
        nodes,
        "--engine-a",
        "hash=1",
    ];
    args.extend_from_slice(extra);
    args
}

//! Helpers shared by the `crown` CLI integration tests (`mod common;` in each test file).

// Not every test file uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A `Command` for the `crown` binary of this build, with the background database build off
/// (`CROWN_EGDB_BUILD=0`: a test never builds into the per-user directory by accident) and the
/// per-user data directory an empty one of this build (`XDG_DATA_HOME`), so that databases a user
/// of the machine built there never change a test's output. A test may set either again.
pub fn crown_command() -> Command {
    let data = Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-data-home");
    // A test that finds it missing reads "no per-user databases", as with an empty one.
    let _ = std::fs::create_dir_all(&data);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_crown"));
    cmd.env("CROWN_EGDB_BUILD", "0").env("XDG_DATA_HOME", &data);
    cmd
}

/// Exit code (-1 when killed by a signal), stdout and stderr of a finished `crown`.
pub fn outcome(out: &Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run `crown args` after `setup` has adjusted the command (environment, working directory);
/// return exit code, stdout and stderr.
pub fn crown_with(args: &[&str], setup: impl FnOnce(&mut Command)) -> (i32, String, String) {
    let mut cmd = crown_command();
    cmd.args(args);
    setup(&mut cmd);
    outcome(&cmd.output().expect("run crown"))
}

/// Run `crown args`; return exit code, stdout and stderr.
pub fn crown(args: &[&str]) -> (i32, String, String) {
    crown_with(args, |_| {})
}

/// The shared data directory: `$CROWN_SHARED`, else `shared` beside the repository.
pub fn shared() -> PathBuf {
    match std::env::var("CROWN_SHARED") {
        Ok(p) => p.into(),
        Err(_) => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// Build the `variant` endgame databases of up to `pieces` pieces into `dir` with
/// `crown egdb build`, and assert that it succeeded (stderr in the message when not).
pub fn build_egdb(variant: &str, pieces: u32, dir: &Path) {
    let pieces_text = pieces.to_string();
    let dir_text = dir.to_str().expect("a UTF-8 directory name");
    let (code, _, err) = crown(&[
        "egdb",
        "build",
        "--variant",
        variant,
        "--pieces",
        &pieces_text,
        "--dir",
        dir_text,
    ]);
    assert_eq!(
        code,
        0,
        "crown egdb build --variant {variant} --pieces {pieces} --dir {}: {err}",
        dir.display(),
    );
}

/// The arguments of `crown match --openings acf3 --games GAMES --nodes NODES --engine-a hash=1`
/// (the ACF deck is embedded, so no shared data is needed), then `extra`.
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

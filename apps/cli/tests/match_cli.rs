//! `crown match` when things go wrong: engine B dies or misbehaves, the options are degenerate.
//! Engine B is played by small shell scripts (`#!/bin/sh`), so these tests run on Unix only.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Run `crown args` with extra environment `env`; return exit code, stdout and stderr.
fn crown_env(args: &[&str], env: &[(&str, &Path)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_crown"));
    cmd.args(args).env_remove("CROWN_EGDB_DIR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run crown");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn crown(args: &[&str]) -> (i32, String, String) {
    crown_env(args, &[])
}

/// Write an executable shell script `name` with `body` into `dir`.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Engine B is the real `crown engine` behind a filter that ends its input at the `n`-th `go`
/// (that `go` is not passed on): the engine exits without answering it.
fn dying_engine(dir: &Path, n: u32) -> PathBuf {
    script(
        dir,
        "dying.sh",
        &format!(
            "n=0\nwhile IFS= read -r line; do\n  case \"$line\" in go*) n=$((n + 1));; esac\n  [ \"$n\" -eq {n} ] && exit 0\n  printf '%s\\n' \"$line\"\ndone | \"{}\" \"$@\"",
            env!("CARGO_BIN_EXE_crown")
        ),
    )
}

/// Engine B dies in the first game of the second pair: the first pair is in the PDN file and in the
/// result printed before the error, which names the game that failed.
#[test]
fn games_finished_before_engine_b_dies_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    // With --max-plies 10 from a ballot, B moves 5 times in each game of a pair (no game of the
    // deck ends within 10 plies), so its 11th `go` is its first move of game 2.1.
    let b = dying_engine(dir.path(), 11);
    let pdn = dir.path().join("games.pdn");
    let (code, out, err) = crown(&[
        "match",
        "--openings",
        "acf3",
        "--games",
        "6",
        "--nodes",
        "300",
        "--max-plies",
        "10",
        "--engine-a",
        "hash=1",
        "--engine-b",
        "hash=1",
        "--engine-b-bin",
        b.to_str().unwrap(),
        "--sprt",
        "0,5",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{out}\n{err}");
    let last = err.lines().last().unwrap_or("");
    assert!(last.starts_with("error: game 2.1 (opening \""), "{err}");
    assert!(last.ends_with("exited while we waited for 'done'"), "{err}");
    let text = std::fs::read_to_string(&pdn).expect("the PDN of the finished games");
    assert_eq!(text.matches("[Round ").count(), 2, "{text}");
    assert!(text.contains("[Round \"1.1\"]") && text.contains("[Round \"1.2\"]"));
    assert!(
        out.starts_with("match stopped early: a game failed"),
        "{out}"
    );
    assert!(out.contains("\n2 games: A (hash=1) "), "{out}");
    assert!(
        out.contains("SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05: LLR "),
        "{out}"
    );
    let penta = out
        .lines()
        .find_map(|l| l.strip_prefix("pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for A): "))
        .expect("pentanomial line");
    let pairs: u64 = penta.split(' ').map(|c| c.parse::<u64>().unwrap()).sum();
    assert_eq!(pairs, 1, "{out}");
}

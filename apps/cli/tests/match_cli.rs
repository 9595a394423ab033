//! `crown match` when things go wrong: engine B dies or misbehaves, the options are degenerate.
//! Engine B is played by small shell scripts (`#!/bin/sh`), so these tests run on Unix only.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Run `crown args` with extra environment `env`; return exit code, stdout and stderr.
fn crown_env(args: &[&str], env: &[(&str, &Path)]) -> (i32, String, String) {
    common::crown_with(args, |cmd| {
        cmd.env_remove("CROWN_EGDB_DIR");
        for (k, v) in env {
            cmd.env(k, v);
        }
    })
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
    let (code, out, err) = crown(&common::match_args(
        "6",
        "300",
        &[
            "--max-plies",
            "10",
            "--engine-b",
            "hash=1",
            "--engine-b-bin",
            b.to_str().unwrap(),
            "--sprt",
            "0,5",
            "--pdn",
            pdn.to_str().unwrap(),
        ],
    ));
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

/// An engine B that answers `done move=none` where it has legal moves is an error naming the game
/// and the position, not a draw. A plays the first move of game 1.1 from a ballot (White to move
/// after three plies), so B's first turn is Black's, at ply 1.
#[test]
fn no_move_from_engine_b_with_legal_moves_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let b = script(
        dir.path(),
        "none.sh",
        "while read -r line; do\n  case \"$line\" in\n    hub) echo 'id name=None'; echo wait;;\n    init) echo ready;;\n    go*) echo 'done move=none';;\n    quit) exit 0;;\n  esac\ndone",
    );
    let (code, out, err) = crown(&common::match_args(
        "2",
        "100",
        &["--engine-b-bin", b.to_str().unwrap()],
    ));
    assert_eq!(code, 2, "{out}\n{err}");
    let last = err.lines().last().unwrap_or("");
    assert!(last.starts_with("error: game 1.1 (opening \"W:"), "{err}");
    assert!(
        last.contains(": engine B answered no move (done move=none) at ply 1 in \"B:"),
        "{err}"
    );
    assert!(last.ends_with("\", where it has legal moves"), "{err}");
    // No game ended: no result to print.
    assert_eq!(out, "");
}

/// Spec keys that the `crown engine` protocol cannot send are refused for `--engine-b-bin` before
/// anything starts.
#[test]
fn engine_b_bin_refuses_keys_it_cannot_send() {
    for (spec, key) in [
        ("eval=classic", "eval"),
        ("depth=3,malus=0", "malus"),
        ("rfp=0", "rfp"),
        ("futility=1", "futility"),
    ] {
        let (code, out, err) = crown(&[
            "match",
            "--engine-b",
            spec,
            "--engine-b-bin",
            "/nonexistent/crown",
        ]);
        assert_eq!(code, 2, "{out}\n{err}");
        assert_eq!(
            err.trim_end(),
            format!("error: engine B spec '{spec}': {key}= is for the built-in engine, not --engine-b-bin (the crown engine protocol cannot set it)")
        );
    }
}

/// Engine B gets the match's endgame databases over the protocol when its own are not the same,
/// `none` when its spec says `egdb=0`, and no `egdb` parameter at all when it already has the
/// right ones (so that older binaries keep working).
#[test]
fn engine_b_bin_gets_the_matchs_endgame_databases() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("egdb");
    common::build_egdb("american", 2, &db);
    // No per-user database directory: HOME and XDG_DATA_HOME are empty directories.
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let log = dir.path().join("b.log");
    let b = script(
        dir.path(),
        "logged.sh",
        &format!(
            "tee -a \"{}\" | \"{}\" \"$@\"",
            log.display(),
            env!("CARGO_BIN_EXE_crown")
        ),
    );
    let run = |extra: &[&str], env: &[(&str, &Path)]| -> String {
        let _ = std::fs::remove_file(&log);
        let mut args = common::match_args(
            "2",
            "100",
            &["--max-plies", "2", "--engine-b-bin", b.to_str().unwrap()],
        );
        args.extend_from_slice(extra);
        let mut env = env.to_vec();
        env.extend_from_slice(&[("HOME", home.as_path()), ("XDG_DATA_HOME", home.as_path())]);
        let (code, out, err) = crown_env(&args, &env);
        assert_eq!(code, 0, "{extra:?}\n{out}\n{err}");
        std::fs::read_to_string(&log).unwrap()
    };
    let egdb_lines = |input: &str| -> Vec<String> {
        input
            .lines()
            .filter(|l| l.starts_with("set-param name=egdb "))
            .map(str::to_string)
            .collect()
    };
    // --egdb DIR: B (whose default directory is empty) is given DIR.
    let input = run(
        &["--egdb", db.to_str().unwrap(), "--engine-b", "hash=1"],
        &[],
    );
    assert_eq!(
        egdb_lines(&input),
        [format!("set-param name=egdb value=\"{}\"", db.display())],
        "{input}"
    );
    // B's default directory holds the databases, but its spec says egdb=0.
    let input = run(&["--engine-b", "hash=1,egdb=0"], &[("CROWN_EGDB_DIR", &db)]);
    assert_eq!(
        egdb_lines(&input),
        ["set-param name=egdb value=\"none\""],
        "{input}"
    );
    // B's default directory is the match's: nothing to send.
    let input = run(&["--engine-b", "hash=1"], &[("CROWN_EGDB_DIR", &db)]);
    assert_eq!(egdb_lines(&input), Vec::<String>::new(), "{input}");
    // --no-egdb: B is told to use none.
    let input = run(
        &["--no-egdb", "--engine-b", "hash=1"],
        &[("CROWN_EGDB_DIR", &db)],
    );
    assert_eq!(
        egdb_lines(&input),
        ["set-param name=egdb value=\"none\""],
        "{input}"
    );
}

/// Ctrl-C (SIGINT) stops a match after the games in progress: the result so far is printed, every
/// finished game is in the PDN file, and the error says how many games that is.
#[test]
fn an_interrupted_match_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    let child = common::crown_command()
        .args(common::match_args(
            "1000",
            "100",
            &[
                "--max-plies",
                "20",
                "--engine-b",
                "hash=1",
                "--pdn",
                pdn.to_str().unwrap(),
            ],
        ))
        .env_remove("CROWN_EGDB_DIR")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the first game is written (at most a minute), then interrupt.
    for _ in 0..6000 {
        if std::fs::read_to_string(&pdn).is_ok_and(|t| t.contains("[Round ")) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("match stopped early: interrupted\n"),
        "{stdout}"
    );
    let last = stderr.lines().last().unwrap_or("");
    let games: usize = last
        .strip_prefix("error: interrupted after ")
        .and_then(|r| r.strip_suffix(" finished games"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!((1..1000).contains(&games), "{stderr}");
    assert_eq!(text.matches("[Round ").count(), games, "{text}");
}

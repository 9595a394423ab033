//! The engine-facing commands (`crown engine`, `analyze`, `play`, `match`): bad input gets a clear
//! one-line error (exit 2, or an `error` line in the protocol) and never aborts or hangs.

mod common;

use common::shared;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run `crown args`, feed `input` on stdin (then close it after `hold`), and return exit code,
/// stdout and stderr. Panics when the process is still running after `limit`.
fn crown_stdin(
    args: &[&str],
    input: &str,
    hold: Duration,
    limit: Duration,
) -> (i32, String, String) {
    let mut child = common::crown_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run crown");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write stdin");
    std::thread::sleep(hold);
    drop(stdin);
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "crown {args:?} still running after {limit:?} at end of input; output:\n{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    common::outcome(&child.wait_with_output().expect("output"))
}

fn crown(args: &[&str]) -> (i32, String, String) {
    crown_stdin(args, "", Duration::ZERO, Duration::from_secs(60))
}

/// Exit code 2 and exactly one line on stderr mentioning `needle`.
fn assert_one_line_error(args: &[&str], needle: &str) {
    let (code, _, err) = crown(args);
    assert_eq!(code, 2, "crown {args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "crown {args:?}: {err}");
    assert!(err.contains(needle), "crown {args:?}: {err}");
}

#[test]
fn engine_huge_hash_is_an_error_line_not_an_abort() {
    let (code, out, err) = crown_stdin(
        &["engine"],
        "set-param name=hash value=65536\nset-param name=hash value=0\nset-param name=hash value=2\nping\n",
        Duration::ZERO,
        Duration::from_secs(30),
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("error message=\"bad parameter hash=65536"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("error message=\"bad parameter hash=0"),
        "{out}"
    );
    assert_eq!(lines[2], "pong");
}

#[test]
fn analyze_huge_hash_is_rejected() {
    assert_one_line_error(&["analyze", "--hash", "1000000", "--depth", "3"], "1000000");
}

#[test]
fn engine_stops_an_unbounded_search_at_end_of_input() {
    for input in ["go analyze\n", "level infinite\ngo think\n", "go ponder\n"] {
        let (code, out, err) = crown_stdin(
            &["engine"],
            input,
            Duration::from_millis(300),
            Duration::from_secs(10),
        );
        assert_eq!(code, 0, "{input:?}: {err}");
        let last = out.lines().last().unwrap_or("");
        assert!(last.starts_with("done move="), "{input:?}: {out}");
        assert!(!last.starts_with("done move=none"), "{input:?}: {out}");
    }
}

#[test]
fn play_undo_before_the_first_human_move_changes_nothing() {
    // The engine (Black) moves first; the human has nothing to take back.
    let (code, out, err) = crown_stdin(
        &["play", "--as", "white", "--level", "1", "--save", "-"],
        "undo\npdn\nquit\n",
        Duration::ZERO,
        Duration::from_secs(30),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("nothing to undo"), "{out}");
    assert_eq!(out.matches("engine plays").count(), 1, "{out}");
    // The PDN still holds the engine's first move.
    assert!(out.contains("1. "), "{out}");
}

#[test]
fn match_rejects_openings_of_another_game() {
    let ballots = shared().join("data/pdn/ballots-11-man-english.pdn");
    let ballots = ballots.to_str().unwrap();
    let args = [
        "match",
        "--variant",
        "impasse",
        "--openings",
        ballots,
        "--games",
        "2",
        "--engine-a",
        "depth=1",
        "--engine-b",
        "depth=1",
    ];
    assert_one_line_error(&args, "is not Impasse");
    // A file that says it is pool checkers is not American checkers either.
    let dir = std::env::temp_dir().join(format!("crown-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pool = dir.join("pool.pdn");
    std::fs::write(&pool, "[GameType \"23\"]\n[FEN \"B:W21-32:B1-12\"]\n*\n").unwrap();
    let mut args = args;
    args[2] = "american";
    args[4] = pool.to_str().unwrap();
    assert_one_line_error(&args, "GameType \"23\" is not American checkers");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_of_range_numbers_are_rejected() {
    assert_one_line_error(&["match", "--games", "0"], "--games");
    assert_one_line_error(&["analyze", "--threads", "0", "--depth", "1"], "--threads");
    assert_one_line_error(
        &["analyze", "--threads", "1000", "--depth", "1"],
        "--threads",
    );
    assert_one_line_error(&["analyze", "--hash", "0", "--depth", "1"], "--hash");
    assert_one_line_error(&["analyze", "--depth", "0"], "--depth");
    assert_one_line_error(&["analyze", "--depth", "129"], "--depth");
    // The engine protocol has the same limits.
    let (_, out, _) = crown_stdin(
        &["engine"],
        "set-param name=threads value=65\nlevel depth=0\nlevel nodes=0\nlevel move-time=0\nping\n",
        Duration::ZERO,
        Duration::from_secs(30),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].contains("threads=65"), "{out}");
    assert!(lines[1].contains("depth=0"), "{out}");
    assert!(lines[2].contains("nodes=0"), "{out}");
    assert!(lines[3].contains("move-time=0"), "{out}");
    // Long jobs: a zero or out-of-range count is refused before any work.
    for (args, option) in [
        (
            &["tune", "gen", "--games", "0", "--out", "x.txt"][..],
            "--games",
        ),
        (
            &["tune", "gen", "--depth", "0", "--out", "x.txt"][..],
            "--depth",
        ),
        (
            &["tune", "gen", "--depth", "61", "--out", "x.txt"][..],
            "--depth",
        ),
        (
            &["tune", "gen", "--max-plies", "0", "--out", "x.txt"][..],
            "--max-plies",
        ),
        (
            &["book", "build", "--max-moves", "0", "--out", "b.bin"][..],
            "--max-moves",
        ),
        (
            &["book", "build", "--max-positions", "0", "--out", "b.bin"][..],
            "--max-positions",
        ),
        (
            &["book", "build", "--nodes", "0", "--out", "b.bin"][..],
            "--nodes",
        ),
    ] {
        assert_one_line_error(args, option);
    }
}

/// The value of tag `name` in the first game of `pdn`.
fn tag<'a>(pdn: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("[{name} \"");
    let start = pdn.find(&open)? + open.len();
    Some(&pdn[start..start + pdn[start..].find('"')?])
}

fn is_pdn_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'.'
        && b[7] == b'.'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

#[test]
fn play_pdn_command_and_saved_file_have_the_same_tags() {
    let dir = std::env::temp_dir().join(format!("crown-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.pdn");
    let (code, out, err) = crown_stdin(
        &[
            "play",
            "--as",
            "white",
            "--level",
            "1",
            "--save",
            file.to_str().unwrap(),
        ],
        "pdn\nquit\n",
        Duration::ZERO,
        Duration::from_secs(30),
    );
    assert_eq!(code, 0, "{err}");
    let saved = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    for text in [out.as_str(), saved.as_str()] {
        assert_eq!(tag(text, "Event"), Some("Crown play"), "{text}");
        assert_eq!(tag(text, "White"), Some("You"), "{text}");
        assert_eq!(tag(text, "Black"), Some("Crown engine (level 1)"), "{text}");
        assert!(tag(text, "Date").is_some_and(is_pdn_date), "{text}");
    }
}

#[test]
fn match_pdn_names_the_engines_and_the_date() {
    let dir = std::env::temp_dir().join(format!("crown-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pdn");
    let ballots = shared().join("data/pdn/ballots-11-man-english.pdn");
    let (code, _, err) = crown(&[
        "match",
        "--openings",
        ballots.to_str().unwrap(),
        "--games",
        "2",
        "--engine-a",
        "depth=1",
        "--engine-b",
        "depth=1",
        "--max-plies",
        "10",
        "--pdn",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let pdn = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    // Game 1: A plays the side to move of the ballot (Black).
    assert_eq!(tag(&pdn, "Black"), Some("A (depth=1)"), "{pdn}");
    assert_eq!(tag(&pdn, "White"), Some("B (depth=1)"), "{pdn}");
    assert!(tag(&pdn, "Date").is_some_and(is_pdn_date), "{pdn}");
    let second = &pdn[pdn.find("[Round \"1.2\"]").expect("round 1.2")..];
    let second = &pdn[pdn[..pdn.len() - second.len()].rfind("[Event").unwrap()..];
    assert_eq!(tag(second, "Black"), Some("B (depth=1)"), "{pdn}");
}

/// `crown analyze` says which endgame databases it loaded, proves a database win with them, and
/// plays on without them (a warning, not an error) when their files are broken. The distance is
/// checked against the search without databases, which proves the same win on its own: two
/// kings against one in the double corner, White to move, wins in 27 plies.
#[test]
fn analyze_uses_the_endgame_databases() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyze-egdb-3");
    let d = dir.to_str().unwrap();
    common::build_egdb("american", 3, &dir);
    let fen = "W:WK27,K32:BK1";
    let (code, out, err) = crown(&["analyze", "--fen", fen, "--depth", "30", "--no-egdb"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("info egdb none"), "{out}");
    let searched = out.lines().last().unwrap().to_string();
    assert!(searched.contains("score win in 27 "), "{out}");
    let (code, out, err) = crown(&["analyze", "--fen", fen, "--depth", "30", "--egdb", d]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().next(),
        Some("info egdb american ≤3 pieces"),
        "{out}"
    );
    assert!(
        out.lines().last().unwrap().contains("score win in 27 (db)"),
        "{out}"
    );
    // A damaged file: one warning line naming it, then the search as without databases.
    let bad = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyze-egdb-bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("american-m0k1-m0k1.egdb"), b"not a database").unwrap();
    let (code, out, err) = crown(&[
        "analyze",
        "--fen",
        fen,
        "--depth",
        "2",
        "--egdb",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("info egdb none"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning:") && err.contains("american-m0k1-m0k1.egdb"),
        "{err}"
    );
}
#[test]
fn identical_engines_score_one_point_per_pair_in_process_or_over_the_protocol() {
    // Engine B is another `crown` process driven through `crown engine`; both sides search a fixed
    // node budget from a cleared table, so the second game of each pair repeats the first with the
    // colours swapped and every pair scores exactly 1 point for A (pentanomial cell 2). The ACF
    // deck is embedded, so no shared data is needed.
    let (code, out, err) = crown(&common::match_args(
        "4",
        "2000",
        &[
            "--concurrency",
            "2",
            "--engine-b",
            "hash=1",
            "--engine-b-bin",
            env!("CARGO_BIN_EXE_crown"),
            "--sprt",
            "0,5",
            "--max-plies",
            "60",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for A): 0 0 2 0 0"),
        "{out}"
    );
    assert!(out.contains("score 2.0/4 = 50.0%"), "{out}");
    assert!(
        out.contains("SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05: LLR "),
        "{out}"
    );
}

#[test]
fn a_missing_engine_binary_is_a_one_line_error() {
    assert_one_line_error(
        &[
            "match",
            "--games",
            "2",
            "--openings",
            "acf3",
            "--engine-b-bin",
            "/nonexistent/crown",
        ],
        "engine B /nonexistent/crown: cannot start",
    );
    assert_one_line_error(&["match", "--sprt", "5,0"], "--sprt '5,0'");
}

/// `crown play --save` saves the game on every way out (issue 14), also when the process is ended
/// by SIGTERM or SIGHUP (a closed terminal), not only by Ctrl-C.
#[cfg(unix)]
#[test]
fn play_saves_the_game_on_sigterm_and_sighup() {
    use std::io::{BufRead, BufReader};
    for signal in ["-TERM", "-HUP"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let save = dir.path().join("g.pdn");
        let mut child = common::crown_command()
            .args(["play", "--level", "1", "--save"])
            .arg(&save)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run crown");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(b"11-15\n").expect("write stdin");
        // Wait for the engine's reply: the game then holds two plies.
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        assert!(
            lines.any(|l| l.is_ok_and(|l| l.contains("engine plays"))),
            "no engine reply"
        );
        let status = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
        child.wait().expect("wait");
        drop(stdin);
        let text = std::fs::read_to_string(&save)
            .unwrap_or_else(|e| panic!("{signal}: no saved game: {e}"));
        assert!(text.contains("1. 11-15 "), "{signal}: {text}");
    }
}

#[test]
fn engine_first_run_with_the_background_build_writes_only_protocol_lines() {
    // Issue 41: on a first run (an empty database directory, the background build on), the
    // build's notice went to stderr during `go`; pydraughts reads stderr with stdout and logged
    // "Unexpected engine response to go". Hub clients must see protocol lines only.
    use std::io::{BufRead, BufReader, Read};
    use std::sync::mpsc;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = common::crown_command()
        .arg("engine")
        .env_remove("CROWN_EGDB_BUILD")
        .env("CROWN_EGDB_DIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run crown");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("read stdout")).is_err() {
                return;
            }
        }
    });
    stdin
        .write_all(
            b"hub\ninit\nset-param name=variant value=english\npos\nlevel depth=3\ngo think\n",
        )
        .expect("write stdin");
    stdin.flush().expect("flush stdin");
    // Every line until the search's `done`, waited for (bounded in case the engine hangs).
    let mut out = Vec::new();
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("no `done` ({e}); stdout so far: {out:#?}"));
        let done = line.starts_with("done");
        out.push(line);
        if done {
            break;
        }
    }
    stdin.write_all(b"quit\n").expect("write stdin");
    drop(stdin);
    let status = child.wait().expect("wait");
    out.extend(lines.iter());
    let err = err_reader.join().expect("stderr reader");
    assert!(status.success(), "{status}");
    assert_eq!(
        err, "",
        "stderr must hold protocol lines only (nothing here)"
    );
    let words = [
        "id", "param", "wait", "ready", "info", "done", "pong", "error",
    ];
    for line in &out {
        let word = line.split_whitespace().next().unwrap_or("");
        assert!(
            words.contains(&word),
            "not a protocol line: {line:?} in {out:#?}"
        );
        assert!(!line.starts_with("error"), "{line:?}");
    }
    // The build did start, and was announced in an `info` line pydraughts can parse (no `=` in
    // the quoted value).
    let notice = out
        .iter()
        .find(|l| l.starts_with("info egdb-build="))
        .unwrap_or_else(|| panic!("no build notice in {out:#?}"));
    let value = notice.trim_start_matches("info egdb-build=");
    assert!(
        value.starts_with('"') && value.ends_with('"') && !value.contains('='),
        "{notice}"
    );
    assert!(notice.is_ascii(), "{notice}");
}

//! The line loops of `crown engine` and `crown play` as library functions fed arbitrary bytes
//! (issue 14): a bad line gets one printable error line of at most 200 characters, the session goes
//! on, and `play` saves the game however it ends.

use crown_cli::commands::engine::{session as engine_session, SharedOut};
use crown_cli::commands::play::{session as play_session, PlayArgs};
use proptest::prelude::*;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn engine(input: &[u8]) -> String {
    let sink = Sink::default();
    let out: SharedOut = Arc::new(Mutex::new(Box::new(sink.clone())));
    engine_session(input, out, None).unwrap();
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes).expect("the engine writes UTF-8")
}

/// Every line is one printable line of at most 200 characters.
fn assert_lines_ok(out: &str) {
    for line in out.lines() {
        assert!(
            line.chars().count() <= 200,
            "{} chars: {line}",
            line.chars().count()
        );
        assert!(
            !line.chars().any(crown_notation::needs_escape),
            "control or format character: {line:?}"
        );
    }
}

fn temp_path(name: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!("crown-{name}-{}-{nanos}.pdn", std::process::id()))
}

/// `crown play` against the level-1 engine in American checkers, no databases, saving to `save`.
fn play_args(save: &std::path::Path) -> PlayArgs {
    PlayArgs {
        variant: "american".into(),
        setup: None,
        fen: None,
        side: None,
        level: Some(1),
        movetime: None,
        save: Some(save.display().to_string()),
        egdb: crown_cli::common::EgdbArgs {
            egdb: None,
            no_egdb: true,
        },
        egdb_build: crown_cli::common::EgdbBuildArgs {
            no_egdb_build: true,
        },
        no_book: false,
    }
}

fn play(input: &[u8], save: &std::path::Path) -> String {
    let args = play_args(save);
    let mut out = Vec::new();
    play_session(&args, input, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_line_that_is_not_utf8_gets_one_error_and_the_engine_goes_on() {
    // The case: `printf 'ping\ncaf\xe9\nping\nquit\n' | crown engine`.
    let out = engine(b"ping\ncaf\xe9\nping\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "pong");
    assert!(
        lines[1].starts_with("error message=\"the line is not UTF-8"),
        "{out}"
    );
    assert_eq!(lines[2], "pong");
}

#[test]
fn a_5_mb_unknown_command_is_quoted_short() {
    let mut input = vec![b'z'; 5 << 20];
    input.extend_from_slice(b"\nping\n");
    let out = engine(&input);
    assert_lines_ok(&out);
    assert!(out.contains("(5242880 characters)"), "{out}");
    assert!(out.ends_with("pong\n"));
}

#[test]
fn play_saves_the_game_when_a_bad_line_comes_and_on_quit() {
    // The case: `printf '11-15\n\xff\nquit\n' | crown play --level 1 --save g.pdn`.
    let path = temp_path("play-quit");
    let out = play(b"11-15\n\xff\nquit\n", &path);
    assert_lines_ok(
        &out.replace("your move> ", "\n")
            .replace("Engine thinks... ", "\n"),
    );
    assert_eq!(out.matches("the line is not UTF-8").count(), 1, "{out}");
    let pdn = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(pdn.contains("1. 11-15 "), "{pdn}");
}

#[test]
fn play_saves_the_game_at_the_end_of_input() {
    let path = temp_path("play-eof");
    play(b"11-15\n", &path);
    let pdn = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(pdn.contains("1. 11-15 "), "{pdn}");
}

#[test]
fn play_refuses_a_save_path_in_a_missing_directory_before_the_game_begins() {
    let dir = temp_path("no-such-dir");
    let path = dir.join("missing").join("g.pdn");
    let args = play_args(&path);
    let mut out = Vec::new();
    let e = play_session(&args, &b"11-15\nquit\n"[..], &mut out).unwrap_err();
    assert!(e.0.contains("does not exist"), "{}", e.0);
    assert!(e.0.contains("g.pdn"), "{}", e.0);
    // Refused before the board was shown or a move read.
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    // A directory is no file name either.
    let args = PlayArgs {
        save: Some(std::env::temp_dir().display().to_string()),
        ..args
    };
    let e = play_session(&args, &b"quit\n"[..], &mut out).unwrap_err();
    assert!(e.0.contains("is a directory"), "{}", e.0);
}

/// Lines of arbitrary bytes that are not `go` or `quit` (a search or the end would cut the test).
fn bad_line() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        any::<u8>().prop_filter("no newline", |b| *b != b'\n'),
        0..120,
    )
    .prop_filter("not go or quit", |l| {
        let t = String::from_utf8_lossy(l);
        let w = t.split_whitespace().next().unwrap_or("");
        w != "go" && w != "quit"
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn the_engine_answers_every_ping_whatever_comes_between(lines in proptest::collection::vec(bad_line(), 0..12)) {
        let mut input = Vec::new();
        for l in &lines {
            input.extend_from_slice(l);
            input.extend_from_slice(b"\nping\n");
        }
        let out = engine(&input);
        assert_lines_ok(&out);
        prop_assert!(out.matches("pong").count() >= lines.len(), "{}", out);
    }
}

proptest! {
    // Each case plays engine moves (level 1): fewer cases.
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn play_survives_any_lines_and_saves(lines in proptest::collection::vec(bad_line(), 0..6)) {
        let path = temp_path("play-fuzz");
        let mut input = b"11-15\n".to_vec();
        for l in &lines {
            input.extend_from_slice(l);
            input.push(b'\n');
        }
        let out = play(&input, &path);
        assert_lines_ok(&out.replace("your move> ", "\n").replace("Engine thinks... ", "\n"));
        let pdn = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        prop_assert!(pdn.contains("1. 11-15 "), "{}", pdn);
    }
}

/// docs/protocol.md: "Unknown commands and bad arguments get one line `error message="..."` and
/// change nothing". `go` takes exactly one of think, analyze, ponder; `level` at least one limit; a
/// key may be given once.
#[test]
fn bad_go_level_and_repeated_keys_get_one_error_line_each_and_change_nothing() {
    let bad = [
        "go",
        "go fly",
        "go think garbage",
        "go think=3",
        "level",
        // White to move: were either applied, the engine would answer with a White move.
        "pos pos=\"W:W21-32:B1-12\" pos=\"W:W21-32:B1-12\"",
        "pos pos=\"W:W21-32:B1-12\" fen=\"W:W21-32:B1-12\"",
        "level depth=1 depth=2",
    ];
    let mut input = String::from("level depth=1\n");
    for line in bad {
        input.push_str(line);
        input.push_str("\nping\n");
    }
    input.push_str("go think\n");
    let out = engine(input.as_bytes());
    let lines: Vec<&str> = out.lines().collect();
    // Each bad line: its error, then the pong (no search started: no info or done line).
    for (i, line) in bad.iter().enumerate() {
        assert!(
            lines[2 * i].starts_with("error message=\""),
            "{line}: {out}"
        );
        assert_eq!(lines[2 * i + 1], "pong", "{line}: {out}");
    }
    for i in 0..4 {
        assert!(
            lines[2 * i].contains("expected go think, go analyze or go ponder"),
            "{out}"
        );
    }
    assert!(lines[8].contains("level: give a limit"), "{out}");
    assert!(lines[10].contains("pos: 'pos=' given twice"), "{out}");
    assert!(lines[12].contains("give pos= or fen=, not both"), "{out}");
    assert!(lines[14].contains("level: 'depth=' given twice"), "{out}");
    // Then the search of `go think` at depth 1 from the start: Black's first move.
    let rest = &lines[2 * bad.len()..];
    assert_eq!(rest.len(), 2, "{out}");
    assert!(rest[0].starts_with("info depth=1 "), "{out}");
    let first = ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"];
    let mv = rest[1]
        .strip_prefix("done move=")
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(first.contains(&mv), "{out}");
}

#[test]
fn play_saves_an_empty_game_to_a_named_file() {
    let path = temp_path("play-empty");
    let out = play(b"quit\n", &path);
    assert!(out.contains("Game saved to"), "{out}");
    let pdn = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(pdn.contains("[Event \"Crown play\"]"), "{pdn}");
    // A valid PDN game with no move.
    let game = crown_notation::pdn_to_game(&pdn).unwrap();
    assert_eq!(game.ply_count(), 0);
}

/// Hub 2 (docs/protocol.md): `ponder-hit` turns the ponder search into the timed one, which
/// answers once; `stop` ends `go analyze` with one `done`; a Hub position string sets the
/// position (the start, turned: White to move after 11-15) and moves come back in Hub text.
#[test]
fn hub_ponder_hit_stop_and_position_strings() {
    let done = |out: &str| out.lines().filter(|l| l.starts_with("done")).count();
    let out = engine(b"pos moves=\"11-15\"\nlevel depth=3\ngo ponder\nponder-hit\nping\n");
    assert_eq!(done(&out), 1, "{out}");
    let out = engine(b"pos\ngo analyze\nstop\nping\n");
    assert_eq!(done(&out), 1, "{out}");
    assert!(out.ends_with("pong\n"), "{out}");
    let out = engine(
        b"set-param name=variant value=english\npos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15\"\nlevel depth=4\ngo think\n",
    );
    let last = out.lines().last().unwrap();
    let mv = last
        .strip_prefix("done move=")
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let white = [
        "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20",
    ];
    assert!(white.contains(&mv), "{out}");
    // A capture answers in Hub text: start, end, captured square.
    let out = engine(b"pos pos=\"B:W15:B11\"\nlevel depth=2\ngo think\n");
    assert!(out.ends_with("done move=11x18x15\n"), "{out}");
    let info = out.lines().find(|l| l.starts_with("info ")).unwrap();
    for key in [
        "depth=",
        "mean-depth=",
        "score=",
        "nodes=",
        "time=",
        "nps=",
        "pv=\"",
    ] {
        assert!(info.contains(&format!(" {key}")), "{info}");
    }
    assert!(info.contains(" score=99.99 "), "{info}");
}

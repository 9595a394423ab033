//! `crown pdn check|fmt|fen` on the shared archives: summaries, JSON, exit codes 0/1/2.

mod common;

use common::{crown, shared};

use std::path::PathBuf;

fn pdn(name: &str) -> String {
    shared().join("data/pdn").join(name).display().to_string()
}

#[test]
fn check_tinsley_reports_petal_game_18() {
    // Run from the data directory: the error line is capped at 200 characters and a long path
    // would leave less room for the Event.
    let path = std::path::PathBuf::from(pdn("tinsley.pdn"));
    let (code, out, _) = common::crown_with(&["pdn", "check", "tinsley.pdn"], |cmd| {
        cmd.current_dir(path.parent().unwrap());
    });
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("Petal 1981, game 18") && lines[0].contains("move 62"));
    assert!(lines[1].starts_with("724 games, 723 replayed,"), "{out}");
    assert!(lines[1].ends_with(", 1 error"), "{out}");

    let (code, out, _) = crown(&["pdn", "check", "--json", &pdn("tinsley.pdn")]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 724);
    assert_eq!(v["replayed"], 723);
    let e = &v["errors"][0];
    assert_eq!(e["event"], "Petal 1981, game 18");
    assert_eq!(e["game"], 541);
    assert_eq!(e["move"], 62);
    assert!(e["line"].as_u64().unwrap() > 0);
    assert!(e["reason"].as_str().unwrap().starts_with("illegal move"));
}

#[test]
fn check_clean_files_exit_0_and_bad_input_exits_2() {
    let (code, out, _) = crown(&["pdn", "check", &pdn("ballots-11-man-english.pdn")]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out.trim(),
        "2400 games, 2400 replayed, 0 warnings, 0 errors"
    );
    let (code, out, _) = crown(&["pdn", "check", "/nonexistent/file.pdn"]);
    assert_eq!(code, 2);
    assert!(out.starts_with("/nonexistent/file.pdn: "), "{out}");
    assert!(
        out.ends_with("0 games, 0 replayed, 0 warnings, 1 error\n"),
        "{out}"
    );
    let empty = std::env::temp_dir().join(format!("crown-empty-{}.pdn", std::process::id()));
    std::fs::write(&empty, "  \n").unwrap();
    let (code, out, _) = crown(&["pdn", "check", empty.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.contains("no PDN game"), "{out}");
    let _ = std::fs::remove_file(&empty);
}

#[test]
fn fen_gives_the_position_of_a_ply() {
    // The start position of a game without FEN, and the position before Petal's move 62.
    let (code, out, _) = crown(&[
        "pdn",
        "fen",
        &pdn("tinsley.pdn"),
        "--game",
        "1",
        "--ply",
        "0",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    // Game 1 opens 1. 11-15 23-18.
    let (_, out, _) = crown(&[
        "pdn",
        "fen",
        &pdn("tinsley.pdn"),
        "--game",
        "1",
        "--ply",
        "2",
    ]);
    assert_eq!(
        out.trim(),
        "B:W18,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );
    let (code, out, _) = crown(&[
        "pdn",
        "fen",
        &pdn("tinsley.pdn"),
        "--game",
        "541",
        "--ply",
        "122",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "B:WK26,K27,K30:B16,K28,K29");
    let (code, _, err) = crown(&[
        "pdn",
        "fen",
        &pdn("tinsley.pdn"),
        "--game",
        "541",
        "--ply",
        "123",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("move 62"), "{err}");
    let (code, _, err) = crown(&["pdn", "fen", &pdn("tinsley.pdn"), "--game", "9999"]);
    assert_eq!(code, 2);
    assert!(err.contains("724 games"), "{err}");
}

#[test]
fn fmt_output_checks_clean_and_is_stable() {
    let dir = std::env::temp_dir();
    let a = dir.join(format!("crown-fmt-a-{}.pdn", std::process::id()));
    let b = dir.join(format!("crown-fmt-b-{}.pdn", std::process::id()));
    let src = shared().join("data/pdn/conformance/succeed/OCA_2.0.pdn");
    let (code, _, err) = crown(&[
        "pdn",
        "fmt",
        src.to_str().unwrap(),
        "-o",
        a.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = crown(&["pdn", "check", a.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "43 games, 43 replayed, 0 warnings, 0 errors");
    let (code, _, _) = crown(&["pdn", "fmt", a.to_str().unwrap(), "-o", b.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let _ = std::fs::remove_file(&a);
    let _ = std::fs::remove_file(&b);
}

#[test]
fn fmt_writes_nothing_when_a_game_has_a_syntax_error() {
    // delfts.pdn: game 1 runs into game 2's tags without a result (a syntax error).
    let dir = std::env::temp_dir();
    let out = dir.join(format!("crown-fmt-syntax-{}.pdn", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let src = pdn("conformance/fail/delfts.pdn");
    let (code, stdout, err) = crown(&["pdn", "fmt", &src, "-o", out.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(
        err.contains("game 1") && err.contains("syntax error"),
        "{err}"
    );
    // Game 2 (10x10 squares, no GameType) does not replay, but nothing is written at all.
    assert!(
        err.contains("game 2") && !err.contains("written as read"),
        "{err}"
    );
    assert!(!out.exists(), "fmt created the output file");
    // An existing output file is left untouched.
    std::fs::write(&out, "keep me").unwrap();
    let (code, _, _) = crown(&["pdn", "fmt", &src, "-o", out.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    let _ = std::fs::remove_file(&out);
    // A bad game after a good one: nothing on stdout.
    let bad = dir.join(format!("crown-fmt-trailing-{}.pdn", std::process::id()));
    std::fs::write(&bad, "1. 11-15 23-19 *\n1. 9-14 ] *\n").unwrap();
    let (code, stdout, err) = crown(&["pdn", "fmt", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty(), "{stdout}");
    assert!(err.contains("game 2"), "{err}");
    let _ = std::fs::remove_file(&bad);
}

#[test]
fn deeply_nested_variations_are_a_syntax_error_not_a_crash() {
    let n = 20_000;
    let text = format!("1. 11-15 {}{} 23-19 *\n", "(9-14 ".repeat(n), ")".repeat(n));
    let path = std::env::temp_dir().join(format!("crown-deep-{}.pdn", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let (code, out, err) = crown(&["pdn", "fmt", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("line 1:394") && err.contains("nested"),
        "{err}"
    );
    let (code, out, _) = crown(&["pdn", "check", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("line 1:394") && out.contains("1 game, 0 replayed, 0 warnings, 1 error"),
        "{out}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn illegal_variation_moves_are_warnings_and_kept_by_fmt() {
    let path = std::env::temp_dir().join(format!("crown-var-{}.pdn", std::process::id()));
    std::fs::write(&path, "1. 11-15 (11-17) 23-19 *\n").unwrap();
    let (code, out, _) = crown(&["pdn", "check", "--warnings", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("move 1 '11-17'") && out.contains("illegal move"),
        "{out}"
    );
    assert!(
        out.contains("1 game, 1 replayed, 1 warning, 0 errors"),
        "{out}"
    );
    let (code, out, _) = crown(&["pdn", "fmt", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("1. 11-15 (1. 11-17) 1... 23-19 *"), "{out}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn check_reports_an_unreadable_file_and_checks_the_others() {
    let good = pdn("ballots-11-man-english.pdn");
    let missing = "/nonexistent/missing.pdn";
    let (code, out, _) = crown(&["pdn", "check", &good, missing]);
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("/nonexistent/missing.pdn: "), "{out}");
    assert_eq!(lines[1], "2400 games, 2400 replayed, 0 warnings, 1 error");
    let (code, out, _) = crown(&["pdn", "check", "--json", missing, &good]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 2400);
    assert_eq!(v["replayed"], 2400);
    assert_eq!(v["errors"][0]["file"], missing);
    assert!(v["errors"][0]["game"].is_null());
}

#[test]
fn control_characters_are_escaped_in_error_lines() {
    let path = std::env::temp_dir().join(format!("crown-esc-{}.pdn", std::process::id()));
    std::fs::write(&path, "[Event \"red\u{1b}[31m alert\"]\n1. 11-17 *\n").unwrap();
    let (code, out, _) = crown(&["pdn", "check", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(!out.contains('\u{1b}'), "{out:?}");
    assert!(out.contains("(red\\u{1b}[31m alert)"), "{out}");
    let (code, _, err) = crown(&["pdn", "fmt", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    // The line with " (game written as read)" is cut to 200 characters by shortening the Event.
    assert!(!err.contains('\u{1b}'), "{err:?}");
    // JSON keeps the value, escaped the JSON way.
    let (_, out, _) = crown(&["pdn", "check", "--json", path.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["errors"][0]["event"], "red\u{1b}[31m alert");
    let _ = std::fs::remove_file(&path);
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let p = std::env::temp_dir().join(format!("crown-pdn-{}-{name}", std::process::id()));
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn fmt_writes_a_game_that_does_not_replay_exactly_as_read() {
    // 8-11 is illegal (15x24 must be taken, American rule 5); the game keeps its tags, its
    // numbering (`5.` as written) and gets no `[Result "*"]` or `GameType`.
    let p = temp_file(
        "as-read.pdn",
        b"[Event \"bad\"]\n\n1. 11-15 24-19 5. 8-11 *\n",
    );
    let (code, out, err) = crown(&["pdn", "fmt", p.to_str().unwrap()]);
    std::fs::remove_file(&p).unwrap();
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "[Event \"bad\"]\n1. 11-15 24-19 5. 8-11 *\n\n");
    assert!(err.contains("(game written as read)"), "{err}");
}

#[test]
fn utf16_files_are_read_by_their_byte_order_mark() {
    let text = "[Event \"utf16\"]\n1. 11-15 23-19 *\n";
    for little in [true, false] {
        let mut bytes = if little {
            vec![0xff, 0xfe]
        } else {
            vec![0xfe, 0xff]
        };
        for u in text.encode_utf16() {
            bytes.extend(if little {
                u.to_le_bytes()
            } else {
                u.to_be_bytes()
            });
        }
        let p = temp_file(&format!("utf16-{little}.pdn"), &bytes);
        let (code, out, err) = crown(&["pdn", "check", p.to_str().unwrap()]);
        std::fs::remove_file(&p).unwrap();
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("1 game, 1 replayed, 0 warnings, 0 errors"),
            "{out}"
        );
    }
}

#[test]
fn utf16_files_without_a_byte_order_mark_are_read_too() {
    // ASCII text as UTF-16 without a mark: every other byte is 0 (the odd ones little-endian, the
    // even ones big-endian).
    let text = "[Event \"utf16 no mark\"]\n1. 11-15 23-19 *\n";
    for little in [true, false] {
        let mut bytes = Vec::new();
        for u in text.encode_utf16() {
            bytes.extend(if little {
                u.to_le_bytes()
            } else {
                u.to_be_bytes()
            });
        }
        let p = temp_file(&format!("utf16-nobom-{little}.pdn"), &bytes);
        let (code, out, err) = crown(&["pdn", "check", p.to_str().unwrap()]);
        std::fs::remove_file(&p).unwrap();
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            out.contains("1 game, 1 replayed, 0 warnings, 0 errors"),
            "{out}"
        );
    }
}

#[test]
fn illegal_move_lines_stay_within_200_characters_and_keep_the_key_facts() {
    // A long Event, and an illegal first move (12-15: square 12 can only go to 16) in a
    // position with 7 legal moves (American rule: the start position's 7 single moves).
    let event = "The Very Long Name Of A Tournament Held Somewhere Far Away, Round 12, Board 7";
    let p = temp_file(
        "illegal.pdn",
        format!("[Event \"{event}\"]\n1. 12-15 *\n").as_bytes(),
    );
    let (code, out, _) = crown(&["pdn", "check", p.to_str().unwrap()]);
    std::fs::remove_file(&p).unwrap();
    assert_eq!(code, 1);
    let line = out.lines().next().unwrap();
    assert!(
        line.chars().count() <= 200,
        "{} chars: {line}",
        line.chars().count()
    );
    for fact in [
        "game 1",
        "line 2:4",
        "move 1 '12-15'",
        "illegal move in position B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    ] {
        assert!(line.contains(fact), "{fact} missing: {line}");
    }
    assert!(line.starts_with(p.to_str().unwrap()), "{line}");
    // The start position's 7 legal moves, listed in part or counted.
    assert!(
        line.contains("7 legal moves") || line.contains("(+6 more)"),
        "{line}"
    );
    // One game, one error: the summary's nouns agree with the counts.
    assert_eq!(
        out.lines().nth(1),
        Some("1 game, 0 replayed, 0 warnings, 1 error")
    );
}

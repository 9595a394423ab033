//! `crown annotate` on real games and on bad input: round trip through `crown pdn check`, the original
//! moves, tags and comments kept, exit codes, nothing half-written.

mod common;

use common::{crown, shared};

use std::path::{Path, PathBuf};
use std::process::Command;

fn tinsley() -> String {
    shared().join("data/pdn/tinsley.pdn").display().to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("crown-annotate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// The main-line moves of every game of a PDN text, as `crown pdn fen` would replay them: read with
/// crown-notation.
fn main_lines(text: &str, games: usize) -> Vec<Vec<String>> {
    crown_notation::read_games(text)
        .into_iter()
        .take(games)
        .map(|g| {
            let g = g.expect("game parses");
            let r = crown_notation::replay(&g).expect("game replays");
            let mut pos = r.start;
            r.moves
                .iter()
                .map(|m| {
                    let t = pos.move_text(m);
                    pos.play(m);
                    t
                })
                .collect()
        })
        .collect()
}

#[test]
fn tinsley_games_round_trip() {
    let dir = temp_dir("roundtrip");
    let out = dir.join("a.pdn");
    let (code, stdout, stderr) = crown(&[
        "annotate",
        &tinsley(),
        "--games",
        "1-2",
        "--depth",
        "4",
        "-o",
        &s(&out),
        "--graph",
        &s(&dir),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("2 of 2 games annotated"), "{stdout}");
    assert!(stdout.contains("game 1: Ohio State Ty 1946 (MF Tinsley - M Rex)"));

    // It replays with no warning.
    let (code, check, _) = crown(&["pdn", "check", "--warnings", &s(&out)]);
    assert_eq!(code, 0, "{check}");
    assert_eq!(check.trim(), "2 games, 2 replayed, 0 warnings, 0 errors");

    // Same moves as the original, every original tag, one score comment per move, and the tags.
    let text = std::fs::read_to_string(&out).unwrap();
    let original = std::fs::read_to_string(tinsley()).unwrap();
    let orig_lines = main_lines(&original, 2);
    let lines = main_lines(&text, 2);
    assert_eq!(lines, orig_lines);
    let games = crown_notation::read_games(&text);
    let first = games[0].as_ref().unwrap();
    assert_eq!(first.tag("Event"), Some("Ohio State Ty 1946"));
    assert_eq!(first.tag("Black"), Some("MF Tinsley"));
    assert_eq!(first.tag("White"), Some("M Rex"));
    assert_eq!(first.tag("Result"), Some("1/2-1/2"));
    assert_eq!(first.tag("Annotator"), Some("Crown 0.1.0"));
    assert_eq!(
        first.tag("AnnotatorSettings"),
        Some("crown-ai 0.1.0, depth 4 per position, hash 16 MiB")
    );
    let main_comments = first
        .nodes
        .iter()
        .filter(|n| matches!(n, crown_notation::Node::Comment(_)))
        .count();
    // Game 1 has 56 plies (28 moves a side, `28. 17x10 24x15x6`).
    assert_eq!(main_comments, 56);

    // The graphs exist: an SVG with a title, a PNG with the PNG signature.
    let svg = std::fs::read_to_string(dir.join("game-1.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("MF Tinsley - M Rex"));
    let png = std::fs::read(dir.join("game-2.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");

    // Annotating again keeps the moves and replaces the annotation instead of doubling it.
    let again = dir.join("b.pdn");
    let (code, _, stderr) = crown(&["annotate", &s(&out), "--depth", "2", "-o", &s(&again)]);
    assert_eq!(code, 0, "{stderr}");
    let text2 = std::fs::read_to_string(&again).unwrap();
    assert_eq!(main_lines(&text2, 2), orig_lines);
    let g2 = crown_notation::read_games(&text2);
    let comments2 = g2[0]
        .as_ref()
        .unwrap()
        .nodes
        .iter()
        .filter(|n| matches!(n, crown_notation::Node::Comment(_)))
        .count();
    assert_eq!(comments2, 56);
    let (code, check, _) = crown(&["pdn", "check", "--warnings", &s(&again)]);
    assert_eq!(code, 0, "{check}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn original_comments_and_variations_are_kept() {
    let dir = temp_dir("keep");
    let input = dir.join("in.pdn");
    std::fs::write(
        &input,
        "[Event \"Kept\"]\n[Round \"7\"]\n[Annotator \"A. Human\"]\n[Opening \"Old Fourteenth\"]\n\
         1. 11-15 {a human note} 23-19 $1 (22-17 {another line}) 2. 8-11 22-17 *\n",
    )
    .unwrap();
    let out = dir.join("out.pdn");
    let (code, _, stderr) = crown(&["annotate", &s(&input), "--depth", "3", "-o", &s(&out)]);
    assert_eq!(code, 0, "{stderr}");
    // Movetext lines are wrapped: compare with single spaces.
    let text = std::fs::read_to_string(&out)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("[Round \"7\"]"), "{text}");
    assert!(text.contains("[Opening \"Old Fourteenth\"]"), "{text}");
    assert!(text.contains("{a human note}"), "{text}");
    assert!(text.contains("(1... 22-17 {another line})"), "{text}");
    assert!(text.contains("23-19 $1"), "{text}");
    // The annotator tag names Crown after the human.
    assert!(
        text.contains("[Annotator \"A. Human, Crown 0.1.0\"]"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_that_does_not_replay_is_reported_and_skipped() {
    // Game 541 of tinsley.pdn (Petal 1981, game 18) has an illegal move 62 (see tests/pdn.rs).
    let dir = temp_dir("skip");
    let out = dir.join("out.pdn");
    let (code, stdout, stderr) = crown(&[
        "annotate",
        &tinsley(),
        "--games",
        "541,1",
        "--depth",
        "2",
        "-o",
        &s(&out),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("Petal 1981, game 18"), "{stderr}");
    assert!(stderr.contains("illegal move"), "{stderr}");
    assert!(stderr.contains("(skipped)"), "{stderr}");
    assert!(
        stdout.contains("1 of 2 games annotated (1 skipped)"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(crown_notation::read_games(&text).len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_2_and_writes_nothing() {
    let dir = temp_dir("bad");
    let empty = dir.join("empty.pdn");
    std::fs::write(&empty, "").unwrap();
    let out = dir.join("out.pdn");

    let (code, _, err) = crown(&["annotate", &s(&empty), "-o", &s(&out)]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        format!("error: {}: no PDN game in the file", s(&empty))
    );

    let (code, _, err) = crown(&["annotate", &s(&dir), "-o", &s(&out)]);
    assert_eq!(code, 2);
    assert_eq!(err.trim(), format!("error: {}: is a directory", s(&dir)));

    let missing = dir.join("missing.pdn");
    let (code, _, err) = crown(&["annotate", &s(&missing)]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("error: {}: ", s(&missing))),
        "{err}"
    );

    // Output into a directory that does not exist, and onto a directory.
    let nowhere = dir.join("no/such/dir/out.pdn");
    let (code, _, err) = crown(&["annotate", &tinsley(), "--games", "1", "-o", &s(&nowhere)]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("error: {}: cannot write", s(&nowhere))),
        "{err}"
    );
    let (code, _, err) = crown(&["annotate", &tinsley(), "--games", "1", "-o", &s(&dir)]);
    assert_eq!(code, 2);
    assert_eq!(err.trim(), format!("error: {}: is a directory", s(&dir)));

    // --graph naming a file: said so (it used to be "File exists (os error 17)").
    let (code, _, err) = crown(&[
        "annotate",
        &tinsley(),
        "--games",
        "1",
        "-o",
        &s(&out),
        "--graph",
        &s(&empty),
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        format!("error: --graph {}: not a directory", s(&empty))
    );

    // Only a game that does not replay (541, see above): nothing to write.
    let (code, _, err) = crown(&["annotate", &tinsley(), "--games", "541", "-o", &s(&out)]);
    assert_eq!(code, 2);
    assert!(
        err.trim_end()
            .ends_with("none of the 1 selected games replays; nothing written"),
        "{err}"
    );

    // A game number past the end.
    let (code, _, err) = crown(&["annotate", &tinsley(), "--games", "725", "-o", &s(&out)]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "error: --games: there is no game 725; the file holds 724"
    );

    // Nothing was written, not even a temporary file.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["empty.pdn"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_summary() {
    let (code, out, err) = crown(&[
        "annotate",
        &tinsley(),
        "--games",
        "1",
        "--depth",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["annotated"], 1);
    assert_eq!(v["interrupted"], false);
    let g = &v["games"][0];
    assert_eq!(g["event"], "Ohio State Ty 1946");
    assert_eq!(g["plies"], 56);
    assert_eq!(g["first"], "Black");
    assert_eq!(g["sides"]["Black"]["moves"], 28);
    assert_eq!(g["sides"]["White"]["moves"], 28);
    assert_eq!(g["moves"].as_array().unwrap().len(), 56);
    assert_eq!(g["moves"][0]["move"], "11-15");
    assert_eq!(g["moves"][55]["move"], "24x6");
}

/// A shot, annotated (insta snapshot): Black's king on 3 against White's men on 16 and 20. 3-7 walks
/// into 16-11 7x16 20x11, which takes the last black piece; 3-8 was the move. The annotation marks
/// 3-7 `??` (NAG 4) with the better line (3-8) as a variation, and the rest of the game as proven
/// wins for White. Proven results do not depend on the evaluation.
#[test]
fn annotated_shot_snapshot() {
    let dir = temp_dir("shot");
    let input = dir.join("shot.pdn");
    std::fs::write(
        &input,
        "[Event \"A shot\"]\n[SetUp \"1\"]\n[FEN \"B:W16,20:BK3\"]\n1. 3-7 16-11 2. 7x16 20x11 0-1\n",
    )
    .unwrap();
    let (code, out, err) = crown(&["annotate", &s(&input), "--depth", "8"]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C before any game is finished writes nothing: a file already at `-o` (an earlier
/// annotation) keeps its content instead of being replaced by an empty file, and the exit code is
/// 130. The search of the first position is given an hour, so no game can finish; SIGINT is sent by
/// `kill -INT` once the process has had time to start.
#[cfg(unix)]
#[test]
fn ctrl_c_before_any_game_is_finished_keeps_the_old_output() {
    let dir = temp_dir("sigint");
    let out = dir.join("out.pdn");
    std::fs::write(&out, "[Event \"earlier\"]\n1. 11-15 *\n").unwrap();
    let child = common::crown_command()
        .args([
            "annotate",
            &tinsley(),
            "--games",
            "1",
            "--movetime",
            "3600000",
            "-o",
            &s(&out),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run crown");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let done = child.wait_with_output().expect("wait for crown");
    let summary = String::from_utf8_lossy(&done.stdout);
    assert_eq!(done.status.code(), Some(130), "{summary}");
    assert!(
        summary.contains("interrupted; nothing written"),
        "{summary}"
    );
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "[Event \"earlier\"]\n1. 11-15 *\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A human's move-strength NAGs (`$2` on 11-15, `$1` on 23-19, `$6` on 8-11) survive a second
/// annotation: only Crown's own marks are replaced. They used to be taken for Crown's mark (the NAG
/// just before a score comment) and dropped.
#[test]
fn human_nags_survive_a_second_annotation() {
    let dir = temp_dir("renag");
    let input = dir.join("in.pdn");
    std::fs::write(
        &input,
        "[Event \"Marked by hand\"]\n[Annotator \"A. Human\"]\n\
         1. 11-15 $2 {a human note} 23-19 $1 2. 8-11 $6 22-17 *\n",
    )
    .unwrap();
    let once = dir.join("once.pdn");
    let twice = dir.join("twice.pdn");
    for (from, to) in [(&input, &once), (&once, &twice)] {
        let (code, _, stderr) = crown(&["annotate", &s(from), "--depth", "3", "-o", &s(to)]);
        assert_eq!(code, 0, "{stderr}");
    }
    let text = std::fs::read_to_string(&twice)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for kept in ["11-15 $2 {", "23-19 $1 {", "8-11 $6 {", "{a human note}"] {
        assert!(text.contains(kept), "{kept} lost: {text}");
    }
    // The same settings (a depth limit is deterministic) give the same file again: Crown's
    // annotation is replaced, not doubled, and nothing else changes.
    assert_eq!(
        std::fs::read_to_string(&once).unwrap(),
        std::fs::read_to_string(&twice).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A graph that cannot be written (here a directory named `game-1.svg` is in the way) does not
/// lose the annotation: the PDN is written first, the error names the file, and the exit code is 1.
#[test]
fn a_graph_that_cannot_be_written_does_not_lose_the_pdn() {
    let dir = temp_dir("graphfail");
    let graphs = dir.join("graphs");
    std::fs::create_dir_all(graphs.join("game-1.svg")).unwrap();
    let out = dir.join("out.pdn");
    let (code, _, err) = crown(&[
        "annotate",
        &tinsley(),
        "--games",
        "1",
        "--depth",
        "2",
        "-o",
        &s(&out),
        "--graph",
        &s(&graphs),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "error: {}: is a directory (graph of game 1 not written)",
            s(&graphs.join("game-1.svg"))
        )),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).expect("the annotated PDN is written");
    assert!(text.contains("[Annotator \"Crown 0.1.0\"]"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With endgame databases the `!` of an ending is proven by them, even by a one-ply search. From
/// `B:W16,20:BK3` (Black: king on 3; White: men on 16 and 20) Black has two moves: 3-7 is met by
/// 16-11, the king must take 7x16 and 20x11 takes the last black piece, so it loses in four plies;
/// 3-8 is therefore the only move that does not lose (worked out from the rules: captures are
/// compulsory, a side without pieces has lost).
#[test]
fn endgame_databases_prove_the_only_move() {
    let dir = temp_dir("egdb");
    let db = dir.join("db");
    common::build_egdb("american", 3, &db);
    let input = dir.join("ending.pdn");
    std::fs::write(&input, "[FEN \"B:W16,20:BK3\"]\n[SetUp \"1\"]\n1. 3-8 *\n").unwrap();
    let out = dir.join("out.pdn");
    let (code, _, err) = crown(&[
        "annotate",
        &s(&input),
        "-o",
        &s(&out),
        "--depth",
        "1",
        "--egdb",
        &s(&db),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("3-8 {") && text.contains("} $1"), "{text}");
    assert!(text.contains("egdb american ≤3 pieces"), "{text}");
    // Without them a one-ply search proves nothing, so no `!`.
    let (code, _, err) = crown(&[
        "annotate",
        &s(&input),
        "-o",
        &s(&out),
        "--depth",
        "1",
        "--no-egdb",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("$1"), "{text}");
}

//! The `crown` binary's rules commands: exact output shapes, published counts, and one-line errors
//! with exit code 2 for bad input.

mod common;

use common::crown;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = crown(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn perft_json_matches_published_counts() {
    // shared/perft/perft.json: American start depth 5 = 7361; Impasse Steere depth 3 = 9692.
    let v = json(&["perft", "--variant", "american", "--depth", "5", "--json"]);
    assert_eq!(v["nodes"], 7361);
    assert_eq!(v["variant"], "american");
    assert_eq!(v["depth"], 5);
    assert_eq!(
        v["fen"],
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert!(v["seconds"].is_number() && v["nodes_per_second"].is_number());
    let v = json(&[
        "perft",
        "--variant",
        "impasse",
        "--setup",
        "steere",
        "--depth",
        "3",
        "--json",
        "--threads",
        "2",
    ]);
    assert_eq!(v["nodes"], 9692);
    // Paths convention: the king windmill counts 2 at depth 1.
    let v = json(&[
        "perft",
        "--variant",
        "american",
        "--fen",
        "W:WK17,32:B4,14,15,22,23",
        "--depth",
        "1",
        "--count-paths",
        "--json",
    ]);
    assert_eq!(v["nodes"], 2);
    let v = json(&[
        "perft",
        "--variant",
        "pool",
        "--depth",
        "6",
        "--hash",
        "4",
        "--json",
    ]);
    assert_eq!(v["nodes"], 37986);
}

#[test]
fn perft_divide_lists_root_moves() {
    let (code, out, _) = crown(&["perft", "--variant", "american", "--depth", "2", "--divide"]);
    assert_eq!(code, 0);
    // 7 root moves, each with 7 replies (perft(2) = 49).
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains('-') && !l.starts_with("perft"))
        .collect();
    assert_eq!(lines.len(), 7);
    assert!(lines.iter().all(|l| l.trim_end().ends_with(" 7")), "{out}");
    assert!(out.contains("49 nodes"));
}

#[test]
fn moves_json_shapes() {
    // Pool, perft.json: "W:WK29:B22,19" has 2 moves at depth 1.
    let v = json(&[
        "moves",
        "--variant",
        "pool",
        "--fen",
        "W:WK29:B22,19",
        "--json",
    ]);
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 2);
    for m in arr {
        assert_eq!(m["from"], 29);
        assert_eq!(m["captures"].as_array().unwrap().len(), 2, "{m}");
        assert_eq!(m["path"].as_array().unwrap().last(), Some(&m["to"]));
    }
    // Impasse: bear_off and crown fields.
    let v = json(&[
        "moves",
        "--variant",
        "impasse",
        "--fen",
        "W:W4,K26:B1",
        "--json",
    ]);
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 2);
    assert_eq!(arr[0]["kind"], "double_slide");
    assert_eq!(arr[0]["bear_off"], true);
    assert_eq!(arr[0]["crown"]["to"], 4);
    let v = json(&[
        "moves",
        "--variant",
        "impasse",
        "--fen",
        "W:W22:B1",
        "--json",
    ]);
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["crown"].is_null() && m["kind"] == "slide"));
}

#[test]
fn apply_plays_moves_and_reports_the_outcome() {
    let (code, out, _) = crown(&["apply", "--variant", "american", "11-15", "23-19", "8-11"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("fen: W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15"),
        "{out}"
    );
    assert!(out.contains("outcome: ongoing"));
    let (code, out, _) = crown(&["apply", "--variant", "impasse", "--fen", "W:W4:B29", "x4"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("outcome: White wins: all of its checkers are removed"),
        "{out}"
    );
}

#[test]
fn bad_input_is_one_line_on_stderr_with_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["moves", "--variant", "chess"], "error: unknown variant 'chess' (expected american, pool or impasse)"),
        (&["moves", "--fen", "B:W33:B1"], "error: bad FEN 'B:W33:B1': square '33' at column 4 is not one of the squares 1-32"),
        (&["moves", "--fen", "B:W5:B5"], "error: bad FEN 'B:W5:B5': square 5 is given twice"),
        // 13 men: American rule 2 gives each side 12, and the message speaks of men, not checkers.
        (&["moves", "--variant", "american", "--fen", "B:W21-32:B1-13"], "error: bad FEN 'B:W21-32:B1-13': too many men: Black has 13 pieces (men and kings); a side has at most 12"),
        (&["apply", "12-15"], "error: move 1: illegal move '12-15'; 7 legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16"),
        (&["perft", "--depth", "x"], "error: invalid value 'x' for '--depth <DEPTH>': invalid digit found in string"),
        (&["perft", "--variant", "pool", "--setup", "steere", "--depth", "1"], "error: --setup steere applies only to --variant impasse"),
    ];
    for (args, expected) in cases {
        let (code, out, err) = crown(args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.trim_end(), *expected, "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1);
    }
}

#[test]
fn missing_argument_is_named_on_the_one_line() {
    let (code, _, err) = crown(&["perft"]);
    assert_eq!(code, 2);
    assert_eq!(err.trim_end().lines().count(), 1);
    assert!(err.contains("--depth"), "{err}");
}

#[test]
fn apply_json_gives_the_canonical_move_text_and_the_input_as_given() {
    // The same two moves typed as algebraic squares and as numbers: the same canonical `moves`,
    // the words as typed in `input` (one argument holding two moves counts as two words).
    let algebraic = json(&["apply", "--variant", "american", "--json", "f6-e5 c3-d4"]);
    let numeric = json(&["apply", "--variant", "american", "--json", "11-15", "22-18"]);
    assert_eq!(algebraic["moves"], serde_json::json!(["11-15", "22-18"]));
    assert_eq!(numeric["moves"], serde_json::json!(["11-15", "22-18"]));
    assert_eq!(algebraic["input"], serde_json::json!(["f6-e5", "c3-d4"]));
    assert_eq!(numeric["input"], serde_json::json!(["11-15", "22-18"]));
    assert_eq!(algebraic["fen"], numeric["fen"]);
}

#[test]
fn options_may_follow_the_moves() {
    let v = json(&["apply", "22-18", "--variant", "impasse", "--json"]);
    assert_eq!(
        v["fen"],
        "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
}

#[test]
fn match_starts_impasse_openings_from_the_steere_setup() {
    let path = std::env::temp_dir().join(format!("crown-match-steere-{}.pdn", std::process::id()));
    let (code, _, err) = crown(&[
        "match",
        "--variant",
        "impasse",
        "--setup",
        "steere",
        "--games",
        "2",
        "--engine-a",
        "depth=1",
        "--engine-b",
        "depth=1",
        "--pdn",
        path.to_str().unwrap(),
    ]);
    let pdn = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{err}");
    // Random openings are 4 plies from the start: each must be reachable from Steere's setup in 4
    // plies (and so is a position of that setup, not of the seed).
    use crown_core::{ImpasseSetup, Position};
    let mut layer = vec![Position::impasse(ImpasseSetup::Steere)];
    for _ in 0..4 {
        let mut next = std::collections::HashSet::new();
        for p in &layer {
            for m in p.legal_moves().iter() {
                next.insert(p.after(m).to_fen());
            }
        }
        layer = next
            .iter()
            .map(|f| Position::from_fen(crown_core::Variant::Impasse, f).unwrap())
            .collect();
    }
    let reachable: std::collections::HashSet<String> = layer.iter().map(|p| p.to_fen()).collect();
    let fens: Vec<&str> = pdn
        .lines()
        .filter_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .collect();
    assert_eq!(fens.len(), 2, "{pdn}");
    for f in fens {
        assert!(
            reachable.contains(f),
            "{f} is not 4 plies from Steere's setup"
        );
    }
    let (code, _, err) = crown(&["match", "--setup", "steere", "--games", "2"]);
    assert_eq!(
        (code, err.trim()),
        (2, "error: --setup steere applies only to --variant impasse")
    );
}

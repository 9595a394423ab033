//! The writer: snapshots of its output and of error messages (read by people), and round trips on the
//! real archives.

use crown_core::{Game, ImpasseSetup, Variant};
use crown_notation::{
    canonical, game_to_pdn, read_games, replay, write_game, Node, PdnGame, PdnReader,
};
use std::path::PathBuf;

fn shared() -> PathBuf {
    if let Ok(p) = std::env::var("CROWN_SHARED") {
        return PathBuf::from(p);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared")
}

fn fmt(text: &str) -> String {
    read_games(text)
        .into_iter()
        .map(|g| write_game(&canonical(&g.unwrap()).unwrap()))
        .collect()
}

#[test]
fn snapshot_annotated_game() {
    let text = "[Black \"Tinsley\"] [Event \"Annotated \\\"example\\\"\"] [White \"Chinook\"] [Date \"1992.08.17\"]\n\
        [Opening \"Old Fourteenth\"] [Result \"1/2-1/2\"]\n\
        1. 11-15 23-19 2. 8-11 22-17 3. 9-13 {Black gives up the centre for a quick\n\
        development of the single corner men, a line Tinsley liked} 17-14!? $1 (27-23 4. 13x22\n\
        (4. 4-8? {illegal here: kept as written}) 25x18) 4. 10x17 21x14 5. 15-18 {the end} 1/2-1/2";
    insta::assert_snapshot!(fmt(text));
}

#[test]
fn snapshot_set_position_with_second_player_first() {
    let text =
        "[Event \"Problem\"] [Setup \"1\"] [FEN \"W:W27,K25,c3:BK5,12.\"] 1. ... 27-24 2. 12-16 *";
    insta::assert_snapshot!(fmt(text));
}

#[test]
fn snapshot_ambiguous_capture_written_in_full() {
    // 10x26 fits 10x17x26 and 10x19x26 (taking 14 and 22, or 15 and 23): written with its path.
    let text = "[FEN \"B:W14,15,18,21,22,23,30:B6,7,8,10,12,13\"] 1. 10x26 30x23 *";
    insta::assert_snapshot!(fmt(text));
}

#[test]
fn snapshot_impasse_and_pool_games() {
    // A fixed pseudo-random Impasse game (xorshift64): slides, transposes, bear-offs, crowns. Kept
    // rather than crown_core::rng: the insta snapshot below records this exact game.
    let mut g = Game::impasse(ImpasseSetup::Steere);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..70 {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let m = moves[(x % moves.len() as u64) as usize];
        g.play(&m).unwrap();
    }
    let mut p = Game::new(Variant::Pool);
    for t in [
        "11-15", "22-18", "15x22", "25x18", "12-16", "18-14", "9x18", "23x14",
    ] {
        p.play_text(t).unwrap();
    }
    let tags = [
        ("Event", "Crown test"),
        ("Date", "2026.11.29"),
        ("White", "Engine"),
        ("Black", "Person"),
    ];
    insta::assert_snapshot!(format!(
        "{}{}",
        game_to_pdn(&g, &tags),
        game_to_pdn(&p, &tags)
    ));
}

#[test]
fn snapshot_error_messages() {
    let bad = "[Event \"Illegal\"]\n1. 11-15 23-19 2. 15-18 *\n\
        [Event \"Ambiguous\"] [FEN \"B:W14,15,18,21,22,23,30:B6,7,8,10,12,13\"]\n1. 10x26 *\n\
        [Event \"Nested comment\"]\n1. 11-15 {a {b} c} *\n\
        [Event \"Off the board\"]\n1. 32-28 19-23 *\n\
        [Event \"International\"] [GameType \"20\"]\n1. 32-28 *\n\
        [Event \"Bad FEN\"] [FEN \"B:W33:B3\"]\n1. 3-7 *\n\
        [Event \"Unknown move\"]\n1. 11-15 - *\n\
        [Event \"Empty game\"]\n1. 2-0\n\
        [Event \"Unclosed variation\"]\n1. 11-15 (23-19 *\n";
    let mut lines = Vec::new();
    for g in read_games(bad) {
        match g {
            Err(e) => lines.push(e.to_string()),
            Ok(g) => match replay(&g) {
                Err(e) => lines.push(e.to_string()),
                Ok(_) => lines.push(format!("game {} replayed", g.index)),
            },
        }
    }
    insta::assert_snapshot!(lines.join("\n"));
}

/// The game without file positions, for comparing a game with its rewrite.
fn essence(g: &PdnGame) -> (Vec<(String, String)>, Vec<String>, Option<String>) {
    fn walk(nodes: &[Node], out: &mut Vec<String>) {
        for n in nodes {
            match n {
                Node::Move(m) => out.push(format!(
                    "{}{}",
                    m.text,
                    m.strength.clone().unwrap_or_default()
                )),
                Node::Comment(c) => out.push(format!("{{{c}}}")),
                Node::Nag(n) => out.push(format!("${n}")),
                Node::Setup { fen, .. } => out.push(format!("/{fen}/")),
                Node::Variation(v) => {
                    out.push("(".into());
                    walk(v, out);
                    out.push(")".into());
                }
            }
        }
    }
    let mut nodes = Vec::new();
    walk(&g.nodes, &mut nodes);
    (g.tags.clone(), nodes, g.result.clone())
}

fn round_trip_file(path: PathBuf) -> usize {
    let f = std::fs::File::open(&path).unwrap();
    let mut n = 0;
    for g in PdnReader::new(f) {
        let g = g.unwrap();
        let Ok(first) = replay(&g) else { continue };
        let c = canonical(&g).unwrap();
        let text = write_game(&c);
        let back = read_games(&text).remove(0).unwrap();
        // Same tags (after canonicalisation), moves, comments, variations and result.
        assert_eq!(essence(&back), essence(&c), "{text}");
        let again = replay(&back).unwrap();
        assert_eq!(again.start, first.start, "{text}");
        assert_eq!(again.moves, first.moves, "{text}");
        // Comments and variations of the original survive.
        let (_, orig, _) = essence(&g);
        let (_, kept, _) = essence(&back);
        assert_eq!(
            orig.iter()
                .filter(|t| t.starts_with('{') || t.as_str() == "(")
                .collect::<Vec<_>>(),
            kept.iter()
                .filter(|t| t.starts_with('{') || t.as_str() == "(")
                .collect::<Vec<_>>()
        );
        // The canonical form is stable.
        assert_eq!(write_game(&canonical(&back).unwrap()), text);
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
        n += 1;
    }
    n
}

#[test]
fn tinsley_round_trips() {
    assert_eq!(round_trip_file(shared().join("data/pdn/tinsley.pdn")), 723);
}

#[test]
fn conformance_english_games_round_trip() {
    let dir = shared().join("data/pdn/conformance/succeed");
    for name in [
        "OCA_2.0.pdn",
        "Principles of Strategy.pdn",
        "gem.pdn",
        "variation.pdn",
    ] {
        round_trip_file(dir.join(name));
    }
}

#[test]
fn percent_line_comments_are_kept_as_brace_comments() {
    let text = "% Generated by hand\n[Event \"E\"]\n1. 11-15 % a quiet start\n23-19 *\n";
    let out = fmt(text);
    assert!(
        out.contains("{Generated by hand} 1. 11-15 {a quiet start} 1... 23-19 *"),
        "{out}"
    );
    // Formatting again gives the same text.
    assert_eq!(fmt(&out), out);
}

#[test]
fn games_written_as_read_have_game_type_and_setup() {
    // 11-17 is illegal at the start, so these games do not replay and are written as read.
    let g = read_games("[Event \"E\"]\n1. 11-17 *\n").remove(0).unwrap();
    assert!(canonical(&g).is_err());
    let out = write_game(&g);
    assert!(out.contains("[GameType \"21\"]\n"), "{out}");
    assert!(!out.contains("SetUp"), "{out}");
    let g = read_games("[FEN \"B:W18:B14\"]\n1. 14-15 *\n")
        .remove(0)
        .unwrap();
    assert!(canonical(&g).is_err());
    let out = write_game(&g);
    assert!(
        out.contains("[GameType \"21\"]\n[SetUp \"1\"]\n[FEN \"B:W18:B14\"]\n"),
        "{out}"
    );
    // A game type given is kept as written.
    let g = read_games("[GameType \"20\"]\n1. 32-28 *\n")
        .remove(0)
        .unwrap();
    assert!(write_game(&g).contains("[GameType \"20\"]\n"));
}

#[test]
fn wrapped_comment_lines_never_start_with_percent_or_bracket() {
    // Comments full of PDN commands (`[%clk …]`) and `%` words, shifted by 0..70 characters so that
    // some line break falls before each kind of word.
    let mut breaks_before_special = 0;
    for pad in 0..70 {
        let text = format!(
            "1. 11-15 {{{} [%clk 1:55:21] %x [%eval 0.1] %y [%depth 12] 100% [a] %z}} 23-19 *",
            "a".repeat(pad + 1)
        );
        let out = fmt(&text);
        let movetext: Vec<&str> = out
            .lines()
            .filter(|l| !l.starts_with("[Result") && !l.starts_with("[GameType"))
            .collect();
        for line in &movetext {
            assert!(!line.starts_with(['%', '[']), "pad {pad}:\n{out}");
            assert!(line.chars().count() <= 80, "pad {pad}:\n{out}");
            breaks_before_special += usize::from(line.starts_with(" %") || line.starts_with(" ["));
        }
        // Reading it back gives the same comment, and formatting again the same text.
        assert_eq!(fmt(&out), out);
    }
    assert!(breaks_before_special > 0);
}

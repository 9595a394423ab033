//! The reading grammar, construct by construct (PDN 3.0 `grammar.rst` and the list).

use crown_notation::{read_games, replay, Node, PdnErrorKind, PdnGame, PdnReader};

fn ok(text: &str) -> Vec<PdnGame> {
    read_games(text)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn moves(g: &PdnGame) -> Vec<String> {
    g.main_line().map(|m| m.text.clone()).collect()
}

#[test]
fn tags_with_escapes_spacing_and_setup_spellings() {
    let g = &ok("[Event   \"A \\\"quoted\\\" name\"]  \n[SetUp \"1\"]\n[FEN \"W:W18:B14\"]\n*")[0];
    assert_eq!(g.tag("Event"), Some("A \"quoted\" name"));
    assert_eq!(g.tag("Setup"), Some("1"));
    assert_eq!(g.result.as_deref(), Some("*"));
}

#[test]
fn bom_crlf_and_latin1() {
    let mut bytes = b"\xEF\xBB\xBF[Event \"Caf\xE9\"]\r\n1. 11-15 23-19\r\n1-0\r\n".to_vec();
    let g = PdnReader::new(&bytes[..]).next().unwrap().unwrap();
    // \xE9 alone is not UTF-8: the line is read as Latin-1.
    assert_eq!(g.tag("Event"), Some("Café"));
    assert_eq!(moves(&g), ["11-15", "23-19"]);
    bytes.clear();
    bytes.extend_from_slice("[Event \"Café\"]\n*".as_bytes());
    let g = PdnReader::new(&bytes[..]).next().unwrap().unwrap();
    assert_eq!(g.tag("Event"), Some("Café"));
}

#[test]
fn move_numbers_and_move_forms() {
    let g =
        &ok("1.11-15 23-19 2. 8-11 22-17 3... 9-13 4. 01-05 c3-d4 5. a3b4 11:18 6. 10x17x26 *")[0];
    assert_eq!(
        moves(g),
        [
            "11-15", "23-19", "8-11", "22-17", "9-13", "01-05", "c3-d4", "a3b4", "11:18",
            "10x17x26"
        ]
    );
    assert_eq!(g.main_line().next().unwrap().number, Some(1));
    // `1. ... 7-12`: an ellipsis for a move not given.
    let g = &ok("[FEN \"W:W22:B11\"] 1. ... 11-15 *")[0];
    assert_eq!(moves(g), ["11-15"]);
}

#[test]
fn every_result_ends_a_game_and_1_10_is_a_move() {
    let text = "1. 11-15 1-0 1. 11-15 0-1 1. 11-15 1/2-1/2 1. 11-15 2-0 1. 11-15 0-2 \
                1. 11-15 1-1 1. 11-15 0-0 1. 11-15 *";
    let games = ok(text);
    let results: Vec<_> = games.iter().map(|g| g.result.clone().unwrap()).collect();
    assert_eq!(
        results,
        ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"]
    );
    let g = &ok("[FEN \"B:WK10:BK1\"] 1. 1-10 *")[0];
    assert_eq!(moves(g), ["1-10"]);
    assert_eq!(g.result.as_deref(), Some("*"));
}

#[test]
fn result_glued_to_the_next_event() {
    let games = ok("[Event \"A\"]\n1. 11-15 1-0[Event \"B\"]\n1. 9-14 *");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result.as_deref(), Some("1-0"));
    assert_eq!(games[1].tag("Event"), Some("B"));
}

#[test]
fn comments_nags_strength_variations_setups() {
    let text =
        "% a line comment\n1. 11-15 {opening\n  comment} 23-19!? $14 (22-18?? (24-20(!)) {deep})\n\
                2. 8-11(?) /FEN \"W:W22:B11\"/ *";
    let g = &ok(text)[0];
    // The `%` line comment is kept as the first comment.
    assert_eq!(g.nodes[0], Node::Comment("a line comment".into()));
    let n = &g.nodes[1..];
    assert!(matches!(&n[1], Node::Comment(c) if c == "opening comment"));
    match &n[2] {
        Node::Move(m) => assert_eq!(m.strength.as_deref(), Some("!?")),
        x => panic!("{x:?}"),
    }
    assert_eq!(n[3], Node::Nag(14));
    match &n[4] {
        Node::Variation(v) => {
            assert!(
                matches!(&v[0], Node::Move(m) if m.text == "22-18" && m.strength.as_deref() == Some("??"))
            );
            assert!(matches!(&v[1], Node::Variation(w) if w.len() == 1));
            assert_eq!(v[2], Node::Comment("deep".into()));
        }
        x => panic!("{x:?}"),
    }
    assert!(matches!(&n[5], Node::Move(m) if m.strength.as_deref() == Some("(?)")));
    assert!(matches!(&n[6], Node::Setup { fen, .. } if fen == "W:W22:B11"));
}

#[test]
fn games_without_tags_and_star_separators() {
    let games = ok("11-15 23-19 * 9-14 22-17 *\n10-15");
    assert_eq!(games.len(), 3);
    assert_eq!(moves(&games[2]), ["10-15"]);
    assert_eq!(games[2].result, None);
}

#[test]
fn one_bad_game_does_not_stop_the_file() {
    let text = "[Event \"good 1\"]\n1. 11-15 *\n[Event \"bad\"]\n1. 11-15 { nested { } } 23-19 *\n\
                [Event \"good 2\"]\n1. 9-14 *\n";
    let all = read_games(text);
    assert_eq!(all.len(), 3);
    assert!(all[0].is_ok());
    let e = all[1].as_ref().unwrap_err();
    assert_eq!(e.location.game, 2);
    assert_eq!(e.location.event.as_deref(), Some("bad"));
    assert_eq!((e.location.line, e.location.column), (4, 19));
    assert!(matches!(e.kind, PdnErrorKind::Syntax(_)));
    assert_eq!(all[2].as_ref().unwrap().tag("Event"), Some("good 2"));
}

#[test]
fn rejected_constructs() {
    for bad in [
        "1. 32-28 { a { b } }",
        "1. - - *",
        "1. 11-15 . 1-0",
        "1. 2-0",
        "1. 11-15 (23-19 *",
        "1. 11-15 23-19) *",
        "1. 11-15 {never closed",
        "1. 11-15 hello *",
        "[Event \"x\" *",
    ] {
        let r = read_games(bad);
        assert!(r.iter().any(|g| g.is_err()), "{bad} was accepted");
    }
    let r = read_games("[Event \"A\"]\n1. 11-15\n[Event \"B\"]\n1. 9-14 *");
    assert!(r[0].is_err());
    assert!(r[1].is_ok(), "the next game still reads");
}

#[test]
fn game_types_and_unknown_ones() {
    let g = &ok("[GameType \"20\"]\n1. 32-28 19-23 *")[0];
    let e = replay(g).unwrap_err();
    assert!(
        matches!(e.kind, PdnErrorKind::UnsupportedGameType(_)),
        "{e}"
    );
    assert!(e.to_string().contains("international draughts"), "{e}");
    // Pool: a man captures backward (APCA rule 14), illegal in American checkers (rule 5.2).
    let text = "[FEN \"B:W14:B18\"]\n1. 18x9 *";
    assert!(replay(&ok(text)[0]).is_err());
    let pool = format!("[GameType \"23\"]{text}");
    assert_eq!(replay(&ok(&pool)[0]).unwrap().moves.len(), 1);
}

#[test]
fn fen_tag_forms() {
    for fen in ["W:W18,19-20:B14.", "?:W18:B14", "W:Wc3:B14", "W:W18:B14,K1"] {
        let g = &ok(&format!("[FEN \"{fen}\"]\n*"))[0];
        replay(g).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
}

#[test]
fn variation_nesting_is_limited_to_64_levels() {
    use crown_notation::MAX_VARIATION_DEPTH;
    let nested = |depth: usize| {
        format!(
            "1. 11-15 {}{} 23-19 *\n[Event \"next\"]\n1. 9-14 *\n",
            "(9-14 ".repeat(depth),
            ")".repeat(depth)
        )
    };
    let games = read_games(&nested(MAX_VARIATION_DEPTH));
    assert!(games[0].is_ok(), "{:?}", games[0]);
    // Level 65 opens at column 10 + 6 * 64 = 394 of line 1.
    let games = read_games(&nested(MAX_VARIATION_DEPTH + 1));
    let e = games[0].as_ref().unwrap_err();
    assert!(
        matches!(&e.kind, PdnErrorKind::Syntax(s) if s.contains("64")),
        "{e}"
    );
    assert_eq!((e.location.line, e.location.column), (1, 394));
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
    // Far deeper input (the stack overflow of the review): still one clean error per game.
    let games = read_games(&nested(20_000));
    assert_eq!(games.len(), 2);
    assert!(games[0].is_err() && games[1].is_ok());
}

#[test]
fn error_columns_are_1_based() {
    // A game-level error (unsupported GameType, bad FEN) points at column 1 of the game's first line.
    let g = ok("\n[GameType \"20\"]\n1. 32-28 *\n").remove(0);
    let e = replay(&g).unwrap_err();
    assert_eq!((e.location.line, e.location.column), (2, 1));
    assert!(e.to_string().starts_with("game 1, line 2:1: "), "{e}");
    let g = ok("[FEN \"B:W33:B1\"]\n1. 1-5 *\n").remove(0);
    let e = replay(&g).unwrap_err();
    assert_eq!((e.location.line, e.location.column), (1, 1));
    // An unclosed variation points at its '('.
    let e = read_games("1. 11-15 (9-14 23-19\n").remove(0).unwrap_err();
    assert_eq!((e.location.line, e.location.column), (1, 10));
    // Move errors were 1-based already: '11-17' starts at column 4.
    let g = ok("1. 11-17 *").remove(0);
    let e = replay(&g).unwrap_err();
    assert_eq!((e.location.line, e.location.column), (1, 4));
}

#[test]
fn a_move_split_after_its_separator_is_joined_with_a_warning() {
    // docs/notation.md: a move split by a space or a line break after its separator is repaired,
    // with a warning. `23-` ends line 2 and `19` starts line 3.
    let text = "[Event \"split\"]\n1. 11-15 23-\n19 2. 8- 11 *\n";
    let games = crown_notation::read_games(text);
    let g = games[0].as_ref().unwrap();
    let moves: Vec<&str> = g.main_line().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["11-15", "23-19", "8-11"]);
    let w: Vec<String> = g.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w[0].contains("line 2:10") && w[0].contains("line break"),
        "{w:?}"
    );
    assert!(w[1].contains("line 3:7") && w[1].contains("space"), "{w:?}");
    let r = crown_notation::replay(g).unwrap();
    assert_eq!(r.moves.len(), 3);
}

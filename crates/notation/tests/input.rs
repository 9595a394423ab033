//! The one reader of lines, moves and FENs (issue 14): what each bad input is called, and that no
//! input of any bytes makes a reader panic or answer with an unbounded or unprintable line.

use crown_core::{Game, Position, Variant};
use crown_notation::{
    decode_line, decode_utf16_file, read_fen, read_game_move, read_move, FenPolicy, MAX_ERROR_CHARS,
};
use proptest::prelude::*;

/// A message fit for a terminal or a protocol line: one line, no control character, bounded.
fn assert_printable(msg: &str) {
    assert!(
        msg.chars().count() <= MAX_ERROR_CHARS,
        "{} chars: {msg}",
        msg.chars().count()
    );
    assert!(
        !msg.chars().any(crown_notation::needs_escape),
        "control or format character in {msg:?}"
    );
}

fn move_error(variant: Variant, fen: Option<&str>, text: &str) -> String {
    let pos = match fen {
        Some(f) => Position::from_fen(variant, f).unwrap(),
        None => Position::new(variant),
    };
    let e = read_move(&pos, text).unwrap_err().to_string();
    assert_printable(&e);
    format!("{} -> {e}", crown_notation::quote(text))
}

fn fen_error(variant: Variant, fen: &str, policy: FenPolicy) -> String {
    let e = read_fen(variant, fen, policy).unwrap_err().to_string();
    assert_printable(&e);
    format!("{} -> {e}", crown_notation::quote(fen))
}

#[test]
fn error_messages_name_the_problem() {
    use Variant::*;
    let long = "1".repeat(100_000);
    let long_fen = format!("B:W{}:B1", "9".repeat(100_000));
    let mut lines = vec![
        move_error(American, None, "12-15"),
        move_error(American, None, ""),
        move_error(American, None, "33-29"),
        move_error(American, None, &format!("{long}-15")),
        move_error(American, None, "a2-b3"),
        move_error(American, None, "11-15\u{1b}[2J"),
        move_error(American, None, "hello"),
        // American rule 6: a jump must be completed.
        move_error(American, Some("B:W10,18:B6"), "6x15"),
        // A capture is compulsory (American rule 5): 10x19 is the only move.
        move_error(American, Some("B:W15:B10,1"), "1-5"),
        // No legal moves: Black to move has no piece that can move, White has won.
        move_error(American, Some("B:W32:B"), "1-5"),
        // One legal move: the count and the noun agree.
        move_error(American, Some("W:W29:B1"), "29-26"),
        move_error(Impasse, None, "x99"),
        // A character that cannot follow a square is named (a PDN strength mark too).
        move_error(American, None, "11-15x"),
        move_error(American, None, "11-15!"),
        move_error(American, None, "11-15\u{202e}"),
        fen_error(American, "BB:W21-32:B1-12", FenPolicy::Lenient),
        fen_error(American, "B:W21-32:B1-11,KK12", FenPolicy::Lenient),
        fen_error(American, "B:W21-32:B1-13", FenPolicy::Lenient),
        fen_error(Impasse, "W:W21-32:BK1-7", FenPolicy::Lenient),
        fen_error(American, &long_fen, FenPolicy::Lenient),
        fen_error(American, "?:W21-32:B1-12", FenPolicy::Strict),
        fen_error(American, "B:W1:B14", FenPolicy::Strict),
        fen_error(American, "W::.", FenPolicy::Lenient),
        fen_error(American, "B:W1\u{1b}:B5", FenPolicy::Lenient),
    ];
    lines.push(decode_line(b"caf\xe9\n").unwrap_err().to_string());
    lines.push(decode_line(b"\xff\xfep\x00i\x00").unwrap_err().to_string());
    lines.push(
        decode_line(b"p\x00i\x00n\x00g\x00")
            .unwrap_err()
            .to_string(),
    );
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn a_stray_character_after_a_square_is_named_with_its_column() {
    let start = Position::new(Variant::American);
    let e = read_move(&start, "11-15x").unwrap_err();
    assert_eq!(e.kind, crown_notation::InputErrorKind::MoveSyntax);
    assert!(
        e.message()
            .contains("unexpected 'x' after square 15 at column 6"),
        "{e}"
    );
    // `!` and `?` are PDN move strength marks (docs/notation.md), not part of a typed move.
    let e = read_move(&start, "11-15!").unwrap_err().to_string();
    assert!(
        e.contains("unexpected '!' after square 15 at column 6"),
        "{e}"
    );
    assert!(e.contains("PDN"), "{e}");
    let e = read_move(&start, "f6-e5?").unwrap_err().to_string();
    assert!(
        e.contains("unexpected '?' after square e5 at column 6"),
        "{e}"
    );
    // What may follow a square is still read: a separator and a square, Impasse suffixes.
    assert!(read_move(&start, "11x15").is_ok());
    let impasse = Position::new(Variant::Impasse);
    assert!(read_move(&impasse, "22-18").is_ok());
    let e = read_move(&impasse, "22-18#").unwrap_err().to_string();
    assert!(
        e.contains("unexpected '#' after square 18 at column 6"),
        "{e}"
    );
}

#[test]
fn format_characters_are_escaped_in_messages() {
    // Cf (U+202E right-to-left override, U+200B zero-width space, U+2066 isolate, U+FEFF), Zl
    // (U+2028) and Zp (U+2029) would reorder or hide the text around them.
    let start = Position::new(Variant::American);
    for c in [
        '\u{202e}', '\u{200b}', '\u{200f}', '\u{2066}', '\u{2069}', '\u{feff}', '\u{2028}',
        '\u{2029}',
    ] {
        let text = format!("1{c}1-15");
        let e = read_move(&start, &text).unwrap_err().to_string();
        assert_printable(&e);
        assert!(e.contains(&format!("\\u{{{:x}}}", c as u32)), "{c:?}: {e}");
        let e = read_fen(
            Variant::American,
            &format!("B:W21-32:B1-1{c}2"),
            FenPolicy::Lenient,
        )
        .unwrap_err()
        .to_string();
        assert_printable(&e);
    }
    // Letters of other scripts are kept as they are.
    assert_eq!(crown_notation::printable("Ölümsüz Ç"), "Ölümsüz Ç");
}

#[test]
fn utf16_without_a_byte_order_mark_is_recognised() {
    let text = "[Event \"x\"]\n1. 11-15 *\n";
    let (mut le, mut be) = (Vec::new(), Vec::new());
    for u in text.encode_utf16() {
        le.extend_from_slice(&u.to_le_bytes());
        be.extend_from_slice(&u.to_be_bytes());
    }
    assert_eq!(decode_utf16_file(&le).unwrap().as_deref(), Some(text));
    assert_eq!(decode_utf16_file(&be).unwrap().as_deref(), Some(text));
    // A line of it is refused by name, in either byte order.
    for line in [&le[..12], &be[..12]] {
        let e = decode_line(line).unwrap_err().to_string();
        assert!(e.contains("UTF-16 (no byte-order mark"), "{e}");
    }
    // UTF-8 with a NUL character here and there is not UTF-16.
    assert_eq!(decode_line(b"ping\x00").unwrap(), "ping\u{0}");
    assert_eq!(decode_utf16_file(b"[Event \"a\x00b\"]\n").unwrap(), None);
}

#[test]
fn a_finished_game_has_one_wording_for_a_position_and_a_game() {
    // Black to move has no piece left: White wins (American rule: a side without pieces loses).
    let pos = Position::from_fen(Variant::American, "B:W32:B").unwrap();
    let from_position = read_move(&pos, "1-5").unwrap_err().to_string();
    let from_game = read_game_move(&Game::from_position(pos), "1-5")
        .unwrap_err()
        .to_string();
    assert_eq!(from_position, from_game);
    assert_eq!(
        from_game,
        "illegal move '1-5': the game is over (White wins: the opponent has no pieces left)"
    );
}

#[test]
fn the_one_legal_move_is_named_in_the_singular() {
    let e = move_error(Variant::American, Some("W:W29:B1"), "29-26");
    assert!(e.contains("1 legal move: 29-25"), "{e}");
}

#[test]
fn lenient_fen_repairs_with_warnings_strict_refuses() {
    let r = read_fen(Variant::American, "?:W21-32:B1-12", FenPolicy::Lenient).unwrap();
    assert_eq!(r.position, Position::new(Variant::American));
    assert_eq!(r.warnings.len(), 1);
    let r = read_fen(Variant::American, "B:W1:B14", FenPolicy::Lenient).unwrap();
    assert_eq!(r.position.to_fen(), "B:WK1:B14");
    assert!(read_fen(Variant::American, "B:W1:B14", FenPolicy::Strict).is_err());
}

#[test]
fn a_finished_game_is_named() {
    // Black to move has no piece: White has won (American rule: a side that cannot move loses).
    let game = Game::from_position(Position::from_fen(Variant::American, "B:W32:B").unwrap());
    let e = read_game_move(&game, "1-5").unwrap_err().to_string();
    assert!(
        e.contains("White wins") || e.contains("White has won"),
        "{e}"
    );
}

#[test]
fn utf16_files_are_read_by_their_byte_order_mark() {
    let text = "[Event \"x\"]\n1. 11-15 *\n";
    let mut le = vec![0xff, 0xfe];
    let mut be = vec![0xfe, 0xff];
    for u in text.encode_utf16() {
        le.extend_from_slice(&u.to_le_bytes());
        be.extend_from_slice(&u.to_be_bytes());
    }
    assert_eq!(decode_utf16_file(&le).unwrap().as_deref(), Some(text));
    assert_eq!(decode_utf16_file(&be).unwrap().as_deref(), Some(text));
    assert_eq!(decode_utf16_file(text.as_bytes()).unwrap(), None);
    assert!(decode_utf16_file(&le[..le.len() - 1]).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_bytes_give_a_printable_bounded_answer(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = decode_line(&bytes) {
            assert_printable(&e.to_string());
        }
        for v in [Variant::American, Variant::Pool, Variant::Impasse] {
            if let Err(e) = read_move(&Position::new(v), &text) {
                assert_printable(&e.to_string());
            }
            for policy in [FenPolicy::Lenient, FenPolicy::Strict] {
                match read_fen(v, &text, policy) {
                    Ok(r) => r.warnings.iter().for_each(|w| assert_printable(w)),
                    Err(e) => assert_printable(&e.to_string()),
                }
            }
        }
        let _ = decode_utf16_file(&bytes);
    }

    #[test]
    fn move_like_text_gives_a_printable_bounded_answer(text in "[0-9a-hxX:>=+ -]{0,40}") {
        for v in [Variant::American, Variant::Pool, Variant::Impasse] {
            if let Err(e) = read_move(&Position::new(v), &text) {
                assert_printable(&e.to_string());
            }
        }
    }

    #[test]
    fn fen_like_text_gives_a_printable_bounded_answer(text in "[?BWK:,.0-9a-h -]{0,60}") {
        for v in [Variant::American, Variant::Pool, Variant::Impasse] {
            if let Err(e) = read_fen(v, &text, FenPolicy::Lenient) {
                assert_printable(&e.to_string());
            }
        }
    }
}

/// A PDN error or warning line quotes at most `MAX_QUOTE_CHARS` characters of a token, a tag or an
/// `Event` (issue 14: never echo unbounded input), so `crown pdn check` prints short lines.
#[test]
fn pdn_errors_do_not_echo_unbounded_input() {
    let long = "1".repeat(100_000);
    let event = "E".repeat(100_000);
    let texts = [
        format!("[Event \"h\"]\n1. {long}-15 *\n"),
        format!("[Event \"h\"]\n1. {long}. 11-15 *\n"),
        format!("[Event \"h\"]\n1. 11-15x{long} *\n"),
        format!("[Event \"{event}\"]\n1. 11-15 23-19 99-100 *\n"),
        format!("[{event} \"x\"]\n1. 11-15 *\n"),
        format!("[Event \"h\"]\n1. 11-15 /{event}/ *\n"),
        format!("[Event \"h\"]\n1. {long}- 15 *\n"),
        format!("[Event \"{event}\"]\n1. 11-15 23- 19 *\n"),
    ];
    for text in &texts {
        for game in crown_notation::PdnReader::new(text.as_bytes()) {
            let lines: Vec<String> = match game {
                Err(e) => vec![e.to_string()],
                Ok(g) => {
                    let mut v: Vec<String> = g.warnings.iter().map(|w| w.to_string()).collect();
                    match crown_notation::replay(&g) {
                        Err(e) => v.push(e.to_string()),
                        Ok(r) => v.extend(r.warnings.iter().map(|w| w.to_string())),
                    }
                    v
                }
            };
            for line in lines {
                assert!(
                    line.chars().count() <= MAX_ERROR_CHARS,
                    "{} characters: {}",
                    line.chars().count(),
                    line.chars().take(120).collect::<String>()
                );
            }
        }
    }
}

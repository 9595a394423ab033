//! The text readers: FEN (crown-core), PDN and typed input (crown-notation).

use crown_core::{Position, Setup, Variant};
use crown_notation::{
    canonical, decode_line, read_fen, read_move, replay, write_game, FenPolicy, PdnReader,
    MAX_ERROR_CHARS,
};

/// The PDN FEN parser of crown-core: `Setup::from_fen` and `Position::from_fen` for every variant
/// must never panic; what they accept must survive `to_fen` unchanged; every legal move of an
/// accepted position must be read back by `parse_move` from its own `move_text`.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(setup) = Setup::from_fen(text) {
        let again = Setup::from_fen(&setup.to_fen()).expect("to_fen output must parse");
        assert_eq!(again, setup, "FEN round trip of {text:?}");
    }
    for variant in Variant::ALL {
        let Ok(pos) = Position::from_fen(variant, text) else {
            continue;
        };
        let again = Position::from_fen(variant, &pos.to_fen()).expect("to_fen output must parse");
        assert_eq!(again, pos);
        let moves = pos.legal_moves();
        for m in moves.iter() {
            let t = pos.move_text(m);
            let back = pos
                .parse_move(&t)
                .unwrap_or_else(|e| panic!("{variant} {}: {t}: {e}", pos.to_fen()));
            assert_eq!(&back, m, "{variant} {}: {t}", pos.to_fen());
            let _ = pos.after(m).winner();
        }
    }
}

/// The PDN reader: reading any bytes must never panic; every game that parses and replays must
/// survive the canonical writer: write, read back, replay — the same moves from the same start.
pub fn pdn(data: &[u8]) {
    for game in PdnReader::new(data).take(64) {
        let Ok(game) = game else { continue };
        let Ok(r) = replay(&game) else { continue };
        let _ = r.to_game(game.result.as_deref());
        let Ok(c) = canonical(&game) else { continue };
        let text = write_game(&c);
        let mut again = PdnReader::new(text.as_bytes());
        let g2 = again
            .next()
            .expect("written game reads back")
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let r2 = replay(&g2).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(r2.start, r.start, "{text}");
        assert_eq!(r2.moves, r.moves, "{text}");
        let c2 = canonical(&g2).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(write_game(&c2), text, "canonical form is stable");
    }
}

fn check_message(msg: &str) {
    assert!(msg.chars().count() <= MAX_ERROR_CHARS, "{msg}");
    assert!(!msg.chars().any(crown_notation::needs_escape), "{msg:?}");
}

/// crown-notation's one reader of typed input: `decode_line`, `read_fen` (lenient and strict) and
/// `read_move` on any bytes never panic, and every error or warning is one printable line (no
/// Unicode Cc, Cf, Zl or Zp character) of at most `MAX_ERROR_CHARS` characters. A move the reader
/// accepts is a legal move, and the text `move_text` writes for it is read back as the same move.
/// The text before a `|` is read as the FEN, the text after it as the move (the whole text as
/// both without a `|`).
pub fn input(data: &[u8]) {
    let text = match decode_line(data) {
        Ok(t) => t.to_string(),
        Err(e) => {
            check_message(&e.to_string());
            String::from_utf8_lossy(data).into_owned()
        }
    };
    let (fen, mv) = text.split_once('|').unwrap_or((&text, &text));
    for variant in Variant::ALL {
        let mut positions = vec![Position::new(variant)];
        for policy in [FenPolicy::Lenient, FenPolicy::Strict] {
            match read_fen(variant, fen, policy) {
                Ok(r) => {
                    r.warnings.iter().for_each(|w| check_message(w));
                    positions.push(r.position);
                }
                Err(e) => check_message(&e.to_string()),
            }
        }
        for pos in positions {
            match read_move(&pos, mv) {
                Ok(m) => {
                    assert!(pos.is_legal(&m));
                    assert_eq!(read_move(&pos, &pos.move_text(&m)).ok(), Some(m));
                }
                Err(e) => check_message(&e.to_string()),
            }
        }
    }
}

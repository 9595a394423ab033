//! Fuzz crown-notation's one reader of typed input (issue 14): `decode_line`, `read_fen` (lenient and
//! strict) and `read_move` on any bytes never panic, and every error or warning is one printable
//! line (no Unicode Cc, Cf, Zl or Zp character) of at most `MAX_ERROR_CHARS` characters. A move
//! the reader accepts is a legal move, and the text `move_text` writes for it is read back as the
//! same move.
#![no_main]

use crown_core::{Position, Variant};
use crown_notation::{decode_line, read_fen, read_move, FenPolicy, MAX_ERROR_CHARS};
use libfuzzer_sys::fuzz_target;

fn check(msg: &str) {
    assert!(msg.chars().count() <= MAX_ERROR_CHARS, "{msg}");
    assert!(!msg.chars().any(crown_notation::needs_escape), "{msg:?}");
}

fuzz_target!(|data: &[u8]| {
    let text = match decode_line(data) {
        Ok(t) => t.to_string(),
        Err(e) => {
            check(&e.to_string());
            String::from_utf8_lossy(data).into_owned()
        }
    };
    // The first line as a FEN, the rest as a move in each game's start and in the FEN's position.
    let (fen, mv) = text.split_once('|').unwrap_or((&text, &text));
    for variant in Variant::ALL {
        let mut positions = vec![Position::new(variant)];
        for policy in [FenPolicy::Lenient, FenPolicy::Strict] {
            match read_fen(variant, fen, policy) {
                Ok(r) => {
                    r.warnings.iter().for_each(|w| check(w));
                    positions.push(r.position);
                }
                Err(e) => check(&e.to_string()),
            }
        }
        for pos in positions {
            match read_move(&pos, mv) {
                Ok(m) => {
                    assert!(pos.is_legal(&m));
                    assert_eq!(read_move(&pos, &pos.move_text(&m)).ok(), Some(m));
                }
                Err(e) => check(&e.to_string()),
            }
        }
    }
});

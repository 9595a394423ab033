//! Fuzz the PDN FEN parser of crown-core: `Setup::from_fen` and `Position::from_fen` for every
//! variant must never panic; what they accept must survive `to_fen` unchanged; every legal move of an
//! accepted position must be read back by `parse_move` from its own `move_text`.
#![no_main]

use crown_core::{Position, Setup, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
});

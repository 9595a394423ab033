//! Fuzz the PDN reader: reading any bytes must never panic; every game that parses and replays must
//! survive the canonical writer: write, read back, replay — the same moves from the same start.
#![no_main]

use crown_notation::{canonical, replay, write_game, PdnReader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
        assert_eq!(write_game(&canonical(&g2).unwrap()), text, "canonical form is stable");
    }
});

//! Properties over random games of all three variants: every reached position round-trips through
//! FEN, every legal move round-trips through its notation, and games always end (Impasse) or keep a
//! consistent state. Arbitrary strings never make the FEN reader or move reader panic.

use crown_core::{Game, ImpasseSetup, MoveKind, Position, Setup, Variant};
use proptest::prelude::*;

fn start(variant_index: u8) -> Position {
    match variant_index % 4 {
        0 => Position::new(Variant::American),
        1 => Position::new(Variant::Pool),
        2 => Position::new(Variant::Impasse),
        _ => Position::impasse(ImpasseSetup::Steere),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_keep_fen_and_notation_consistent(variant in 0u8..4, choices in prop::collection::vec(any::<u16>(), 0..300)) {
        let mut game = Game::from_position(start(variant));
        for c in choices {
            let legal = game.legal_moves();
            if legal.is_empty() {
                prop_assert!(game.outcome().is_some());
                break;
            }
            let pos = *game.position();
            // FEN round trip.
            let back = Position::from_fen(pos.variant(), &pos.to_fen()).unwrap();
            prop_assert_eq!(back, pos);
            prop_assert_eq!(back.zobrist(), pos.zobrist());
            // Every legal move is read back from its text, and no two legal moves are equal.
            for (i, m) in legal.iter().enumerate() {
                let text = pos.move_text(m);
                prop_assert_eq!(pos.parse_move(&text).unwrap(), *m, "{}", text);
                prop_assert!(!legal[..i].contains(m));
                if m.kind() == MoveKind::Jump {
                    prop_assert_eq!(m.path().count() as u32 >= 1, true);
                    prop_assert_eq!(m.capture_count() as usize, m.captures().len());
                }
            }
            let mv = legal[c as usize % legal.len()];
            let before_pieces = pos.piece_count(pos.side_to_move().opposite());
            game.play(&mv).unwrap();
            // Captured pieces leave the board.
            let after = game.position();
            prop_assert_eq!(after.piece_count(pos.side_to_move().opposite()), before_pieces - mv.capture_count());
        }
    }

    #[test]
    fn fen_reader_never_panics(s in "[BWK:,.0-9a-h -]{0,40}") {
        let _ = Setup::from_fen(&s);
        for v in Variant::ALL {
            let _ = Position::from_fen(v, &s);
        }
    }

    #[test]
    fn move_reader_never_panics(s in "[x0-9>=+:-]{0,16}") {
        for p in [Position::new(Variant::American), Position::new(Variant::Pool), Position::new(Variant::Impasse)] {
            let _ = p.parse_move(&s);
        }
    }
}

#[test]
fn impasse_games_always_end() {
    // Impasse cannot cycle (docs/rules.md): playing the first legal move ends the game.
    for setup in [ImpasseSetup::Seed, ImpasseSetup::Steere] {
        let mut game = Game::impasse(setup);
        let mut plies = 0;
        while game.outcome().is_none() {
            let mv = game.legal_moves()[0];
            game.play(&mv).unwrap();
            plies += 1;
            assert!(plies < 2000);
        }
    }
}

//! The contract functions `game_to_pdn` / `pdn_to_game` round-trip whole games of every variant.

use crown_core::{Game, ImpasseSetup, Position, Variant};
use crown_notation::{game_to_pdn, pdn_to_game};

/// A small deterministic generator (xorshift64) so the games are the same on every run.
fn rng(seed: u64) -> impl FnMut(usize) -> usize {
    let mut s = seed | 1;
    move |n| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % n as u64) as usize
    }
}

fn random_game(mut game: Game, seed: u64, max_plies: usize) -> Game {
    let mut pick = rng(seed);
    for _ in 0..max_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[pick(moves.len())];
        game.play(&m).unwrap();
    }
    game
}

fn round_trip(game: &Game) {
    let text = game_to_pdn(game, &[("Event", "Round trip"), ("Annotator", "Crown")]);
    let back = pdn_to_game(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.variant(), game.variant(), "{text}");
    assert_eq!(back.start(), game.start(), "{text}");
    assert_eq!(back.moves(), game.moves(), "{text}");
    // The long forms compare the exact paths as well.
    let a: Vec<String> = back.moves().iter().map(|m| m.long_text()).collect();
    let b: Vec<String> = game.moves().iter().map(|m| m.long_text()).collect();
    assert_eq!(a, b);
    assert_eq!(back.outcome(), game.outcome(), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "line over 80 columns: {line}");
    }
}

#[test]
fn random_games_of_every_variant_round_trip() {
    for seed in 1..=40u64 {
        round_trip(&random_game(Game::new(Variant::American), seed, 200));
        round_trip(&random_game(Game::new(Variant::Pool), seed, 200));
        round_trip(&random_game(Game::impasse(ImpasseSetup::Seed), seed, 300));
        round_trip(&random_game(Game::impasse(ImpasseSetup::Steere), seed, 300));
    }
}

#[test]
fn set_position_and_second_player_first() {
    // White to move first from a FEN: the first move is numbered `1...`.
    let pos = Position::from_fen(Variant::American, "W:W18,K25:B14,K5").unwrap();
    let game = random_game(Game::from_position(pos), 7, 10);
    let text = game_to_pdn(&game, &[]);
    assert!(
        text.contains("[SetUp \"1\"]\n[FEN \"W:W18,K25:BK5,14\"]"),
        "{text}"
    );
    assert!(text.contains("\n1... "), "{text}");
    round_trip(&game);
}

#[test]
fn result_tag_and_declared_results() {
    let mut game = Game::new(Variant::American);
    game.play_text("11-15").unwrap();
    game.resign(crown_core::Color::White);
    let text = game_to_pdn(&game, &[]);
    // "1-0": the side that moved first (Black) won.
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.trim_end().ends_with("1. 11-15 1-0"), "{text}");
    let back = pdn_to_game(&text).unwrap();
    assert_eq!(back.outcome(), game.outcome());
}

#[test]
fn every_legal_move_text_names_exactly_that_move() {
    // docs/notation.md: Crown's move text is unambiguous for every legal move (Impasse crowns and
    // bear-offs included), so the writer never loses a move.
    for seed in 1..=30u64 {
        for start in [
            Game::new(Variant::American),
            Game::new(Variant::Pool),
            Game::impasse(ImpasseSetup::Seed),
            Game::impasse(ImpasseSetup::Steere),
        ] {
            let mut game = start;
            let mut pick = rng(seed);
            for _ in 0..150 {
                let pos = *game.position();
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for m in moves.iter() {
                    let text = pos.move_text(m);
                    assert_eq!(
                        pos.parse_move(&text).as_ref(),
                        Ok(m),
                        "{} {text}",
                        pos.to_fen()
                    );
                }
                game.play(&moves[pick(moves.len())]).unwrap();
            }
        }
    }
}

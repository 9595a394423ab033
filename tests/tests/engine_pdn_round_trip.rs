//! A whole game of each variant played by the engine against itself, written as PDN by
//! crown-notation and read back: the same moves, the same final position, the same result.

use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Game, ImpasseSetup, Variant};
use crown_notation::{game_to_pdn, pdn_to_game};
use std::sync::atomic::AtomicBool;

fn self_play(mut game: Game, max_plies: usize) -> Game {
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 4,
        threads: 1,
        level: None,
    });
    let stop = AtomicBool::new(false);
    while game.outcome().is_none() && game.ply_count() < max_plies {
        let result = engine.search(&game, &Limits::depth(3), &stop, &mut |_| {});
        let mv = result.best_move.expect("a move while the game goes on");
        game.play(&mv).expect("the engine plays legal moves");
    }
    game
}

fn round_trip(game: &Game) {
    let pdn = game_to_pdn(game, &[("Event", "Crown self-play")]);
    let back = pdn_to_game(&pdn).unwrap_or_else(|e| panic!("{e}\n{pdn}"));
    assert_eq!(back.moves(), game.moves(), "{pdn}");
    assert_eq!(back.position(), game.position());
    assert_eq!(back.start(), game.start());
    if let Some(outcome) = game.outcome() {
        assert!(pdn.contains(outcome.pdn_result(game.variant())), "{pdn}");
    }
}

#[test]
fn american_self_play_round_trips() {
    round_trip(&self_play(Game::new(Variant::American), 120));
}

#[test]
fn pool_self_play_round_trips() {
    round_trip(&self_play(Game::new(Variant::Pool), 120));
}

#[test]
fn impasse_self_play_round_trips_to_the_end() {
    for setup in [ImpasseSetup::Seed, ImpasseSetup::Steere] {
        let game = self_play(Game::impasse(setup), 400);
        assert!(game.outcome().is_some(), "Impasse always ends");
        round_trip(&game);
    }
}

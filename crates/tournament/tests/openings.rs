//! Openings per round by the director's rule.

use crown_core::{Game, Position, Variant};
use crown_tournament::{draw_opening, OpeningRule, TournamentError};
use std::collections::HashSet;

/// ACF three-move ballots: the same seed draws the same ballot for a round; 156 rounds use the
/// 156 ballots of the deck once each (no ballot repeats while the deck lasts); each is a position
/// three plies after the start (Black, White, Black: White to move) with the game not over.
#[test]
fn acf_ballots_are_reproducible_and_do_not_repeat_while_the_deck_lasts() {
    let rule = OpeningRule::AcfThreeMove;
    let mut seen = HashSet::new();
    let mut labels = std::collections::HashMap::new();
    for round in 1..=156 {
        let a = draw_opening(&rule, Variant::American, 9, round).unwrap();
        assert_eq!(a, draw_opening(&rule, Variant::American, 9, round).unwrap());
        assert!(a.label.starts_with("ACF three-move ballot "), "{}", a.label);
        labels.insert(a.label.clone(), a.fen.clone());
        let p = Position::from_fen(Variant::American, &a.fen).unwrap();
        assert_eq!(p.side_to_move(), crown_core::Color::White);
        assert!(Game::from_position(p).outcome().is_none());
        assert!(seen.insert(a.fen), "round {round} repeats a ballot");
    }
    // ACF ballot 5 is 9-13 22-18 6-9, named the Dreaded Edinburgh (the deck's source, the ACF
    // numbering); ballot 3 is one of the 18 barred ballots, not in the deck.
    let mut g = Game::new(Variant::American);
    for m in ["9-13", "22-18", "6-9"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(
        labels.get("ACF three-move ballot 5 (Dreaded Edinburgh)"),
        Some(&g.position().to_fen())
    );
    assert!(!labels
        .keys()
        .any(|l| l.starts_with("ACF three-move ballot 3 ")
            || l.as_str() == "ACF three-move ballot 3"));
    // Round 157 starts the deck over; another seed gives another order.
    let first = draw_opening(&rule, Variant::American, 9, 1).unwrap();
    assert_eq!(
        draw_opening(&rule, Variant::American, 9, 157).unwrap(),
        first
    );
    let other: Vec<_> = (1..=5)
        .map(|r| draw_opening(&rule, Variant::American, 10, r).unwrap())
        .collect();
    let this: Vec<_> = (1..=5)
        .map(|r| draw_opening(&rule, Variant::American, 9, r).unwrap())
        .collect();
    assert_ne!(other, this);
}

/// Pool checkers draws from the ballots pool's rules can play; the start position rule gives the
/// game's start; Impasse has its two setups and no ballots.
#[test]
fn each_game_gets_the_openings_its_rules_allow() {
    let pool = draw_opening(&OpeningRule::AcfThreeMove, Variant::Pool, 1, 1).unwrap();
    assert!(Position::from_fen(Variant::Pool, &pool.fen).is_ok());
    let start = draw_opening(&OpeningRule::StartPosition, Variant::Pool, 1, 4).unwrap();
    assert_eq!(start.fen, "B:W21-32:B1-12");
    let seed = draw_opening(&OpeningRule::ImpasseSeed, Variant::Impasse, 1, 1).unwrap();
    assert_eq!(seed.fen, crown_core::ImpasseSetup::Seed.fen());
    let steere = draw_opening(&OpeningRule::ImpasseSteere, Variant::Impasse, 1, 1).unwrap();
    assert_eq!(steere.fen, crown_core::ImpasseSetup::Steere.fen());
    for (rule, variant) in [
        (OpeningRule::AcfThreeMove, Variant::Impasse),
        (OpeningRule::ImpasseSteere, Variant::American),
        (OpeningRule::ImpasseSeed, Variant::Pool),
    ] {
        assert!(matches!(
            draw_opening(&rule, variant, 1, 1),
            Err(TournamentError::Settings(_))
        ));
    }
}

/// A director's ballot list (as the 11-man ballots are given): drawn from it, named by it; a
/// list with a bad FEN or no ballot is refused with the ballot's place.
#[test]
fn a_director_ballot_list_is_checked_and_drawn_from() {
    // Two 11-man ballots: one man removed from each side (the shared data's first two lines).
    let fens = [
        "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,9",
        "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,8,6,5,12,11,10,9",
    ];
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_fen(Variant::American, f).unwrap())
        .collect();
    let rule = OpeningRule::ballots("11-man ballots", &positions);
    let a = draw_opening(&rule, Variant::American, 5, 1).unwrap();
    let b = draw_opening(&rule, Variant::American, 5, 2).unwrap();
    assert!(a.label.starts_with("11-man ballots "));
    assert_ne!(a.fen, b.fen);
    let mut both = vec![a.fen, b.fen];
    both.sort();
    let mut expected: Vec<String> = positions.iter().map(Position::to_fen).collect();
    expected.sort();
    assert_eq!(both, expected);
    let bad = OpeningRule::Ballots {
        name: "mine".into(),
        fens: vec![fens[0].into(), "B:W99:B1".into()],
    };
    let err = bad.check(Variant::American).unwrap_err().to_string();
    assert!(err.contains("ballot 2 of \"mine\""), "{err}");
    let empty = OpeningRule::Ballots {
        name: "none".into(),
        fens: vec![],
    };
    assert!(empty.check(Variant::American).is_err());
}

/// The shared data's 11-man ballots (`$CROWN_SHARED` or ../shared beside the repository), read
/// as the server reads them (`crown_arena::openings::read_opening_file`): 2400 ballots; a round's
/// ballot has 11 men a side with Black to move (one man of each side's 12 removed).
#[test]
fn the_eleven_man_ballots_of_the_shared_data_are_a_ballot_rule() {
    let shared = std::env::var("CROWN_SHARED").map_or_else(
        |_| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        std::path::PathBuf::from,
    );
    let path = shared.join("data/pdn/ballots-11-man-english.pdn");
    let positions = crown_arena::openings::read_opening_file(&path, Variant::American).unwrap();
    assert_eq!(positions.len(), 2400);
    let rule = OpeningRule::ballots("11-man ballots", &positions);
    rule.check(Variant::American).unwrap();
    for round in 1..=3 {
        let o = draw_opening(&rule, Variant::American, 77, round).unwrap();
        assert!(o.label.starts_with("11-man ballots ") && o.label.ends_with(" of 2400"));
        let p = Position::from_fen(Variant::American, &o.fen).unwrap();
        assert_eq!(p.piece_count(crown_core::Color::Black), 11);
        assert_eq!(p.piece_count(crown_core::Color::White), 11);
        assert_eq!(p.side_to_move(), crown_core::Color::Black);
    }
}

/// 11-man ballots: for American and pool checkers alike, round `r` draws the same ballot for the
/// same seed, labelled with its number in the list and with that ballot's position (Black to
/// move, 11 men a side); 200 rounds draw 200 different ballots; Impasse has none.
#[test]
fn eleven_man_ballots_are_numbered_reproducible_and_do_not_repeat() {
    let rule = OpeningRule::ElevenManBallots;
    let list = crown_arena::openings::eleven_man_ballots().unwrap();
    for variant in [Variant::American, Variant::Pool] {
        let mut seen = HashSet::new();
        for round in 1..=200 {
            let a = draw_opening(&rule, variant, 42, round).unwrap();
            assert_eq!(a, draw_opening(&rule, variant, 42, round).unwrap());
            let n: usize = a
                .label
                .strip_prefix("11-man ballot ")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("label {}", a.label));
            assert!((1..=2400).contains(&n), "{}", a.label);
            assert_eq!(a.fen, list[n - 1], "ballot {n} is the list's line {n}");
            let p = Position::from_fen(variant, &a.fen).unwrap();
            assert_eq!(p.side_to_move(), crown_core::Color::Black);
            assert!(Game::from_position(p).outcome().is_none());
            assert!(seen.insert(a.fen), "round {round} repeats a ballot");
        }
    }
    // the same seed draws the same order for both games (the list is one for both)
    assert_eq!(
        draw_opening(&rule, Variant::American, 42, 3).unwrap(),
        draw_opening(&rule, Variant::Pool, 42, 3).unwrap()
    );
    assert!(matches!(
        draw_opening(&rule, Variant::Impasse, 42, 1),
        Err(TournamentError::Settings(_))
    ));
}

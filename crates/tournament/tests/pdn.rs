//! One PDN per tournament, read back with crown-notation's reader.

mod common;
use common::{play, started};
use crown_core::{Game, Position, Variant};
use crown_notation::{read_games, replay};
use crown_tournament::{
    tournament_pdn, Format, GameResult, GameSlot, OpeningRule, Scoring, Seat, Settings, Tournament,
};

/// A 2-player Swiss of one round from an ACF ballot: game 1 played (one move, then the second
/// player resigned: the result is the tournament's), game 2 forfeited. The PDN has both games
/// with Round 1.1 and 1.2, the first mover of each game as Black (APCA rule 7: Black moves first),
/// the ballot's FEN, and the results.
#[test]
fn the_tournament_pdn_has_round_tags_colours_and_results() {
    let mut t = Tournament::new(Settings {
        name: "Club Swiss".into(),
        variant: Variant::American,
        format: Format::Swiss { rounds: 1 },
        openings: OpeningRule::AcfThreeMove,
        seed: 3,
        scoring: Scoring::default(),
    })
    .unwrap();
    let ann = t.join("Ann", 1900).unwrap();
    let bob = t.join("Bob", 1800).unwrap();
    t.start().unwrap();
    let round = t.pair_round(1).unwrap().clone();
    let m = round.matches().next().unwrap().clone();
    t.record(1, 1, 1, GameResult::Win(Seat::First)).unwrap();
    t.record(
        1,
        1,
        2,
        GameResult::Forfeit {
            absent: Seat::First,
        },
    )
    .unwrap();
    let start = Position::from_fen(Variant::American, &round.opening.fen).unwrap();
    let mut g1 = Game::from_position(start);
    let mv = g1.legal_moves()[0];
    g1.play(&mv).unwrap();
    let text = tournament_pdn(&t, |slot: GameSlot| {
        (slot
            == GameSlot {
                round: 1,
                board: 1,
                game: 1,
            })
        // 2024-01-01 01:00 UTC (1 704 067 200 s is 2024-01-01 00:00 UTC).
        .then_some((&g1, 1_704_067_200_000 + 3_600_000))
    });
    let games: Vec<_> = read_games(&text).into_iter().map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 2, "{text}");
    let name = |p| if p == ann { "Ann" } else { "Bob" };
    let (first, second) = (name(m.first), name(m.second));
    let _ = bob;
    for (g, (round_tag, black, white, result)) in games
        .iter()
        .zip([("1.1", first, second, "1-0"), ("1.2", second, first, "1-0")])
    {
        assert_eq!(g.tag("Event"), Some("Club Swiss"));
        assert_eq!(g.tag("Round"), Some(round_tag));
        assert_eq!(g.tag("Board"), Some("1"));
        assert_eq!(g.tag("Black"), Some(black));
        assert_eq!(g.tag("White"), Some(white));
        assert_eq!(g.tag("Result"), Some(result));
        assert_eq!(g.tag("FEN"), Some(round.opening.fen.as_str()));
        // the ballot named beside its position: "ACF three-move ballot N" and its name if any
        assert_eq!(g.tag("Opening"), Some(round.opening.label.as_str()));
        assert!(round.opening.label.starts_with("ACF three-move ballot "));
    }
    // The game played is dated by its creation; the forfeit, which has no game, is not.
    assert_eq!(games[0].tag("Date"), Some("2024.01.01"));
    assert_eq!(games[1].tag("Date"), Some("????.??.??"));
    let r = replay(&games[0]).unwrap();
    assert_eq!(r.moves.len(), 1);
    assert!(replay(&games[1]).unwrap().moves.is_empty());
}

/// In Impasse White moves first, so the first mover of a game is White; games not started are
/// left out.
#[test]
fn impasse_first_movers_are_white_and_unplayed_games_are_left_out() {
    let mut s = common::settings(Format::RoundRobin);
    s.variant = Variant::Impasse;
    s.openings = OpeningRule::ImpasseSteere;
    let mut t = Tournament::new(s).unwrap();
    t.join("Ann", 2).unwrap();
    t.join("Bob", 1).unwrap();
    t.start().unwrap();
    t.pair_round(1).unwrap();
    let m = t.rounds()[0].matches().next().unwrap().clone();
    t.record(1, 1, 1, GameResult::Draw).unwrap();
    let text = tournament_pdn(&t, |_| None);
    let games: Vec<_> = read_games(&text).into_iter().map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 1, "{text}");
    let first = &t.players()[m.first.0 as usize].name;
    assert_eq!(games[0].tag("White"), Some(first.as_str()));
    assert_eq!(games[0].tag("Result"), Some("1/2-1/2"));
    assert_eq!(games[0].tag("Opening"), Some("Steere setup"));
    assert_eq!(
        games[0].tag("GameType"),
        Some(crown_notation::game_type_tag(Variant::Impasse))
    );
    let _ = (play, started);
}

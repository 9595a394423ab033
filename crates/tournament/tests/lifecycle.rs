//! The lifecycle state machine: every refused transition is a typed error and leaves the state as
//! it was; the state survives a serde round trip and goes on identically.

mod common;
use common::{play, settings, started};
use crown_tournament::{
    Format, GameResult, Pairing, Phase, Scoring, Seat, Settings, Tournament, TournamentError,
};

#[test]
fn joining_is_checked_and_closes_at_the_start() {
    let mut t = Tournament::new(settings(Format::RoundRobin)).unwrap();
    assert_eq!(t.phase(), Phase::Created);
    let ann = t.join("  Ann ", 1500).unwrap();
    assert_eq!(t.player(ann).unwrap().name, "Ann");
    assert!(matches!(
        t.join("ann", 0),
        Err(TournamentError::BadName { .. })
    ));
    assert!(matches!(
        t.join("   ", 0),
        Err(TournamentError::BadName { .. })
    ));
    assert!(matches!(
        t.join(&"x".repeat(41), 0),
        Err(TournamentError::BadName { .. })
    ));
    assert_eq!(t.start(), Err(TournamentError::TooFewPlayers(1)));
    let bob = t.join("Bob", 1600).unwrap();
    let cy = t.join("Cy", 1700).unwrap();
    t.withdraw(cy).unwrap();
    assert_eq!(t.withdraw(cy), Err(TournamentError::AlreadyWithdrawn(cy)));
    assert_eq!(
        t.pair_round(1).unwrap_err(),
        TournamentError::NotStarted {
            operation: "pair a round"
        }
    );
    t.start().unwrap();
    // Seeded by rating: Bob (1600) before Ann (1500); Cy withdrew before the start.
    assert_eq!(t.seeding(), &[bob, ann]);
    assert_eq!(t.total_rounds(), 1);
    assert_eq!(
        t.join("Dee", 0),
        Err(TournamentError::AlreadyStarted { operation: "join" })
    );
    assert_eq!(
        t.start(),
        Err(TournamentError::AlreadyStarted { operation: "start" })
    );
}

#[test]
fn settings_are_checked_when_created() {
    let bad = |s: Settings| matches!(Tournament::new(s), Err(TournamentError::Settings(_)));
    assert!(bad(settings(Format::Swiss { rounds: 0 })));
    assert!(bad(Settings {
        name: " ".into(),
        ..settings(Format::RoundRobin)
    }));
    for name in [
        "Club\u{0}night",
        "Club \u{1b}[31mnight",
        "Club\nnight",
        "Club \u{202e}thgin",
    ] {
        assert!(
            bad(Settings {
                name: name.into(),
                ..settings(Format::RoundRobin)
            }),
            "{name:?}"
        );
    }
    assert!(bad(Settings {
        scoring: Scoring {
            match_win: 1,
            match_tie: 1,
            ..Scoring::default()
        },
        ..settings(Format::RoundRobin)
    }));
    assert!(bad(Settings {
        openings: crown_tournament::OpeningRule::ImpasseSteere,
        ..settings(Format::RoundRobin)
    }));
}

/// Rounds are paired in order, once each, and only after the previous round is complete; a
/// result is recorded once (a second recording, even of the same result, is refused and counts
/// nothing); finishing needs the last round complete; nothing changes after the finish.
#[test]
fn rounds_and_results_are_accepted_once_and_in_order() {
    let (mut t, ids) = started(Format::Swiss { rounds: 2 }, &["A", "B", "C", "D"]);
    assert!(matches!(
        t.pair_round(2),
        Err(TournamentError::RoundOutOfOrder { asked: 2, next: 1 })
    ));
    t.pair_round(1).unwrap();
    assert_eq!(
        t.pair_round(1).unwrap_err(),
        TournamentError::RoundAlreadyPaired(1)
    );
    assert_eq!(
        t.pair_round(2).unwrap_err(),
        TournamentError::RoundIncomplete {
            round: 1,
            missing: 4
        }
    );
    let win = GameResult::Win(Seat::First);
    t.record(1, 1, 1, win).unwrap();
    let before = t.clone();
    assert_eq!(
        t.record(1, 1, 1, win),
        Err(TournamentError::AlreadyRecorded {
            round: 1,
            board: 1,
            game: 1
        })
    );
    assert_eq!(t, before, "a refused result changes nothing");
    assert_eq!(t.record(1, 1, 3, win), Err(TournamentError::NoSuchGame(3)));
    assert_eq!(
        t.record(1, 3, 1, win),
        Err(TournamentError::NoSuchBoard { round: 1, board: 3 })
    );
    assert_eq!(t.record(2, 1, 1, win), Err(TournamentError::NoSuchRound(2)));
    assert_eq!(
        t.finish(),
        Err(TournamentError::RoundIncomplete {
            round: 1,
            missing: 3
        })
    );
    t.record(1, 1, 2, GameResult::Draw).unwrap();
    play(&mut t, 1, ids[1], ids[3], "DD");
    t.pair_round(2).unwrap();
    for m in t.rounds()[1].clone().matches() {
        for g in 1..=2 {
            t.record(2, m.board, g, GameResult::Draw).unwrap();
        }
    }
    assert_eq!(
        t.pair_round(3).unwrap_err(),
        TournamentError::NoMoreRounds(2)
    );
    t.finish().unwrap();
    assert_eq!(t.phase(), Phase::Finished);
    assert_eq!(
        t.record(1, 1, 1, win),
        Err(TournamentError::Finished {
            operation: "record a result"
        })
    );
    assert!(matches!(
        t.withdraw(ids[0]),
        Err(TournamentError::Finished { .. })
    ));
}

/// The state written as JSON and read back is equal, and both copies go on identically: two
/// server instances that load the same state pair the same round, and once one of them has
/// stored it, the other's attempt on the stored state is refused (no pairing made twice).
#[test]
fn state_survives_a_round_trip_and_two_instances_cannot_pair_a_round_twice() {
    let (mut t, ids) = started(Format::Swiss { rounds: 3 }, &["A", "B", "C", "D", "E"]);
    t.pair_round(1).unwrap();
    for m in t.rounds()[0].clone().matches() {
        t.record(1, m.board, 1, GameResult::Win(Seat::Second))
            .unwrap();
        t.record(
            1,
            m.board,
            2,
            GameResult::Forfeit {
                absent: Seat::Second,
            },
        )
        .unwrap();
    }
    let stored = serde_json::to_string(&t).unwrap();
    let mut one: Tournament = serde_json::from_str(&stored).unwrap();
    let mut two: Tournament = serde_json::from_str(&stored).unwrap();
    assert_eq!(one, t);
    let r1 = one.pair_round(2).unwrap().clone();
    let r2 = two.pair_round(2).unwrap().clone();
    assert_eq!(r1, r2);
    // Instance one stored its round 2; instance two reloads and tries again: refused.
    let stored = serde_json::to_string(&one).unwrap();
    let mut two: Tournament = serde_json::from_str(&stored).unwrap();
    assert_eq!(
        two.pair_round(2).unwrap_err(),
        TournamentError::RoundAlreadyPaired(2)
    );
    assert_eq!(two.rounds().len(), 2);
    let _ = ids;
}

/// A player who withdraws from a running round robin loses their later games by forfeit (the
/// rounds are recorded as they are paired) and their bye is dropped.
#[test]
fn a_withdrawn_round_robin_player_forfeits_the_rest() {
    let (mut t, ids) = started(Format::RoundRobin, &["A", "B", "C"]);
    t.pair_round(1).unwrap();
    // Round 1 (Berger, 3 players): B–C, A has the bye.
    play(&mut t, 1, ids[1], ids[2], "WW");
    t.withdraw(ids[2]).unwrap();
    // Round 2: A–B, C's bye dropped. Round 3: C–A, forfeited by C.
    t.pair_round(2).unwrap();
    assert!(t.rounds()[1]
        .pairings
        .iter()
        .all(|p| !matches!(p, Pairing::Bye(_))));
    play(&mut t, 2, ids[0], ids[1], "DD");
    let r3 = t.pair_round(3).unwrap().clone();
    let m = r3.matches().next().unwrap();
    assert!(r3.is_complete());
    let c_seat = m.seat_of(ids[2]).unwrap();
    assert_eq!(m.games, [Some(GameResult::Forfeit { absent: c_seat }); 2]);
    t.finish().unwrap();
    // A: bye (2 mp, 2 gp) + tie with B (1, 2) + C's forfeits (2, 4) = 5 mp, 8 gp.
    let s = t.standings();
    assert_eq!(
        (s[0].player, s[0].match_points, s[0].game_points),
        (ids[0], 5, 8)
    );
}

/// A Swiss is limited to 64 players (see `MAX_SWISS_PLAYERS`): the 65th makes the start fail
/// with a settings error, not a pairing failure later.
#[test]
fn a_swiss_of_more_than_sixty_four_players_does_not_start() {
    let mut t = Tournament::new(settings(Format::Swiss { rounds: 5 })).unwrap();
    for i in 0..65 {
        t.join(&format!("P{i}"), 0).unwrap();
    }
    let err = t.start().unwrap_err();
    assert!(
        matches!(err, TournamentError::Settings(ref m) if m.contains("at most 64")),
        "{err}"
    );
    assert_eq!(t.phase(), Phase::Created);
}

/// A Swiss of more rounds than its players allow without a repeat plays the most they allow:
/// two players meet once (a round robin of 2 has 1 round), so the default 5 rounds become 1,
/// and the tournament is over after it.
#[test]
fn a_swiss_of_two_players_plays_the_one_round_they_allow() {
    let (mut t, ids) = started(Format::Swiss { rounds: 5 }, &["Ann", "Bob"]);
    assert_eq!(t.settings().format, Format::Swiss { rounds: 5 });
    assert_eq!(t.total_rounds(), 1);
    t.pair_round(1).unwrap();
    play(&mut t, 1, ids[0], ids[1], "WD");
    assert_eq!(
        t.pair_round(2).unwrap_err(),
        TournamentError::NoMoreRounds(1)
    );
    // The rounds fixed at the start survive the stored state.
    let back: Tournament = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(back.total_rounds(), 1);
    t.finish().unwrap();
    // Five players allow 5 rounds (a round robin of 5 with a bye): the setting stands.
    let (t, _) = started(Format::Swiss { rounds: 5 }, &["A", "B", "C", "D", "E"]);
    assert_eq!(t.total_rounds(), 5);
}

/// A state stored before the start fixed the Swiss's rounds reads as before: the setting.
#[test]
fn a_state_stored_without_the_fixed_rounds_reads_the_setting() {
    let (t, _) = started(Format::Swiss { rounds: 3 }, &["A", "B", "C", "D"]);
    let mut v = serde_json::to_value(&t).unwrap();
    v.as_object_mut().unwrap().remove("swiss_rounds");
    let old: Tournament = serde_json::from_value(v).unwrap();
    assert_eq!(old.total_rounds(), 3);
    assert_eq!(old.cancelled(), None);
}

/// Cancelling is for a tournament that has not started: it is then finished, with no rounds,
/// and says why; a running or finished one refuses.
#[test]
fn a_tournament_cancelled_before_its_start_is_finished_with_its_reason() {
    let mut t = Tournament::new(settings(Format::Swiss { rounds: 5 })).unwrap();
    t.join("Ann", 0).unwrap();
    let reason = t.start().unwrap_err().to_string();
    t.cancel(&reason).unwrap();
    assert_eq!(t.phase(), Phase::Finished);
    assert_eq!(
        t.cancelled(),
        Some("cannot start with 1 player(s): at least 2 are needed")
    );
    assert!(t.rounds().is_empty());
    assert_eq!(
        t.cancel("again"),
        Err(TournamentError::Finished {
            operation: "cancel"
        })
    );
    let (mut running, _) = started(Format::RoundRobin, &["A", "B"]);
    assert_eq!(
        running.cancel("late"),
        Err(TournamentError::AlreadyStarted {
            operation: "cancel"
        })
    );
    assert_eq!(running.cancelled(), None);
}

#[test]
fn a_withdrawn_entry_is_taken_again_before_the_start_only() {
    let mut t = Tournament::new(settings(Format::RoundRobin)).unwrap();
    let ann = t.join("Ann", 1500).unwrap();
    let bob = t.join("Bob", 1600).unwrap();
    // Only a withdrawn entry can be taken, under a name nobody playing has.
    assert_eq!(
        t.reenter(ann, "Cy", 1700),
        Err(TournamentError::NoSuchPlayer(ann))
    );
    t.withdraw(ann).unwrap();
    assert!(matches!(
        t.reenter(ann, "bob", 0),
        Err(TournamentError::BadName { .. })
    ));
    // Its own name again (the player coming back), or a new player's: the id is kept.
    t.reenter(ann, "Ann", 1500).unwrap();
    t.withdraw(ann).unwrap();
    t.reenter(ann, " Cy ", 1700).unwrap();
    let cy = t.player(ann).unwrap();
    assert_eq!(
        (cy.name.as_str(), cy.rating, cy.withdrawn),
        ("Cy", 1700, false)
    );
    assert_eq!(t.players().len(), 2);
    t.withdraw(bob).unwrap();
    t.join("Dan", 1400).unwrap();
    t.start().unwrap();
    assert_eq!(
        t.reenter(bob, "Eve", 1500),
        Err(TournamentError::AlreadyStarted { operation: "join" })
    );
}

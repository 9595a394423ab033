//! The arena: lichess's scoring and pairing as soon as players are free.

use crown_core::Variant;
use crown_tournament::{
    arena_points, on_fire, Arena, ArenaOutcome, GameResult, OpeningRule, Phase, PlayerId, Seat,
    TournamentError,
};
use ArenaOutcome::{Draw, Loss, Win};

/// lichess's own example: "two wins followed by a draw will be worth 6 points: 2 + 2 + (2 x 1)";
/// and a win on fire is worth 4, a loss 0 and ends the streak.
#[test]
fn two_wins_then_a_draw_score_six_as_lichess_says() {
    assert_eq!(arena_points(&[Win, Win, Draw]), vec![2, 2, 2]);
    // On fire after W W: W 4, W 4, L 0; then the streak is over: W 2.
    assert_eq!(
        arena_points(&[Win, Win, Win, Win, Loss, Win]),
        vec![2, 2, 4, 4, 0, 2]
    );
    // A draw in between: no streak.
    assert_eq!(arena_points(&[Win, Draw, Win, Draw]), vec![2, 1, 2, 1]);
    assert!(on_fire(&[Loss, Win, Win]));
    assert!(!on_fire(&[Win, Win, Draw]));
    assert!(!on_fire(&[Win]));
}

fn arena(names: &[&str]) -> (Arena, Vec<PlayerId>) {
    let mut a = Arena::new(
        "Blitz arena",
        Variant::American,
        OpeningRule::StartPosition,
        3,
    )
    .unwrap();
    let ids = names
        .iter()
        .enumerate()
        .map(|(i, n)| a.join(n, 2000 - 100 * i as u32).unwrap())
        .collect();
    a.start().unwrap();
    (a, ids)
}

/// The opponents of game `g`, sorted.
fn pair_of(a: &Arena, g: usize) -> (PlayerId, PlayerId) {
    let game = &a.games()[g];
    (game.first.min(game.second), game.first.max(game.second))
}

/// Free players meet by rank; after a game, a player waits for someone else rather than meet
/// their last opponent again: with only that opponent free, both wait.
#[test]
fn free_players_are_paired_without_an_immediate_rematch_when_another_waits() {
    let (mut a, ids) = arena(&["A", "B", "C", "D"]);
    let games = a.pair_free().unwrap();
    assert_eq!(games, vec![0, 1]);
    assert_eq!(pair_of(&a, 0), (ids[0], ids[1]));
    assert_eq!(pair_of(&a, 1), (ids[2], ids[3]));
    // A beats B.
    let seat_a = if a.games()[0].first == ids[0] {
        Seat::First
    } else {
        Seat::Second
    };
    a.record(0, GameResult::Win(seat_a)).unwrap();
    // C and D finish too: all four free; A (2 points) is first and must not meet B again.
    a.record(1, GameResult::Draw).unwrap();
    let games = a.pair_free().unwrap();
    assert_eq!(games, vec![2, 3]);
    assert_eq!(pair_of(&a, 2), (ids[0], ids[2]));
    assert_eq!(pair_of(&a, 3), (ids[1], ids[3]));
    // A and C are free while B and D play: each is the other's last opponent, so they wait.
    let seat_a = if a.games()[2].first == ids[0] {
        Seat::First
    } else {
        Seat::Second
    };
    a.record(2, GameResult::Win(seat_a)).unwrap();
    assert_eq!(a.pair_free().unwrap(), Vec::<usize>::new());
    // B and D draw. Scores: A 2+2 = 4, D 1+1 = 2, B 0+1 = 1, C 1+0 = 1 (B above C by seed).
    // A meets the best ranked who was not their last opponent, D; then B meets C.
    a.record(3, GameResult::Draw).unwrap();
    assert_eq!(a.pair_free().unwrap(), vec![4, 5]);
    assert_eq!(pair_of(&a, 4), (ids[0], ids[3]));
    assert_eq!(pair_of(&a, 5), (ids[1], ids[2]));
}

/// Scores, the fire, standings; a result recorded twice is refused, and nothing is paired
/// before the start or after the finish.
#[test]
fn standings_count_streaks_and_results_are_recorded_once() {
    let mut a = Arena::new("A", Variant::American, OpeningRule::StartPosition, 1).unwrap();
    let p = a.join("P", 0).unwrap();
    let q = a.join("Q", 0).unwrap();
    assert!(matches!(
        a.pair_free(),
        Err(TournamentError::NotStarted { .. })
    ));
    a.start().unwrap();
    // Two active players only: they meet again and again (lila's exception); P wins three times.
    for k in 0..3 {
        let g = a.pair_free().unwrap();
        assert_eq!(g, vec![k]);
        let seat = if a.games()[k].first == p {
            Seat::First
        } else {
            Seat::Second
        };
        a.record(k, GameResult::Win(seat)).unwrap();
        assert_eq!(
            a.record(k, GameResult::Draw),
            Err(TournamentError::NoSuchArenaGame(k))
        );
    }
    // P: 2 + 2 + 4 = 8 and on fire; Q: 0.
    let s = a.standings();
    assert_eq!(
        (s[0].player, s[0].score, s[0].games, s[0].on_fire),
        (p, 8, 3, true)
    );
    assert_eq!((s[1].player, s[1].score, s[1].on_fire), (q, 0, false));
    // Moving first alternates between the two.
    let firsts: Vec<PlayerId> = a.games().iter().map(|g| g.first).collect();
    assert!(firsts.windows(2).all(|w| w[0] != w[1]), "{firsts:?}");
    a.finish().unwrap();
    assert_eq!(a.phase(), Phase::Finished);
    assert!(matches!(
        a.pair_free(),
        Err(TournamentError::Finished { .. })
    ));
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(serde_json::from_str::<Arena>(&json).unwrap(), a);
}

/// Equal scores are ranked by performance (lichess's tie-break): of A 2000, B 1900, C 1800,
/// D 1700 the first pairing is A v B and C v D; both drawn, everyone has 1 point and the
/// performance is the opponent's rating: B 2000, A 1900, D 1800, C 1700 — B above A and D above
/// C although seeded lower. A player who left is not paired; back, they keep their points.
#[test]
fn ties_go_to_the_better_performance_and_a_player_who_left_may_rejoin() {
    let (mut a, ids) = arena(&["A", "B", "C", "D"]);
    let (pa, pb, pc, pd) = (ids[0], ids[1], ids[2], ids[3]);
    let games = a.pair_free().unwrap();
    let pairs: Vec<[PlayerId; 2]> = games
        .iter()
        .map(|g| {
            let mut p = [a.games()[*g].first, a.games()[*g].second];
            p.sort();
            p
        })
        .collect();
    assert_eq!(pairs, vec![[pa, pb], [pc, pd]]);
    for g in games {
        a.record(g, GameResult::Draw).unwrap();
    }
    let s = a.standings();
    let order: Vec<(PlayerId, u32, Option<u32>)> = s
        .iter()
        .map(|l| (l.player, l.score, l.performance))
        .collect();
    assert_eq!(
        order,
        vec![
            (pb, 1, Some(2000)),
            (pa, 1, Some(1900)),
            (pd, 1, Some(1800)),
            (pc, 1, Some(1700)),
        ]
    );
    assert_eq!(s[0].points, vec![1]);
    // C leaves: A meets D (no immediate rematch), B waits, C is not paired.
    a.withdraw(pc).unwrap();
    let next = a.pair_free().unwrap();
    assert_eq!(next.len(), 1);
    let g = &a.games()[next[0]];
    assert!(g.first != pc && g.second != pc, "{g:?}");
    a.rejoin(pc).unwrap();
    assert!(!a.players()[pc.0 as usize].withdrawn);
    assert_eq!(a.rejoin(pc), Err(TournamentError::NoSuchPlayer(pc)));
    // Back: C is paired with the one left waiting, and kept their point.
    let again = a.pair_free().unwrap();
    assert_eq!(again.len(), 1);
    let g = &a.games()[again[0]];
    assert!(g.first == pc || g.second == pc, "{g:?}");
    assert_eq!(
        a.standings().iter().find(|l| l.player == pc).unwrap().score,
        1
    );
}

/// A game recorded as short scores nothing and is no step of a streak: P wins, wins short, then
/// draws — counted W D = 2 + 1 = 3 (were the short win counted, W W D = 2 + 2 + 2 = 6); Q's
/// short loss is no loss either.
#[test]
fn a_short_game_scores_nothing_and_is_no_step_of_a_streak() {
    let mut a = Arena::new("A", Variant::American, OpeningRule::StartPosition, 1).unwrap();
    let p = a.join("P", 1500).unwrap();
    let q = a.join("Q", 1500).unwrap();
    a.start().unwrap();
    let seat_of = |a: &Arena, k: usize, who: PlayerId| {
        if a.games()[k].first == who {
            Seat::First
        } else {
            Seat::Second
        }
    };
    assert_eq!(a.pair_free().unwrap(), vec![0]);
    a.record(0, GameResult::Win(seat_of(&a, 0, p))).unwrap();
    assert_eq!(a.pair_free().unwrap(), vec![1]);
    a.record_short(1, GameResult::Win(seat_of(&a, 1, p)))
        .unwrap();
    assert!(a.games()[1].short && !a.games()[0].short);
    assert_eq!(
        a.record_short(1, GameResult::Draw),
        Err(TournamentError::NoSuchArenaGame(1))
    );
    assert_eq!(a.pair_free().unwrap(), vec![2]);
    a.record(2, GameResult::Draw).unwrap();
    let s = a.standings();
    let line = |who: PlayerId| s.iter().find(|l| l.player == who).unwrap().clone();
    assert_eq!(
        (
            line(p).score,
            line(p).games,
            line(p).points.clone(),
            line(p).on_fire
        ),
        (3, 2, vec![2, 1], false)
    );
    // Q: L, D counted: 0 + 1; performance (1500 - 500 + 1500) / 2 = 1250.
    assert_eq!(
        (line(q).score, line(q).games, line(q).performance),
        (1, 2, Some(1250))
    );
    assert_eq!(a.history(q), vec![Loss, Draw]);
    assert_eq!(a.games_of(p), 3);
}

/// `pair_free_with`: a player paired `max_games` times, or held back, is not paired; the others
/// are, and the capped player keeps their line in the standings.
#[test]
fn a_player_at_the_games_cap_or_held_back_is_not_paired() {
    let (mut a, ids) = arena(&["A", "B", "C"]);
    // A and B meet (C waits); then A is held: B and C meet.
    assert_eq!(a.pair_free_with(1, &[]).unwrap(), vec![0]);
    a.record(0, GameResult::Draw).unwrap();
    assert_eq!(a.pair_free_with(2, &[ids[0]]).unwrap(), vec![1]);
    assert_eq!(pair_of(&a, 1), (ids[1], ids[2]));
    a.record(1, GameResult::Draw).unwrap();
    // Cap 1: A and B have played 1 and 2 games, C 1: nobody is free but C.
    assert_eq!(a.pair_free_with(1, &[]).unwrap(), Vec::<usize>::new());
    // Cap 2: A and C (1 game each) meet; B (2) is not paired.
    assert_eq!(a.pair_free_with(2, &[]).unwrap(), vec![2]);
    assert_eq!(pair_of(&a, 2), (ids[0], ids[2]));
    a.record(2, GameResult::Draw).unwrap();
    assert_eq!(a.pair_free_with(2, &[]).unwrap(), Vec::<usize>::new());
    assert_eq!(a.standings().len(), 3);
    assert!(a.standings().iter().all(|l| l.games == 2 && l.score == 2));
}

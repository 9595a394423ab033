//! Matches of two games: game points, match points, forfeits, byes; the crosstable.

mod common;
use common::{play, started};
use crown_tournament::{
    records, standings, Format, GameResult, Match, MatchOutcome, Pairing, PlayerId, Round, Scoring,
    Seat,
};

fn with(games: [GameResult; 2]) -> Match {
    let mut m = Match::new(1, PlayerId(0), PlayerId(1));
    m.games = [Some(games[0]), Some(games[1])];
    m
}

/// Game points 2/1/0 (APCA rule 32's 4/2/0 halved), match points 2/1/0 from the game points.
#[test]
fn a_match_is_won_on_game_points_and_tied_when_equal() {
    let s = Scoring::default();
    let (f, sec) = (Seat::First, Seat::Second);
    let m = with([GameResult::Win(f), GameResult::Draw]);
    assert_eq!((m.game_points(f), m.game_points(sec)), (3, 1));
    assert_eq!(m.outcome(), Some(MatchOutcome::Won(f)));
    assert_eq!(
        (m.match_points(f, &s), m.match_points(sec, &s)),
        (Some(2), Some(0))
    );
    let m = with([GameResult::Win(f), GameResult::Win(sec)]);
    assert_eq!(m.outcome(), Some(MatchOutcome::Tied));
    assert_eq!(m.match_points(sec, &s), Some(1));
    let mut half = Match::new(1, PlayerId(0), PlayerId(1));
    half.games[0] = Some(GameResult::Draw);
    assert_eq!((half.outcome(), half.match_points(f, &s)), (None, None));
}

/// A forfeit is a game won by the player present; two double forfeits lose the match for both.
#[test]
fn forfeits_score_for_the_player_present_and_double_forfeits_for_nobody() {
    let s = Scoring::default();
    let (f, sec) = (Seat::First, Seat::Second);
    let m = with([GameResult::Forfeit { absent: sec }, GameResult::Draw]);
    assert_eq!((m.game_points(f), m.game_points(sec)), (3, 1));
    assert!(!GameResult::Forfeit { absent: sec }.is_played());
    let m = with([GameResult::DoubleForfeit, GameResult::DoubleForfeit]);
    assert_eq!(m.outcome(), Some(MatchOutcome::BothLost));
    assert_eq!(
        (m.match_points(f, &s), m.match_points(sec, &s)),
        (Some(0), Some(0))
    );
    // Game 2 is moved first by the second seat: its PDN result is from that player's side.
    assert_eq!(GameResult::Win(sec).pdn_result(2), Some("1-0"));
    assert_eq!(GameResult::Win(sec).pdn_result(1), Some("0-1"));
    assert_eq!(GameResult::Forfeit { absent: f }.pdn_result(1), Some("0-1"));
    assert_eq!(GameResult::DoubleForfeit.pdn_result(1), Some("*"));
    assert_eq!(GameResult::Draw.pdn_result(3), None);
}

/// A bye scores 2 match points and 2 game points by default; its Buchholz is the player's own
/// match points.
#[test]
fn a_bye_scores_a_match_win_and_one_game() {
    let round = Round {
        number: 1,
        opening: crown_tournament::draw_opening(
            &crown_tournament::OpeningRule::StartPosition,
            crown_core::Variant::American,
            0,
            1,
        )
        .unwrap(),
        pairings: vec![
            Pairing::Match(with([GameResult::Draw, GameResult::Draw])),
            Pairing::Bye(PlayerId(2)),
        ],
    };
    let ids = [PlayerId(0), PlayerId(1), PlayerId(2)];
    let s = Scoring::default();
    let r = records(&ids, std::slice::from_ref(&round), &s);
    assert_eq!(
        (
            r[&ids[2]].match_points,
            r[&ids[2]].game_points,
            r[&ids[2]].byes
        ),
        (2, 2, 1)
    );
    let st = standings(&ids, &[round], &s);
    // P2 first on 2 mp; Buchholz = its own 2 for the bye. P0 and P1: 1 mp, Buchholz 1 each.
    assert_eq!((st[0].player, st[0].buchholz), (ids[2], 2));
    assert_eq!(
        (st[1].player, st[1].buchholz, st[1].sonneborn_berger),
        (ids[0], 1, 1)
    );
}

/// The crosstable of a 3-player round robin: B beat C 4-0, A and B drew 2-2, A beat C 3-1;
/// each had a bye (2 mp, 2 gp). B: mp 2+2+1 = 5, gp 2+4+2 = 8; A: mp 2+1+2 = 5, gp 2+2+3 = 7,
/// so B is first on game points; C: mp 2, gp 2+0+1 = 3. Buchholz: B = A 5 + C 2 + own 5 (bye)
/// = 12, A = 5 + 2 + 5 = 12, C = 5 + 5 + 2 = 12. Sonneborn–Berger: B = 2×2 (C) + 1×5 (A) = 9,
/// A = 1×5 (B) + 2×2 (C) = 9, C = 0.
#[test]
fn the_crosstable_shows_each_match_from_each_side() {
    let (mut t, ids) = started(Format::RoundRobin, &["A", "B", "C"]);
    t.pair_round(1).unwrap();
    play(&mut t, 1, ids[1], ids[2], "WW");
    t.pair_round(2).unwrap();
    play(&mut t, 2, ids[0], ids[1], "DD");
    t.pair_round(3).unwrap();
    play(&mut t, 3, ids[0], ids[2], "WD");
    let x = t.crosstable();
    let order: Vec<PlayerId> = x.rows.iter().map(|r| r.standing.player).collect();
    assert_eq!(order, vec![ids[1], ids[0], ids[2]]);
    assert_eq!(x.rows[0].cells, vec![vec![], vec![(2, 2)], vec![(4, 0)]]);
    assert_eq!(x.rows[2].cells, vec![vec![(0, 4)], vec![(1, 3)], vec![]]);
    assert!(x.rows.iter().all(|r| r.byes == 1));
    let names = ["A", "B", "C"];
    let text = x.to_text(|p| names[p.0 as usize].to_string());
    let expected = [
        "  #  Name   1   2   3  Bye  MP  GP  BH  SB",
        "  1  B      X 2-2 4-0    1   5   8  12   9",
        "  2  A    2-2   X 3-1    1   5   7  12   9",
        "  3  C    0-4 1-3   X    1   2   3  12   0",
    ];
    assert_eq!(text, expected.join("\n") + "\n");
}

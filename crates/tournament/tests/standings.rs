//! Standings and tie-breaks checked against values computed by hand (the computation is in each
//! test's comment), from the scoring documented in the crate: games 2/1/0, matches 2/1/0, a bye 2
//! match points and 2 game points, Buchholz with a bye counted as the player's own match points.

mod common;
use common::{pairs_of, play, started};
use crown_tournament::{Format, Standing};

fn line(s: &[Standing], rank: u32) -> (u32, u32, u32, u32, u32, Option<u32>) {
    let l = &s[rank as usize - 1];
    (
        l.player.0,
        l.match_points,
        l.game_points,
        l.buchholz,
        l.sonneborn_berger,
        l.direct_encounter,
    )
}

/// A 4-player Swiss of 3 rounds, A B C D seeded in that order.
///
/// Round 1 (all on 0, top half meets bottom half): A–C, B–D. A wins both games (A 4 gp, 2 mp;
/// C 0, 0); B and D win one game each (2 gp, 1 mp each).
/// Round 2: groups {A 2}, {B 1, D 1}, {C 0}. A floats down to the 1-point group and meets its
/// highest player B (B and A moved first in game 1 of round 1 on different boards, boards
/// alternate, so no colour conflict; D would conflict with A): A–B, then D–C. A–B two draws
/// (2 gp, 1 mp each); D beats C twice (D 4 gp, 2 mp).
/// Round 3: A 3, D 3, B 2, C 0; A has met C and B, so A–D, and B–C. D wins game 1 and draws game 2
/// (D 3 gp, A 1 gp: D 2 mp); C wins both games against B (C 4 gp, 2 mp).
///
/// Totals: A mp 2+1+0 = 3, gp 4+2+1 = 7; B mp 1+1+0 = 2, gp 2+2+0 = 4; C mp 0+0+2 = 2,
/// gp 0+0+4 = 4; D mp 1+2+2 = 5, gp 2+4+3 = 9.
/// Buchholz (opponents' mp): A = C 2 + B 2 + D 5 = 9; B = D 5 + A 3 + C 2 = 10;
/// C = A 3 + D 5 + B 2 = 10; D = B 2 + C 2 + A 3 = 7.
/// Sonneborn–Berger (mp earned × opponent's mp): A = 2×2 (C) + 1×2 (B) + 0 = 6;
/// B = 1×5 (D) + 1×3 (A) + 0 = 8; C = 0 + 0 + 2×2 (B) = 4; D = 1×2 (B) + 2×2 (C) + 2×3 (A) = 12.
/// Order: D 5; A 3; B and C on 2 mp and 4 gp and Buchholz 10, so Sonneborn–Berger puts B (8)
/// above C (4) although C beat B. Nobody is tied on all of 1–4: no direct encounter.
#[test]
fn four_player_swiss_of_three_rounds_has_the_hand_computed_standings() {
    let (mut t, ids) = started(Format::Swiss { rounds: 3 }, &["A", "B", "C", "D"]);
    let [a, b, c, d] = [ids[0], ids[1], ids[2], ids[3]];
    t.pair_round(1).unwrap();
    assert_eq!(pairs_of(&t, 1), (vec![(a, c), (b, d)], None));
    play(&mut t, 1, a, c, "WW");
    play(&mut t, 1, b, d, "WL");
    t.pair_round(2).unwrap();
    assert_eq!(pairs_of(&t, 2), (vec![(a, b), (c, d)], None));
    play(&mut t, 2, a, b, "DD");
    play(&mut t, 2, d, c, "WW");
    t.pair_round(3).unwrap();
    assert_eq!(pairs_of(&t, 3), (vec![(a, d), (b, c)], None));
    play(&mut t, 3, d, a, "WD");
    play(&mut t, 3, c, b, "WW");
    t.finish().unwrap();
    let s = t.standings();
    assert_eq!(line(&s, 1), (d.0, 5, 9, 7, 12, None));
    assert_eq!(line(&s, 2), (a.0, 3, 7, 9, 6, None));
    assert_eq!(line(&s, 3), (b.0, 2, 4, 10, 8, None));
    assert_eq!(line(&s, 4), (c.0, 2, 4, 10, 4, None));
}

/// A 5-player round robin (players 1–5 by seed; each has one bye: 2 mp, 2 gp). Match results in
/// game points: 1–2 3-1, 1–3 4-0, 1–4 3-1, 1–5 2-2, 2–3 3-1, 2–4 2-2, 2–5 1-3, 3–4 0-4, 3–5 3-1,
/// 4–5 3-1.
///
/// mp (matches + bye): P1 2+2+2+1 + 2 = 9; P2 0+2+1+0 + 2 = 5; P3 0+0+0+2 + 2 = 4;
/// P4 0+1+2+2 + 2 = 7; P5 1+2+0+0 + 2 = 5.
/// gp: P1 3+4+3+2 + 2 = 14; P2 1+3+2+1 + 2 = 9; P3 0+1+0+3 + 2 = 6; P4 1+2+4+3 + 2 = 12;
/// P5 2+3+1+1 + 2 = 9.
/// Buchholz: in a round robin everyone met everyone else, and the bye adds the player's own mp,
/// so every Buchholz is the sum of all mp: 9+5+4+7+5 = 30.
/// Sonneborn–Berger: P1 = 2×5 + 2×4 + 2×7 + 1×5 = 37; P4 = 1×5 (P2) + 2×4 (P3) + 2×5 (P5) = 23;
/// P5 = 1×9 (P1) + 2×5 (P2) = 19; P2 = 2×4 (P3) + 1×7 (P4) = 15; P3 = 2×5 (P5) = 10.
/// Order: P1 9; P4 7; P5 and P2 on 5 mp, 9 gp, Buchholz 30: Sonneborn–Berger puts P5 (19) first;
/// P3 4.
#[test]
fn five_player_round_robin_has_the_hand_computed_standings() {
    let (mut t, ids) = started(Format::RoundRobin, &["P1", "P2", "P3", "P4", "P5"]);
    // (i, j, i's games) with players by seed number.
    let table = [
        (1, 2, "WD"),
        (1, 3, "WW"),
        (1, 4, "DW"),
        (1, 5, "DD"),
        (2, 3, "WD"),
        (2, 4, "DD"),
        (2, 5, "LD"),
        (3, 4, "LL"),
        (3, 5, "DW"),
        (4, 5, "WD"),
    ];
    assert_eq!(t.total_rounds(), 5);
    for round in 1..=5 {
        t.pair_round(round).unwrap();
        let (pairs, bye) = pairs_of(&t, round);
        assert_eq!(pairs.len(), 2);
        assert!(bye.is_some());
        for (p, q) in pairs {
            let (i, j, games) = table
                .iter()
                .find(|(i, j, _)| ids[i - 1] == p && ids[j - 1] == q)
                .unwrap();
            play(&mut t, round, ids[i - 1], ids[j - 1], games);
        }
    }
    t.finish().unwrap();
    let s = t.standings();
    let n = |k: usize| ids[k - 1].0;
    assert_eq!(line(&s, 1), (n(1), 9, 14, 30, 37, None));
    assert_eq!(line(&s, 2), (n(4), 7, 12, 30, 23, None));
    assert_eq!(line(&s, 3), (n(5), 5, 9, 30, 19, None));
    assert_eq!(line(&s, 4), (n(2), 5, 9, 30, 15, None));
    assert_eq!(line(&s, 5), (n(3), 4, 6, 30, 10, None));
}

/// A 4-player round robin where P2 and P4 tie on everything but their own match, which P4 won.
/// Results in game points: 1–2 4-0, 1–3 4-0, 1–4 3-1, 2–3 4-0, 2–4 1-3, 3–4 3-1.
/// mp: P1 6; P2 0+2+0 = 2; P3 0+0+2 = 2; P4 0+2+0 = 2. gp: P1 11; P2 0+4+1 = 5; P3 0+0+3 = 3;
/// P4 1+3+1 = 5. Buchholz: P2 = 6+2+2 = 10, P4 = 6+2+2 = 10. Sonneborn–Berger: P2 = 2×2 (P3) = 4,
/// P4 = 2×2 (P2) = 4. P2 and P4 are equal on 1–4 and met: direct encounter P4 2, P2 0, so P4
/// ranks above P2 despite the lower seed.
#[test]
fn direct_encounter_orders_players_equal_on_every_other_tie_break() {
    let (mut t, ids) = started(Format::RoundRobin, &["P1", "P2", "P3", "P4"]);
    let table = [
        (1, 2, "WW"),
        (1, 3, "WW"),
        (1, 4, "WD"),
        (2, 3, "WW"),
        (2, 4, "LD"),
        (3, 4, "WD"),
    ];
    for round in 1..=3 {
        t.pair_round(round).unwrap();
        for (p, q) in pairs_of(&t, round).0 {
            let (i, j, games) = table
                .iter()
                .find(|(i, j, _)| ids[i - 1] == p && ids[j - 1] == q)
                .unwrap();
            play(&mut t, round, ids[i - 1], ids[j - 1], games);
        }
    }
    let s = t.standings();
    let n = |k: usize| ids[k - 1].0;
    assert_eq!(line(&s, 1), (n(1), 6, 11, 6, 12, None));
    assert_eq!(line(&s, 2), (n(4), 2, 5, 10, 4, Some(2)));
    assert_eq!(line(&s, 3), (n(2), 2, 5, 10, 4, Some(0)));
    assert_eq!(line(&s, 4), (n(3), 2, 3, 10, 4, None));
}

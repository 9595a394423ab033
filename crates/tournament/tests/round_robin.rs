//! Round robin by the Berger tables.

use crown_tournament::{round_robin_round, round_robin_rounds, Pairing, PlayerId};
use std::collections::HashSet;

fn ids(n: u32) -> Vec<PlayerId> {
    (1..=n).map(PlayerId).collect()
}

/// (first, second) Berger numbers of each match of a round, in board order, and the bye.
fn table(n: u32, round: u32) -> (Vec<(u32, u32)>, Option<u32>) {
    let mut pairs = Vec::new();
    let mut bye = None;
    for p in round_robin_round(&ids(n), round) {
        match p {
            Pairing::Match(m) => pairs.push((m.first.0, m.second.0)),
            Pairing::Bye(b) => bye = Some(b.0),
        }
    }
    (pairs, bye)
}

/// The Berger table for 5 or 6 players of the FIDE Handbook (C.05, Annex 1), white first:
/// Rd 1: 1-6, 2-5, 3-4; Rd 2: 6-4, 5-3, 1-2; Rd 3: 2-6, 3-1, 4-5; Rd 4: 6-5, 1-4, 2-3;
/// Rd 5: 3-6, 4-2, 5-1. Here the first listed moves first in game 1 of the match.
#[test]
fn six_players_follow_the_fide_berger_table() {
    let fide = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ];
    assert_eq!(round_robin_rounds(6), 5);
    for (r, expected) in fide.iter().enumerate() {
        assert_eq!(
            table(6, r as u32 + 1),
            (expected.to_vec(), None),
            "round {}",
            r + 1
        );
    }
}

/// The Berger table for 3 or 4 players (FIDE Handbook C.05 Annex 1): Rd 1: 1-4, 2-3;
/// Rd 2: 4-3, 1-2; Rd 3: 2-4, 3-1.
#[test]
fn four_players_follow_the_fide_berger_table() {
    let fide = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]];
    for (r, expected) in fide.iter().enumerate() {
        assert_eq!(table(4, r as u32 + 1), (expected.to_vec(), None));
    }
    // Three players: player 4 is the dummy, so whoever meets 4 has the bye.
    assert_eq!(table(3, 1), (vec![(2, 3)], Some(1)));
    assert_eq!(table(3, 2), (vec![(1, 2)], Some(3)));
    assert_eq!(table(3, 3), (vec![(3, 1)], Some(2)));
}

/// For 2 to 16 players: every two players meet exactly once, everyone is paired or has the bye
/// once per round, each player has one bye when n is odd, and moves first in game 1 of half of
/// their matches (rounded either way).
#[test]
fn every_pair_meets_once_with_fair_first_moves() {
    for n in 2..=16u32 {
        let rounds = round_robin_rounds(n as usize);
        assert_eq!(rounds, if n % 2 == 0 { n - 1 } else { n });
        let mut met = HashSet::new();
        let mut byes = vec![0u32; n as usize + 1];
        let mut starts = vec![0u32; n as usize + 1];
        let mut played = vec![0u32; n as usize + 1];
        for r in 1..=rounds {
            let (pairs, bye) = table(n, r);
            let mut seen: Vec<u32> = pairs.iter().flat_map(|(a, b)| [*a, *b]).collect();
            seen.extend(bye);
            seen.sort();
            assert_eq!(seen, (1..=n).collect::<Vec<_>>(), "n {n} round {r}");
            for (a, b) in pairs {
                assert!(met.insert((a.min(b), a.max(b))), "n {n}: {a}-{b} twice");
                starts[a as usize] += 1;
                played[a as usize] += 1;
                played[b as usize] += 1;
            }
            if let Some(b) = bye {
                byes[b as usize] += 1;
            }
        }
        assert_eq!(met.len() as u32, n * (n - 1) / 2);
        for p in 1..=n as usize {
            assert_eq!(byes[p], n % 2, "n {n} player {p} byes");
            let m = played[p];
            assert!(
                starts[p] == m / 2 || starts[p] == m.div_ceil(2),
                "n {n} player {p}: first in {} of {m}",
                starts[p]
            );
        }
    }
    assert!(round_robin_round(&ids(4), 4).is_empty());
    assert!(round_robin_round(&ids(4), 0).is_empty());
}

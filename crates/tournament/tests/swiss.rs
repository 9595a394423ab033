//! Swiss pairing: a property test over random tournaments (no repeat pairing, everyone paired or
//! byed once per round, a pairing whenever one exists, byes spread), and the fixed rules.

mod common;
use common::{result_for, started, started_with_seed};
use crown_tournament::{
    pair_swiss, records, Format, Pairing, PlayerId, Scoring, Seat, TournamentError,
};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Whether the players in `mask` can all be paired without a pair of `met` (an exhaustive check,
/// independent of the pairing code: try every partner of the lowest player, memoised by set).
fn pairable(mask: u32, met: &HashSet<(usize, usize)>, memo: &mut HashMap<u32, bool>) -> bool {
    if mask == 0 {
        return true;
    }
    if let Some(&v) = memo.get(&mask) {
        return v;
    }
    let p = mask.trailing_zeros() as usize;
    let ok = (p + 1..32)
        .filter(|q| mask & (1 << q) != 0)
        .any(|q| !met.contains(&(p, q)) && pairable(mask & !(1 << p) & !(1 << q), met, memo));
    memo.insert(mask, ok);
    ok
}

/// Whether some pairing with the bye to one of `bye_candidates` (or none, for an even field)
/// exists among `n` players.
fn exists(n: usize, met: &HashSet<(usize, usize)>, bye_candidates: &[usize]) -> bool {
    let all = (1u32 << n) - 1;
    let mut memo = HashMap::new();
    if n % 2 == 0 {
        pairable(all, met, &mut memo)
    } else {
        bye_candidates
            .iter()
            .any(|&b| pairable(all & !(1 << b), met, &mut memo))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Random Swiss tournaments of 2 to 16 players and up to n−1 rounds (n for odd n) with random
    /// game results: no two players meet twice, every player is in exactly one match or has the
    /// bye in every round, nobody gets a second bye while someone without one could have had it,
    /// a round is refused only when no pairing without a repeat exists (checked exhaustively), and
    /// in each match the player with the lower colour balance (matches moving first in game 1
    /// minus the others) moves first in game 1.
    #[test]
    fn swiss_never_repeats_and_pairs_everyone_when_possible(
        n in 2usize..=16,
        outcomes in prop::collection::vec(0u8..3, 16 * 16),
        seed in any::<u64>(),
    ) {
        let rounds = if n % 2 == 0 { n - 1 } else { n } as u32;
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let (mut t, ids) = started_with_seed(Format::Swiss { rounds }, &refs, seed);
        let index: HashMap<PlayerId, usize> = ids.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let mut met: HashSet<(usize, usize)> = HashSet::new();
        let mut byes = vec![0u32; n];
        let mut k = 0;
        for round in 1..=rounds {
            let bye_ok: Vec<usize> = {
                let least = *byes.iter().min().unwrap();
                (0..n).filter(|&i| byes[i] == least).collect()
            };
            let balance: HashMap<PlayerId, i32> = records(&ids, t.rounds(), &Scoring::default())
                .into_iter()
                .map(|(p, r)| (p, r.start_balance))
                .collect();
            match t.pair_round(round) {
                Err(TournamentError::NoPairing { .. }) => {
                    let everyone: Vec<usize> = (0..n).collect();
                    prop_assert!(!exists(n, &met, &everyone), "round {round} refused but a pairing exists");
                    break;
                }
                Err(e) => return Err(TestCaseError::fail(format!("round {round}: {e}"))),
                Ok(_) => {}
            }
            let r = t.rounds()[round as usize - 1].clone();
            let mut seen = Vec::new();
            for p in &r.pairings {
                match p {
                    Pairing::Match(m) => {
                        let (a, b) = (index[&m.first], index[&m.second]);
                        // Colour balance: the player who had moved first in game 1 less often
                        // moves first now.
                        prop_assert!(balance[&m.first] <= balance[&m.second], "P{a} first with a higher balance");
                        prop_assert!(met.insert((a.min(b), a.max(b))), "P{a}-P{b} repeated in round {round}");
                        seen.extend([a, b]);
                        for game in 1..=2u8 {
                            let c = ['W', 'D', 'L'][outcomes[k % outcomes.len()] as usize];
                            k += 1;
                            t.record(round, m.board, game, result_for(Seat::First, c)).unwrap();
                        }
                    }
                    Pairing::Bye(b) => {
                        let b = index[b];
                        if !bye_ok.contains(&b) {
                            // A second bye is allowed only when no player with fewer byes could
                            // have had it.
                            let mut before = met.clone();
                            for p in &r.pairings {
                                if let Pairing::Match(m) = p {
                                    let (a, c) = (index[&m.first], index[&m.second]);
                                    before.remove(&(a.min(c), a.max(c)));
                                }
                            }
                            prop_assert!(!exists(n, &before, &bye_ok), "avoidable repeat bye for P{b}");
                        }
                        byes[b] += 1;
                        seen.push(b);
                    }
                }
            }
            seen.sort();
            prop_assert_eq!(seen, (0..n).collect::<Vec<_>>());
        }
    }
}

/// The bye of round 1 of an odd field goes to the lowest-ranked player (the last seed), and in
/// round 2 to the lowest-ranked player who has had none.
#[test]
fn bye_goes_to_the_lowest_ranked_player_without_one() {
    let (mut t, ids) = started(Format::Swiss { rounds: 3 }, &["A", "B", "C", "D", "E"]);
    t.pair_round(1).unwrap();
    let r1 = t.rounds()[0].clone();
    assert_eq!(r1.pairings.last(), Some(&Pairing::Bye(ids[4])));
    // Every game drawn: all on 1 mp except E with the bye's 2; E is ranked first, D is last
    // among those without a bye.
    for m in r1.matches() {
        for g in 1..=2 {
            t.record(1, m.board, g, crown_tournament::GameResult::Draw)
                .unwrap();
        }
    }
    t.pair_round(2).unwrap();
    assert_eq!(t.rounds()[1].pairings.last(), Some(&Pairing::Bye(ids[3])));
}

/// Four players can play three Swiss rounds without a repeat, not four: a tournament of four
/// rounds plays the three a round robin has at the start, and the pairing refuses a fourth round.
#[test]
fn a_round_without_any_new_pairing_is_refused() {
    let mut t =
        crown_tournament::Tournament::new(common::settings(Format::Swiss { rounds: 4 })).unwrap();
    for n in ["A", "B", "C", "D"] {
        t.join(n, 0).unwrap();
    }
    assert_eq!(t.total_rounds(), 4);
    t.start().unwrap();
    assert_eq!(t.total_rounds(), 3);
    let ids: Vec<PlayerId> = (0..4).map(PlayerId).collect();
    // Every pair has met: A-B, C-D; A-C, B-D; A-D, B-C.
    let mut recs = records(&ids, &[], &Scoring::default());
    for (a, b) in [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)] {
        recs.get_mut(&ids[a]).unwrap().opponents.push(ids[b]);
        recs.get_mut(&ids[b]).unwrap().opponents.push(ids[a]);
    }
    assert!(matches!(
        pair_swiss(&ids, &recs, 1, 4),
        Err(TournamentError::NoPairing { round: 4, .. })
    ));
}

/// The pairing is a function of the records and the seed: equal inputs, equal pairings; and in
/// round 1 the seed's lot decides who moves first on board 1, the boards alternating.
#[test]
fn pairing_is_deterministic_and_round_one_colours_alternate_by_board() {
    let ids: Vec<PlayerId> = (0..8).map(PlayerId).collect();
    let recs = BTreeMap::new();
    for seed in 0..20u64 {
        let a = pair_swiss(&ids, &recs, seed, 1).unwrap();
        assert_eq!(a, pair_swiss(&ids, &recs, seed, 1).unwrap());
        // Top half against bottom half: 1-5, 2-6, 3-7, 4-8 (ids 0-4, 1-5, 2-6, 3-7).
        let firsts: Vec<bool> = a
            .iter()
            .enumerate()
            .map(|(i, p)| match p {
                Pairing::Match(m) => {
                    let pair = (m.first.0.min(m.second.0), m.first.0.max(m.second.0));
                    assert_eq!(pair, (i as u32, i as u32 + 4));
                    m.first.0 < 4
                }
                Pairing::Bye(_) => unreachable!(),
            })
            .collect();
        assert!(firsts.windows(2).all(|w| w[0] != w[1]), "{firsts:?}");
    }
}

/// The largest field, 64 players, plays 12 rounds with results drawn from a seeded generator:
/// each round pairs everyone without a repeat (the search's remembered sets keep it quick).
#[test]
fn sixty_four_players_pair_for_twelve_rounds() {
    let names: Vec<String> = (0..64).map(|i| format!("P{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (mut t, _) = started(Format::Swiss { rounds: 12 }, &refs);
    let mut rng = crown_core::rng::Rng::new(42);
    let mut met = HashSet::new();
    for round in 1..=12 {
        t.pair_round(round).unwrap();
        let r = t.rounds()[round as usize - 1].clone();
        assert_eq!(r.matches().count(), 32);
        for m in r.matches() {
            assert!(met.insert((m.first.min(m.second), m.first.max(m.second))));
            for g in 1..=2 {
                let c = ['W', 'D', 'L'][rng.index(3)];
                t.record(round, m.board, g, result_for(Seat::First, c))
                    .unwrap();
            }
        }
    }
}

//! Standings of a Swiss or a round robin and their tie-breaks, in this order:
//!
//! 1. **Match points** (`matches.rs`: 2 a match won, 1 tied, 0 lost; a bye 2).
//! 2. **Game points** (`result.rs`: 2 a game won, 1 drawn, 0 lost; a bye 2).
//! 3. **Buchholz**: the sum of the final match points of every opponent of a complete match. A
//!    bye counts as a virtual opponent with the player's own final match points (so a bye neither
//!    helps nor hurts the player against the field; FIDE's tie-break regulations C.07 likewise
//!    replace an unplayed round by a value from the player's own score).
//! 4. **Sonneborn–Berger**: for every complete match, the match points the player earned in it
//!    times the opponent's final match points (2 × a beaten opponent's points, 1 × a tied one's,
//!    nothing for a loss or a bye) — the chess rule in match points.
//! 5. **Direct encounter**: among players still equal on 1–4, when every two of them have met in
//!    a complete match, the match points each earned in those matches (FIDE C.07: used only when
//!    all the tied players met); otherwise not applied.
//! 6. The seed (`player::seed_order`) separates players equal on everything.
//!
//! Only complete matches count (a round in progress adds its byes and nothing else).

use crate::matches::{Round, Scoring};
use crate::player::PlayerId;
use crate::record::{records, PlayerRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The place, from 1 (distinct for every player: the seed decides last).
    pub rank: u32,
    /// The player.
    pub player: PlayerId,
    /// Match points.
    pub match_points: u32,
    /// Game points.
    pub game_points: u32,
    /// Buchholz, in match points.
    pub buchholz: u32,
    /// Sonneborn–Berger, in match points × match points.
    pub sonneborn_berger: u32,
    /// Direct encounter: the match points earned against the players tied with this one, when it
    /// applies (see the module documentation); `None` otherwise.
    pub direct_encounter: Option<u32>,
    /// Matches complete, byes included.
    pub played: u32,
}

/// The standings of `seeded` (every player of the tournament, in seed order; withdrawn players
/// keep their place) after `rounds`, under `scoring`, best first.
pub fn standings(seeded: &[PlayerId], rounds: &[Round], scoring: &Scoring) -> Vec<Standing> {
    let recs = records(seeded, rounds, scoring);
    let mp = |p: &PlayerId| recs.get(p).map_or(0, |r| r.match_points);
    let mut lines: Vec<Standing> = seeded
        .iter()
        .map(|p| {
            let r = &recs[p];
            let buchholz =
                r.matches.iter().map(|(o, _)| mp(o)).sum::<u32>() + r.byes * r.match_points;
            let sonneborn_berger = r.matches.iter().map(|(o, earned)| earned * mp(o)).sum();
            Standing {
                rank: 0,
                player: *p,
                match_points: r.match_points,
                game_points: r.game_points,
                buchholz,
                sonneborn_berger,
                direct_encounter: None,
                played: r.matches.len() as u32 + r.byes,
            }
        })
        .collect();
    let key = |s: &Standing| {
        (
            s.match_points,
            s.game_points,
            s.buchholz,
            s.sonneborn_berger,
        )
    };
    // Stable: equal keys keep the seed order.
    lines.sort_by_key(|l| std::cmp::Reverse(key(l)));
    let mut start = 0;
    while start < lines.len() {
        let end = (start..lines.len())
            .find(|&i| key(&lines[i]) != key(&lines[start]))
            .unwrap_or(lines.len());
        if end - start > 1 {
            direct_encounter(&mut lines[start..end], &recs);
        }
        start = end;
    }
    for (i, line) in lines.iter_mut().enumerate() {
        line.rank = i as u32 + 1;
    }
    lines
}

/// Orders a group of tied players by direct encounter when all of them have met.
fn direct_encounter(group: &mut [Standing], recs: &BTreeMap<PlayerId, PlayerRecord>) {
    let ids: Vec<PlayerId> = group.iter().map(|s| s.player).collect();
    let met = |a: &PlayerId, b: &PlayerId| recs[a].matches.iter().any(|(o, _)| o == b);
    let all_met = ids
        .iter()
        .enumerate()
        .all(|(i, a)| ids[i + 1..].iter().all(|b| met(a, b)));
    if !all_met {
        return;
    }
    for line in group.iter_mut() {
        let earned = recs[&line.player]
            .matches
            .iter()
            .filter(|(o, _)| ids.contains(o))
            .map(|(_, e)| e)
            .sum();
        line.direct_encounter = Some(earned);
    }
    group.sort_by_key(|l| std::cmp::Reverse(l.direct_encounter));
}

//! Swiss pairing of two-game matches, modelled on FIDE's Dutch system (Handbook C.04.3) as lichess
//! and club directors use it, simplified for matches:
//!
//! 1. **Ranking**: players by match points (highest first), then seed (`player::seed_order`).
//! 2. **Bye** (odd number of players): the lowest-ranked player who has had no bye and whose
//!    removal leaves a pairable field; only when there is none, a player with more byes (fewest
//!    first, lowest-ranked first): at most one bye per player where avoidable.
//! 3. **Pairing**: the highest-ranked unpaired player meets, in order of preference, an opponent
//!    (a) never met before — absolute; (b) who would not push either colour balance (below) to
//!    3 — FIDE's absolute colour criterion, here the first preference since a pairing must be
//!    made; (c) of the nearest score (their own score group first, else the player *floats down*
//!    to the nearest lower group, as an odd group's last player does); (d) without a colour
//!    conflict (both due to move first in game 1); (e) as near as possible to the middle of the
//!    score group (top half meets bottom half). A depth-first search backtracks
//!    over these choices, so a pairing is always found when one exists; the sets of players
//!    already known to be unpairable are remembered (a bitmask of at most [`MAX_SWISS_PLAYERS`]
//!    players), which keeps late rounds quick.
//! 4. **Colours**: in each match the player with the lower colour balance (matches starting
//!    game 1 minus matches not) moves first in game 1; if equal, the one who did not start last
//!    time; if still equal (round 1), a lot drawn from the seed decides for board 1 and the boards
//!    alternate, as FIDE draws the colour of the top seed.
//!
//! The pairing depends only on the records, the seeding and the seed: it is deterministic.

use crate::error::TournamentError;
use crate::matches::{Match, Pairing};
use crate::player::PlayerId;
use crate::record::PlayerRecord;
use crown_core::rng::Rng;
use std::collections::{BTreeMap, HashSet};

/// The most players a Swiss round pairs (the search remembers player sets as 64-bit masks). The
/// search is exhaustive, so its time can grow quickly for large fields where almost every pairing
/// has been played; fields up to about 64 players with fewer rounds than players are the use.
pub const MAX_SWISS_PLAYERS: usize = 64;

/// The pairings of round `round` (from 1) of a Swiss among `entrants` (the active players, in seed
/// order), from their `records` (a player missing from `records` has an empty one) and the
/// tournament's `seed`: the matches by board (the highest-ranked pair on board 1), then the bye.
///
/// # Errors
/// [`TournamentError::NoPairing`]: more than [`MAX_SWISS_PLAYERS`] entrants, or no pairing without
/// a repeat exists (e.g. a fourth round among four players).
pub fn pair_swiss(
    entrants: &[PlayerId],
    records: &BTreeMap<PlayerId, PlayerRecord>,
    seed: u64,
    round: u32,
) -> Result<Vec<Pairing>, TournamentError> {
    let fail = |reason: String| TournamentError::NoPairing { round, reason };
    if entrants.len() > MAX_SWISS_PLAYERS {
        return Err(fail(format!(
            "{} players: a Swiss pairs at most {MAX_SWISS_PLAYERS}",
            entrants.len()
        )));
    }
    let empty = PlayerRecord::default();
    let rec = |p: PlayerId| records.get(&p).unwrap_or(&empty);
    // Ranked: match points, then seed (the entrants' order).
    let mut ranked: Vec<PlayerId> = entrants.to_vec();
    ranked.sort_by_key(|p| std::cmp::Reverse(rec(*p).match_points));
    let field = Field {
        players: ranked.iter().map(|p| rec(*p)).collect(),
        ids: ranked.clone(),
    };
    let all: u64 = if ranked.len() == 64 {
        u64::MAX
    } else {
        (1u64 << ranked.len()) - 1
    };
    let mut search = Search {
        field: &field,
        failed: HashSet::new(),
    };
    let none = || fail("every remaining pairing repeats an earlier one".into());
    let (bye, pairs) = if ranked.len() % 2 == 1 {
        // Fewest byes first, then the lowest-ranked first.
        let mut order: Vec<usize> = (0..ranked.len()).collect();
        order.sort_by_key(|&i| (field.players[i].byes, std::cmp::Reverse(i)));
        order
            .into_iter()
            .find_map(|i| search.pair(all & !(1 << i)).map(|pairs| (Some(i), pairs)))
            .ok_or_else(none)?
    } else {
        (None, search.pair(all).ok_or_else(none)?)
    };
    let lot = Rng::stream(seed, u64::from(round)).below(2) as usize;
    let mut out = Vec::new();
    for (board, (a, b)) in pairs.into_iter().enumerate() {
        let (ra, rb) = (field.players[a], field.players[b]);
        // a is the higher-ranked player of the pair; does a move first in game 1?
        let a_starts = match ra.start_balance.cmp(&rb.start_balance) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => match (ra.last_started, rb.last_started) {
                (Some(x), Some(y)) if x != y => !x,
                (Some(x), None) => !x,
                (None, Some(y)) => y,
                _ => (board + lot) % 2 == 0,
            },
        };
        let (first, second) = if a_starts { (a, b) } else { (b, a) };
        out.push(Pairing::Match(Match::new(
            board as u32 + 1,
            field.ids[first],
            field.ids[second],
        )));
    }
    out.extend(bye.map(|i| Pairing::Bye(field.ids[i])));
    Ok(out)
}

/// The ranked players of one round: ids and records, index = rank.
struct Field<'a> {
    ids: Vec<PlayerId>,
    players: Vec<&'a PlayerRecord>,
}

/// The backtracking search over one field, with the sets already found unpairable.
struct Search<'a> {
    field: &'a Field<'a>,
    failed: HashSet<u64>,
}

impl Search<'_> {
    /// A pairing of the players in `mask` (indices into the field) as (higher, lower) rank pairs
    /// in board order, or `None` when none exists without a repeat.
    fn pair(&mut self, mask: u64) -> Option<Vec<(usize, usize)>> {
        if mask == 0 {
            return Some(Vec::new());
        }
        if self.failed.contains(&mask) {
            return None;
        }
        let p = mask.trailing_zeros() as usize;
        for q in self.candidates(p, mask) {
            if let Some(mut rest) = self.pair(mask & !(1 << p) & !(1 << q)) {
                rest.insert(0, (p, q));
                return Some(rest);
            }
        }
        self.failed.insert(mask);
        None
    }

    /// The opponents `p` may meet among `mask`, best first (see the module documentation).
    fn candidates(&self, p: usize, mask: u64) -> Vec<usize> {
        let f = self.field;
        let me = f.players[p];
        let group: Vec<usize> = (0..f.ids.len())
            .filter(|&i| mask & (1 << i) != 0 && f.players[i].match_points == me.match_points)
            .collect();
        let middle = group.len() / 2;
        let mut out: Vec<(bool, u32, bool, usize, usize)> = (0..f.ids.len())
            .filter(|&q| q != p && mask & (1 << q) != 0)
            .filter(|&q| !me.opponents.contains(&f.ids[q]))
            .map(|q| {
                let them = f.players[q];
                let diff = me.match_points.abs_diff(them.match_points);
                let conflict = colour_due(me) != 0 && colour_due(me) == colour_due(them);
                // Both already two or more matches to the same side: one would reach three.
                let strong = me.start_balance.abs() >= 2
                    && me.start_balance.signum() == them.start_balance.signum()
                    && them.start_balance.abs() >= 2;
                let place = match group.iter().position(|&g| g == q) {
                    Some(at) => at.abs_diff(middle),
                    None => q,
                };
                (strong, diff, conflict, place, q)
            })
            .collect();
        out.sort();
        out.into_iter().map(|c| c.4).collect()
    }
}

/// Which way a player is due in game 1: 1 to move first (they started less often, or not last
/// time), -1 to move second, 0 no preference.
fn colour_due(r: &PlayerRecord) -> i32 {
    match r.start_balance.cmp(&0) {
        std::cmp::Ordering::Less => 1,
        std::cmp::Ordering::Greater => -1,
        std::cmp::Ordering::Equal => match r.last_started {
            Some(true) => -1,
            Some(false) => 1,
            None => 0,
        },
    }
}

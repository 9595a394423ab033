//! Each player's record over the rounds so far: points, opponents, byes and colour history — what
//! the Swiss pairing and the standings read.

use crate::matches::{Pairing, Round, Scoring};
use crate::player::PlayerId;
use crate::result::Seat;
use std::collections::BTreeMap;

/// One player's record over some rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Match points of complete matches and byes (see `matches.rs`).
    pub match_points: u32,
    /// Game points of recorded games and byes (see `result.rs`).
    pub game_points: u32,
    /// Every opponent paired so far, in round order, complete match or not (no pairing repeats).
    pub opponents: Vec<PlayerId>,
    /// Per complete match: the opponent and the match points this player earned in it.
    pub matches: Vec<(PlayerId, u32)>,
    /// The number of byes received.
    pub byes: u32,
    /// Matches in which this player moved first in game 1, minus those in which the opponent did:
    /// the colour balance the Swiss keeps near 0.
    pub start_balance: i32,
    /// Whether this player moved first in game 1 of their last match (`None`: no match yet).
    pub last_started: Option<bool>,
}

/// The records of every player paired in `rounds` (and of each of `players`, empty when unpaired),
/// under `scoring`.
pub fn records(
    players: &[PlayerId],
    rounds: &[Round],
    scoring: &Scoring,
) -> BTreeMap<PlayerId, PlayerRecord> {
    let mut out: BTreeMap<PlayerId, PlayerRecord> = players
        .iter()
        .map(|p| (*p, PlayerRecord::default()))
        .collect();
    for round in rounds {
        for pairing in &round.pairings {
            match pairing {
                Pairing::Bye(p) => {
                    let r = out.entry(*p).or_default();
                    r.byes += 1;
                    r.match_points += scoring.bye_match_points;
                    r.game_points += scoring.bye_game_points;
                }
                Pairing::Match(m) => {
                    for seat in [Seat::First, Seat::Second] {
                        let r = out.entry(m.player(seat)).or_default();
                        let opponent = m.player(seat.other());
                        r.opponents.push(opponent);
                        r.game_points += m.game_points(seat);
                        let started = seat == Seat::First;
                        r.start_balance += if started { 1 } else { -1 };
                        r.last_started = Some(started);
                        if let Some(mp) = m.match_points(seat, scoring) {
                            r.match_points += mp;
                            r.matches.push((opponent, mp));
                        }
                    }
                }
            }
        }
    }
    out
}

//! The players of a tournament: an id, a name, a rating for the seeding, and whether they have
//! withdrawn.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's id within one tournament: the place of their entry in joining order, from 0. An id
/// is never reused, not even after a withdrawal, so that results keep naming the same person.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u32);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One entry of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Their id (see [`PlayerId`]).
    pub id: PlayerId,
    /// The name shown in pairings, standings and the PDN `White`/`Black` tags.
    pub name: String,
    /// The rating used for the seeding (higher first; 0 when unknown), fixed when joining.
    pub rating: u32,
    /// Whether they have withdrawn: never paired again (Swiss, arena); in a round robin their
    /// remaining games are lost by forfeit.
    pub withdrawn: bool,
}

/// The longest player name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// The seeding order of `players`: rating from highest, then joining order (lower id first). This
/// is the order of Berger numbers in a round robin and the initial ranking of a Swiss.
pub fn seed_order(players: &[Player]) -> Vec<PlayerId> {
    let mut order: Vec<&Player> = players.iter().collect();
    order.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.id.cmp(&b.id)));
    order.into_iter().map(|p| p.id).collect()
}

//! Joining and withdrawing: the one rule both kinds of tournament (arena, Swiss/round robin) use
//! to add a player to a roster and to mark one withdrawn.

use crate::error::TournamentError;
use crate::player::{Player, PlayerId, MAX_NAME_CHARS};

/// Add a player named `name` (trimmed) with `rating` to `players`; the new id is the next place.
/// `blocks` says which existing players' names the new one may not repeat (compared in any case).
///
/// # Errors
/// [`TournamentError::BadName`]: empty, longer than [`MAX_NAME_CHARS`], or the name of a player
/// `blocks` keeps.
pub(crate) fn enrol(
    players: &mut Vec<Player>,
    name: &str,
    rating: u32,
    blocks: impl Fn(&Player) -> bool,
) -> Result<PlayerId, TournamentError> {
    let name = name.trim();
    let bad = |reason| {
        Err(TournamentError::BadName {
            name: name.to_string(),
            reason,
        })
    };
    if name.is_empty() {
        return bad("empty");
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return bad("longer than 40 characters");
    }
    let lower = name.to_lowercase();
    if players
        .iter()
        .any(|p| blocks(p) && p.name.to_lowercase() == lower)
    {
        return bad("already taken by a player of this tournament");
    }
    let id = PlayerId(players.len() as u32);
    players.push(Player {
        id,
        name: name.to_string(),
        rating,
        withdrawn: false,
    });
    Ok(id)
}

/// Mark player `id` of `players` withdrawn.
///
/// # Errors
/// [`TournamentError::NoSuchPlayer`], [`TournamentError::AlreadyWithdrawn`].
pub(crate) fn withdraw(players: &mut [Player], id: PlayerId) -> Result<(), TournamentError> {
    let player = players
        .get_mut(id.0 as usize)
        .ok_or(TournamentError::NoSuchPlayer(id))?;
    if player.withdrawn {
        return Err(TournamentError::AlreadyWithdrawn(id));
    }
    player.withdrawn = true;
    Ok(())
}

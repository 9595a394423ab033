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
    let name = checked_name(players, name, blocks)?;
    let id = PlayerId(players.len() as u32);
    players.push(Player {
        id,
        name,
        rating,
        withdrawn: false,
    });
    Ok(id)
}

/// A player named `name` (trimmed) with `rating` takes the withdrawn entry `id` of `players`
/// (its id kept; its name and rating replaced), under [`enrol`]'s rule for the name.
///
/// # Errors
/// [`TournamentError::NoSuchPlayer`] (also for an entry not withdrawn), and those of [`enrol`].
pub(crate) fn reenter(
    players: &mut [Player],
    id: PlayerId,
    name: &str,
    rating: u32,
    blocks: impl Fn(&Player) -> bool,
) -> Result<(), TournamentError> {
    if !players.get(id.0 as usize).is_some_and(|p| p.withdrawn) {
        return Err(TournamentError::NoSuchPlayer(id));
    }
    let name = checked_name(players, name, |p| p.id != id && blocks(p))?;
    let p = &mut players[id.0 as usize];
    (p.name, p.rating, p.withdrawn) = (name, rating, false);
    Ok(())
}

/// `name` trimmed, when a new entry may take it: not empty, at most [`MAX_NAME_CHARS`], and not
/// the name of a player of `players` that `blocks` keeps (in any case).
///
/// # Errors
/// [`TournamentError::BadName`].
fn checked_name(
    players: &[Player],
    name: &str,
    blocks: impl Fn(&Player) -> bool,
) -> Result<String, TournamentError> {
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
    Ok(name.to_string())
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

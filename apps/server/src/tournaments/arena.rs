//! An arena played as live games (docs/api.md, "Arenas"): while it runs, each result is recorded
//! as its game ends and every free player (joined, not paused, not in a game) is paired at once
//! (`crown_tournament::Arena::pair_free`: by score, no immediate rematch); at its end nobody is
//! paired any more and only the games that ended by then count, as on lichess ("in arena
//! tournaments only games that end before time is up count"). A player who loses a game by
//! forfeit for not moving (the abort window) is paused, as lichess pauses an absent player, and
//! comes back by joining again.
//!
//! **Bounds** (an arena farmed by two accounts that resign at once would otherwise grow without
//! end, and with it every game end's work, its view and its PDN): a game that ends with a result
//! before its rated minimum of plies (`--rated-min-plies`, at least 2:
//! [`crate::store::ratings::min_plies_of`]) is **short**: it scores nothing for either player
//! (`Arena::record_short`), and the player who lost it (both after a draw) is not paired for
//! [`SHORT_GAME_WAIT_MS`]; the winner is paired again at once. A game lost by forfeit for absence
//! still counts (the absent player is paused, as above). And no player is paired more than
//! [`max_games_per_player`] times in one arena (2 a minute of its duration, plus 20; a bullet
//! player rarely plays one game a minute): beyond it they stay in the standings, unpaired. So an
//! arena holds at most `players × max_games_per_player / 2` games.
//!
//! Game `k` (from 1, in pairing order) of arena `id` has the id `{id}r0b{k}g1`
//! ([`arena_game_id`]: the tournament games' scheme with round 0), so creating it is idempotent
//! and a pairing is written once, by compare-and-swap ([`Tournaments::change`]), whichever
//! instance makes it: a restart or another instance taking over pairs nobody twice.

use super::play::{game_id, replay, result_of};
use super::{api_error, ArenaPlay, Event, Stored, Tournaments};
use crate::error::Error;
use crate::store::GameRecord;
use crown_core::{Game, Position};
use crown_tournament::{Arena, GameResult, Phase, PlayerId, Seat, TournamentError};
use std::collections::HashMap;

/// How long (ms) the loser of a short game (both players after a short draw) waits before being
/// paired again: 30 s.
pub const SHORT_GAME_WAIT_MS: u64 = 30_000;

/// The most games one player is paired in an arena of `minutes`: `2 × minutes + 20`.
pub fn max_games_per_player(minutes: u32) -> u32 {
    minutes.saturating_mul(2).saturating_add(20)
}

/// The id of game `k` (an index of `Arena::games`, from 0) of arena `id`: `{id}r0b{k+1}g1`.
pub fn arena_game_id(id: &str, k: usize) -> String {
    game_id(id, 0, k as u32 + 1, 1)
}

impl Tournaments {
    /// Bring arena `id` (loaded as `s`, under its lock) up to date: record the results of the
    /// games that ended by its end (pausing a player who forfeited by absence), then finish it
    /// when its end is reached, else pair the free players; then create the games that do not
    /// exist yet. Idempotent, safe to run on every instance at once.
    ///
    /// # Errors
    /// `not_found`, `storage`, `version_conflict`.
    pub(super) async fn advance_arena(&self, id: &str, s: Stored) -> Result<Stored, Error> {
        let Some(play) = s.arena() else {
            return Ok(s);
        };
        if play.arena.phase() != Phase::Running {
            return Ok(s);
        }
        let first = play.arena.variant.first_player();
        let (open, recs) = self.unfinished_games(id, &play.arena).await?;
        let by_id: HashMap<&str, &GameRecord> = recs.iter().map(|r| (r.id.as_str(), r)).collect();
        // (game, result, when it ended, whether it ended short)
        let results: Vec<(usize, GameResult, u64, bool)> = open
            .iter()
            .filter_map(|(k, gid)| {
                let rec = by_id.get(gid.as_str())?;
                let result = result_of(rec, first, 1)?;
                Some((*k, result, rec.updated_ms, ended_short(rec, result)))
            })
            .collect();
        let (_, s) = self
            .change(id, move |s, now| {
                let Event::Arena(a) = &mut s.event else {
                    return Ok(());
                };
                if a.arena.phase() != Phase::Running {
                    return Ok(());
                }
                for (k, r, ended_ms, short) in &results {
                    if *ended_ms > a.ends_ms {
                        // Ended after the arena: does not count.
                        continue;
                    }
                    let recorded = if *short {
                        a.arena.record_short(*k, *r)
                    } else {
                        a.arena.record(*k, *r)
                    };
                    match recorded {
                        Ok(()) if *short => hold_short_loser(a, *k, *r, *ended_ms),
                        Ok(()) => pause_absent(&mut a.arena, *k, *r)?,
                        Err(TournamentError::NoSuchArenaGame(_)) => {}
                        Err(e) => return Err(api_error(e)),
                    }
                }
                if now >= a.ends_ms {
                    a.arena.finish().map_err(api_error)?;
                } else {
                    let held: Vec<PlayerId> = a
                        .held_until_ms
                        .iter()
                        .enumerate()
                        .filter(|(_, until)| **until > now)
                        .map(|(i, _)| PlayerId(i as u32))
                        .collect();
                    let max = max_games_per_player(a.minutes);
                    a.arena.pair_free_with(max, &held).map_err(api_error)?;
                }
                Ok(())
            })
            .await?;
        self.create_arena_games(id, &s).await?;
        Ok(s)
    }

    /// The games of arena `id` without a result, as (index, game id), and the records the store
    /// has of them (a game not created yet has none).
    ///
    /// # Errors
    /// `storage`.
    async fn unfinished_games(
        &self,
        id: &str,
        arena: &Arena,
    ) -> Result<(Vec<(usize, String)>, Vec<GameRecord>), Error> {
        let open: Vec<(usize, String)> = arena
            .games()
            .iter()
            .enumerate()
            .filter(|(_, g)| g.result.is_none())
            .map(|(k, _)| (k, arena_game_id(id, k)))
            .collect();
        let ids: Vec<String> = open.iter().map(|(_, g)| g.clone()).collect();
        let store = self.0.store.clone();
        let recs = crate::blocking::store(move || store.load_many(&ids)).await?;
        Ok((open, recs))
    }

    /// Create the games of running arena `s` in progress that do not exist yet.
    async fn create_arena_games(&self, id: &str, s: &Stored) -> Result<(), Error> {
        let Some(play) = s.arena() else {
            return Ok(());
        };
        if play.arena.phase() != Phase::Running {
            return Ok(());
        }
        let (wanted, existing) = self.unfinished_games(id, &play.arena).await?;
        for (k, gid) in wanted {
            if existing.iter().any(|r| r.id == gid) {
                continue;
            }
            let g = &play.arena.games()[k];
            let start =
                Position::from_fen(play.arena.variant, &g.opening.fen).map_err(Error::storage)?;
            self.create_game(s, gid, start, g.first, g.second).await?;
        }
        Ok(())
    }

    /// The PDN of arena `id` (`crown_tournament::arena_pdn`), read, replayed and written on a
    /// blocking thread of the store lane.
    ///
    /// # Errors
    /// `storage`.
    pub(super) async fn arena_pdn(&self, id: &str, arena: Arena) -> Result<String, Error> {
        let id = id.to_string();
        let store = self.0.store.clone();
        crate::blocking::store(move || {
            let ids: Vec<String> = (0..arena.games().len())
                .map(|k| arena_game_id(&id, k))
                .collect();
            let mut games: HashMap<String, (Game, u64)> = HashMap::new();
            for rec in store.load_many(&ids)? {
                let (gid, created_ms) = (rec.id.clone(), rec.created_ms);
                games.insert(gid, (replay(rec)?.game, created_ms));
            }
            Ok(crown_tournament::arena_pdn(&arena, |k| {
                games.get(&arena_game_id(&id, k)).map(|(g, ms)| (g, *ms))
            }))
        })
        .await
    }
}

/// Whether game `rec`, ended with `result`, ended short: a result reached over the board (not a
/// forfeit for absence) before the game's rated minimum of plies.
fn ended_short(rec: &GameRecord, result: GameResult) -> bool {
    result.is_played() && rec.moves.len() < crate::store::ratings::min_plies_of(&rec.meta)
}

/// Hold back the loser of short arena game `k` (both players after a draw) for
/// [`SHORT_GAME_WAIT_MS`] from `ended_ms`.
fn hold_short_loser(a: &mut ArenaPlay, k: usize, r: GameResult, ended_ms: u64) {
    let g = &a.arena.games()[k];
    let losers = match r {
        GameResult::Win(Seat::First) => vec![g.second],
        GameResult::Win(_) => vec![g.first],
        _ => vec![g.first, g.second],
    };
    for p in losers {
        let i = p.0 as usize;
        if a.held_until_ms.len() <= i {
            a.held_until_ms.resize(i + 1, 0);
        }
        a.held_until_ms[i] = a.held_until_ms[i].max(ended_ms + SHORT_GAME_WAIT_MS);
    }
}

/// Pause the player(s) of arena game `k` who lost result `r` by not playing (lichess pauses an
/// absent player; they come back by joining again).
fn pause_absent(arena: &mut Arena, k: usize, r: GameResult) -> Result<(), Error> {
    let g = &arena.games()[k];
    let absent = match r {
        GameResult::Forfeit {
            absent: Seat::First,
        } => vec![g.first],
        GameResult::Forfeit {
            absent: Seat::Second,
        } => vec![g.second],
        GameResult::DoubleForfeit => vec![g.first, g.second],
        _ => Vec::new(),
    };
    for p in absent {
        match arena.withdraw(p) {
            Ok(()) | Err(TournamentError::AlreadyWithdrawn(_)) => {}
            Err(e) => return Err(api_error(e)),
        }
    }
    Ok(())
}

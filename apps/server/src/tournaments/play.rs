//! A tournament played as live games: the results read from the games of the round in play,
//! the next round paired once it is complete, and its games created — two per match with colours
//! swapped from the round's opening (APCA rule 32), game 2 once game 1 has a result, both seats
//! linked to the players' accounts, rated when the tournament is. A game's id is derived from (tournament, round, board, game)
//! ([`game_id`]), so creating a round's games is idempotent: any instance may do it, again after a
//! crash, and never makes a game twice.
//!
//! The games are made by [`crate::games::Games::create_paired`]; a player takes their seat with
//! [`Tournaments::claim_seat`], which gives a fresh seat token (only its hash is stored, as for
//! every game).

use super::{api_error, Event, Stored, Tournaments};
use crate::error::{Error, ErrorKind};
use crate::games::live::Live;
use crate::games::paired::PairedGame;
use crate::store::{Declared, GameRecord, StoreError};
use crown_core::{Color, Game, Position};
use crown_tournament::{
    GameResult, GameSlot, Pairing, Phase, PlayerId, Seat, Tournament, TournamentError,
};
use std::collections::HashMap;

/// The id of game `game` (1 or 2) of the match on `board` of round `round` of tournament `id`:
/// `{id}r{round}b{board}g{game}` (letters and digits, as every game id).
pub fn game_id(id: &str, round: u32, board: u32, game: u8) -> String {
    format!("{id}r{round}b{board}g{game}")
}

/// The tournament id and slot of a tournament game's id ([`game_id`]); `None` for another game.
pub fn parse_game_id(id: &str) -> Option<(String, GameSlot)> {
    let (tid, rest) = id.split_at_checked(8)?;
    if !tid.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let rest = rest.strip_prefix('r')?;
    let (round, rest) = rest.split_once('b')?;
    let (board, game) = rest.split_once('g')?;
    let slot = GameSlot {
        round: round.parse().ok()?,
        board: board.parse().ok()?,
        game: game.parse().ok()?,
    };
    (game_id(tid, slot.round, slot.board, slot.game) == id).then(|| (tid.to_string(), slot))
}

/// The tournament result of game `game` (1 or 2) of a match, read from its record: `None` while
/// it is played. A finished game's PDN result is seen from the side that moves first (Crown's
/// convention), which is the seat moving first in that game; an aborted game (a side did not
/// make its first move within the abort window, or aborted it) is lost by forfeit by that side
/// (APCA rule 8's forfeiture); a game finished without a result scores as a double forfeit.
pub fn result_of(rec: &GameRecord, first: Color, game: u8) -> Option<GameResult> {
    let mover = Seat::moving_first_in(game)?;
    match rec.status.as_str() {
        "finished" => Some(match rec.result.as_deref() {
            Some("1-0") => GameResult::Win(mover),
            Some("0-1") => GameResult::Win(mover.other()),
            Some("1/2-1/2") => GameResult::Draw,
            _ => GameResult::DoubleForfeit,
        }),
        "aborted" => {
            let absent = match rec.meta.declared {
                Some(Declared::Aborted { color, .. }) if Color::from(color) != first => {
                    mover.other()
                }
                _ => mover,
            };
            Some(GameResult::Forfeit { absent })
        }
        _ => None,
    }
}

/// The games of the last round of `t` still without a result: (board, game, id).
fn open_slots(id: &str, t: &Tournament) -> Vec<(u32, u8, String)> {
    let Some(round) = t.rounds().last() else {
        return Vec::new();
    };
    round
        .matches()
        .flat_map(|m| {
            (1u8..=2)
                .filter(|g| m.games[*g as usize - 1].is_none())
                .map(|g| (m.board, g, game_id(id, round.number, m.board, g)))
        })
        .collect()
}

impl Tournaments {
    /// Bring tournament `id` up to date: record the results of the round's games that ended,
    /// pair the next round once the round is complete (or finish after the last round, or
    /// when a Swiss cannot be paired without a repeat), then create the round's games that do not
    /// exist yet. Idempotent, safe to run on every instance at once. An arena is advanced by
    /// [`Tournaments::advance_arena`].
    ///
    /// # Errors
    /// `not_found`, `storage`, `version_conflict`.
    pub async fn advance(&self, id: &str) -> Result<Stored, Error> {
        let lock = self.lock(id);
        let _held = lock.lock().await;
        let (_, s) = self.load(id).await?;
        let t = match &s.event {
            Event::Rounds(t) => t,
            Event::Arena(_) => return self.advance_arena(id, s).await,
        };
        if t.phase() != Phase::Running {
            return Ok(s);
        }
        let first = t.settings().variant.first_player();
        let round = t.rounds().last().map_or(0, |r| r.number);
        let slots = open_slots(id, t);
        let ids: Vec<String> = slots.iter().map(|(_, _, g)| g.clone()).collect();
        let store = self.0.store.clone();
        let recs = crate::blocking::store(move || store.load_many(&ids)).await?;
        let by_id: HashMap<&str, &GameRecord> = recs.iter().map(|r| (r.id.as_str(), r)).collect();
        let results: Vec<(u32, u8, GameResult)> = slots
            .iter()
            .filter_map(|(b, g, gid)| {
                Some((*b, *g, result_of(by_id.get(gid.as_str())?, first, *g)?))
            })
            .collect();
        let (_, s) = self
            .change(id, move |s, _| {
                let Event::Rounds(t) = &mut s.event else {
                    return Ok(());
                };
                if t.phase() != Phase::Running {
                    return Ok(());
                }
                for (board, game, r) in &results {
                    match t.record(round, *board, *game, *r) {
                        Ok(()) | Err(TournamentError::AlreadyRecorded { .. }) => {}
                        Err(e) => return Err(api_error(e)),
                    }
                }
                while t.rounds().last().is_none_or(|r| r.is_complete()) {
                    let next = t.rounds().len() as u32 + 1;
                    if next > t.total_rounds() {
                        t.finish().map_err(api_error)?;
                        break;
                    }
                    match t.pair_round(next) {
                        Ok(_) => {}
                        Err(TournamentError::NoPairing { .. }) => {
                            t.finish().map_err(api_error)?;
                            break;
                        }
                        Err(e) => return Err(api_error(e)),
                    }
                }
                Ok(())
            })
            .await?;
        self.create_games(id, &s).await?;
        Ok(s)
    }

    /// Create the games of the last round that do not exist yet (see the module documentation).
    async fn create_games(&self, id: &str, s: &Stored) -> Result<(), Error> {
        let Event::Rounds(t) = &s.event else {
            return Ok(());
        };
        let Some(round) = t.rounds().last() else {
            return Ok(());
        };
        if t.phase() != Phase::Running {
            return Ok(());
        }
        let variant = t.settings().variant;
        let start = Position::from_fen(variant, &round.opening.fen).map_err(Error::storage)?;
        let store = self.0.store.clone();
        let wanted: Vec<String> = open_slots(id, t).into_iter().map(|(_, _, g)| g).collect();
        let ids = wanted.clone();
        let existing = crate::blocking::store(move || store.load_many(&ids)).await?;
        for m in round.matches() {
            for g in 1u8..=2 {
                let gid = game_id(id, round.number, m.board, g);
                if !wanted.contains(&gid) || existing.iter().any(|r| r.id == gid) {
                    continue;
                }
                // The two games of a match are played one after the other: game 2 is created
                // once game 1 has a result, so that its first-move window (the abort window)
                // starts when the players can play it, not while game 1 is still going on.
                if g == 2 && m.games[0].is_none() {
                    continue;
                }
                let mover = Seat::moving_first_in(g).unwrap_or(Seat::First);
                self.create_game(s, gid, start, m.player(mover), m.player(mover.other()))
                    .await?;
            }
        }
        Ok(())
    }

    /// Create game `gid` of tournament `s` from `start` between the accounts of players `first`
    /// (who moves first) and `second`, on the tournament's clock, rated when it is.
    pub(super) async fn create_game(
        &self,
        s: &Stored,
        gid: String,
        start: Position,
        first: PlayerId,
        second: PlayerId,
    ) -> Result<(), Error> {
        let account = |p: PlayerId| {
            s.accounts
                .get(p.0 as usize)
                .cloned()
                .ok_or_else(|| Error::storage(format!("game {gid}: a player without account")))
        };
        let (a_first, a_second) = (account(first)?, account(second)?);
        let (black, white) = if s.variant().first_player() == Color::Black {
            (a_first, a_second)
        } else {
            (a_second, a_first)
        };
        self.0
            .games
            .create_paired(PairedGame {
                id: gid,
                start,
                time_control: Some(s.time_control),
                days: None,
                rated: s.rated,
                black,
                white,
            })
            .await
            .map(|_| ())
    }

    /// The player of account `user_id` takes their seat in tournament game `game` of tournament
    /// `id`: a fresh seat token replaces the seat's (the one given before, if any, stops
    /// working). Returns the colour and the token.
    ///
    /// # Errors
    /// `not_found` (no such game in this tournament), `not_your_game` (403: the account plays
    /// neither seat), `storage`.
    pub async fn claim_seat(
        &self,
        id: &str,
        game: &str,
        user_id: &str,
    ) -> Result<(Color, String), Error> {
        if parse_game_id(game).is_none_or(|(t, _)| t != id) {
            return Err(Error::not_found(game));
        }
        let h = match self.0.games.handle(game).await {
            Ok(h) => h,
            // The round is paired but its games may not be created yet (another instance, or
            // this one, is creating them): create what is missing, then look again.
            Err(e) if e.kind == ErrorKind::NotFound => {
                self.advance(id).await?;
                self.0.games.handle(game).await?
            }
            Err(e) => return Err(e),
        };
        self.0.games.claim_account_seat(&h, user_id).await
    }

    /// The PDN of tournament `id` (`crown_tournament::tournament_pdn`): every game with a result
    /// or begun, in round and board order, with `Round` tags `1.1`, `1.2`, … and the `Date` the
    /// game was created.
    ///
    /// # Errors
    /// `not_found`, `storage`.
    pub async fn pdn(&self, id: &str) -> Result<String, Error> {
        let (_, s) = self.load(id).await?;
        let t = match s.event {
            Event::Rounds(t) => t,
            Event::Arena(a) => return self.arena_pdn(id, a.arena).await,
        };
        let mut ids = Vec::new();
        for round in t.rounds() {
            for p in &round.pairings {
                if let Pairing::Match(m) = p {
                    for g in 1u8..=2 {
                        ids.push(game_id(id, round.number, m.board, g));
                    }
                }
            }
        }
        // Read, replayed and written on a blocking thread of the store lane: the replays are
        // CPU work that must not hold an async worker.
        let store = self.0.store.clone();
        crate::blocking::store(move || {
            let mut games: HashMap<GameSlot, (Game, u64)> = HashMap::new();
            for rec in store.load_many(&ids)? {
                if let Some((_, slot)) = parse_game_id(&rec.id) {
                    let created_ms = rec.created_ms;
                    let live = replay(rec)?;
                    games.insert(slot, (live.game, created_ms));
                }
            }
            Ok(crown_tournament::tournament_pdn(&t, |slot| {
                games.get(&slot).map(|(g, ms)| (g, *ms))
            }))
        })
        .await
    }
}

/// Stored game `rec` replayed (for a tournament's PDN); a record that does not replay is
/// [`StoreError::Corrupt`].
pub(super) fn replay(rec: GameRecord) -> Result<Live, StoreError> {
    let id = rec.id.clone();
    Live::from_record(rec).map_err(|e| StoreError::Corrupt {
        id,
        reason: e.to_string(),
    })
}

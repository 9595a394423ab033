//! "Your turn" (docs/api.md, `GET /api/me/turns`): an account's ongoing games — correspondence
//! and live — in which it is the account's move, each with its deadline. Read from the store
//! ([`crate::store::Store::ongoing_of`]), which every instance shares, so a game held by another
//! instance is listed too.

use crate::error::Error;
use crate::games::live::Live;
use crate::games::Games;
use crown_core::Color;
use serde::Serialize;

/// The most ongoing games of one account read for its turns.
pub const MAX_TURNS: usize = 200;

/// One game in which it is the account's move.
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    /// The game's id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The account's colour (the side to move).
    pub color: &'static str,
    /// The opponent: the linked account's name, else the seat's name; `null` when unnamed.
    pub opponent: Option<String>,
    /// The speed class ([`crate::store::Speed`]); `null` for an untimed game.
    pub speed: Option<&'static str>,
    /// A correspondence game's days per move; `null` for other games.
    pub days: Option<u32>,
    /// When the account must have moved (ms since the epoch): a correspondence game's move
    /// deadline, a clock's flag, or the first-move deadline; `null` for an untimed game.
    pub deadline_ms: Option<u64>,
    /// Plies played.
    pub ply: usize,
    /// Whether the game is rated.
    pub rated: bool,
    /// When the game last changed (the opponent's move), ms since the epoch.
    pub updated_ms: u64,
    /// The game's page.
    pub url: String,
    /// Where the account takes its seat (a fresh seat token) when this browser holds none: the
    /// challenge's or the tournament's seat endpoint; `null` for other games (the seat token
    /// given when the game was made or joined).
    pub seat_url: Option<String>,
}

impl Turn {
    /// The turn of account `user_id` in `live`, if it is that account's move there.
    fn of(live: &Live, user_id: &str) -> Option<Turn> {
        let m = &live.rec.meta;
        if live.rec.status != "ongoing" || live.game.outcome().is_some() {
            return None;
        }
        let stm = live.game.position().side_to_move();
        if m.accounts.get(stm).is_none_or(|a| a.user_id != user_id) {
            return None;
        }
        let other: Color = stm.opposite();
        let opponent = m
            .accounts
            .get(other)
            .map(|a| a.name.clone())
            .or_else(|| m.names.get(other).map(str::to_string));
        let id = &live.rec.id;
        let seat_url = if crate::challenges::is_challenge_id(id) {
            Some(format!("/api/challenge/{id}/seat"))
        } else {
            crate::tournaments::play::parse_game_id(id)
                .map(|(t, _)| format!("/api/tournaments/{t}/games/{id}/seat"))
        };
        Some(Turn {
            id: id.clone(),
            variant: live.rec.variant.clone(),
            color: stm.name(),
            opponent,
            speed: m.speed().map(|s| s.name()),
            days: m.days,
            deadline_ms: live.flag_deadline().or(live.abort_deadline()),
            ply: live.rec.moves.len(),
            rated: live.rated(),
            updated_ms: live.rec.updated_ms,
            url: crate::routes::games::join_url(id),
            seat_url,
        })
    }
}

impl Games {
    /// The ongoing games of account `user_id` in which it is its move: the soonest deadline
    /// first, then those without one, the last changed first (of its [`MAX_TURNS`] last changed
    /// ongoing games).
    ///
    /// # Errors
    /// `storage` when the store cannot be read or a game does not replay.
    pub async fn turns(&self, user_id: &str) -> Result<Vec<Turn>, Error> {
        let store = self.store.clone();
        let user = user_id.to_string();
        let recs = crate::blocking::store(move || {
            let ids = store.ongoing_of(&user, MAX_TURNS)?;
            store.load_many(&ids)
        })
        .await?;
        let mut turns = Vec::new();
        for rec in recs {
            let live = Live::from_record(rec).map_err(Error::storage)?;
            turns.extend(Turn::of(&live, user_id));
        }
        turns.sort_by(|a, b| {
            (
                a.deadline_ms.unwrap_or(u64::MAX),
                std::cmp::Reverse(a.updated_ms),
                &a.id,
            )
                .cmp(&(
                    b.deadline_ms.unwrap_or(u64::MAX),
                    std::cmp::Reverse(b.updated_ms),
                    &b.id,
                ))
        });
        Ok(turns)
    }
}

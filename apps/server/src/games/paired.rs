//! A game made by the server between two accounts rather than by a player's request: a
//! tournament's game ([`crate::tournaments::play`]) or an accepted challenge
//! ([`crate::challenges`]). Its id is chosen by the caller (derived from what made it), so
//! creating it is idempotent: any instance may do it, again after a crash, and it exists once.
//! Both seats are linked to the accounts and taken (no open seat); each player then takes a seat
//! token with [`Games::claim_account_seat`] (only its hash is stored, as for every game).

use crate::error::{Error, ErrorKind};
use crate::games::handle::GameHandle;
use crate::games::live::{now_ms, Live};
use crate::games::Games;
use crate::store::{Seat, SeatAccount, TimeControl, DAY_MS};
use crate::token::{random_hex, token_hash};
use crown_core::{Color, Position};
use std::sync::Arc;

/// A game between two accounts, as [`Games::create_paired`] makes it.
#[derive(Clone, Debug)]
pub struct PairedGame {
    /// The game's id (letters and digits, derived from what made it).
    pub id: String,
    /// The start position.
    pub start: Position,
    /// The clock; `None`: untimed, or a correspondence game when `days` is set.
    pub time_control: Option<TimeControl>,
    /// A correspondence game's days per move ([`crate::store::GameMeta::days`]); `None`: not one.
    pub days: Option<u32>,
    /// Whether it is rated (the ratings' pre-game checks then apply).
    pub rated: bool,
    /// Black's account.
    pub black: SeatAccount,
    /// White's account.
    pub white: SeatAccount,
}

impl Games {
    /// Create game `g` with both seats taken by its accounts (named by them), the usual abort
    /// window (for a correspondence game: its days per move) and, when rated, the pre-game ratings (or the reason it is played unrated). A
    /// game of that id that already exists is left as it is: `Ok(false)`; `Ok(true)`: created now.
    ///
    /// # Errors
    /// `too_many_games`, `no_randomness`, `accounts_unavailable`, `storage`.
    pub async fn create_paired(&self, g: PairedGame) -> Result<bool, Error> {
        self.create_paired_for(g, None).await
    }

    /// [`Games::create_paired`] on the request of the client at `client` (an accepted
    /// challenge): the game counts against that address and its network as a created game does
    /// (`--max-games-per-ip`, `--max-games-per-net`), so that games made by challenges cannot fill
    /// the server from one network. `None`: counted against no address (a tournament's game).
    ///
    /// # Errors
    /// Those of [`Games::create_paired`], and `too_many_active_games`,
    /// `too_many_network_games`.
    pub async fn create_paired_for(
        &self,
        g: PairedGame,
        client: Option<std::net::IpAddr>,
    ) -> Result<bool, Error> {
        let store = self.store.clone();
        let id = g.id.clone();
        if crate::blocking::store(move || store.version(&id))
            .await?
            .is_some()
        {
            return Ok(false);
        }
        let now = now_ms();
        let mut live = Live::create(
            g.id.clone(),
            g.start,
            Color::Black,
            random_hex(32)?,
            Seat::Human { token_sha256: None },
            g.time_control,
            now,
        );
        let meta = &mut live.rec.meta;
        meta.days = g.days;
        // A correspondence game nobody moved in is aborted after its first deadline.
        meta.abort_after_ms = match g.days {
            Some(d) => u64::from(d) * DAY_MS,
            None => self.config.abort_after_ms,
        };
        meta.rated = g.rated;
        meta.rated_min_plies = self.config.rated_min_plies;
        meta.accounts.set(Color::Black, Some(g.black.clone()));
        meta.accounts.set(Color::White, Some(g.white.clone()));
        meta.names.set(Color::Black, Some(g.black.name.clone()));
        meta.names.set(Color::White, Some(g.white.name.clone()));
        if g.rated {
            match self
                .ratings
                .pregame(
                    &live.rec.variant,
                    crate::store::Speed::of_game(g.time_control, g.days),
                    (Some(&g.black), Some(&g.white)),
                )
                .await?
            {
                Some(crate::ratings::Pregame::Rated(r)) => live.rec.meta.ratings = Some(r),
                Some(crate::ratings::Pregame::Unrated(why)) => {
                    live.rec.meta.unrated = Some(why.to_string());
                }
                None => {}
            }
        }
        live.join(random_hex(32)?, now)?;
        let inserted = match self.insert(live.clone(), client).await {
            // The store counted the pair's rated games when writing it and found them used up
            // (another game of the pair got there first): it is played unrated.
            Err(e) if e.code == crate::games::registry::PAIR_LIMIT => {
                live.rec.meta.ratings = None;
                live.rec.meta.unrated = Some(e.code.to_string());
                self.insert(live, client).await
            }
            r => r,
        };
        match inserted {
            Ok(_) => Ok(true),
            Err(e) => {
                // Another instance (or another request here) created it first: then it exists.
                let store = self.store.clone();
                let id = g.id.clone();
                if crate::blocking::store(move || store.version(&id))
                    .await?
                    .is_some()
                {
                    Ok(false)
                } else {
                    Err(e)
                }
            }
        }
    }

    /// The player of account `user_id` takes their seat in game `h` (made by
    /// [`Games::create_paired`] or any game whose seat is linked to the account): a fresh seat
    /// token replaces the seat's (the one given before, if any, stops working). Returns the
    /// colour and the token.
    ///
    /// # Errors
    /// `not_your_game` (403: the account plays neither seat), `no_randomness`, `storage`.
    pub async fn claim_account_seat(
        &self,
        h: &Arc<GameHandle>,
        user_id: &str,
    ) -> Result<(Color, String), Error> {
        let color = {
            let live = h.live.lock().await;
            Color::ALL.into_iter().find(|c| {
                live.rec
                    .meta
                    .accounts
                    .get(*c)
                    .is_some_and(|a| a.user_id == user_id)
            })
        }
        .ok_or_else(|| {
            Error::new(
                ErrorKind::NotSeated,
                "not_your_game",
                "this account plays neither seat of this game",
            )
        })?;
        let token = random_hex(32)?;
        let hash = token_hash(&token);
        self.mutate(h, "seat", None, move |live, _| {
            let seat = Seat::Human {
                token_sha256: Some(hash.clone()),
            };
            match color {
                Color::Black => live.rec.meta.black = seat,
                Color::White => live.rec.meta.white = seat,
            }
            Ok(())
        })
        .await?;
        Ok((color, token))
    }
}

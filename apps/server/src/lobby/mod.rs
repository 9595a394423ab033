//! The lobby of public seeks, players' names and rematches (docs/api.md).
//!
//! - `GET /api/lobby`: the public seeks (open games created with `"public": true`), newest first
//!   (those this server holds, or, with a store shared by several instances, those stored by every
//!   instance), with what a player needs to choose one (variant, time control, the free colour,
//!   the creator's name). Taking a seek is `POST /api/games/{id}/join`.
//! - `POST /api/games/{id}/name`: a seat sets the name shown on boards and written in PDN.
//! - `POST /api/games/{id}/rematch`: after a game ended, a seat offers a rematch (a new game with
//!   the colours swapped); the opponent calling it too takes the new game's other seat.

use crate::error::Error;
use crate::games::handle::GameHandle;
use crate::games::live::{now_ms, GameView, Live};
use crate::games::Games;
use crate::store::{Declared, GameRecord, Rematch, Seat, TimeControl};
use crate::token::random_hex;
use crown_core::{Color, Position, Variant};
use serde::Serialize;
use std::sync::Arc;

/// Longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// At most this many seeks are listed.
pub const MAX_SEEKS: usize = 100;

/// A player's name trimmed and checked: 1..=[`MAX_NAME_CHARS`] characters, no control characters.
///
/// # Errors
/// `400 bad_name` saying what is wrong.
pub fn check_name(name: &str) -> Result<String, Error> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(Error::invalid(
            "bad_name",
            format!("a name must have 1..={MAX_NAME_CHARS} characters, not {chars}"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(Error::invalid(
            "bad_name",
            "a name must not contain control characters (line breaks, tabs, ...)",
        ));
    }
    Ok(name.to_string())
}

/// One public seek of `GET /api/lobby`.
#[derive(Debug, Serialize)]
pub struct Seek {
    /// Game id (join it with `POST /api/games/{id}/join`).
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The time control, `null` when untimed.
    pub time_control: Option<TimeControl>,
    /// The colour the joining player gets (`black`/`white`).
    pub color: &'static str,
    /// The creator's name, if given.
    pub name: Option<String>,
    /// Whether the game starts from a set-up position rather than the variant's start.
    pub setup: bool,
    /// Whether the game is rated (docs/api.md, "Ratings").
    pub rated: bool,
    /// The creator's account name when the creator's seat is linked to one, else `null`.
    pub account: Option<String>,
    /// The creator's rounded rating of the seek's variant and speed (1500 for a new player)
    /// when the creator's seat is linked to an account and the seek is timed, else `null`.
    pub rating: Option<i64>,
    /// Whether that rating is provisional (deviation above 110); `null` without a rating.
    pub provisional: Option<bool>,
    /// The creator's account id (not sent).
    #[serde(skip)]
    pub user_id: Option<String>,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: u64,
    /// The creator's network ([`crate::accounts::network::network_block`]) where this instance
    /// knows it (not sent): the list is fair between networks ([`fair_share`]).
    #[serde(skip)]
    pub network: Option<std::net::IpAddr>,
}

/// The public seeks of `GET /api/lobby`, newest first (at most [`MAX_SEEKS`]). With a store of its
/// own (SQLite) the server lists the games it holds in memory (every unfinished game); with a store
/// shared by several instances (PostgreSQL) it reads the open public games from the store, so a
/// seek created on any instance is listed on every one (and joined on any).
///
/// # Errors
/// `storage` if the shared store cannot be read.
pub async fn seeks(games: &Games, ratings: &crate::ratings::Ratings) -> Result<Vec<Seek>, Error> {
    let mut seeks = Vec::new();
    if games.shared() {
        let store = games.store.clone();
        let recs = crate::blocking::store(move || {
            let mut recs = Vec::new();
            for s in store.list(Some("open"), MAX_SEEKS)? {
                if let Some(rec) = store.load(&s.id)? {
                    recs.push(rec);
                }
            }
            Ok(recs)
        })
        .await?;
        seeks.extend(recs.iter().filter_map(seek_of));
    } else {
        for h in games.all_handles() {
            let live = h.live.lock().await;
            seeks.extend(seek_of(&live.rec).map(|s| Seek {
                network: h.net.get().copied(),
                ..s
            }));
        }
    }
    let mut seeks = fair_share(seeks, MAX_SEEKS);
    // The creators' ratings, read in one go.
    let rated: Vec<(usize, (String, String, String))> = seeks
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let speed = crate::ratings::Speed::of(s.time_control?)
                .name()
                .to_string();
            Some((i, (s.user_id.clone()?, s.variant.clone(), speed)))
        })
        .collect();
    if !rated.is_empty() {
        let keys = rated.iter().map(|(_, k)| k.clone()).collect();
        // The seeks are still listed (without ratings) if the ratings cannot be read.
        match ratings.current(keys).await {
            Ok(ratings) => {
                for ((i, _), r) in rated.iter().zip(ratings) {
                    seeks[*i].rating = Some(r.rating.round() as i64);
                    seeks[*i].provisional = Some(r.provisional());
                }
            }
            Err(e) => tracing::warn!(error = ?e, "the lobby's ratings could not be read"),
        }
    }
    Ok(seeks)
}

/// At most `max` of `seeks`, newest first, chosen fairly between the creators' networks: every
/// network's newest seek before any network's second newest, and so on (newest first within
/// each round), so that the seeks of one network, however many of its addresses post them,
/// take no more than their share of the places while other networks have seeks. A seek whose
/// network is not known counts as a network of its own.
fn fair_share(mut seeks: Vec<Seek>, max: usize) -> Vec<Seek> {
    let newest_first = |a: &Seek, b: &Seek| b.created_ms.cmp(&a.created_ms).then(a.id.cmp(&b.id));
    seeks.sort_by(newest_first);
    let mut seen: std::collections::HashMap<std::net::IpAddr, usize> = Default::default();
    let mut ranked: Vec<(usize, Seek)> = seeks
        .into_iter()
        .map(|s| {
            let rank = s.network.map_or(0, |n| {
                let r = seen.entry(n).or_insert(0);
                *r += 1;
                *r - 1
            });
            (rank, s)
        })
        .collect();
    // Stable: within a rank, newest first.
    ranked.sort_by_key(|(rank, _)| *rank);
    ranked.truncate(max);
    let mut out: Vec<Seek> = ranked.into_iter().map(|(_, s)| s).collect();
    out.sort_by(newest_first);
    out
}

/// The seek of game `rec`: `None` unless it is open, public, not cancelled and has a free seat.
fn seek_of(rec: &GameRecord) -> Option<Seek> {
    let meta = &rec.meta;
    if rec.status != "open"
        || !meta.public
        || matches!(meta.declared, Some(Declared::Cancelled { .. }))
    {
        return None;
    }
    let open = Color::ALL
        .into_iter()
        .find(|&c| matches!(seat_of(meta, c), Seat::Human { token_sha256: None }))?;
    let variant: Option<Variant> = rec.variant.parse().ok();
    let setup = variant.is_some_and(|v| Position::new(v).to_fen() != rec.start_fen);
    Some(Seek {
        id: rec.id.clone(),
        variant: rec.variant.clone(),
        time_control: meta.time_control,
        color: open.name(),
        name: meta.names.get(open.opposite()).map(str::to_string),
        setup,
        rated: meta.rated,
        account: meta.accounts.get(open.opposite()).map(|a| a.name.clone()),
        rating: None,
        provisional: None,
        user_id: meta
            .accounts
            .get(open.opposite())
            .map(|a| a.user_id.clone()),
        created_ms: rec.created_ms,
        network: None,
    })
}

fn seat_of(meta: &crate::store::GameMeta, c: Color) -> &Seat {
    match c {
        Color::Black => &meta.black,
        Color::White => &meta.white,
    }
}

/// Seat `color` of `h` takes the name `name` (checked by [`check_name`]); returns the game as
/// that seat sees it.
///
/// # Errors
/// `storage`.
pub async fn set_name(
    games: &Games,
    h: &Arc<GameHandle>,
    color: Color,
    name: String,
) -> Result<GameView, Error> {
    let (_, view) = games
        .mutate(h, "name", Some(color), move |live, _| {
            live.rec.meta.names.set(color, Some(name.clone()));
            Ok(())
        })
        .await?;
    Ok(view)
}

/// The opponent accepts a rematch: take the reserved seat of the new game `new_id`, linked to
/// `account`, the account of the opponent's seat in the finished game (`None`: a guest).
async fn accept(
    games: &Games,
    new_id: String,
    client: Option<std::net::IpAddr>,
    account: Option<crate::store::SeatAccount>,
) -> Result<RematchSeat, Error> {
    let nh = games.handle(&new_id).await?;
    let (new_color, token, game) = games.join_seat(&nh, true, client, account).await?;
    Ok(RematchSeat {
        created: false,
        id: new_id,
        color: new_color,
        token,
        game,
    })
}

/// Withdraw the rematch game `nh` made for a request that lost a race (its creator's seat is
/// `color`), so that no open game is left behind; a failure is logged (the game then expires
/// as any unjoined game).
async fn withdraw(games: &Games, nh: &Arc<GameHandle>, color: Color) {
    if let Err(e) = games
        .mutate(nh, "cancel", Some(color), move |live, now| {
            live.cancel(color, now)
        })
        .await
    {
        tracing::warn!(game = %nh.id, error = %e, "could not withdraw a duplicate rematch");
    }
}

/// The seat a rematch gave: in a game just created (`created`) or joined.
#[derive(Debug)]
pub struct RematchSeat {
    /// Whether the caller created the new game (else it took the new game's other seat).
    pub created: bool,
    /// The new game's id.
    pub id: String,
    /// The caller's colour in the new game.
    pub color: Color,
    /// The caller's secret seat token in the new game.
    pub token: String,
    /// The new game as the caller sees it.
    pub game: GameView,
}

/// `POST /api/games/{id}/rematch` (seat token, no body). The first seat to ask creates a new,
/// private game with the same variant, start position, time control and ratedness and the
/// colours swapped (an engine opponent plays again at the same level; each player's seat keeps
/// the account it was linked to) and gets its seat; the game's view then
/// carries `rematch: {id, by}` and its WebSocket the event `rematch`. The opponent asking too
/// takes the new game's other seat. Answers `201` (created) or `200` (joined) with the new seat.
///
/// # Errors
/// `not_found`, `missing_token`, `bad_token`, `game_not_over` (the game goes on),
/// `cancelled` (nobody played it), `already_requested` (the caller already asked),
/// `seat_taken` (the rematch has started), `bot_not_allowed` (403: a seat of the game is a bot
/// account's, which plays only through challenges), the limits of `POST /api/games`, `storage`.
pub async fn rematch(
    games: &Games,
    h: &Arc<GameHandle>,
    color: Color,
    client: Option<std::net::IpAddr>,
) -> Result<RematchSeat, Error> {
    // Both players asking at once on this instance: the second waits and joins the first's game.
    let _asking = h.rematch_lock.lock().await;
    let (existing, fresh, mine) = {
        let live = h.live.lock().await;
        if live.cancelled() {
            return Err(Error::conflict(
                "cancelled",
                "the game was cancelled before anyone joined it: there is nothing to replay",
            ));
        }
        if !crate::store::is_over(&live.rec.status) {
            return Err(Error::conflict(
                "game_not_over",
                "a rematch can be asked for only once the game is over",
            ));
        }
        let meta = &live.rec.meta;
        // A bot plays people only through challenges (docs/api.md, "Bot accounts"): a game
        // with a bot is replayed by challenging again, never by a seat token's rematch.
        if Color::ALL
            .into_iter()
            .any(|c| meta.accounts.get(c).is_some_and(|a| a.bot))
        {
            return Err(if meta.accounts.get(color).is_some_and(|a| a.bot) {
                crate::bots::bot_not_allowed("ask for a rematch")
            } else {
                crate::bots::bot_not_allowed("be offered a rematch (challenge it again)")
            });
        }
        let fresh = || -> Result<(Live, String), Error> {
            let variant: Variant = live.rec.variant.parse().map_err(Error::storage)?;
            let start = Position::from_fen(variant, &live.rec.start_fen).map_err(Error::storage)?;
            let other = match seat_of(meta, color.opposite()) {
                Seat::Engine { level } => Seat::Engine { level: *level },
                Seat::Human { .. } => Seat::Human { token_sha256: None },
            };
            let token = random_hex(32)?;
            let reserved = matches!(other, Seat::Human { .. });
            let mut next = Live::create(
                random_hex(8)?,
                start,
                color.opposite(),
                token.clone(),
                other,
                meta.time_control,
                now_ms(),
            );
            next.rec
                .meta
                .names
                .set(color.opposite(), meta.names.get(color).map(str::to_string));
            next.rec
                .meta
                .names
                .set(color, meta.names.get(color.opposite()).map(str::to_string));
            // The creator's seat keeps the creator's account (the opponent's is linked when
            // they take theirs, in `accept`), so that a rated game's rematch is rated too and
            // both players' archives list it.
            next.rec
                .meta
                .accounts
                .set(color.opposite(), meta.accounts.get(color).cloned());
            next.rec.meta.rated = meta.rated;
            // A human opponent's seat is theirs: only their rematch request takes it.
            next.rec.meta.reserved = reserved;
            next.rec.meta.abort_after_ms = games.config.abort_after_ms;
            next.rec.meta.rated_min_plies = games.config.rated_min_plies;
            Ok((next, token))
        };
        // The caller's account in the finished game, which the seat they take keeps.
        let mine = meta.accounts.get(color).cloned();
        match &meta.rematch {
            Some(r) if Color::from(r.by) == color => {
                return Err(Error::conflict(
                    "already_requested",
                    format!("you already asked for a rematch: game {}", r.id),
                ))
            }
            Some(r) => (Some(r.id.clone()), None, mine),
            None => (None, Some(fresh()?), mine),
        }
    };
    if let Some(new_id) = existing {
        return accept(games, new_id, client, mine).await;
    }
    let Some((next, token)) = fresh else {
        return Err(Error::storage("rematch: no game to create"));
    };
    let new_id = next.rec.id.clone();
    let new_color = color.opposite();
    let nh = games.insert(next, client).await?;
    let by = color.into();
    let rid = new_id.clone();
    let asked = games
        .mutate(h, "rematch", Some(color), move |live, _| {
            match &live.rec.meta.rematch {
                // The opponent asked at the same time (on another instance): use theirs.
                Some(r) if Color::from(r.by) != color => Ok(Some(r.id.clone())),
                Some(r) => Err(Error::conflict(
                    "already_requested",
                    format!("you already asked for a rematch: game {}", r.id),
                )),
                None => {
                    live.rec.meta.rematch = Some(Rematch {
                        id: rid.clone(),
                        by,
                    });
                    Ok(None)
                }
            }
        })
        .await;
    let theirs = match asked {
        Ok((theirs, _)) => theirs,
        Err(e) => {
            withdraw(games, &nh, new_color).await;
            return Err(e);
        }
    };
    if let Some(their_id) = theirs {
        // No orphan: the game made for this request is withdrawn, the opponent's is joined.
        withdraw(games, &nh, new_color).await;
        return accept(games, their_id, client, mine).await;
    }
    let game = nh.live.lock().await.view(now_ms(), Some(new_color));
    Ok(RematchSeat {
        created: true,
        id: new_id,
        color: new_color,
        token,
        game,
    })
}

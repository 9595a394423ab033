//! Challenges (docs/api.md, "Challenges"; issue 42): an account invites another to a game —
//! the game, the clock, the colour, rated or casual — and the challenged player accepts or
//! declines it (with a reason); the challenger may cancel it. Shaped like lichess's challenge
//! API. A challenge is one versioned row of the store's [`crate::store::ChallengeStore`], every
//! answer a compare-and-swap on its version, so of two answers racing (on one instance or on two
//! sharing PostgreSQL) exactly one is written: a challenge is accepted once and makes one game.
//!
//! - Accepting creates the game through the games feature ([`Games::create_paired`]) with the
//!   challenge's id as the game's id, both seats linked to the accounts; each player takes a
//!   seat token with [`Challenges::seat`] (the accepting player gets theirs in the answer).
//! - A pending challenge expires [`Config::challenge_ttl_ms`] after it was made, or once its
//!   challenger has not been seen for [`Config::challenge_away_ms`] (reading its challenges
//!   keeps it alive, [`Challenges::keep_alive`]). Expiry is read from the row's `expires_ms`,
//!   so no sweeper is needed and every instance agrees.
//! - Limits: [`MAX_OUTGOING`] pending challenges per challenger, [`MAX_INCOMING`] per challenged
//!   account (of which [`MAX_INCOMING_PER_NET`] from one network), [`Config::challenges_per_hour_per_ip`] per address, no challenge to oneself, and
//!   none to an account that declined one of the challenger's within [`DECLINED_WAIT_MS`].
//!
//! - A correspondence challenge carries `days` per move ([`CORRESPONDENCE_DAYS`]) instead of a
//!   clock ([`ChallengeState::days`], absent in the challenges stored before it); its game has a
//!   move deadline instead of clocks ([`crate::store::GameMeta::days`]).

use crate::blocking;
use crate::config::Config;
use crate::error::{echo, Detail, Error, ErrorKind};
use crate::games::live::now_ms;
use crate::games::paired::PairedGame;
use crate::games::{GameRequest, Games};
use crate::limit::RateLimiter;
use crate::store::{
    ChallengeRecord, ChallengeStore, SeatAccount, Side, Store, StoreError, TimeControl,
    CORRESPONDENCE_DAYS,
};
use crown_core::{Color, Position, Variant};
use serde::{Deserialize, Serialize};
use std::net::IpAddr;
use std::sync::Arc;

/// Pending challenges one account may have made (more: `429 too_many_challenges`).
pub const MAX_OUTGOING: usize = 10;

/// Pending challenges one account may have received (more: `429 too_many_received` for the
/// challenger).
pub const MAX_INCOMING: usize = 50;

/// Of [`MAX_INCOMING`], the pending challenges one account may have received from one network
/// (the challenging requests' IPv4 /24 or IPv6 sign-up network; more: `429 too_many_received`),
/// so that a few accounts of one network cannot keep a player's inbox full.
pub const MAX_INCOMING_PER_NET: usize = 3;

/// After the challenged account declines, its challenger may not challenge it again for this
/// long, in ms (`429 recently_declined`).
pub const DECLINED_WAIT_MS: u64 = 60_000;

/// Random bytes of a challenge id (shown as twice as many hex digits).
pub const ID_BYTES: usize = 5;

/// The most challenges read for one account at once (pending and recently answered).
const MAX_READ: usize = 200;

/// The most compare-and-swap tries of one answer.
const MAX_CAS_RETRIES: usize = 8;

/// Why a challenge is declined: the API's keys and what the challenger reads.
pub const DECLINE_REASONS: [(&str, &str); 6] = [
    ("generic", "I'm not accepting challenges at the moment."),
    (
        "later",
        "This is not the right time for me, please ask again later.",
    ),
    (
        "too_fast",
        "This time control is too fast for me, please challenge again with a slower game.",
    ),
    (
        "too_slow",
        "This time control is too slow for me, please challenge again with a faster game.",
    ),
    ("casual", "Please send me a casual challenge instead."),
    ("rated", "Please send me a rated challenge instead."),
];

/// What a challenge asks for and how it was answered: the row's JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeState {
    /// The challenger's account.
    pub challenger: SeatAccount,
    /// The challenged account.
    pub dest: SeatAccount,
    /// Variant id.
    pub variant: String,
    /// The clock; `None`: untimed (casual only) or a correspondence game (`days`).
    pub time_control: Option<TimeControl>,
    /// A correspondence game's days per move; absent: a game with a clock or untimed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// The colour the challenger asked for: `black`, `white` or `random`.
    pub color: String,
    /// The challenger's colour in the game (`random` drawn when the challenge was made).
    pub final_color: Side,
    /// Whether the game is rated.
    pub rated: bool,
    /// The reason's key when declined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decline_reason: Option<String>,
    /// The network block of the request that made it (an IPv4 /24, an IPv6 sign-up network),
    /// for [`MAX_INCOMING_PER_NET`]; never shown. `None`: made with no client address known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub net: Option<String>,
}

/// A challenge as read: the row and its state.
#[derive(Clone, Debug)]
pub struct Challenge {
    /// The stored row.
    pub rec: ChallengeRecord,
    /// Its state.
    pub state: ChallengeState,
}

/// What a new challenge asks for (the body of `POST /api/challenge/{username}`).
#[derive(Clone, Debug, Default)]
pub struct ChallengeRequest {
    /// Variant id (default `american`).
    pub variant: Option<String>,
    /// The clock; `None`: untimed, or a correspondence game when `days` is set.
    pub time_control: Option<TimeControl>,
    /// A correspondence game's days per move (one of [`CORRESPONDENCE_DAYS`], checked by
    /// [`check_days`]), instead of `time_control`.
    pub days: Option<u32>,
    /// `black`, `white` or `random` (default).
    pub color: Option<String>,
    /// Rated (default casual).
    pub rated: bool,
}

/// A seat in the game of an accepted challenge.
#[derive(Debug)]
pub struct ChallengeSeat {
    /// The game's id (the challenge's).
    pub game: String,
    /// The caller's colour.
    pub color: Color,
    /// The caller's fresh seat token.
    pub token: String,
}

impl Challenge {
    /// `rec` with its state read.
    ///
    /// # Errors
    /// `storage` when the stored JSON is not a [`ChallengeState`].
    fn of(rec: ChallengeRecord) -> Result<Challenge, Error> {
        let state = serde_json::from_str(&rec.state).map_err(|e| {
            Error::storage(StoreError::Corrupt {
                id: rec.id.clone(),
                reason: e.to_string(),
            })
        })?;
        Ok(Challenge { rec, state })
    }

    /// The status at `now`: the stored one, or `expired` for a pending challenge past its
    /// `expires_ms`.
    pub fn status(&self, now: u64) -> &str {
        if self.rec.status == "pending" && now >= self.rec.expires_ms {
            "expired"
        } else {
            &self.rec.status
        }
    }

    /// The game of an accepted challenge.
    fn paired(&self) -> Result<PairedGame, Error> {
        let variant: Variant = self.state.variant.parse().map_err(Error::storage)?;
        let (challenger, dest) = (self.state.challenger.clone(), self.state.dest.clone());
        let (black, white) = match Color::from(self.state.final_color) {
            Color::Black => (challenger, dest),
            Color::White => (dest, challenger),
        };
        Ok(PairedGame {
            id: self.rec.id.clone(),
            start: Position::new(variant),
            time_control: self.state.time_control,
            days: self.state.days,
            rated: self.state.rated,
            black,
            white,
        })
    }

    /// The JSON of the API, as seen by `me` (the challenger: `direction` `out`; the challenged:
    /// `in`) at `now`.
    pub fn view(&self, me: &str, now: u64) -> serde_json::Value {
        let s = &self.state;
        let status = self.status(now);
        let reason = s.decline_reason.as_deref();
        serde_json::json!({
            "id": self.rec.id,
            "status": status,
            "direction": if self.rec.challenger == me { "out" } else { "in" },
            "challenger": {"name": s.challenger.name, "title": s.challenger.bot.then_some("BOT")},
            "dest_user": {"name": s.dest.name, "title": s.dest.bot.then_some("BOT")},
            "variant": s.variant,
            "time_control": s.time_control,
            "days": s.days,
            "speed": crate::ratings::Speed::of_game(s.time_control, s.days).map(|s| s.name()),
            "rated": s.rated,
            "color": s.color,
            "final_color": crown_core::Color::from(s.final_color).name(),
            "decline_reason_key": reason,
            "decline_reason": reason.and_then(reason_text),
            "game_id": (status == "accepted").then_some(self.rec.id.as_str()),
            "created_ms": self.rec.created_ms,
            "expires_ms": (status == "pending").then_some(self.rec.expires_ms),
        })
    }
}

/// What the challenger reads for the reason `key`.
pub fn reason_text(key: &str) -> Option<&'static str> {
    DECLINE_REASONS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, t)| *t)
}

/// A challenge's `days` (JSON): one of [`CORRESPONDENCE_DAYS`].
///
/// # Errors
/// `400 bad_days`, naming the allowed values.
pub fn check_days(v: &serde_json::Value) -> Result<u32, Error> {
    v.as_u64()
        .and_then(|d| u32::try_from(d).ok())
        .filter(|d| CORRESPONDENCE_DAYS.contains(d))
        .ok_or_else(|| {
            let allowed: Vec<String> = CORRESPONDENCE_DAYS.iter().map(u32::to_string).collect();
            let shown = crate::error::echo(&v.to_string());
            Error::invalid(
                "bad_days",
                format!(
                    "days (per move, a correspondence game) must be one of {}, not {shown}",
                    allowed.join(", ")
                ),
            )
        })
}

/// Whether `id` can be a challenge id ([`ID_BYTES`] bytes in lower-case hex).
pub fn is_challenge_id(id: &str) -> bool {
    id.len() == 2 * ID_BYTES && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `404 not_found` for challenge `id`.
pub fn not_found(id: &str) -> Error {
    Error::new(
        ErrorKind::NotFound,
        "not_found",
        format!("no challenge with id {} for this account", echo(id)),
    )
}

/// `challenges_unavailable` (503): the store keeps no challenges.
fn unavailable() -> Error {
    Error::new(
        ErrorKind::Full,
        "challenges_unavailable",
        "this server's store keeps no challenges",
    )
}

/// `403 not_your_challenge`: `who` may do `what`.
fn not_yours(what: &str, who: &str) -> Error {
    Error::new(
        ErrorKind::NotSeated,
        "not_your_challenge",
        format!("only the {who} may {what} this challenge"),
    )
}

/// `409 not_pending`: challenge `c` was answered or expired.
fn not_pending(c: &Challenge, now: u64) -> Error {
    let status = c.status(now);
    let what = match status {
        "accepted" => format!("was already accepted (game {})", c.rec.id),
        "declined" => "was declined".to_string(),
        "canceled" => "was canceled by its challenger".to_string(),
        "expired" => "expired".to_string(),
        other => format!("is {other}"),
    };
    Error::conflict("not_pending", format!("this challenge {what}"))
}

/// The challenges feature: the store's challenges, the games it creates and the per-address limit.
pub struct Challenges {
    store: Arc<dyn Store>,
    games: Games,
    by_ip: RateLimiter,
    v6_prefix: u8,
    ttl_ms: u64,
    away_ms: u64,
    engine_available: bool,
}

impl Challenges {
    /// The challenges of `store`, whose games `games` creates, with the limits of `config`.
    pub(crate) fn new(config: &Config, store: Arc<dyn Store>, games: Games) -> Challenges {
        let n = config.challenges_per_hour_per_ip;
        Challenges {
            engine_available: games.has_engine(),
            store,
            games,
            by_ip: RateLimiter::keyed(f64::from(n) / 3600.0, n),
            v6_prefix: config.signup_net_v6_prefix,
            ttl_ms: config.challenge_ttl_ms.max(1),
            away_ms: config.challenge_away_ms.max(1),
        }
    }

    /// Run `f` on the store's challenges on a blocking thread.
    ///
    /// # Errors
    /// `challenges_unavailable` (503) for a store without challenges; `storage` when it fails.
    async fn with_store<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn ChallengeStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Error> {
        let store = self.store.clone();
        blocking::store(move || Ok(store.challenges().map(f)))
            .await?
            .ok_or_else(unavailable)?
            .map_err(Error::storage)
    }

    /// The challenges made by or to `user_id` pending at `now` or answered since `since`.
    async fn of(&self, user_id: &str, now: u64, since: u64) -> Result<Vec<Challenge>, Error> {
        let user = user_id.to_string();
        self.with_store(move |s| s.challenges_of(&user, now, since, MAX_READ))
            .await?
            .into_iter()
            .map(Challenge::of)
            .collect()
    }

    /// The challenges made by or to `me` pending now or answered since `since` (the bot event
    /// stream, docs/api.md), newest first.
    ///
    /// # Errors
    /// `challenges_unavailable`, `storage`.
    pub async fn recent(&self, me: &SeatAccount, since: u64) -> Result<Vec<Challenge>, Error> {
        self.of(&me.user_id, now_ms(), since).await
    }

    /// The challenge `id`, if `me` made or received it.
    ///
    /// # Errors
    /// `404 not_found` (none, or not `me`'s), `challenges_unavailable`, `storage`.
    pub async fn get(&self, id: &str, me: &SeatAccount) -> Result<Challenge, Error> {
        if !is_challenge_id(id) {
            return Err(not_found(id));
        }
        let key = id.to_string();
        let rec = self.with_store(move |s| s.load_challenge(&key)).await?;
        let c = Challenge::of(rec.ok_or_else(|| not_found(id))?)?;
        if c.rec.challenger != me.user_id && c.rec.dest != me.user_id {
            return Err(not_found(id));
        }
        Ok(c)
    }

    /// Whether pending challenge `c` of `me` would expire within three quarters of
    /// [`Config::challenge_away_ms`] at `now` (and may still be extended): its challenger's read
    /// then keeps it alive ([`Challenges::keep_alive`]).
    fn needs_touch(&self, c: &Challenge, me: &SeatAccount, now: u64) -> bool {
        let soon = now.saturating_add(self.away_ms - self.away_ms / 4);
        c.rec.challenger == me.user_id
            && c.status(now) == "pending"
            && c.rec.expires_ms < c.rec.deadline_ms
            && c.rec.expires_ms < soon
    }

    /// `me` read `seen` (its challenges, or one of them): when one of its pending challenges
    /// would expire within three quarters of [`Config::challenge_away_ms`], each of them does
    /// not expire for another [`Config::challenge_away_ms`] (within its
    /// [`Config::challenge_ttl_ms`]). Nothing is written otherwise, so that reading every few
    /// seconds writes about every quarter of that time.
    ///
    /// # Errors
    /// `challenges_unavailable`, `storage`.
    pub async fn keep_alive(&self, me: &SeatAccount, seen: &[Challenge]) -> Result<(), Error> {
        let now = now_ms();
        if !seen.iter().any(|c| self.needs_touch(c, me, now)) {
            return Ok(());
        }
        let (user, away) = (me.user_id.clone(), self.away_ms);
        self.with_store(move |s| s.touch_challenges(&user, now, away, away / 4))
            .await?;
        Ok(())
    }

    /// The pending challenges `me` received (`in`) and made (`out`), newest first; keeps those
    /// it made alive ([`Challenges::keep_alive`]).
    ///
    /// # Errors
    /// `challenges_unavailable`, `storage`.
    pub async fn pending(
        &self,
        me: &SeatAccount,
    ) -> Result<(Vec<Challenge>, Vec<Challenge>), Error> {
        let now = now_ms();
        let all = self.of(&me.user_id, now, u64::MAX).await?;
        self.keep_alive(me, &all).await?;
        let (out, inc): (Vec<_>, Vec<_>) = all
            .into_iter()
            .filter(|c| c.status(now) == "pending")
            .partition(|c| c.rec.challenger == me.user_id);
        Ok((inc, out))
    }

    /// `me`, from client `ip`, challenges `dest` (found by the caller) to the game `req`.
    ///
    /// # Errors
    /// `bad_variant`, `bad_color`, `bad_time_control`, `bad_days`, `days_and_clock`,
    /// `rated_needs_clock` (400), `self_challenge` (400), `challenge_rate_limited`, `too_many_challenges`,
    /// `too_many_received`, `recently_declined` (429), `challenges_unavailable`, `storage`.
    pub async fn create(
        &self,
        ip: Option<IpAddr>,
        me: SeatAccount,
        dest: SeatAccount,
        req: ChallengeRequest,
    ) -> Result<Challenge, Error> {
        let color = req.color.clone().unwrap_or_else(|| "random".to_string());
        if let Some(d) = req.days {
            check_days(&serde_json::Value::from(d))?;
            if req.time_control.is_some() {
                return Err(Error::invalid(
                    "days_and_clock",
                    "a challenge has either a time_control or days per move (correspondence), \
                     not both",
                ));
            }
        }
        let game = GameRequest {
            variant: req.variant.unwrap_or_else(|| "american".to_string()),
            color: Some(color.clone()),
            time_control: req.time_control,
            // Days per move time a correspondence game as a clock does: it may be rated, and
            // the other checks of a rated game (two people, the standard start) still apply.
            rated: req.rated,
            correspondence: req.days.is_some(),
            ..GameRequest::default()
        }
        .check(self.engine_available)?
        .seat(Some(me.clone()))?;
        if dest.user_id == me.user_id {
            return Err(Error::invalid(
                "self_challenge",
                "you cannot challenge yourself",
            ));
        }
        let net = ip.map(|ip| crate::accounts::network::network_key(ip, self.v6_prefix));
        self.by_ip.check(net).map_err(|secs| {
            Error::limited(
                "challenge_rate_limited",
                format!("too many challenges from this address; retry in {secs} s"),
            )
            .with(Detail::RetryAfterMs(secs.saturating_mul(1000)))
        })?;
        let now = now_ms();
        let mine = self
            .of(&me.user_id, now, now.saturating_sub(DECLINED_WAIT_MS))
            .await?;
        let outgoing = mine
            .iter()
            .filter(|c| c.rec.challenger == me.user_id && c.status(now) == "pending")
            .count();
        if outgoing >= MAX_OUTGOING {
            return Err(Error::limited(
                "too_many_challenges",
                format!(
                    "you already have {MAX_OUTGOING} pending challenges; cancel one or wait \
                     for an answer"
                ),
            ));
        }
        if let Some(d) = mine.iter().find(|c| {
            c.rec.challenger == me.user_id
                && c.rec.dest == dest.user_id
                && c.rec.status == "declined"
        }) {
            let wait = (d.rec.updated_ms + DECLINED_WAIT_MS).saturating_sub(now);
            return Err(Error::limited(
                "recently_declined",
                format!(
                    "{} declined your challenge; you may challenge them again in {} s",
                    dest.name,
                    wait.div_ceil(1000)
                ),
            )
            .with(Detail::RetryAfterMs(wait)));
        }
        let theirs = self.of(&dest.user_id, now, u64::MAX).await?;
        let incoming = theirs
            .iter()
            .filter(|c| c.rec.dest == dest.user_id && c.status(now) == "pending")
            .count();
        if incoming >= MAX_INCOMING {
            return Err(Error::limited(
                "too_many_received",
                format!(
                    "{} already has {MAX_INCOMING} challenges waiting for an answer; try later",
                    dest.name
                ),
            ));
        }
        let block =
            ip.map(|ip| crate::accounts::network::network_block(ip, self.v6_prefix).to_string());
        if let Some(block) = &block {
            let from_net = theirs
                .iter()
                .filter(|c| c.rec.dest == dest.user_id && c.status(now) == "pending")
                .filter(|c| c.state.net.as_ref() == Some(block))
                .count();
            if from_net >= MAX_INCOMING_PER_NET {
                return Err(Error::limited(
                    "too_many_received",
                    format!(
                        "{} already has {MAX_INCOMING_PER_NET} challenges from your network \
                         waiting for an answer; try later",
                        dest.name
                    ),
                ));
            }
        }
        let g = game.game;
        let state = ChallengeState {
            challenger: me.clone(),
            dest: dest.clone(),
            variant: g.start.variant().id().to_string(),
            time_control: g.time_control,
            days: req.days,
            color,
            final_color: g.color.into(),
            rated: g.rated,
            decline_reason: None,
            net: block,
        };
        let deadline = now.saturating_add(self.ttl_ms);
        let rec = ChallengeRecord {
            id: crate::token::random_hex(ID_BYTES)?,
            challenger: me.user_id,
            dest: dest.user_id,
            status: "pending".to_string(),
            created_ms: now,
            updated_ms: now,
            expires_ms: deadline.min(now.saturating_add(self.away_ms)),
            deadline_ms: deadline,
            state: serde_json::to_string(&state).map_err(Error::storage)?,
            version: 0,
        };
        let r2 = rec.clone();
        self.with_store(move |s| s.create_challenge(&r2)).await?;
        Ok(Challenge { rec, state })
    }

    /// Answer challenge `id` as `me`: `change` checks who may and sets the new status; the
    /// change is written only if nobody answered meanwhile (compare-and-swap, retried on a
    /// race, which then finds the challenge answered).
    async fn answer(
        &self,
        id: &str,
        me: &SeatAccount,
        change: impl Fn(&mut Challenge, u64) -> Result<(), Error>,
    ) -> Result<Challenge, Error> {
        for _ in 0..MAX_CAS_RETRIES {
            let mut c = self.get(id, me).await?;
            let now = now_ms();
            change(&mut c, now)?;
            c.rec.updated_ms = now;
            c.rec.state = serde_json::to_string(&c.state).map_err(Error::storage)?;
            let mut rec = c.rec.clone();
            let saved = self
                .with_store(move |s| match s.save_challenge(&mut rec) {
                    Ok(()) => Ok(Some(rec)),
                    // Answered meanwhile (here or on another instance): read it again.
                    Err(StoreError::Conflict(_)) => Ok(None),
                    Err(e) => Err(e),
                })
                .await?;
            if let Some(rec) = saved {
                c.rec = rec;
                return Ok(c);
            }
        }
        Err(Error::conflict(
            "version_conflict",
            "the challenge kept changing during this request; read it and retry",
        ))
    }

    /// `me` accepts challenge `id`: the game is created (the challenge's id is the game's) and
    /// `me` takes its seat.
    ///
    /// # Errors
    /// `not_found` (404), `not_your_challenge` (403: only the challenged account accepts),
    /// `not_pending` (409: answered, canceled or expired; a second accept of one challenge,
    /// concurrent or not, gets it), those of creating the game (`too_many_games`,
    /// `too_many_network_games`, …: the game counts against `client`'s address and network, and
    /// the challenge is then pending again), `challenges_unavailable`, `storage`.
    pub async fn accept(
        &self,
        id: &str,
        me: &SeatAccount,
        client: Option<std::net::IpAddr>,
    ) -> Result<ChallengeSeat, Error> {
        let c = self
            .answer(id, me, |c, now| {
                if c.rec.dest != me.user_id {
                    return Err(not_yours("accept", "challenged player"));
                }
                if c.status(now) != "pending" {
                    return Err(not_pending(c, now));
                }
                c.rec.status = "accepted".to_string();
                Ok(())
            })
            .await?;
        if let Err(e) = self.games.create_paired_for(c.paired()?, client).await {
            self.unaccept(id, me).await;
            return Err(e);
        }
        self.claim(&c, me).await
    }

    /// Put challenge `id`, accepted by `me` but whose game could not be made, back to pending
    /// (unless the game exists after all: made meanwhile by a seat request), so that the
    /// players can try again rather than hold an accepted challenge with no game. Best effort:
    /// a failure leaves it accepted, where `POST /api/challenge/{id}/seat` makes the game.
    async fn unaccept(&self, id: &str, me: &SeatAccount) {
        let exists = {
            let (store, id) = (self.store.clone(), id.to_string());
            blocking::store(move || store.version(&id)).await
        };
        if !matches!(exists, Ok(None)) {
            return;
        }
        let undone = self
            .answer(id, me, |c, _| {
                if c.rec.status != "accepted" {
                    return Err(not_pending(c, now_ms()));
                }
                c.rec.status = "pending".to_string();
                Ok(())
            })
            .await;
        if let Err(e) = undone {
            tracing::warn!(challenge = %id, error = %e, "an accepted challenge without a game stays accepted");
        }
    }

    /// `me` declines challenge `id` for `reason` (a key of [`DECLINE_REASONS`], default
    /// `generic`).
    ///
    /// # Errors
    /// `bad_reason` (400), `not_found` (404), `not_your_challenge` (403), `not_pending` (409),
    /// `challenges_unavailable`, `storage`.
    pub async fn decline(
        &self,
        id: &str,
        me: &SeatAccount,
        reason: Option<String>,
    ) -> Result<Challenge, Error> {
        let reason = reason.unwrap_or_else(|| "generic".to_string());
        if reason_text(&reason).is_none() {
            let keys: Vec<&str> = DECLINE_REASONS.iter().map(|(k, _)| *k).collect();
            return Err(Error::invalid(
                "bad_reason",
                format!(
                    "reason must be one of {}, not {}",
                    keys.join(", "),
                    echo(&reason)
                ),
            ));
        }
        self.answer(id, me, |c, now| {
            if c.rec.dest != me.user_id {
                return Err(not_yours("decline", "challenged player"));
            }
            if c.status(now) != "pending" {
                return Err(not_pending(c, now));
            }
            c.rec.status = "declined".to_string();
            c.state.decline_reason = Some(reason.clone());
            Ok(())
        })
        .await
    }

    /// `me` cancels its challenge `id`.
    ///
    /// # Errors
    /// `not_found` (404), `not_your_challenge` (403: only the challenger cancels),
    /// `not_pending` (409), `challenges_unavailable`, `storage`.
    pub async fn cancel(&self, id: &str, me: &SeatAccount) -> Result<Challenge, Error> {
        self.answer(id, me, |c, now| {
            if c.rec.challenger != me.user_id {
                return Err(not_yours("cancel", "challenger"));
            }
            if c.status(now) != "pending" {
                return Err(not_pending(c, now));
            }
            c.rec.status = "canceled".to_string();
            Ok(())
        })
        .await
    }

    /// `me` (either player) takes its seat in the game of accepted challenge `id`: a fresh seat
    /// token (the one given before for that seat stops working). The game is created if it is
    /// not yet (an accept interrupted between its answer and the game).
    ///
    /// # Errors
    /// `not_found` (404), `not_accepted` (409: pending, declined, canceled or expired),
    /// those of creating the game, `challenges_unavailable`, `storage`.
    pub async fn seat(
        &self,
        id: &str,
        me: &SeatAccount,
        client: Option<std::net::IpAddr>,
    ) -> Result<ChallengeSeat, Error> {
        let c = self.get(id, me).await?;
        let now = now_ms();
        if c.status(now) != "accepted" {
            return Err(Error::conflict(
                "not_accepted",
                format!("this challenge is {}: it has no game", c.status(now)),
            ));
        }
        self.games.create_paired_for(c.paired()?, client).await?;
        self.claim(&c, me).await
    }

    /// `me`'s seat in the game of accepted challenge `c`.
    async fn claim(&self, c: &Challenge, me: &SeatAccount) -> Result<ChallengeSeat, Error> {
        let h = self.games.handle(&c.rec.id).await?;
        let (color, token) = self.games.claim_account_seat(&h, &me.user_id).await?;
        Ok(ChallengeSeat {
            game: c.rec.id.clone(),
            color,
            token,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_ids_are_ten_lower_case_hex_digits() {
        assert!(is_challenge_id("0123456789"));
        for bad in ["", "012345678", "ABCDEFABCD", "../../etc/x", "0123456789a"] {
            assert!(!is_challenge_id(bad), "{bad}");
        }
    }

    #[test]
    fn every_decline_reason_has_a_text_and_unknown_ones_none() {
        for (k, t) in DECLINE_REASONS {
            assert_eq!(reason_text(k), Some(t));
        }
        assert_eq!(reason_text("tooFast"), None);
    }
}

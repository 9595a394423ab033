//! The tournaments feature (docs/api.md, "Tournaments"; issue 42): Swiss and round robin of
//! two-game matches (APCA rule 32), and arenas (a fixed duration, each player paired again as soon
//! as their game ends, lichess's scoring), played as live games between accounts. The rules are
//! `crown_tournament`'s; this feature stores a tournament ([`Stored`]: the tournament's or arena's
//! state ([`Event`]), its clock, whether rated, who created it, the account of each player) as one
//! versioned row of the
//! store's [`crate::store::TournamentStore`], and changes it only by compare-and-swap on the version
//! ([`Tournaments::change`]): of two instances that race on one transition exactly one writes,
//! the other reloads and checks again, so no round is paired twice.
//!
//! - [`request`]: a new tournament checked;
//! - [`play`]: results read from the games, the next round paired, its games created with ids
//!   derived from (tournament, round, board, game) so that creating them is idempotent;
//! - [`arena`]: the same for an arena — results recorded, free players paired, games created with
//!   ids derived from the arena's game number, nobody paired after its end;
//! - [`view`]: the JSON of a tournament and of the lists.

pub mod arena;
pub mod play;
pub mod request;
pub mod view;

use crate::config::Config;
use crate::error::{Detail, Error, ErrorKind};
use crate::games::live::now_ms;
use crate::games::Games;
use crate::limit::RateLimiter;
use crate::store::{SeatAccount, Store, StoreError, TimeControl, TournamentRecord};
use crate::token::{random_hex, same_secret, token_hash};
use crown_core::Variant;
use crown_tournament::{Arena, Phase, Player, PlayerId, Tournament, TournamentError};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The most changes tried again after losing a compare-and-swap race.
const MAX_CAS_RETRIES: usize = 16;

/// The most tournaments listed per phase.
pub const MAX_LISTED: usize = 50;

/// Wrong join passwords one account may give for one tournament within
/// [`PASSWORD_WINDOW_MS`]; the next try gets `429 too_many_passwords`.
pub const MAX_WRONG_PASSWORDS: usize = 10;

/// The window over which wrong join passwords are counted, in ms (10 minutes).
pub const PASSWORD_WINDOW_MS: u64 = 600_000;

/// How often the sweeper starts tournaments whose start time is reached and catches up with
/// running ones (results missed, games not yet created), in ms.
pub const SWEEP_MS: u64 = 2_000;

/// A tournament's password, salted and hashed (SHA-256 of salt and password, hex).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Password {
    /// Random hex.
    pub salt: String,
    /// SHA-256 of `salt` followed by the password, hex.
    pub sha256: String,
}

impl Password {
    /// A new salted hash of `password`.
    ///
    /// # Errors
    /// `no_randomness`.
    fn new(password: &str) -> Result<Password, Error> {
        let salt = random_hex(16)?;
        let sha256 = token_hash(&format!("{salt}{password}"));
        Ok(Password { salt, sha256 })
    }

    /// Whether `given` is the password.
    fn matches(&self, given: &str) -> bool {
        same_secret(&token_hash(&format!("{}{given}", self.salt)), &self.sha256)
    }
}

/// What is played: a tournament of rounds or an arena (stored under the key `tournament` or
/// `arena` of the row's JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A Swiss or round robin (`crown_tournament`): settings, players, phase, rounds and results.
    #[serde(rename = "tournament")]
    Rounds(Tournament),
    /// An arena.
    #[serde(rename = "arena")]
    Arena(ArenaPlay),
}

/// An arena as played on the server: the arena (`crown_tournament`: players, phase, games and
/// results) and its duration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaPlay {
    /// Players, phase, games and results.
    pub arena: Arena,
    /// Its length in minutes ([`request::ARENA_MINUTES`]).
    pub minutes: u32,
    /// When it ends (ms since the epoch): set when it starts, 0 before. No game is paired from
    /// then on, and only the games that ended by then count (as on lichess).
    #[serde(default)]
    pub ends_ms: u64,
    /// Until when (ms since the epoch) each player, by [`PlayerId`] (index), is not paired: set
    /// when they lose (or draw) a game that ended short ([`arena::SHORT_GAME_WAIT_MS`]); empty
    /// when nobody ever was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held_until_ms: Vec<u64>,
}

/// What the store keeps of a tournament (the row's JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    /// The tournament or the arena.
    #[serde(flatten)]
    pub event: Event,
    /// The account that created it (the one that may start it).
    pub creator: SeatAccount,
    /// The clock of every game.
    pub time_control: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// When it starts by itself (ms since the epoch), 0 for never.
    pub starts_ms: u64,
    /// The opening rule's API name (`acf`, `start`, …).
    pub openings: String,
    /// The join password, if any.
    pub password: Option<Password>,
    /// The account of each player, by [`PlayerId`] (index).
    pub accounts: Vec<SeatAccount>,
    /// The network it was created from ([`creator_network`]: a hash, not the address), which
    /// [`Config::upcoming_tournaments_per_network`] counts; `None` when unknown (created
    /// without a client address, or before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator_net: Option<String>,
    /// The network of each join made with a client address known ([`creator_network`]'s hash),
    /// withdrawn entries included, which [`MAX_ENTRIES_PER_NETWORK`] counts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entry_nets: Vec<String>,
    /// The account of each withdrawal, in order (an account once per withdrawal), which
    /// [`MAX_WITHDRAWALS`] counts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawals: Vec<String>,
}

/// Withdrawals one account may make from one tournament; once it has made them it cannot join
/// it again (`409 too_many_withdrawals`). So joining and withdrawing stays bounded although a
/// withdrawn entry is reused (by the same account, or before the start by a new player).
pub const MAX_WITHDRAWALS: usize = 5;

/// Entries (joins, withdrawn ones included) one network (an IPv4 /24, an IPv6 sign-up network)
/// may make in one tournament; more get `409 network_full`. So the accounts of one network cannot
/// fill a tournament, nor use up its entries by joining and withdrawing.
pub const MAX_ENTRIES_PER_NETWORK: usize = 4;

/// The network of a creator at `ip` as stored in [`Stored::creator_net`]: the SHA-256 (hex) of
/// its block ([`crate::accounts::network::network_block`]: an IPv4 /24, an IPv6 network of
/// `v6_prefix` bits), so the stored state holds no address.
pub fn creator_network(ip: IpAddr, v6_prefix: u8) -> String {
    let block = crate::accounts::network::network_block(ip, v6_prefix);
    token_hash(&format!("tournament creator network {block}/{v6_prefix}"))
}

impl Stored {
    /// The phase.
    pub fn phase_now(&self) -> Phase {
        match &self.event {
            Event::Rounds(t) => t.phase(),
            Event::Arena(a) => a.arena.phase(),
        }
    }

    /// The phase's name: `created`, `running` or `finished`.
    pub fn phase(&self) -> &'static str {
        match self.phase_now() {
            Phase::Created => "created",
            Phase::Running => "running",
            Phase::Finished => "finished",
        }
    }

    /// The players, in joining order (index = [`PlayerId`]).
    pub fn players(&self) -> &[Player] {
        match &self.event {
            Event::Rounds(t) => t.players(),
            Event::Arena(a) => a.arena.players(),
        }
    }

    /// The name.
    pub fn name(&self) -> &str {
        match &self.event {
            Event::Rounds(t) => &t.settings().name,
            Event::Arena(a) => &a.arena.name,
        }
    }

    /// The game played.
    pub fn variant(&self) -> Variant {
        match &self.event {
            Event::Rounds(t) => t.settings().variant,
            Event::Arena(a) => a.arena.variant,
        }
    }

    /// The arena, when it is one.
    pub fn arena(&self) -> Option<&ArenaPlay> {
        match &self.event {
            Event::Arena(a) => Some(a),
            Event::Rounds(_) => None,
        }
    }

    /// The player of `user_id` who has not withdrawn, if any.
    pub fn player_of(&self, user_id: &str) -> Option<PlayerId> {
        self.entry_of(user_id, false)
    }

    /// The entry of `user_id` whose withdrawn flag is `withdrawn`, if any.
    fn entry_of(&self, user_id: &str, withdrawn: bool) -> Option<PlayerId> {
        self.accounts
            .iter()
            .enumerate()
            .find(|(i, a)| {
                a.user_id == user_id
                    && self
                        .players()
                        .get(*i)
                        .is_some_and(|p| p.withdrawn == withdrawn)
            })
            .map(|(i, _)| PlayerId(i as u32))
    }
}

/// The tournament error `e` as the API's error.
pub fn api_error(e: TournamentError) -> Error {
    let code = match &e {
        TournamentError::Settings(_) => return Error::invalid("bad_settings", e.to_string()),
        TournamentError::AlreadyStarted { .. } => "already_started",
        TournamentError::Finished { .. } => "tournament_finished",
        TournamentError::NotStarted { .. } => "not_started",
        TournamentError::TooFewPlayers(_) => "too_few_players",
        TournamentError::BadName { .. } => "already_joined",
        _ => "tournament_state",
    };
    Error::conflict(code, e.to_string())
}

/// `tournaments_unavailable` (503): the store keeps no tournaments.
pub fn unavailable() -> Error {
    Error::new(
        ErrorKind::Full,
        "tournaments_unavailable",
        "this server's store keeps no tournaments",
    )
}

/// `not_found` for tournament `id`.
pub fn not_found(id: &str) -> Error {
    Error::new(
        ErrorKind::NotFound,
        "not_found",
        format!("no tournament with id '{id}'"),
    )
}

/// The tournaments feature: the store's tournaments and the live games they play. A cheap handle.
#[derive(Clone)]
pub struct Tournaments(Arc<Inner>);

/// The state behind [`Tournaments`].
pub struct Inner {
    store: Arc<dyn Store>,
    games: Games,
    /// One lock per tournament this instance advances, so that its own events queue up
    /// (instances still race, which the compare-and-swap settles).
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// [`Config::tournaments_per_account`] (0: no cap).
    per_account: usize,
    /// [`Config::upcoming_tournaments_per_network`] (0: no cap).
    per_network: usize,
    /// [`Config::signup_net_v6_prefix`]: the size of an IPv6 creator's network.
    v6_prefix: u8,
    /// [`Config::tournament_max_players`].
    max_players: usize,
    /// Tournaments created per client address ([`Config::tournaments_per_hour_per_ip`]).
    by_ip: RateLimiter,
    /// Creations on this instance queue here, so that two at once from one account cannot
    /// both pass the per-account cap (other instances may still race it by one).
    creating: tokio::sync::Mutex<()>,
    /// The times (ms) of the wrong join passwords within [`PASSWORD_WINDOW_MS`], by (account,
    /// tournament).
    wrong_passwords: Mutex<HashMap<(String, String), Vec<u64>>>,
}

impl Tournaments {
    /// The tournaments of `store`, whose games `games` holds, with the creation limits of
    /// `config`.
    pub(crate) fn new(config: &Config, store: Arc<dyn Store>, games: Games) -> Tournaments {
        let n = config.tournaments_per_hour_per_ip;
        Tournaments(Arc::new(Inner {
            store,
            games,
            locks: Mutex::new(HashMap::new()),
            per_account: config.tournaments_per_account as usize,
            per_network: config.upcoming_tournaments_per_network as usize,
            v6_prefix: config.signup_net_v6_prefix,
            max_players: config.tournament_max_players.max(2),
            by_ip: RateLimiter::keyed(f64::from(n) / 3600.0, n),
            creating: tokio::sync::Mutex::new(()),
            wrong_passwords: Mutex::new(HashMap::new()),
        }))
    }

    /// Run `f` on the store's tournaments on a blocking thread.
    async fn with_store<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn crate::store::TournamentStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Error> {
        let store = self.0.store.clone();
        let r = crate::blocking::store(move || Ok(store.tournaments().map(f)))
            .await?
            .ok_or_else(unavailable)?;
        r.map_err(|e| match e {
            StoreError::Conflict(id) => Error::conflict(
                "version_conflict",
                format!("tournament '{id}' changed concurrently"),
            ),
            e => Error::storage(e),
        })
    }

    /// Tournament `id` as stored, with its row.
    ///
    /// # Errors
    /// `not_found`, `tournaments_unavailable`, `storage` (a row that does not read included).
    pub async fn load(&self, id: &str) -> Result<(TournamentRecord, Stored), Error> {
        let key = id.to_string();
        let rec = self
            .with_store(move |s| s.load_tournament(&key))
            .await?
            .ok_or_else(|| not_found(id))?;
        let stored = serde_json::from_str(&rec.state)
            .map_err(|e| Error::storage(format!("tournament '{id}' is unreadable: {e}")))?;
        Ok((rec, stored))
    }

    /// Apply `op` to tournament `id` and write it by compare-and-swap on its version; after a
    /// lost race the tournament is read again and `op` applied again (it must be a pure function
    /// of the state), so a transition is made once whichever instance makes it. Nothing is
    /// written when `op` changes nothing. Returns `op`'s value and the state after.
    ///
    /// # Errors
    /// `op`'s error (nothing written), `not_found`, `version_conflict` after
    /// 16 lost races in a row, `storage`.
    pub async fn change<T: Send + 'static>(
        &self,
        id: &str,
        mut op: impl FnMut(&mut Stored, u64) -> Result<T, Error>,
    ) -> Result<(T, Stored), Error> {
        for _ in 0..MAX_CAS_RETRIES {
            let (mut rec, before) = self.load(id).await?;
            let mut next = before.clone();
            let value = op(&mut next, now_ms())?;
            if next == before {
                return Ok((value, next));
            }
            rec.phase = next.phase().to_string();
            rec.starts_ms = next.starts_ms;
            rec.updated_ms = now_ms();
            rec.state = serde_json::to_string(&next).map_err(Error::storage)?;
            match self.with_store(move |s| s.save_tournament(&mut rec)).await {
                Ok(()) => return Ok((value, next)),
                Err(e) if e.code == "version_conflict" => {
                    tracing::debug!(tournament = %id, "tournament changed concurrently: reloading");
                }
                Err(e) => return Err(e),
            }
        }
        Err(Error::conflict(
            "version_conflict",
            format!("tournament '{id}' kept changing concurrently; try again"),
        ))
    }

    /// Create a tournament from `checked`, by `creator` from client address `ip`; returns its
    /// id and state.
    ///
    /// # Errors
    /// `tournament_rate_limited` (429: too many from this address,
    /// [`Config::tournaments_per_hour_per_ip`]), `too_many_tournaments` (429: the creator has
    /// [`Config::tournaments_per_account`] not finished), `too_many_upcoming_tournaments` (429:
    /// its network has [`Config::upcoming_tournaments_per_network`] not started),
    /// `no_randomness`, `tournaments_unavailable`, `storage`.
    pub async fn create(
        &self,
        ip: Option<IpAddr>,
        checked: request::Checked,
        creator: SeatAccount,
    ) -> Result<(String, Stored), Error> {
        self.0.by_ip.check(ip).map_err(|secs| {
            Error::limited(
                "tournament_rate_limited",
                format!("too many tournaments created from this address; retry in {secs} s"),
            )
            .with(Detail::RetryAfterMs(secs.saturating_mul(1000)))
        })?;
        let _creating = self.0.creating.lock().await;
        let creator_net = ip.map(|ip| creator_network(ip, self.0.v6_prefix));
        if self.0.per_network > 0 && creator_net.is_some() {
            // The open tournaments only (at most what the caps let be open), read once.
            let open: Vec<Stored> = self
                .with_store(|s| s.open_tournaments())
                .await?
                .iter()
                .filter_map(|r| serde_json::from_str::<Stored>(&r.state).ok())
                .collect();
            let upcoming = open
                .iter()
                .filter(|s| s.phase_now() == Phase::Created && s.creator_net == creator_net)
                .count();
            if upcoming >= self.0.per_network {
                return Err(Error::limited(
                    "too_many_upcoming_tournaments",
                    format!(
                        "{upcoming} tournaments created from this network have not started yet \
                         (at most {}); one must start first",
                        self.0.per_network
                    ),
                ));
            }
        }
        if self.0.per_account > 0 {
            let me = creator.user_id.clone();
            let mine = self.with_store(move |s| s.open_tournaments_by(&me)).await?;
            if mine >= self.0.per_account as u64 {
                return Err(Error::limited(
                    "too_many_tournaments",
                    format!(
                        "this account already has {mine} tournaments not finished (at most {}); \
                         one must finish first",
                        self.0.per_account
                    ),
                ));
            }
        }
        let mut settings = checked.settings;
        let seed = random_hex(8)?;
        settings.seed = u64::from_str_radix(&seed, 16).map_err(Error::storage)?;
        let event = match checked.arena_minutes {
            Some(minutes) => Event::Arena(ArenaPlay {
                arena: Arena::new(
                    &settings.name,
                    settings.variant,
                    settings.openings,
                    settings.seed,
                )
                .map_err(api_error)?,
                minutes,
                ends_ms: 0,
                held_until_ms: Vec::new(),
            }),
            None => Event::Rounds(Tournament::new(settings).map_err(api_error)?),
        };
        let stored = Stored {
            event,
            creator,
            time_control: checked.time_control,
            rated: checked.rated,
            starts_ms: checked.starts_ms,
            openings: checked.openings,
            password: checked.password.as_deref().map(Password::new).transpose()?,
            accounts: Vec::new(),
            creator_net,
            entry_nets: Vec::new(),
            withdrawals: Vec::new(),
        };
        let now = now_ms();
        let rec = TournamentRecord {
            id: random_hex(4)?,
            phase: stored.phase().to_string(),
            starts_ms: stored.starts_ms,
            created_ms: now,
            updated_ms: now,
            state: serde_json::to_string(&stored).map_err(Error::storage)?,
            version: 1,
            creator: stored.creator.user_id.clone(),
        };
        let id = rec.id.clone();
        self.with_store(move |s| s.create_tournament(&rec)).await?;
        Ok((id, stored))
    }

    /// The tournaments in `phase` (`created`, `running`, `finished`), at most [`MAX_LISTED`]:
    /// `created` ones by start time, the soonest first (those without one after them, the
    /// newest first), the others the newest first.
    ///
    /// # Errors
    /// `tournaments_unavailable`, `storage`.
    pub async fn list(&self, phase: &'static str) -> Result<Vec<(String, Stored)>, Error> {
        let recs = self
            .with_store(move |s| s.list_tournaments(phase, MAX_LISTED))
            .await?;
        read_all(recs)
    }

    /// Every tournament the sweeper must look at, with no cap: the `created` ones whose start
    /// time is reached and the `running` ones ([`crate::store::TournamentStore::due_tournaments`]).
    ///
    /// # Errors
    /// `tournaments_unavailable`, `storage`.
    pub async fn due(&self, now_ms: u64) -> Result<Vec<(String, Stored)>, Error> {
        let recs = self.with_store(move |s| s.due_tournaments(now_ms)).await?;
        read_all(recs)
    }

    /// `Err(too_many_passwords)` when `user_id` gave [`MAX_WRONG_PASSWORDS`] wrong passwords
    /// for tournament `id` within [`PASSWORD_WINDOW_MS`] (forgetting older ones).
    fn check_passwords(&self, user_id: &str, id: &str, now: u64) -> Result<(), Error> {
        let mut map = self
            .0
            .wrong_passwords
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let since = now.saturating_sub(PASSWORD_WINDOW_MS);
        if map.len() > 100_000 {
            // Forget the old so that many accounts cannot exhaust memory.
            map.retain(|_, times| times.iter().any(|t| *t > since));
        }
        let Some(times) = map.get_mut(&(user_id.to_string(), id.to_string())) else {
            return Ok(());
        };
        times.retain(|t| *t > since);
        if times.len() < MAX_WRONG_PASSWORDS {
            return Ok(());
        }
        let wait = times[0] + PASSWORD_WINDOW_MS - now;
        Err(Error::limited(
            "too_many_passwords",
            format!(
                "too many wrong passwords for this tournament; retry in {} s",
                wait.div_ceil(1000)
            ),
        )
        .with(Detail::RetryAfterMs(wait)))
    }

    /// Count one wrong password of `user_id` for tournament `id` at `now`.
    fn wrong_password(&self, user_id: &str, id: &str, now: u64) {
        self.0
            .wrong_passwords
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((user_id.to_string(), id.to_string()))
            .or_default()
            .push(now);
    }

    /// `user` joins tournament `id` (with `password` when it has one), seeded by `rating`; an
    /// arena also while it runs, and a player who left an arena comes back (paired again,
    /// with their points).
    /// Wrong passwords are counted per account and tournament: after
    /// [`MAX_WRONG_PASSWORDS`] within [`PASSWORD_WINDOW_MS`] no password is tried until the
    /// oldest leaves the window.
    ///
    /// # Errors
    /// `wrong_password` (403), `too_many_passwords` (429), `already_joined`,
    /// `tournament_full` ([`Config::tournament_max_players`]), `network_full`
    /// ([`MAX_ENTRIES_PER_NETWORK`] entries from `client`'s network), `already_started`,
    /// `tournament_finished`, `not_found`, `storage`.
    pub async fn join(
        &self,
        id: &str,
        user: SeatAccount,
        password: Option<String>,
        rating: u32,
        client: Option<IpAddr>,
    ) -> Result<Stored, Error> {
        let user_id = user.user_id.clone();
        self.check_passwords(&user_id, id, now_ms())?;
        let net = client.map(|ip| creator_network(ip, self.0.v6_prefix));
        let joined = self.join_checked(id, user, password, rating, net).await;
        if let Err(e) = &joined {
            if e.code == "wrong_password" {
                self.wrong_password(&user_id, id, now_ms());
            }
        }
        joined
    }

    /// [`Tournaments::join`] once the wrong passwords are counted.
    async fn join_checked(
        &self,
        id: &str,
        user: SeatAccount,
        password: Option<String>,
        rating: u32,
        net: Option<String>,
    ) -> Result<Stored, Error> {
        let max_players = self.0.max_players;
        let (_, s) = self
            .change(id, move |s, _| {
                match s.phase_now() {
                    Phase::Created => {}
                    Phase::Running if s.arena().is_some() => {}
                    Phase::Running => {
                        return Err(api_error(TournamentError::AlreadyStarted {
                            operation: "join",
                        }))
                    }
                    Phase::Finished => {
                        return Err(api_error(TournamentError::Finished { operation: "join" }))
                    }
                }
                if let Some(p) = &s.password {
                    if !password.as_deref().is_some_and(|g| p.matches(g)) {
                        return Err(Error::new(
                            ErrorKind::NotSeated,
                            "wrong_password",
                            "this tournament needs its password ('password' in the body)",
                        ));
                    }
                }
                if s.player_of(&user.user_id).is_some() {
                    return Err(Error::conflict(
                        "already_joined",
                        "this account has already joined the tournament",
                    ));
                }
                if s.withdrawals.iter().filter(|u| **u == user.user_id).count() >= MAX_WITHDRAWALS {
                    return Err(Error::conflict(
                        "too_many_withdrawals",
                        format!(
                            "this account has withdrawn from this tournament {MAX_WITHDRAWALS} \
                             times and cannot join it again"
                        ),
                    ));
                }
                check_room(s, max_players)?;
                // A player who left comes back in their own entry: an arena's before the start
                // or while it runs (with their points), a Swiss's or round robin's before it.
                if let Some(p) = s.entry_of(&user.user_id, true) {
                    match &mut s.event {
                        Event::Arena(a) => a.arena.rejoin(p),
                        Event::Rounds(t) => t.reenter(p, &user.name, rating),
                    }
                    .map_err(api_error)?;
                    return Ok(());
                }
                if let Some(net) = &net {
                    if s.entry_nets.iter().filter(|n| *n == net).count() >= MAX_ENTRIES_PER_NETWORK
                    {
                        return Err(Error::conflict(
                            "network_full",
                            format!(
                                "{MAX_ENTRIES_PER_NETWORK} players of your network have already \
                                 joined this tournament (withdrawn ones included)"
                            ),
                        ));
                    }
                }
                s.entry_nets.extend(net.clone());
                // Before the start, once the entries reach twice the cap, a new player takes
                // the place of a withdrawn one (`check_room` let it in only then).
                let free = (s.players().len() >= entries_cap(s, max_players))
                    .then(|| s.players().iter().find(|p| p.withdrawn).map(|p| p.id))
                    .flatten();
                if let Some(p) = free {
                    match &mut s.event {
                        Event::Rounds(t) => t.reenter(p, &user.name, rating),
                        Event::Arena(a) => a.arena.reenter(p, &user.name, rating),
                    }
                    .map_err(api_error)?;
                    s.accounts[p.0 as usize] = user.clone();
                    return Ok(());
                }
                match &mut s.event {
                    Event::Rounds(t) => t.join(&user.name, rating),
                    Event::Arena(a) => a.arena.join(&user.name, rating),
                }
                .map_err(api_error)?;
                s.accounts.push(user.clone());
                Ok(())
            })
            .await?;
        if s.arena().is_some() && s.phase_now() == Phase::Running {
            // Paired at once when another player is free.
            return self.advance(id).await;
        }
        Ok(s)
    }

    /// `user` withdraws from tournament `id`: before the start they are out; once running they
    /// are paired no more (their games in progress go on). From a running arena this is
    /// lichess's pause: they keep their points and may join again.
    ///
    /// # Errors
    /// `not_joined`, `tournament_finished`, `not_found`, `storage`.
    pub async fn withdraw(&self, id: &str, user_id: String) -> Result<Stored, Error> {
        let (_, s) = self
            .change(id, move |s, _| {
                let p = s.player_of(&user_id).ok_or_else(|| {
                    Error::conflict(
                        "not_joined",
                        "this account is not a player of the tournament",
                    )
                })?;
                match &mut s.event {
                    Event::Rounds(t) => t.withdraw(p),
                    Event::Arena(a) => a.arena.withdraw(p),
                }
                .map_err(api_error)?;
                s.withdrawals.push(user_id.clone());
                Ok(())
            })
            .await?;
        Ok(s)
    }

    /// Start tournament `id`: by its creator (`by`), or by the server once its start time is
    /// reached (`by` = `None`); then round 1 is paired and its games created. A Swiss of more
    /// rounds than its players allow plays the most they allow (`Tournament::start`). When the
    /// server cannot start it at its start time (fewer than 2 players, too many for a Swiss), it
    /// is cancelled instead — finished with the reason in its view, logged at warn — rather than
    /// tried again forever. An arena starts with any number of players (more may join while it
    /// runs) and ends its duration later.
    ///
    /// # Errors
    /// `not_creator` (403), `too_few_players`, `bad_settings` (by its creator), `already_started`,
    /// `tournament_finished`, `not_found`, `storage`.
    pub async fn start(&self, id: &str, by: Option<String>) -> Result<Stored, Error> {
        let (cancelled, _) = self
            .change(id, move |s, now| {
                match &by {
                    Some(u) if *u != s.creator.user_id => {
                        return Err(Error::new(
                            ErrorKind::NotSeated,
                            "not_creator",
                            "only the tournament's creator starts it before its start time",
                        ))
                    }
                    None if s.starts_ms == 0 || now < s.starts_ms => {
                        return Err(Error::conflict(
                            "not_started",
                            "its start time is not reached",
                        ))
                    }
                    _ => {}
                }
                let t = match &mut s.event {
                    Event::Rounds(t) => t,
                    Event::Arena(a) => {
                        a.arena.start().map_err(api_error)?;
                        a.ends_ms = now.saturating_add(u64::from(a.minutes) * 60_000);
                        return Ok(None);
                    }
                };
                match t.start() {
                    Ok(()) => Ok(None),
                    Err(e @ (TournamentError::TooFewPlayers(_) | TournamentError::Settings(_)))
                        if by.is_none() =>
                    {
                        let reason = format!("not started at its start time: {e}");
                        t.cancel(&reason).map_err(api_error)?;
                        Ok(Some(reason))
                    }
                    Err(e) => Err(api_error(e)),
                }
            })
            .await?;
        if let Some(reason) = cancelled {
            tracing::warn!(tournament = %id, %reason, "tournament cancelled");
        }
        self.advance(id).await
    }

    /// The lock of tournament `id` on this instance.
    fn lock(&self, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        self.0
            .locks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(id.to_string())
            .or_default()
            .clone()
    }

    /// Start the background task: each game that ends here advances its tournament at once,
    /// and every [`SWEEP_MS`] the tournaments whose start time is reached are started and the
    /// running ones advanced (a result missed, a round's games not yet created after a crash).
    /// Stops at shutdown.
    pub(crate) fn spawn(&self, mut shutdown: tokio::sync::watch::Receiver<bool>) {
        if self.0.store.tournaments().is_none() {
            return;
        }
        let Some(mut ended) = self.0.games.on_end() else {
            return;
        };
        let me = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(SWEEP_MS));
            loop {
                tokio::select! {
                    Some(game) = ended.recv() => {
                        if let Some(slot) = play::parse_game_id(&game) {
                            if let Err(e) = me.advance(&slot.0).await {
                                tracing::warn!(tournament = %slot.0, error = %e, "advancing failed");
                            }
                        }
                    }
                    _ = tick.tick() => me.sweep().await,
                    _ = shutdown.changed() => break,
                }
            }
        });
    }

    /// One sweep: start every tournament whose start time is reached and advance every
    /// running one ([`Tournaments::advance`]), however many there are
    /// ([`Tournaments::due`]); failures are logged.
    pub async fn sweep(&self) {
        let now = now_ms();
        let due = match self.due(now).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "listing tournaments failed");
                return;
            }
        };
        for (id, s) in due {
            if s.phase_now() == Phase::Created {
                // One that cannot start is cancelled by `start`, so a failure here (storage, a
                // lost race) is not repeated every sweep for ever.
                match self.start(&id, None).await {
                    Ok(_) => {}
                    // Another instance started it first.
                    Err(e) if e.code == "already_started" || e.code == "tournament_finished" => {
                        tracing::debug!(tournament = %id, error = %e, "started elsewhere");
                    }
                    Err(e) => tracing::warn!(tournament = %id, error = %e, "starting failed"),
                }
            } else if let Err(e) = self.advance(&id).await {
                tracing::warn!(tournament = %id, error = %e, "advancing failed");
            }
        }
    }
}

/// The player cap of tournament `s` under the server's `max`: a Swiss pairs at most
/// [`crown_tournament::MAX_SWISS_PLAYERS`].
fn player_cap(s: &Stored, max: usize) -> usize {
    match &s.event {
        Event::Rounds(t) => match t.settings().format {
            crown_tournament::Format::Swiss { .. } => max.min(crown_tournament::MAX_SWISS_PLAYERS),
            _ => max,
        },
        Event::Arena(_) => max,
    }
}

/// The most entries tournament `s` keeps, withdrawn ones included: twice its [`player_cap`].
fn entries_cap(s: &Stored, max: usize) -> usize {
    player_cap(s, max).saturating_mul(2)
}

/// `Err(tournament_full)` when tournament `s` has `max` players (a Swiss: at most
/// [`crown_tournament::MAX_SWISS_PLAYERS`]) not withdrawn, or twice `max` entries counting those
/// withdrawn (each entry stays in its state and its view) — unless it has not started and one of
/// them is withdrawn: a new player then takes that entry's place, so a withdrawn entry blocks no
/// one before the start (once it runs, a withdrawn entry has its games and points).
fn check_room(s: &Stored, max: usize) -> Result<(), Error> {
    let reusable = s.phase_now() == Phase::Created && s.players().iter().any(|p| p.withdrawn);
    let max = player_cap(s, max);
    let players = s.players();
    let playing = players.iter().filter(|p| !p.withdrawn).count();
    if playing >= max {
        return Err(Error::conflict(
            "tournament_full",
            format!("the tournament is full ({max} players)"),
        ));
    }
    if players.len() >= max.saturating_mul(2) && !reusable {
        return Err(Error::conflict(
            "tournament_full",
            format!(
                "the tournament is full: {} entries, withdrawn ones included (at most {})",
                players.len(),
                max.saturating_mul(2)
            ),
        ));
    }
    Ok(())
}

/// The stored tournaments `recs` read, with their ids.
///
/// # Errors
/// `storage`, naming the tournament whose state does not read.
fn read_all(recs: Vec<TournamentRecord>) -> Result<Vec<(String, Stored)>, Error> {
    recs.into_iter()
        .map(|r| {
            serde_json::from_str(&r.state)
                .map(|s| (r.id.clone(), s))
                .map_err(|e| Error::storage(format!("tournament '{}': {e}", r.id)))
        })
        .collect()
}

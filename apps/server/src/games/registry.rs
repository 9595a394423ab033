//! The game registry: the games held in memory ([`GameHandle`]), read from the store when first
//! asked for, inserted when created, and changed by [`Games::mutate`], which saves a change before
//! making it live and pushing it to every WebSocket of the game.

use crate::error::{Error, ErrorKind};
use crate::games::handle::GameHandle;
use crate::games::live::{self, now_ms, Live};
use crate::games::Games;
use crate::store::is_over;
use crate::store::StoreError;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::broadcast;

/// The event name and full game view pushed over the WebSocket.
#[derive(serde::Serialize)]
struct Push<'a> {
    r#type: &'static str,
    event: &'a str,
    game: &'a live::GameView,
}

/// The expected `(black, white)` account ids of a rated game being joined and their pre-game
/// ratings ([`Games::pregame_ratings`]).
type PregameRatings = Option<((Option<String>, Option<String>), crate::ratings::Pregame)>;

/// What a new game counts toward its creator's limits ([`Games::count_new`]): the address for
/// each per-address count taken, the network for each per-network one.
#[derive(Default)]
pub(crate) struct NewCounts {
    /// The creator's network, whatever was counted.
    net: Option<std::net::IpAddr>,
    seated: Option<std::net::IpAddr>,
    unjoined: Option<std::net::IpAddr>,
    engine: Option<std::net::IpAddr>,
    net_game: Option<std::net::IpAddr>,
    net_seek: Option<std::net::IpAddr>,
}

/// The error of a failed write of a game: `pair_limit` (409) for [`StoreError::PairLimit`], which
/// the join and the paired game's creation answer by playing the game unrated; `storage` else.
pub(crate) fn store_error(e: StoreError) -> Error {
    match e {
        StoreError::PairLimit(_) => Error::conflict(
            PAIR_LIMIT,
            "the pair's rated games of the last 24 hours are used up",
        ),
        e => Error::storage(e),
    }
}

/// The code of [`store_error`]'s refusal by the per-pair cap, and the `unrated_reason` of a game
/// it makes unrated.
pub(crate) const PAIR_LIMIT: &str = "pair_limit";

/// Times a change is re-validated against a reloaded game after a version conflict before the
/// request is answered `409 version_conflict`.
const MAX_CONFLICT_RETRIES: u32 = 3;

impl Games {
    /// Load every unfinished game from a store of its own (SQLite), shifting running clocks so
    /// that downtime since the last heartbeat is not charged, and write a heartbeat.
    ///
    /// # Errors
    /// A message if the store cannot be read or a stored game does not replay.
    pub(crate) async fn resume(&self) -> Result<(), String> {
        let store = self.store.clone();
        let loaded = tokio::task::spawn_blocking(move || -> Result<Vec<Live>, String> {
            let heartbeat = store.last_heartbeat().map_err(|e| e.to_string())?;
            // Read and replay every game first; only then take the instant the clocks resume at,
            // so the time spent loading is downtime too and never charged.
            let mut out = store
                .load_unfinished()
                .map_err(|e| e.to_string())?
                .into_iter()
                .map(Live::from_record)
                .collect::<Result<Vec<_>, _>>()?;
            let now = now_ms();
            if let Some(hb) = heartbeat {
                let changed: Vec<usize> = out
                    .iter_mut()
                    .enumerate()
                    .filter_map(|(i, live)| live.resume_after_downtime(hb, now).then_some(i))
                    .collect();
                // One transaction for every shifted clock.
                let mut recs: Vec<_> = changed.iter().map(|&i| out[i].rec.clone()).collect();
                store.save_rows(&mut recs).map_err(|e| e.to_string())?;
                for (&i, rec) in changed.iter().zip(recs) {
                    out[i].rec = rec;
                }
            }
            store.heartbeat(now).map_err(|e| e.to_string())?;
            Ok(out)
        })
        .await
        .map_err(|e| e.to_string())??;
        let count = loaded.len();
        {
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            for live in loaded {
                games.insert(live.rec.id.clone(), GameHandle::new(live));
            }
        }
        self.open_games.store(count, Ordering::SeqCst);
        tracing::info!(games = count, "resumed unfinished games");
        Ok(())
    }

    /// [`GameHandle::seat_of_token`] for a change, on a copy from [`Games::handle_for_change`]: a
    /// token the copy does not know is checked again against the stored game (it may have been
    /// seated on another instance) before it is refused.
    ///
    /// # Errors
    /// `bad_token`, `storage`.
    pub async fn changer_seat(
        &self,
        h: &Arc<GameHandle>,
        token: &str,
    ) -> Result<crown_core::Color, Error> {
        match h.seat_of_token(token).await {
            Ok(c) => Ok(c),
            Err(e) if e.code == "bad_token" && self.recheck(h).await? => {
                h.seat_of_token(token).await
            }
            Err(e) => Err(e),
        }
    }

    pub(crate) fn all_handles(&self) -> Vec<Arc<GameHandle>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }

    /// A new player takes the open seat of `h` with a fresh secret token: its colour, the token
    /// and the game as that seat sees it.
    ///
    /// # Errors
    /// `seat_taken`, `cancelled`, `no_randomness`, `storage`.
    pub async fn join(
        &self,
        h: &Arc<GameHandle>,
    ) -> Result<(crown_core::Color, String, live::GameView), Error> {
        self.join_seat(h, false, None, None).await
    }

    /// [`Games::join`] by a client at `client`, which then holds a seat of the game: counted
    /// toward its `max_games_per_ip` (once per game) until the game is finished.
    ///
    /// # Errors
    /// Those of [`Games::join`], and `too_many_active_games` when `client` already holds seats of
    /// `max_games_per_ip` unfinished games.
    pub async fn join_from(
        &self,
        h: &Arc<GameHandle>,
        client: Option<std::net::IpAddr>,
        account: Option<crate::store::SeatAccount>,
    ) -> Result<(crown_core::Color, String, live::GameView), Error> {
        self.join_seat(h, false, client, account).await
    }

    /// The error for an address that holds seats of `max_games_per_ip` unfinished games.
    fn too_many_active(&self) -> Error {
        let max = self.config.max_games_per_ip;
        Error::limited(
            "too_many_active_games",
            format!(
                "this address already holds a seat in {max} unfinished games; finish, resign \
                 or cancel one first"
            ),
        )
    }

    /// Count `client` as holding a seat of `h` (once per game); `Ok(Some(ip))` when this call
    /// counted it (to undo with [`Games::uncount_seat`] if the seat is not taken after all).
    fn count_seat(
        &self,
        h: &GameHandle,
        client: Option<std::net::IpAddr>,
    ) -> Result<Option<std::net::IpAddr>, Error> {
        let Some(ip) = client else { return Ok(None) };
        let mut by = h.seated_by.lock().unwrap_or_else(|e| e.into_inner());
        if by.contains(&ip) {
            return Ok(None);
        }
        if !self.seated.try_inc(ip, self.config.max_games_per_ip) {
            return Err(self.too_many_active());
        }
        by.push(ip);
        Ok(Some(ip))
    }

    /// Undo a [`Games::count_seat`] whose seat was not taken (unless the game's finish already
    /// freed it).
    fn uncount_seat(&self, h: &GameHandle, counted: Option<std::net::IpAddr>) {
        let Some(ip) = counted else { return };
        let mut by = h.seated_by.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = by.iter().position(|&x| x == ip) {
            by.swap_remove(i);
            self.seated.dec(ip);
        }
    }

    /// [`Games::join`]; with `reserved_ok` (the finished game's opponent accepting a rematch) also
    /// the seat of a rematch reserved for that opponent, which a plain join may not take.
    ///
    /// # Errors
    /// Those of [`Games::join`], and `seat_reserved` for a reserved seat without `reserved_ok`.
    pub(crate) async fn join_seat(
        &self,
        h: &Arc<GameHandle>,
        reserved_ok: bool,
        client: Option<std::net::IpAddr>,
        account: Option<crate::store::SeatAccount>,
    ) -> Result<(crown_core::Color, String, live::GameView), Error> {
        let token = crate::token::random_hex(32)?;
        let pregame = self.pregame_ratings(h, account.as_ref()).await?;
        match self
            .take_seat(h, reserved_ok, client, &account, &token, pregame.clone())
            .await
        {
            // The store counted the pair's rated games when writing the join and found them used
            // up (another join of the pair got there first): the game is played unrated.
            Err(e) if e.code == PAIR_LIMIT => {
                let unrated = crate::ratings::Pregame::Unrated(PAIR_LIMIT);
                let pregame = pregame.map(|(ids, _)| (ids, unrated));
                self.take_seat(h, reserved_ok, client, &account, &token, pregame)
                    .await
            }
            r => r,
        }
        .map(|(color, game)| (color, token, game))
    }

    /// [`Games::join_seat`] with the pre-game ratings `pregame` read before.
    ///
    /// # Errors
    /// Those of [`Games::join_seat`], and `pair_limit` when the store refuses the rated game
    /// ([`store_error`]).
    async fn take_seat(
        &self,
        h: &Arc<GameHandle>,
        reserved_ok: bool,
        client: Option<std::net::IpAddr>,
        account: &Option<crate::store::SeatAccount>,
        token: &str,
        pregame: PregameRatings,
    ) -> Result<(crown_core::Color, live::GameView), Error> {
        let (t2, account) = (token.to_string(), account.clone());
        let counted = self.count_seat(h, client)?;
        let joined = self
            .mutate(h, "join", None, move |live, now| {
                if live.rec.meta.reserved && !reserved_ok && live.rec.status == "open" {
                    return Err(Error::conflict(
                        "seat_reserved",
                        "this rematch's seat belongs to the finished game's opponent, who takes it \
                         with POST /api/games/{id}/rematch on the finished game",
                    ));
                }
                if live.rec.meta.rated && live.rec.status == "open" {
                    let Some(a) = &account else {
                        return Err(crate::accounts::login_required());
                    };
                    let theirs = live.rec.meta.accounts.black.as_ref();
                    let theirs = theirs.or(live.rec.meta.accounts.white.as_ref());
                    if theirs.is_some_and(|t| t.user_id == a.user_id) {
                        return Err(Error::conflict(
                            "same_account",
                            "a rated game is between two different accounts: this one holds the \
                             other seat",
                        ));
                    }
                }
                let color = live.join(t2.clone(), now)?;
                live.rec.meta.accounts.set(color, account.clone());
                if let Some((ids, r)) = &pregame {
                    let a = &live.rec.meta.accounts;
                    let id = |s: Option<&crate::store::SeatAccount>| s.map(|s| s.user_id.clone());
                    if live.rec.meta.rated && (id(a.black.as_ref()), id(a.white.as_ref())) == *ids {
                        match r {
                            crate::ratings::Pregame::Rated(r) => live.rec.meta.ratings = Some(*r),
                            crate::ratings::Pregame::Unrated(why) => {
                                live.rec.meta.unrated = Some((*why).to_string());
                            }
                        }
                    }
                }
                Ok(color)
            })
            .await;
        let (color, _) = match joined {
            Ok(j) => j,
            Err(e) => {
                self.uncount_seat(h, counted);
                return Err(e);
            }
        };
        let game = h.live.lock().await.view(now_ms(), Some(color));
        Ok((color, game))
    }

    /// The pre-game ratings of a rated game that `account` is about to join (read before the
    /// join, from the held copy): the expected `(black, white)` account ids and their ratings.
    /// `None` for a casual game, a game without an open seat, or a guest.
    ///
    /// # Errors
    /// `storage`, `accounts_unavailable`.
    async fn pregame_ratings(
        &self,
        h: &Arc<GameHandle>,
        account: Option<&crate::store::SeatAccount>,
    ) -> Result<PregameRatings, Error> {
        let Some(a) = account else { return Ok(None) };
        let (variant, speed, accs) = {
            let live = h.live.lock().await;
            if !live.rec.meta.rated || live.rec.status != "open" {
                return Ok(None);
            }
            let m = &live.rec.meta;
            (live.rec.variant.clone(), m.speed(), m.accounts.clone())
        };
        let (b, w) = match (accs.black.as_ref(), accs.white.as_ref()) {
            (Some(b), None) => (b, a),
            (None, Some(w)) => (a, w),
            _ => return Ok(None),
        };
        let ids = (Some(b.user_id.clone()), Some(w.user_id.clone()));
        let r = self
            .ratings
            .pregame(&variant, speed, (Some(b), Some(w)))
            .await?;
        Ok(r.map(|r| (ids, r)))
    }

    /// The game `id` if this instance holds it in memory.
    pub(crate) fn held(&self, id: &str) -> Option<Arc<GameHandle>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// The game `id`, from memory or loaded from the store.
    ///
    /// # Errors
    /// `not_found`, or `storage` if loading failed.
    pub async fn handle(&self, id: &str) -> Result<Arc<GameHandle>, Error> {
        if let Some(h) = self.held(id) {
            if self.shared() {
                // Another instance may have changed it: never answer from a stale copy.
                self.refresh(&h, None).await?;
            }
            return Ok(h);
        }
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Error::not_found(id));
        }
        let store = self.store.clone();
        let key = id.to_string();
        let generation = self.listening();
        let rec = tokio::task::spawn_blocking(move || store.load(&key))
            .await
            .map_err(Error::storage)?
            .map_err(Error::storage)?
            .ok_or_else(|| Error::not_found(id))?;
        let live = Live::from_record(rec).map_err(Error::storage)?;
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        Ok(games
            .entry(id.to_string())
            .or_insert_with(|| {
                let h = GameHandle::new(live);
                self.mark_synced(&h, generation);
                h
            })
            .clone())
    }

    /// The game `id` for a change (a move, a seat action): as [`Games::handle`], except that with a
    /// shared store the version check is skipped while the held copy is known to have seen every
    /// committed change (`GameHandle::synced`, docs/scaling.md "Version checks"). That is safe
    /// for a change: a save from a stale copy fails its versioned `UPDATE` and is retried on the
    /// reloaded game, and a change refused by the copy is checked again against the stored
    /// version before the refusal is answered ([`Games::mutate`], `Games::recheck`).
    ///
    /// # Errors
    /// As [`Games::handle`].
    pub async fn handle_for_change(&self, id: &str) -> Result<Arc<GameHandle>, Error> {
        if self.shared() {
            if let Some(h) = self.held(id) {
                if self.in_sync(&h) {
                    return Ok(h);
                }
            }
        }
        self.handle(id).await
    }

    /// Insert a newly created game: saved first, then held in memory.
    ///
    /// # Errors
    /// `too_many_games` when the limit of open games is reached, the per-address and per-network
    /// limits of a client ([`Games::count_new`]), `storage` if saving failed.
    pub async fn insert(
        &self,
        live: Live,
        client: Option<std::net::IpAddr>,
    ) -> Result<Arc<GameHandle>, Error> {
        let counts = self.count_new(&live, client)?;
        let r = self.insert_counted(live, &counts).await;
        if r.is_err() {
            self.uncount_new(&counts);
        }
        r
    }

    /// Count a new game `live` toward the limits of the client at `client` that creates it.
    ///
    /// # Errors
    /// `too_many_active_games`, `too_many_unjoined`, `too_many_engine_games` (per address),
    /// `too_many_network_games`, `too_many_seeks` (per network); nothing is counted then.
    fn count_new(&self, live: &Live, client: Option<std::net::IpAddr>) -> Result<NewCounts, Error> {
        let mut counts = NewCounts::default();
        let Some(ip) = client else {
            return Ok(counts);
        };
        let net = crate::accounts::network::network_block(ip, self.config.signup_net_v6_prefix);
        counts.net = Some(net);
        match self.take_counts(live, ip, net, &mut counts) {
            Ok(()) => Ok(counts),
            Err(e) => {
                self.uncount_new(&counts);
                Err(e)
            }
        }
    }

    /// [`Games::count_new`]'s counts, each recorded in `counts` as it is taken.
    fn take_counts(
        &self,
        live: &Live,
        ip: std::net::IpAddr,
        net: std::net::IpAddr,
        counts: &mut NewCounts,
    ) -> Result<(), Error> {
        let (open, unjoined) = (!is_over(&live.rec.status), live.rec.status == "open");
        let c = &self.config;
        if open {
            if !self.seated.try_inc(ip, c.max_games_per_ip) {
                return Err(self.too_many_active());
            }
            counts.seated = Some(ip);
        }
        if unjoined {
            let max = c.max_unjoined_per_ip;
            if !self.unjoined.try_inc(ip, max) {
                return Err(Error::limited(
                    "too_many_unjoined",
                    format!(
                        "this address already has {max} games nobody has joined; \
                         cancel one or wait for a player"
                    ),
                ));
            }
            counts.unjoined = Some(ip);
        }
        if open && live.engine_color().is_some() {
            let max = c.max_engine_games_per_ip;
            if !self.engine_games.try_inc(ip, max) {
                return Err(Error::limited(
                    "too_many_engine_games",
                    format!(
                        "this address already plays {max} unfinished games against the \
                         engine; finish or resign one first"
                    ),
                ));
            }
            counts.engine = Some(ip);
        }
        if open {
            let max = c.max_games_per_net;
            if !self.net_games.try_inc(net, max) {
                return Err(Error::limited(
                    "too_many_network_games",
                    format!(
                        "the addresses of this network ({net}, an IPv4 /24 or an IPv6 /{}) \
                         already created {max} unfinished games; finish, resign or cancel one \
                         first",
                        c.signup_net_v6_prefix
                    ),
                ));
            }
            counts.net_game = Some(net);
        }
        if unjoined && live.rec.meta.public {
            let max = c.max_seeks_per_net;
            if !self.net_seeks.try_inc(net, max) {
                return Err(Error::limited(
                    "too_many_seeks",
                    format!(
                        "the addresses of this network ({net}, an IPv4 /24 or an IPv6 /{}) \
                         already have {max} public seeks in the lobby; cancel one or wait for \
                         a player",
                        c.signup_net_v6_prefix
                    ),
                ));
            }
            counts.net_seek = Some(net);
        }
        Ok(())
    }

    /// Give back the counts of a game that was not created after all.
    fn uncount_new(&self, counts: &NewCounts) {
        let pairs = [
            (&self.seated, counts.seated),
            (&self.unjoined, counts.unjoined),
            (&self.engine_games, counts.engine),
            (&self.net_games, counts.net_game),
            (&self.net_seeks, counts.net_seek),
        ];
        for (counter, ip) in pairs {
            if let Some(ip) = ip {
                counter.dec(ip);
            }
        }
    }

    pub(crate) async fn insert_counted(
        &self,
        live: Live,
        counts: &NewCounts,
    ) -> Result<Arc<GameHandle>, Error> {
        let max = self.config.max_open_games;
        if self
            .open_games
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .is_err()
        {
            return Err(Error::new(
                ErrorKind::Full,
                "too_many_games",
                format!("the server already holds {max} unfinished games; try again later"),
            ));
        }
        let store = self.store.clone();
        let rec = live.rec.clone();
        let generation = self.listening();
        let saved = tokio::task::spawn_blocking(move || store.create(&rec)).await;
        if let Err(e) = saved
            .map_err(Error::storage)
            .and_then(|r| r.map_err(store_error))
        {
            self.open_games.fetch_sub(1, Ordering::SeqCst);
            return Err(e);
        }
        let id = live.rec.id.clone();
        let h = GameHandle::new(live);
        self.mark_synced(&h, generation);
        *h.unjoined_by.lock().unwrap_or_else(|e| e.into_inner()) = counts.unjoined;
        *h.engine_by.lock().unwrap_or_else(|e| e.into_inner()) = counts.engine;
        *h.seated_by.lock().unwrap_or_else(|e| e.into_inner()) =
            counts.seated.into_iter().collect();
        *h.net_game_by.lock().unwrap_or_else(|e| e.into_inner()) = counts.net_game;
        *h.net_seek_by.lock().unwrap_or_else(|e| e.into_inner()) = counts.net_seek;
        if let Some(net) = counts.net {
            let _ = h.net.set(net);
        }
        if self.shared() {
            let (store, me) = (self.store.clone(), self.instance.clone());
            let (id2, until) = (id.clone(), now_ms() + self.config.lease_ms);
            let claim = move || {
                store
                    .leases()
                    .map_or(Ok(false), |l| l.claim_lease(&id2, &me, until))
            };
            match tokio::task::spawn_blocking(claim).await {
                Ok(Ok(true)) => {
                    self.owned
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(id.clone());
                }
                Ok(Ok(false)) => {}
                // A lease round takes it later.
                _ => tracing::warn!(game = %id, "could not take the new game's lease"),
            }
        }
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, h.clone());
        self.maybe_engine(h.clone());
        Ok(h)
    }

    /// Apply `op` to a copy of the game, save the copy, then make it live and push it to every
    /// WebSocket. If `op` fails nothing changes, except that an error with code `time_out` (the
    /// mover's flag fell) still saves the game ended on time. Returns `op`'s value and the view for
    /// `you`.
    ///
    /// # Errors
    /// `op`'s error, or `storage` if saving failed (then nothing changed).
    pub async fn mutate<T: Send + 'static>(
        &self,
        h: &Arc<GameHandle>,
        event: &'static str,
        you: Option<crown_core::Color>,
        op: impl FnMut(&mut Live, u64) -> Result<T, Error> + Send + 'static,
    ) -> Result<(T, live::GameView), Error> {
        // Run in its own task: if the client goes away or the request times out, the change is
        // still either committed and made live, or not made at all (never saved but not live).
        let games = self.clone();
        let h = h.clone();
        tokio::spawn(async move { games.mutate_inner(&h, event, you, op).await })
            .await
            .map_err(Error::storage)?
    }

    pub(crate) async fn mutate_inner<T: Send + 'static>(
        &self,
        h: &Arc<GameHandle>,
        event: &str,
        you: Option<crown_core::Color>,
        mut op: impl FnMut(&mut Live, u64) -> Result<T, Error>,
    ) -> Result<(T, live::GameView), Error> {
        let mut guard = h.live.lock().await;
        let mut attempt = 0;
        let mut rechecked = false;
        let value = loop {
            let mut next = guard.clone();
            let now = now_ms();
            // A flag that fell (`time_out`) still saves the game ended on time.
            let (value, flag) = match op(&mut next, now) {
                Ok(v) => (Some(v), None),
                Err(e) if e.code == "time_out" => (None, Some(e)),
                Err(e) => {
                    // With a shared store the copy may be behind (its version check may have
                    // been skipped): refuse only what the stored game refuses too.
                    if self.shared() && !rechecked {
                        rechecked = true;
                        if self.catch_up(h, &mut guard).await? {
                            continue;
                        }
                    }
                    return Err(e);
                }
            };
            let keep = guard.rec.moves.len().min(next.rec.moves.len());
            let store = self.store.clone();
            let saved =
                tokio::task::spawn_blocking(move || store.save(&mut next.rec, keep).map(|()| next))
                    .await
                    .map_err(Error::storage)?;
            match saved {
                Ok(next) => {
                    self.apply(
                        h,
                        &mut guard,
                        next,
                        if flag.is_some() { "time_out" } else { event },
                    );
                }
                // Another instance changed the game since this copy was read: reload it and
                // validate the change again against the current state (bounded).
                Err(StoreError::Conflict(id)) => {
                    attempt += 1;
                    if attempt > MAX_CONFLICT_RETRIES {
                        return Err(Error::conflict(
                            "version_conflict",
                            format!("game '{id}' kept changing concurrently; try again"),
                        ));
                    }
                    tracing::debug!(game = %id, attempt, "version conflict: reloading");
                    self.reload(h, &mut guard).await?;
                    continue;
                }
                Err(e @ StoreError::PairLimit(_)) => return Err(store_error(e)),
                Err(e) => {
                    tracing::error!(error = %e, "saving a game failed");
                    return Err(Error::storage(e));
                }
            }
            if let Some(e) = flag {
                return Err(e);
            }
            break value.expect("the change succeeded");
        };
        let view = guard.view(now_ms(), you);
        drop(guard);
        self.maybe_engine(h.clone());
        Ok((value, view))
    }

    /// Replace the held game by the stored one (after a version conflict) and push it.
    ///
    /// # Errors
    /// `storage` if it cannot be read or replayed, `not_found` if it is gone.
    pub(crate) async fn reload(
        &self,
        h: &Arc<GameHandle>,
        guard: &mut tokio::sync::MutexGuard<'_, Live>,
    ) -> Result<(), Error> {
        let store = self.store.clone();
        let id = h.id.to_string();
        let generation = self.listening();
        let rec = tokio::task::spawn_blocking(move || store.load(&id))
            .await
            .map_err(Error::storage)?
            .map_err(Error::storage)?
            .ok_or_else(|| Error::not_found(&h.id))?;
        let live = Live::from_record(rec).map_err(Error::storage)?;
        let event = if live.rec.moves.len() > guard.rec.moves.len() {
            "move"
        } else {
            "sync"
        };
        self.apply(h, guard, live, event);
        self.mark_synced(h, generation);
        Ok(())
    }

    /// Make `next` (just saved, or just read from the store) the live game and push it to every
    /// WebSocket of this instance.
    pub(crate) fn apply(
        &self,
        h: &Arc<GameHandle>,
        guard: &mut tokio::sync::MutexGuard<'_, Live>,
        next: Live,
        event: &str,
    ) {
        let was_open = !is_over(&guard.rec.status);
        **guard = next;
        if was_open && is_over(&guard.rec.status) {
            // Saturating: with a shared store a game counted by another instance may end here.
            let _ = self
                .open_games
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
            if let Some(tx) = self.ended.get() {
                let _ = tx.send(guard.rec.id.clone());
            }
        }
        if is_over(&guard.rec.status) {
            if let Some(ip) = h.engine_by.lock().unwrap_or_else(|e| e.into_inner()).take() {
                self.engine_games.dec(ip);
            }
            if let Some(net) = h
                .net_game_by
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
            {
                self.net_games.dec(net);
            }
            let seated =
                std::mem::take(&mut *h.seated_by.lock().unwrap_or_else(|e| e.into_inner()));
            for ip in seated {
                self.seated.dec(ip);
            }
        }
        if guard.rec.status != "open" {
            if let Some(ip) = h
                .unjoined_by
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
            {
                self.unjoined.dec(ip);
            }
            if let Some(net) = h
                .net_seek_by
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
            {
                self.net_seeks.dec(net);
            }
        }
        h.deadline
            .store(guard.flag_deadline().unwrap_or(u64::MAX), Ordering::SeqCst);
        let view = guard.view(now_ms(), None);
        tracing::info!(game = %guard.rec.id, event, ply = guard.rec.moves.len(), status = %guard.rec.status, "game changed");
        let push = Push {
            r#type: "state",
            event,
            game: &view,
        };
        if let Ok(text) = serde_json::to_string(&push) {
            let _ = h.tx.send(Arc::from(text));
        }
    }

    /// Subscribe to a game's pushes.
    pub fn subscribe(h: &GameHandle) -> broadcast::Receiver<Arc<str>> {
        h.tx.subscribe()
    }

    /// The current state message of a game for a new WebSocket.
    pub async fn snapshot(h: &GameHandle, you: Option<crown_core::Color>) -> String {
        let live = h.live.lock().await;
        let view = live.view(now_ms(), you);
        serde_json::to_string(&Push {
            r#type: "state",
            event: "snapshot",
            game: &view,
        })
        .unwrap_or_default()
    }
}

//! # crown-server
//!
//! Online play for Crown: durable games stored in SQLite (behind the [`store::Store`] trait), seats
//! protected by secret tokens, a WebSocket per game pushing every change to players and spectators,
//! engine opponents, PDN export, and the web UI's static files. The HTTP API is documented in
//! `docs/api.md`; running several instances is discussed in `docs/scaling.md`.
//!
//! [`App::start`] loads the unfinished games (resuming their clocks) and starts the background
//! tasks; [`App::router`] is the axum router (tested in process with `tower::ServiceExt::oneshot`);
//! [`serve`] runs it on a listener with graceful shutdown.

pub mod api;
pub mod chat;
pub mod engine;
pub mod error;
pub mod limit;
pub mod live;
pub mod lobby;
pub mod pdn;
pub mod static_files;
pub mod store;

use crate::error::ApiError;
use crate::live::{now_ms, Live};
use crate::store::{Change, Store};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Directory of the web UI's static files; `None` (or a missing directory) serves the built-in
    /// index page instead.
    pub static_dir: Option<PathBuf>,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Requests per second allowed per client IP address (token bucket); 0 disables the limit.
    pub rate_per_sec: u32,
    /// Burst size of the per-client token bucket.
    pub rate_burst: u32,
    /// Most games not finished at once; creating more is refused with 503.
    pub max_open_games: usize,
    /// Time limit for one HTTP request, in ms.
    pub request_timeout_ms: u64,
    /// Interval of WebSocket pings, in ms.
    pub ws_ping_ms: u64,
    /// An open game nobody joins within this time of its creation expires (ends as cancelled),
    /// in ms; 0 never expires.
    pub open_game_ttl_ms: u64,
    /// A connection must send a whole request head within this time of being opened or of its
    /// previous response (keep-alive), in ms; otherwise it is closed.
    pub header_read_timeout_ms: u64,
    /// Largest request head (request line and headers), in bytes; larger ones are refused.
    pub max_header_bytes: usize,
    /// Most HTTP connections open at once from one client address; more are closed at once.
    pub max_conns_per_ip: usize,
    /// Most games nobody has joined yet (status `open`) created from one client address; more are
    /// refused with `429 too_many_unjoined`.
    pub max_unjoined_per_ip: usize,
    /// Engine searches running at once (a bounded pool; more wait, with the engine's clock
    /// stopped). Searches run at a lower OS priority than request handling (Linux: nice +10).
    pub engine_workers: usize,
    /// Most unfinished engine games created from one client address; more are refused with
    /// `429 too_many_engine_games`.
    pub max_engine_games_per_ip: usize,
    /// Most WebSockets open at once from one client address.
    pub max_ws_per_ip: usize,
    /// Most WebSockets open at once on one game.
    pub max_ws_per_game: usize,
    /// Messages per second a client may send on one WebSocket (token bucket; a socket that
    /// exceeds it is closed with code 1008).
    pub ws_msgs_per_sec: u32,
    /// Burst of messages allowed above `ws_msgs_per_sec`.
    pub ws_msg_burst: u32,
    /// With a shared store (PostgreSQL): how long a per-game lease lasts, in ms. The owning
    /// instance renews its leases every third of this; when it dies, another instance takes its
    /// games over within `lease_ms` plus one renewal interval (docs/scaling.md).
    pub lease_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            static_dir: None,
            max_body_bytes: 16 * 1024,
            rate_per_sec: 50,
            rate_burst: 200,
            max_open_games: 10_000,
            request_timeout_ms: 10_000,
            ws_ping_ms: 20_000,
            open_game_ttl_ms: 10 * 60 * 1000,
            header_read_timeout_ms: 10_000,
            max_header_bytes: 64 * 1024,
            max_conns_per_ip: 64,
            max_unjoined_per_ip: 20,
            engine_workers: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            max_engine_games_per_ip: 4,
            max_ws_per_ip: 32,
            max_ws_per_game: 500,
            ws_msgs_per_sec: 5,
            ws_msg_burst: 20,
            lease_ms: 10_000,
        }
    }
}

/// One game held in memory.
pub struct GameHandle {
    id: Arc<str>,
    live: tokio::sync::Mutex<Live>,
    tx: broadcast::Sender<Arc<str>>,
    engine_busy: AtomicBool,
    /// When the side to move's flag falls (ms since the epoch), `u64::MAX` if no clock runs.
    deadline: AtomicU64,
    /// The address that created this game while it counts toward that address's unjoined games
    /// (cleared once the game leaves status `open`).
    unjoined_by: Mutex<Option<std::net::IpAddr>>,
    /// The address that created this engine game while it counts toward that address's engine
    /// games (cleared once the game is finished).
    engine_by: Mutex<Option<std::net::IpAddr>>,
    /// Set while the engine's search waits for a free worker: its clock is stopped meanwhile.
    engine_waiting: AtomicBool,
    /// The game's chat: the last messages, read from the store when first used (see `chat.rs`).
    chat: Mutex<chat::ChatLog>,
    /// With a shared store: the listener generation ([`Store::listening`]) under which this
    /// copy was last read or checked against the store (0: never). While the listener still
    /// has that generation, every committed change has been announced to this instance.
    synced: AtomicU64,
}

impl GameHandle {
    fn new(live: Live) -> Arc<GameHandle> {
        let (tx, _) = broadcast::channel(64);
        let deadline = AtomicU64::new(live.flag_deadline().unwrap_or(u64::MAX));
        Arc::new(GameHandle {
            id: Arc::from(live.rec.id.as_str()),
            live: tokio::sync::Mutex::new(live),
            tx,
            engine_busy: AtomicBool::new(false),
            deadline,
            unjoined_by: Mutex::new(None),
            engine_by: Mutex::new(None),
            engine_waiting: AtomicBool::new(false),
            chat: Mutex::new(chat::ChatLog::default()),
            synced: AtomicU64::new(0),
        })
    }
}

/// The shared state of a running server.
pub struct AppInner {
    store: Arc<dyn Store>,
    games: Mutex<HashMap<String, Arc<GameHandle>>>,
    config: Config,
    open_games: AtomicUsize,
    limiter: limit::RateLimiter,
    engine: Option<Arc<dyn engine::MovePicker>>,
    /// Engine searches running at once are limited to the number of cores, so that many engine
    /// games share the CPU without every search getting a sliver of it.
    engine_slots: Arc<tokio::sync::Semaphore>,
    shutdown_tx: watch::Sender<bool>,
    /// Open HTTP connections per client address.
    conns: ConnCounter,
    /// Unjoined (status `open`) games per creating address.
    unjoined: ConnCounter,
    /// Unfinished engine games per creating address.
    engine_games: ConnCounter,
    /// Open WebSockets per client address.
    pub(crate) ws_per_ip: ConnCounter,
    /// This instance's id in the lease table (random, new at each start).
    instance: String,
    /// Games whose lease this instance holds (only used with a shared store).
    owned: Mutex<std::collections::HashSet<String>>,
    /// When the leases in `owned` expire unless renewed (ms since the epoch).
    owned_until: AtomicU64,
}

/// A cheap handle to the server's state.
#[derive(Clone)]
pub struct App(Arc<AppInner>);

impl std::ops::Deref for App {
    type Target = AppInner;
    fn deref(&self) -> &AppInner {
        &self.0
    }
}

/// The event name and full game view pushed over the WebSocket.
#[derive(serde::Serialize)]
struct Push<'a> {
    r#type: &'static str,
    event: &'a str,
    game: &'a live::GameView,
}

impl App {
    /// Build the state, load every unfinished game from `store` (shifting running clocks so that
    /// downtime since the last heartbeat is not charged), and start the background tasks (flag
    /// sweeper, heartbeat, engine moves). Must run inside a Tokio runtime.
    ///
    /// # Errors
    /// A message if the store cannot be read or a stored game does not replay.
    pub async fn start(
        store: Arc<dyn Store>,
        config: Config,
        engine: Option<Arc<dyn engine::MovePicker>>,
    ) -> Result<App, String> {
        let (shutdown_tx, _) = watch::channel(false);
        let workers = config.engine_workers.max(1);
        let app = App(Arc::new(AppInner {
            limiter: limit::RateLimiter::new(config.rate_per_sec, config.rate_burst),
            store,
            games: Mutex::new(HashMap::new()),
            config,
            open_games: AtomicUsize::new(0),
            engine,
            engine_slots: Arc::new(tokio::sync::Semaphore::new(workers)),
            shutdown_tx,
            conns: ConnCounter::default(),
            unjoined: ConnCounter::default(),
            engine_games: ConnCounter::default(),
            ws_per_ip: ConnCounter::default(),
            instance: instance_id(),
            owned: Mutex::new(std::collections::HashSet::new()),
            owned_until: AtomicU64::new(0),
        }));
        if app.store.shared() {
            // Several instances share the store: games are loaded when first used or when this
            // instance takes their lease; the leases, not the heartbeat, decide what downtime is
            // charged (docs/scaling.md).
            app.start_shared().await;
            app.spawn_background();
            return Ok(app);
        }
        let store = app.store.clone();
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
            let mut games = app.games.lock().unwrap_or_else(|e| e.into_inner());
            for live in loaded {
                games.insert(live.rec.id.clone(), GameHandle::new(live));
            }
        }
        app.open_games.store(count, Ordering::SeqCst);
        tracing::info!(games = count, "resumed unfinished games");
        app.spawn_background();
        let handles: Vec<_> = app.all_handles();
        for h in handles {
            app.maybe_engine(h);
        }
        Ok(app)
    }

    /// The axum router with every route and layer.
    pub fn router(&self) -> axum::Router {
        api::router(self.clone())
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Number of games not finished.
    pub fn open_games(&self) -> usize {
        self.open_games.load(Ordering::SeqCst)
    }

    /// HTTP connections now open from `ip` (WebSockets not included).
    pub fn connections_from(&self, ip: std::net::IpAddr) -> usize {
        self.conns.count(ip)
    }

    /// Ask WebSocket connections and background tasks to stop (graceful shutdown).
    pub fn shutdown(&self) {
        let _ = self.shutdown_tx.send(true);
    }

    /// A receiver that turns `true` at shutdown.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown_tx.subscribe()
    }

    pub(crate) fn all_handles(&self) -> Vec<Arc<GameHandle>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }

    /// The game `id`, from memory or loaded from the store.
    ///
    /// # Errors
    /// `not_found`, or `storage` if loading failed.
    pub async fn handle(&self, id: &str) -> Result<Arc<GameHandle>, ApiError> {
        let cached = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned();
        if let Some(h) = cached {
            if self.store.shared() {
                // Another instance may have changed it: never answer from a stale copy.
                self.refresh(&h, None).await?;
            }
            return Ok(h);
        }
        if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found(id));
        }
        let store = self.store.clone();
        let key = id.to_string();
        let generation = self.store.listening();
        let rec = tokio::task::spawn_blocking(move || store.load(&key))
            .await
            .map_err(ApiError::storage)?
            .map_err(ApiError::storage)?
            .ok_or_else(|| ApiError::not_found(id))?;
        let live = Live::from_record(rec).map_err(ApiError::storage)?;
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

    /// The game `id` for a change (a move, a seat action): as [`App::handle`], except that with a
    /// shared store the version check is skipped while the held copy is known to have seen every
    /// committed change ([`GameHandle::synced`], docs/scaling.md "Version checks"). That is safe
    /// for a change: a save from a stale copy fails its versioned `UPDATE` and is retried on the
    /// reloaded game, and a change refused by the copy is checked again against the stored
    /// version before the refusal is answered ([`App::mutate`], [`App::recheck`]).
    ///
    /// # Errors
    /// As [`App::handle`].
    pub async fn handle_for_change(&self, id: &str) -> Result<Arc<GameHandle>, ApiError> {
        if self.store.shared() {
            let cached = self
                .games
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(id)
                .cloned();
            if let Some(h) = cached {
                if self.in_sync(&h) {
                    return Ok(h);
                }
            }
        }
        self.handle(id).await
    }

    /// Whether the held copy `h` has seen every committed change: the listener has listened
    /// without interruption since the copy was last read or checked.
    fn in_sync(&self, h: &GameHandle) -> bool {
        self.store
            .listening()
            .is_some_and(|g| g == h.synced.load(Ordering::SeqCst))
    }

    /// Record that `h` was read or checked against the store under listener `generation`
    /// (taken before the read), if the listener has not been interrupted since.
    fn mark_synced(&self, h: &GameHandle, generation: Option<u64>) {
        if let Some(g) = generation {
            if self.store.listening() == Some(g) {
                h.synced.store(g, Ordering::SeqCst);
            }
        }
    }

    /// With a shared store, bring the held copy up to the stored version if it is behind;
    /// returns whether it changed (always `false` with a store of its own).
    ///
    /// # Errors
    /// `storage` if the store cannot be read.
    pub(crate) async fn recheck(&self, h: &Arc<GameHandle>) -> Result<bool, ApiError> {
        if !self.store.shared() {
            return Ok(false);
        }
        let mut guard = h.live.lock().await;
        self.catch_up(h, &mut guard).await
    }

    /// [`App::recheck`] with the game's lock held.
    async fn catch_up(
        &self,
        h: &Arc<GameHandle>,
        guard: &mut tokio::sync::MutexGuard<'_, Live>,
    ) -> Result<bool, ApiError> {
        let store = self.store.clone();
        let id = h.id.to_string();
        let generation = self.store.listening();
        let stored = tokio::task::spawn_blocking(move || store.version(&id))
            .await
            .map_err(ApiError::storage)?
            .map_err(ApiError::storage)?;
        match stored {
            Some(v) if v > guard.rec.version => {
                self.reload(h, guard).await?;
                Ok(true)
            }
            _ => {
                self.mark_synced(h, generation);
                Ok(false)
            }
        }
    }

    /// Insert a newly created game: saved first, then held in memory.
    ///
    /// # Errors
    /// `too_many_games` when the limit of open games is reached, `storage` if saving failed.
    pub async fn insert(
        &self,
        live: Live,
        client: Option<std::net::IpAddr>,
    ) -> Result<Arc<GameHandle>, ApiError> {
        let counted = match client {
            Some(ip) if live.rec.status == "open" => {
                let max = self.config.max_unjoined_per_ip;
                if !self.unjoined.try_inc(ip, max) {
                    return Err(ApiError::new(
                        axum::http::StatusCode::TOO_MANY_REQUESTS,
                        "too_many_unjoined",
                        format!(
                            "this address already has {max} games nobody has joined; \
                             cancel one or wait for a player"
                        ),
                    ));
                }
                Some(ip)
            }
            _ => None,
        };
        let engine = match client {
            Some(ip) if live.engine_color().is_some() => {
                let max = self.config.max_engine_games_per_ip;
                if !self.engine_games.try_inc(ip, max) {
                    if let Some(ip) = counted {
                        self.unjoined.dec(ip);
                    }
                    return Err(ApiError::new(
                        axum::http::StatusCode::TOO_MANY_REQUESTS,
                        "too_many_engine_games",
                        format!(
                            "this address already plays {max} unfinished games against the \
                             engine; finish or resign one first"
                        ),
                    ));
                }
                Some(ip)
            }
            _ => None,
        };
        let r = self.insert_counted(live, counted, engine).await;
        if r.is_err() {
            if let Some(ip) = counted {
                self.unjoined.dec(ip);
            }
            if let Some(ip) = engine {
                self.engine_games.dec(ip);
            }
        }
        r
    }

    async fn insert_counted(
        &self,
        live: Live,
        counted: Option<std::net::IpAddr>,
        engine: Option<std::net::IpAddr>,
    ) -> Result<Arc<GameHandle>, ApiError> {
        let max = self.config.max_open_games;
        if self
            .open_games
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < max).then_some(n + 1)
            })
            .is_err()
        {
            return Err(ApiError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                "too_many_games",
                format!("the server already holds {max} unfinished games; try again later"),
            ));
        }
        let store = self.store.clone();
        let rec = live.rec.clone();
        let generation = self.store.listening();
        let saved = tokio::task::spawn_blocking(move || store.create(&rec)).await;
        if let Err(e) = saved
            .map_err(ApiError::storage)
            .and_then(|r| r.map_err(ApiError::storage))
        {
            self.open_games.fetch_sub(1, Ordering::SeqCst);
            return Err(e);
        }
        let id = live.rec.id.clone();
        let h = GameHandle::new(live);
        self.mark_synced(&h, generation);
        *h.unjoined_by.lock().unwrap_or_else(|e| e.into_inner()) = counted;
        *h.engine_by.lock().unwrap_or_else(|e| e.into_inner()) = engine;
        if self.store.shared() {
            let (store, me) = (self.store.clone(), self.instance.clone());
            let (id2, until) = (id.clone(), now_ms() + self.config.lease_ms);
            match tokio::task::spawn_blocking(move || store.claim_lease(&id2, &me, until)).await {
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
        op: impl FnMut(&mut Live, u64) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<(T, live::GameView), ApiError> {
        // Run in its own task: if the client goes away or the request times out, the change is
        // still either committed and made live, or not made at all (never saved but not live).
        let app = self.clone();
        let h = h.clone();
        tokio::spawn(async move { app.mutate_inner(&h, event, you, op).await })
            .await
            .map_err(ApiError::storage)?
    }

    async fn mutate_inner<T: Send + 'static>(
        &self,
        h: &Arc<GameHandle>,
        event: &str,
        you: Option<crown_core::Color>,
        mut op: impl FnMut(&mut Live, u64) -> Result<T, ApiError>,
    ) -> Result<(T, live::GameView), ApiError> {
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
                    if self.store.shared() && !rechecked {
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
                    .map_err(ApiError::storage)?;
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
                Err(store::StoreError::Conflict(id)) => {
                    attempt += 1;
                    if attempt > MAX_CONFLICT_RETRIES {
                        return Err(ApiError::conflict(
                            "version_conflict",
                            format!("game '{id}' kept changing concurrently; try again"),
                        ));
                    }
                    tracing::debug!(game = %id, attempt, "version conflict: reloading");
                    self.reload(h, &mut guard).await?;
                    continue;
                }
                Err(e) => {
                    tracing::error!(error = %e, "saving a game failed");
                    return Err(ApiError::storage(e));
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
    async fn reload(
        &self,
        h: &Arc<GameHandle>,
        guard: &mut tokio::sync::MutexGuard<'_, Live>,
    ) -> Result<(), ApiError> {
        let store = self.store.clone();
        let id = h.id.to_string();
        let generation = self.store.listening();
        let rec = tokio::task::spawn_blocking(move || store.load(&id))
            .await
            .map_err(ApiError::storage)?
            .map_err(ApiError::storage)?
            .ok_or_else(|| ApiError::not_found(&h.id))?;
        let live = Live::from_record(rec).map_err(ApiError::storage)?;
        let event = if live.rec.moves.len() > guard.rec.moves.len() {
            "move"
        } else {
            "sync"
        };
        self.apply(h, guard, live, event);
        self.mark_synced(h, generation);
        Ok(())
    }

    /// Bring a held game up to the stored `version` (asked from the store when `None`) if it is
    /// behind, pushing the new state to its sockets; then, if this instance owns the game, let
    /// the engine move.
    ///
    /// # Errors
    /// `storage` if the store cannot be read.
    async fn refresh(&self, h: &Arc<GameHandle>, version: Option<u64>) -> Result<(), ApiError> {
        let generation = self.store.listening();
        let checked = version.is_none();
        let version = match version {
            Some(v) => v,
            None => {
                let store = self.store.clone();
                let id = h.id.to_string();
                match tokio::task::spawn_blocking(move || store.version(&id))
                    .await
                    .map_err(ApiError::storage)?
                    .map_err(ApiError::storage)?
                {
                    Some(v) => v,
                    None => return Ok(()),
                }
            }
        };
        {
            let mut guard = h.live.lock().await;
            if guard.rec.version >= version {
                if checked {
                    self.mark_synced(h, generation);
                }
                return Ok(());
            }
            self.reload(h, &mut guard).await?;
        }
        self.maybe_engine(h.clone());
        Ok(())
    }

    /// Make `next` (just saved, or just read from the store) the live game and push it to every
    /// WebSocket of this instance.
    fn apply(
        &self,
        h: &Arc<GameHandle>,
        guard: &mut tokio::sync::MutexGuard<'_, Live>,
        next: Live,
        event: &str,
    ) {
        let was_open = guard.rec.status != "finished";
        **guard = next;
        if was_open && guard.rec.status == "finished" {
            // Saturating: with a shared store a game counted by another instance may end here.
            let _ = self
                .open_games
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        }
        if guard.rec.status == "finished" {
            if let Some(ip) = h.engine_by.lock().unwrap_or_else(|e| e.into_inner()).take() {
                self.engine_games.dec(ip);
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

    /// Whether this instance runs game `id`'s clock and engine: always with a store of its own;
    /// with a shared store, while it holds the game's lease.
    fn owns(&self, id: &str) -> bool {
        if !self.store.shared() {
            return true;
        }
        now_ms() < self.owned_until.load(Ordering::SeqCst)
            && self
                .owned
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(id)
    }

    /// Hand every change from `rx` to `handle`, one at a time, until the store closes the
    /// channel or the server shuts down.
    fn forward_changes<F, Fut>(
        &self,
        mut rx: tokio::sync::mpsc::UnboundedReceiver<Change>,
        handle: F,
    ) where
        F: Fn(App, Change) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send,
    {
        let app = self.clone();
        tokio::spawn(async move {
            let mut shutdown = app.shutdown_signal();
            loop {
                let change = tokio::select! {
                    c = rx.recv() => match c { Some(c) => c, None => break },
                    _ = shutdown.changed() => break,
                };
                handle(app.clone(), change).await;
            }
        });
    }

    /// Start-up with a shared store: the first lease round, then the change listener and the
    /// lease task.
    async fn start_shared(&self) {
        self.lease_round().await;
        if let Some(changes) = self.store.changes() {
            self.forward_changes(
                changes,
                |app, change| async move { app.on_change(change).await },
            );
        }
        if let Some(chats) = self.store.chat_changes() {
            self.forward_changes(chats, |app, change| async move {
                chat::on_change(&app, change).await
            });
        }
        let app = self.clone();
        tokio::spawn(async move {
            let mut shutdown = app.shutdown_signal();
            let every = Duration::from_millis((app.config.lease_ms / 3).max(100));
            let mut tick = tokio::time::interval(every);
            tick.tick().await;
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = shutdown.changed() => break,
                }
                app.lease_round().await;
            }
        });
    }

    /// A change committed by some instance: refresh the held copy, if any.
    async fn on_change(&self, change: store::Change) {
        let targets: Vec<(Arc<GameHandle>, Option<u64>)> = {
            let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            if change.id.is_empty() {
                games.values().map(|h| (h.clone(), None)).collect()
            } else {
                games
                    .get(&change.id)
                    .map(|h| (h.clone(), Some(change.version)))
                    .into_iter()
                    .collect()
            }
        };
        if let (Some(state), [(h, Some(version))]) = (&change.state, &targets[..]) {
            match self.apply_change(h, state, *version).await {
                Some(true) => {
                    self.maybe_engine(h.clone());
                    return;
                }
                Some(false) => return,
                None => {}
            }
        }
        for (h, version) in targets {
            if let Err(e) = self.refresh(&h, version).await {
                tracing::warn!(game = %h.id, error = %e, "could not reload a changed game");
            }
        }
    }

    /// Apply a change announced with its state to the held copy without reading the store:
    /// `Some(true)` if applied, `Some(false)` if the copy already had it (this instance's own
    /// change, or reloaded since), `None` when the copy must be reloaded instead: it is more than
    /// one version behind (a notification was missed) or the change does not apply.
    async fn apply_change(
        &self,
        h: &Arc<GameHandle>,
        state: &store::ChangeState,
        version: u64,
    ) -> Option<bool> {
        let mut guard = h.live.lock().await;
        if guard.rec.version >= version {
            return Some(false);
        }
        if guard.rec.version + 1 != version {
            return None;
        }
        match guard.apply_change(state, version) {
            Ok(next) => {
                let event = if next.rec.moves.len() > guard.rec.moves.len() {
                    "move"
                } else {
                    "sync"
                };
                self.apply(h, &mut guard, next, event);
                Some(true)
            }
            Err(e) => {
                tracing::warn!(game = %h.id, error = %e, "a notified change does not apply; reloading");
                None
            }
        }
    }

    /// One lease round: renew this instance's leases, take over expired ones (crediting the
    /// side to move the time nobody owned the game), load the games newly held and let their
    /// engine move.
    async fn lease_round(&self) {
        let store = self.store.clone();
        let me = self.instance.clone();
        let ttl = self.config.lease_ms.max(300);
        let now = now_ms();
        let leases =
            match tokio::task::spawn_blocking(move || store.lease_round(&me, now, ttl)).await {
                Ok(Ok(l)) => l,
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "lease round failed");
                    return;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "lease round failed");
                    return;
                }
            };
        let before = {
            let mut owned = self.owned.lock().unwrap_or_else(|e| e.into_inner());
            let before = std::mem::take(&mut *owned);
            owned.extend(leases.renewed.iter().cloned());
            owned.extend(leases.new.iter().cloned());
            owned.extend(leases.taken_over.iter().map(|(id, _)| id.clone()));
            before
        };
        self.owned_until.store(now + ttl, Ordering::SeqCst);
        let held: std::collections::HashSet<String> = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .cloned()
            .collect();
        let mut gained: Vec<(String, Option<u64>)> = leases
            .taken_over
            .into_iter()
            .map(|(id, old)| (id, Some(old)))
            .collect();
        gained.extend(leases.new.into_iter().map(|id| (id, None)));
        gained.extend(
            leases
                .renewed
                .into_iter()
                // Not held, or not known as owned (claimed while this round ran): its engine
                // may be waiting.
                .filter(|id| !held.contains(id) || !before.contains(id))
                .map(|id| (id, None)),
        );
        for (id, expired_at) in gained {
            let h = match self.handle(&id).await {
                Ok(h) => h,
                Err(e) => {
                    tracing::warn!(game = %id, error = %e, "cannot load a leased game");
                    continue;
                }
            };
            if let Some(old) = expired_at {
                tracing::info!(game = %id, "took over an expired lease");
                // The time between the old lease's expiry and now belonged to no instance: not
                // charged (unless someone moved since, which restarted the clock anyway).
                let _ = self
                    .mutate(&h, "takeover", None, move |live, now| {
                        if live.rec.meta.turn_started_ms < old
                            && live.resume_after_downtime(old, now)
                        {
                            Ok(())
                        } else {
                            Err(ApiError::conflict("no_gap", "no clock ran unowned"))
                        }
                    })
                    .await;
            }
            self.maybe_engine(h);
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

    /// If it is the engine's turn, compute its move off the async runtime and play it.
    fn maybe_engine(&self, h: Arc<GameHandle>) {
        let Some(picker) = self.engine.clone() else {
            return;
        };
        if !self.owns(&h.id) {
            return;
        }
        if h.engine_busy.swap(true, Ordering::SeqCst) {
            return;
        }
        let app = self.clone();
        tokio::spawn(async move {
            loop {
                // Wait for a free worker with the engine's clock stopped (the flag sweeper skips
                // the game meanwhile); then give the engine back the time it waited.
                let queued_at = now_ms();
                h.engine_waiting.store(true, Ordering::SeqCst);
                let slot = app.engine_slots.clone().acquire_owned().await;
                h.engine_waiting.store(false, Ordering::SeqCst);
                let Ok(_slot) = slot else {
                    break;
                };
                if now_ms().saturating_sub(queued_at) >= 20 {
                    let _ = app
                        .mutate(&h, "clock", None, move |live, now| {
                            live.credit_engine_wait(queued_at, now)
                        })
                        .await;
                }
                let (game, level, clock, ply, key) = {
                    let live = h.live.lock().await;
                    let Some(level) = live.engine_to_move() else {
                        break;
                    };
                    let stm = live.game.position().side_to_move();
                    let clock = live
                        .rec
                        .meta
                        .time_control
                        .map(|tc| (live.remaining(stm, now_ms()), tc.increment_ms));
                    (
                        live.game.clone(),
                        level,
                        clock,
                        live.rec.moves.len(),
                        crown_ai::SearchKey::of(&live.game),
                    )
                };
                let stop = Arc::new(AtomicBool::new(false));
                let mut shutdown = app.shutdown_signal();
                let picker = picker.clone();
                let stop2 = stop.clone();
                let task = search_at_low_priority(move || picker.pick(&game, level, clock, &stop2));
                let mv = tokio::select! {
                    r = task => r.ok().flatten(),
                    _ = shutdown.changed() => { stop.store(true, Ordering::SeqCst); None }
                };
                let Some(text) = mv else { break };
                let played = app
                    .mutate(&h, "move", None, move |live, now| {
                        let Some(color) = live.engine_color() else {
                            return Err(ApiError::conflict("no_engine", "no engine seat"));
                        };
                        // The same ply is not enough: after a takeback and a new move the ply
                        // count is back where it was but the position differs; the engine
                        // session's key holds both.
                        if live.rec.moves.len() != ply || !key.is_current(&live.game) {
                            return Err(ApiError::conflict(
                                "stale_search",
                                "the position changed during the search",
                            ));
                        }
                        live.play(color, &text, Some(ply), now)
                    })
                    .await;
                if let Err(e) = played {
                    if e.code != "stale_ply" && e.code != "stale_search" {
                        tracing::warn!(error = %e, "engine move refused");
                    }
                }
            }
            h.engine_busy.store(false, Ordering::SeqCst);
            // A change may have arrived between the last check and clearing the flag.
            let again = h.live.lock().await.engine_to_move().is_some();
            if again && !*app.shutdown_signal().borrow() {
                app.maybe_engine(h);
            }
        });
    }

    fn spawn_background(&self) {
        // Flag sweeper and eviction of finished games nobody watches.
        let app = self.clone();
        tokio::spawn(async move {
            let mut shutdown = app.shutdown_signal();
            let mut tick = tokio::time::interval(Duration::from_millis(100));
            let mut rounds = 0u64;
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = shutdown.changed() => break,
                }
                rounds += 1;
                let now = now_ms();
                for h in app.all_handles() {
                    if h.deadline.load(Ordering::SeqCst) <= now
                        && !h.engine_waiting.load(Ordering::SeqCst)
                        && app.owns(&h.id)
                    {
                        let r = app
                            .mutate(&h, "time_out", None, |live, now| {
                                if live.check_flag(now) {
                                    Ok(())
                                } else {
                                    Err(ApiError::conflict("no_flag", "the flag has not fallen"))
                                }
                            })
                            .await;
                        if let Err(e) = r {
                            if e.code != "no_flag" {
                                tracing::warn!(error = %e, "flag check failed");
                            }
                        }
                    }
                }
                if rounds % 10 == 0 && app.config.open_game_ttl_ms > 0 {
                    app.expire_unjoined(now).await;
                }
                if rounds % 300 == 0 {
                    app.evict().await;
                }
            }
        });
        // Heartbeat: lets a restart stop the clocks for the downtime.
        let app = self.clone();
        tokio::spawn(async move {
            let mut shutdown = app.shutdown_signal();
            let mut tick = tokio::time::interval(Duration::from_millis(1000));
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = shutdown.changed() => break,
                }
                let store = app.store.clone();
                let _ = tokio::task::spawn_blocking(move || store.heartbeat(now_ms())).await;
            }
        });
    }

    /// End every open game nobody joined within `open_game_ttl_ms` of its creation.
    async fn expire_unjoined(&self, now: u64) {
        let ttl = self.config.open_game_ttl_ms;
        for h in self.all_handles() {
            if !self.owns(&h.id) {
                continue;
            }
            let due = {
                let live = h.live.lock().await;
                live.rec.status == "open" && now >= live.rec.created_ms.saturating_add(ttl)
            };
            if !due {
                continue;
            }
            let r = self
                .mutate(&h, "expired", None, move |live, now| {
                    if live.expire_if_unjoined(ttl, now) {
                        Ok(())
                    } else {
                        Err(ApiError::conflict(
                            "not_due",
                            "the game is not due to expire",
                        ))
                    }
                })
                .await;
            if let Err(e) = r {
                if e.code != "not_due" {
                    tracing::warn!(error = %e, "expiring an open game failed");
                }
            }
        }
    }

    /// Drop finished games that no WebSocket watches from memory (they stay in the store).
    async fn evict(&self) {
        let mut finished = Vec::new();
        for (id, h) in self.games.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            if h.tx.receiver_count() == 0 && !h.engine_busy.load(Ordering::SeqCst) {
                finished.push((id.clone(), h.clone()));
            }
        }
        let mut drop_ids = Vec::new();
        for (id, h) in finished {
            if h.live.lock().await.rec.status == "finished" {
                drop_ids.push(id);
            }
        }
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        for id in drop_ids {
            games.remove(&id);
        }
    }

    /// Write a last heartbeat (at shutdown).
    pub async fn final_heartbeat(&self) {
        let store = self.store.clone();
        let _ = tokio::task::spawn_blocking(move || store.heartbeat(now_ms())).await;
    }
}

/// Times a change is re-validated against a reloaded game after a version conflict before the
/// request is answered `409 version_conflict`.
const MAX_CONFLICT_RETRIES: u32 = 3;

/// A random id for this instance in the lease table.
fn instance_id() -> String {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        // Unique enough between instances when the OS has no randomness to give.
        let t = now_ms();
        b = (t ^ u64::from(std::process::id()) << 40).to_le_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Run an engine search on its own thread at a lower OS priority than the request handlers
/// (Linux: nice +10 for that thread and the search threads it starts), so that moves and reads
/// stay fast while the engine thinks.
fn search_at_low_priority<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> tokio::sync::oneshot::Receiver<T> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("crown-engine".into())
        .spawn(move || {
            #[cfg(target_os = "linux")]
            {
                // Linux keeps a nice value per thread; `setpriority` on the thread id lowers only
                // this one (and threads it creates inherit it).
                let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 10);
            }
            let _ = tx.send(f());
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "cannot start an engine thread");
    }
    rx
}

/// Live connections per client address, for the per-address cap (defect: one client holding
/// every file descriptor).
#[derive(Default)]
pub struct ConnCounter {
    per_ip: Mutex<HashMap<std::net::IpAddr, usize>>,
}

/// One counted connection; dropping it frees its place.
pub struct ConnGuard<'a> {
    counter: &'a ConnCounter,
    ip: std::net::IpAddr,
}

impl ConnCounter {
    /// Count a new connection from `ip` unless it already has `max` open; `None` when full.
    pub fn try_add(&self, ip: std::net::IpAddr, max: usize) -> Option<ConnGuard<'_>> {
        self.try_inc(ip, max)
            .then_some(ConnGuard { counter: self, ip })
    }

    /// Count one more for `ip` unless it already has `max`; returns whether it counted.
    pub fn try_inc(&self, ip: std::net::IpAddr, max: usize) -> bool {
        let mut m = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        let n = m.entry(ip).or_insert(0);
        if *n >= max {
            if *n == 0 {
                m.remove(&ip);
            }
            return false;
        }
        *n += 1;
        true
    }

    /// Count one less for `ip`.
    pub fn dec(&self, ip: std::net::IpAddr) {
        let mut m = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                m.remove(&ip);
            }
        }
    }

    /// Connections now open from `ip`.
    pub fn count(&self, ip: std::net::IpAddr) -> usize {
        self.per_ip
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&ip)
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for ConnGuard<'_> {
    fn drop(&mut self) {
        let mut m = self
            .counter
            .per_ip
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

/// Serve `app` on `listener` until `shutdown` resolves, then stop WebSockets and background tasks
/// and wait for requests in flight.
///
/// Each connection is served by hyper's HTTP/1.1 server with a header-read timeout
/// ([`Config::header_read_timeout_ms`]: a client that does not send a whole request head within
/// it, including an idle keep-alive connection, is disconnected) and request heads of at most
/// [`Config::max_header_bytes`]; a client address may hold at most [`Config::max_conns_per_ip`]
/// connections (more are closed at once; upgraded WebSockets are counted separately, see
/// [`Config::max_ws_per_ip`]).
///
/// # Errors
/// I/O errors from the listener.
pub async fn serve(
    app: App,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let router = app.router();
    let mut stop = app.shutdown_signal();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_millis(
            app.config.header_read_timeout_ms.max(1),
        ))
        .max_buf_size(app.config.max_header_bytes.max(8192))
        .keep_alive(true);
    let builder = Arc::new(builder);
    // Every connection task holds a sender; when all are dropped, every connection has ended.
    let (alive_tx, mut alive_rx) = tokio::sync::mpsc::channel::<()>(1);
    let app2 = app.clone();
    tokio::spawn(async move {
        shutdown.await;
        tracing::info!("shutting down: closing WebSockets, finishing requests");
        app2.shutdown();
    });
    loop {
        let (stream, addr) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stop.changed() => break,
        };
        let app = app.clone();
        if app.conns.count(addr.ip()) >= app.config.max_conns_per_ip {
            tracing::debug!(%addr, "connection refused: too many from this address");
            drop(stream);
            continue;
        }
        let router = router.clone();
        let builder = builder.clone();
        let alive = alive_tx.clone();
        tokio::spawn(async move {
            let _alive = alive;
            let Some(_guard) = app.conns.try_add(addr.ip(), app.config.max_conns_per_ip) else {
                return;
            };
            let _ = stream.set_nodelay(true);
            let svc = tower::ServiceExt::map_request(
                router,
                move |mut req: axum::http::Request<hyper::body::Incoming>| {
                    req.extensions_mut()
                        .insert(axum::extract::ConnectInfo(addr));
                    req
                },
            );
            let svc = hyper_util::service::TowerToHyperService::new(svc);
            let conn = builder
                .serve_connection(TokioIo::new(stream), svc)
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            let mut stop = app.shutdown_signal();
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!(%addr, error = %e, "connection ended");
                    }
                    return;
                }
                _ = stop.changed() => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    drop(alive_tx);
    let _ = alive_rx.recv().await;
    app.final_heartbeat().await;
    Ok(())
}

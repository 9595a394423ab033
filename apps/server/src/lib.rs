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
//!
//! The modules, from the HTTP edge inwards:
//! - [`routes`]: the axum router, one module per feature with its `routes()`, the extractors, and
//!   the one mapping of domain errors to HTTP statuses and JSON bodies ([`routes::error`]);
//! - [`serve()`]: the connection layer (timeouts, per-address connection caps, graceful shutdown);
//! - [`registry`], [`cluster`], [`scheduler`], [`housekeeping`]: the games in memory, coherence
//!   between instances sharing a store, engine moves, and the background tasks;
//! - [`live`], [`chat`], [`lobby`], [`pdn`], [`token`]: the domain (rules of a game in play, chat,
//!   seeks and rematches, PDN export, seat tokens), whose errors are [`error::Error`];
//! - [`store`]: durable storage (SQLite or PostgreSQL); [`engine`]: the engine opponent;
//!   [`limit`]: per-client limits; [`config`]: the settings.

pub mod chat;
pub mod cluster;
pub mod config;
pub mod engine;
pub mod error;
pub mod housekeeping;
pub mod limit;
pub mod live;
pub mod lobby;
pub mod pdn;
pub mod registry;
pub mod routes;
pub mod scheduler;
mod serve;
pub mod store;
pub mod token;

pub use config::Config;
pub use registry::GameHandle;
pub use serve::serve;

use crate::limit::ConnCounter;
use crate::live::{now_ms, Live};
use crate::store::Store;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

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
            instance: cluster::instance_id(),
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
        routes::router(self.clone())
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
}

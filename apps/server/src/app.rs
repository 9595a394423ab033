//! The shared state of a running server ([`App`]): the store, the games held, the settings, the
//! engine, the per-client counters and the features that own their state (accounts, ratings,
//! chat). Its behaviour lives with each concern: start-up and the games in
//! [`crate::games::registry`], coherence between instances in [`crate::games::cluster`], engine
//! moves in [`crate::engine::scheduler`], background tasks in [`crate::games::housekeeping`], the
//! router in [`crate::routes`].

use crate::config::Config;
use crate::engine::MovePicker;
use crate::games::handle::GameHandle;
use crate::limit::{ConnCounter, RateLimiter};
use crate::store::Store;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// The shared state of a running server.
pub struct AppInner {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) games: Mutex<HashMap<String, Arc<GameHandle>>>,
    pub(crate) config: Config,
    pub(crate) open_games: AtomicUsize,
    pub(crate) limiter: RateLimiter,
    pub(crate) engine: Option<Arc<dyn MovePicker>>,
    /// Engine searches running at once are limited to the number of cores, so that many engine
    /// games share the CPU without every search getting a sliver of it.
    pub(crate) engine_slots: Arc<tokio::sync::Semaphore>,
    pub(crate) shutdown_tx: watch::Sender<bool>,
    /// Open HTTP connections per client address.
    pub(crate) conns: ConnCounter,
    /// Unjoined (status `open`) games per creating address.
    pub(crate) unjoined: ConnCounter,
    /// Unfinished games per address holding a seat (created or joined).
    pub(crate) seated: ConnCounter,
    /// Unfinished engine games per creating address.
    pub(crate) engine_games: ConnCounter,
    /// Open WebSockets per client address.
    pub(crate) ws_per_ip: ConnCounter,
    /// This instance's id in the lease table (random, new at each start).
    pub(crate) instance: String,
    /// Games whose lease this instance holds (only used with a shared store).
    pub(crate) owned: Mutex<std::collections::HashSet<String>>,
    /// When the leases in `owned` expire unless renewed (ms since the epoch).
    pub(crate) owned_until: AtomicU64,
    /// The accounts feature: accounts, sessions, log-in limits and counters.
    pub(crate) accounts: crate::accounts::Accounts,
    /// The ratings feature: ratings, leaderboards, players' pages and archives.
    pub(crate) ratings: crate::ratings::Ratings,
    /// The chat feature: where the messages of games are kept.
    pub(crate) chat: crate::chat::Chat,
}

/// A cheap handle to the server's state.
#[derive(Clone)]
pub struct App(pub(crate) Arc<AppInner>);

impl std::ops::Deref for App {
    type Target = AppInner;
    fn deref(&self) -> &AppInner {
        &self.0
    }
}

impl App {
    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The accounts feature: accounts, sessions, log-in limits and counters.
    pub fn accounts(&self) -> &crate::accounts::Accounts {
        &self.accounts
    }

    /// The ratings feature: ratings, leaderboards, players' pages and archives.
    pub fn ratings(&self) -> &crate::ratings::Ratings {
        &self.ratings
    }

    /// The chat feature: the messages of games.
    pub fn chat(&self) -> &crate::chat::Chat {
        &self.chat
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

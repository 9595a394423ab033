//! The games feature: a new game checked and built from a request ([`new_game`]), the rules of a
//! game in play ([`live`]), and the live games themselves ([`Games`]): the games held in memory
//! ([`registry`], one [`handle::GameHandle`] each), coherence between instances sharing a store
//! ([`cluster`]), the background tasks ([`housekeeping`]); engine moves are scheduled by
//! [`crate::engine::scheduler`]; PDN export in [`pdn`]; a game the server makes between two
//! accounts (a tournament's, an accepted challenge's) in [`paired`]; an account's games where it
//! is its move in [`turns`].

pub mod cluster;
pub mod handle;
pub mod housekeeping;
pub mod live;
pub mod new_game;
pub mod paired;
pub mod pdn;
pub mod registry;
pub mod turns;

pub use new_game::{GameRequest, NewGame, NewGameError, SeatedGame};

use crate::config::Config;
use crate::engine::MovePicker;
use crate::limit::ConnCounter;
use crate::store::{Change, Store};
use handle::GameHandle;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// The live games: those held in memory, the counters that limit them (open games, per-address
/// seats, unjoined and engine games), the leases this instance holds when several instances share
/// the store, and the engine that plays their engine seats. A cheap handle (clone it freely).
#[derive(Clone)]
pub struct Games(Arc<GamesInner>);

/// The state behind [`Games`].
pub struct GamesInner {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) config: Config,
    /// The games held in memory, by id.
    pub(crate) games: Mutex<HashMap<String, Arc<GameHandle>>>,
    /// Games not finished (this instance's count).
    pub(crate) open_games: AtomicUsize,
    /// The engine that plays the engine seats, if any.
    pub(crate) engine: Option<Arc<dyn MovePicker>>,
    /// Engine searches running at once are limited to `--engine-workers`, so that many engine
    /// games share the CPU without every search getting a sliver of it; the waiting searches
    /// take turns by network ([`crate::engine::fair`]).
    pub(crate) engine_slots: crate::engine::fair::FairSlots,
    /// Unjoined (status `open`) games per creating address.
    pub(crate) unjoined: ConnCounter,
    /// Unfinished games per address holding a seat (created or joined).
    pub(crate) seated: ConnCounter,
    /// Unfinished engine games per creating address.
    pub(crate) engine_games: ConnCounter,
    /// Unfinished games per creating network (an IPv4 /24, an IPv6 `--signup-net-v6-prefix`
    /// network).
    pub(crate) net_games: ConnCounter,
    /// Public seeks (status `open`) per creating network.
    pub(crate) net_seeks: ConnCounter,
    /// This instance's id in the lease table (random, new at each start).
    pub(crate) instance: String,
    /// Games whose lease this instance holds (only used with a store that has leases).
    pub(crate) owned: Mutex<HashSet<String>>,
    /// When the leases in `owned` expire unless renewed (ms since the epoch).
    pub(crate) owned_until: AtomicU64,
    /// The ratings, read when a rated game is joined (its players' pre-game ratings).
    pub(crate) ratings: crate::ratings::Ratings,
    /// Turns `true` at shutdown (shared with [`crate::App`]).
    pub(crate) shutdown_tx: Arc<watch::Sender<bool>>,
    /// Where the id of each game that ends here is sent (set once by the tournaments feature,
    /// [`Games::on_end`]).
    pub(crate) ended: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<String>>,
}

impl std::ops::Deref for Games {
    type Target = GamesInner;
    fn deref(&self) -> &GamesInner {
        &self.0
    }
}

impl Games {
    /// The live games of `store`, none held yet, with `config`'s limits, `engine` for engine
    /// seats and `ratings` for rated joins; its background tasks stop when `shutdown_tx` sends
    /// `true`. Nothing is loaded or started: see [`crate::App::start`].
    pub(crate) fn new(
        store: Arc<dyn Store>,
        config: Config,
        engine: Option<Arc<dyn MovePicker>>,
        ratings: crate::ratings::Ratings,
        shutdown_tx: Arc<watch::Sender<bool>>,
    ) -> Games {
        let workers = config.engine_workers.max(1);
        Games(Arc::new(GamesInner {
            store,
            config,
            games: Mutex::new(HashMap::new()),
            open_games: AtomicUsize::new(0),
            engine,
            engine_slots: crate::engine::fair::FairSlots::new(workers),
            unjoined: ConnCounter::default(),
            seated: ConnCounter::default(),
            engine_games: ConnCounter::default(),
            net_games: ConnCounter::default(),
            net_seeks: ConnCounter::default(),
            instance: cluster::instance_id(),
            owned: Mutex::new(HashSet::new()),
            owned_until: AtomicU64::new(0),
            ratings,
            shutdown_tx,
            ended: std::sync::OnceLock::new(),
        }))
    }

    /// Number of games not finished.
    pub fn open_games(&self) -> usize {
        self.open_games.load(Ordering::SeqCst)
    }

    /// Whether an engine plays engine seats here.
    pub fn has_engine(&self) -> bool {
        self.engine.is_some()
    }

    /// The engine, if any.
    pub fn engine(&self) -> Option<&Arc<dyn MovePicker>> {
        self.engine.as_ref()
    }

    /// Engine searches waiting for one of the `--engine-workers` slots.
    pub fn engine_waiting(&self) -> usize {
        self.engine_slots.waiting()
    }

    /// Engine searches waiting for or holding one of the `--engine-workers` slots: running now.
    pub fn engine_searches(&self) -> usize {
        self.engine_slots.running()
    }

    /// The ids of the games that end from now on, as this instance sees them end (a move, a
    /// resignation, a flag, an abort, or a change of another instance read here); taken once, by
    /// the tournaments feature. `None` when already taken.
    pub(crate) fn on_end(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<String>> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        self.ended.set(tx).ok().map(|()| rx)
    }

    /// A receiver that turns `true` at shutdown.
    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown_tx.subscribe()
    }

    /// Whether several instances share the store: it has leases (PostgreSQL). Then the held
    /// copies are checked against the store's versions, changes are listened to, and a game's
    /// clock and engine run on the instance holding its lease (docs/scaling.md).
    pub(crate) fn shared(&self) -> bool {
        self.store.leases().is_some()
    }

    /// The change listener's generation while it listens ([`crate::store::LeaseStore::listening`]);
    /// `None` without a shared store.
    pub(crate) fn listening(&self) -> Option<u64> {
        self.store.leases().and_then(|l| l.listening())
    }

    /// The stream of changes committed by any instance ([`crate::store::LeaseStore::changes`]),
    /// taken once at start-up; `None` without a shared store.
    pub(crate) fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        self.store.leases().and_then(|l| l.changes())
    }
}

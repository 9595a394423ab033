//! One game held in memory ([`GameHandle`]): the live game behind its lock, the channel of its
//! WebSocket pushes, its clock deadline, its chat log and the bookkeeping of the server's limits.

use crate::chat::log::ChatLog;
use crate::error::{Error, ErrorKind};
use crate::games::live::Live;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// One game held in memory.
pub struct GameHandle {
    pub(crate) id: Arc<str>,
    pub(crate) live: tokio::sync::Mutex<Live>,
    pub(crate) tx: broadcast::Sender<Arc<str>>,
    pub(crate) engine_busy: AtomicBool,
    /// When the side to move's flag falls (ms since the epoch), `u64::MAX` if no clock runs.
    pub(crate) deadline: AtomicU64,
    /// The address that created this game while it counts toward that address's unjoined games
    /// (cleared once the game leaves status `open`).
    pub(crate) unjoined_by: Mutex<Option<std::net::IpAddr>>,
    /// The address that created this engine game while it counts toward that address's engine
    /// games (cleared once the game is finished).
    pub(crate) engine_by: Mutex<Option<std::net::IpAddr>>,
    /// The network ([`crate::accounts::network::network_block`]) of the address that created
    /// this game, if one did: the engine's searches are queued fairly between networks, and the
    /// lobby lists the seeks of many networks before many seeks of one.
    pub(crate) net: std::sync::OnceLock<std::net::IpAddr>,
    /// That network while this game counts toward its unfinished games (`max_games_per_net`;
    /// cleared once the game is finished).
    pub(crate) net_game_by: Mutex<Option<std::net::IpAddr>>,
    /// That network while this public seek counts toward its seeks (`max_seeks_per_net`;
    /// cleared once the game leaves status `open`).
    pub(crate) net_seek_by: Mutex<Option<std::net::IpAddr>>,
    /// The addresses that hold a seat of this unfinished game, each counted once toward its
    /// `max_games_per_ip` (emptied, and the counts freed, once the game is finished).
    pub(crate) seated_by: Mutex<Vec<std::net::IpAddr>>,
    /// WebSockets open (or being upgraded) on this game, for `max_ws_per_game`: taken before
    /// the upgrade, atomically, so that concurrent upgrades never exceed it.
    pub(crate) ws_count: std::sync::atomic::AtomicUsize,
    /// WebSockets open (or being upgraded) with a valid seat token, per seat (by
    /// [`crown_core::Color::index`]): not counted in `ws_count`, so that spectators filling the
    /// game never keep its players from their live updates, but bounded per seat
    /// (`routes::ws::MAX_WS_PER_SEAT`).
    pub(crate) seat_ws_count: [std::sync::atomic::AtomicUsize; 2],
    /// Spectators' WebSockets open (or being upgraded) on this game per client network (an
    /// IPv4 /24, an IPv6 `signup_net_v6_prefix` network, as its address), for
    /// `max_spectators_per_network`: one network cannot fill `max_ws_per_game`.
    pub(crate) spectators_by_net: crate::limit::ConnCounter,
    /// Set while the engine's search waits for a free worker: its clock is stopped meanwhile.
    pub(crate) engine_waiting: AtomicBool,
    /// The game's chat: the last messages, read from the store when first used (see `chat.rs`).
    pub(crate) chat: Mutex<ChatLog>,
    /// With a shared store: the listener generation
    /// ([`crate::store::LeaseStore::listening`]) under which this copy was last read or checked
    /// against the store (0: never). While the listener still
    /// has that generation, every committed change has been announced to this instance.
    pub(crate) synced: AtomicU64,
    /// Held while a rematch of this (finished) game is asked for, so that both players asking at
    /// once on one instance converge on one new game.
    pub(crate) rematch_lock: tokio::sync::Mutex<()>,
}

impl GameHandle {
    pub(crate) fn new(live: Live) -> Arc<GameHandle> {
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
            net: std::sync::OnceLock::new(),
            net_game_by: Mutex::new(None),
            net_seek_by: Mutex::new(None),
            seated_by: Mutex::new(Vec::new()),
            ws_count: std::sync::atomic::AtomicUsize::new(0),
            seat_ws_count: Default::default(),
            spectators_by_net: Default::default(),
            engine_waiting: AtomicBool::new(false),
            chat: Mutex::new(ChatLog::default()),
            synced: AtomicU64::new(0),
            rematch_lock: tokio::sync::Mutex::new(()),
        })
    }
}

impl GameHandle {
    /// The seat whose secret is `token` in this game.
    ///
    /// # Errors
    /// `bad_token` (not seated) when the token is no seat of this game.
    pub async fn seat_of_token(&self, token: &str) -> Result<crown_core::Color, Error> {
        self.live.lock().await.seat_of(token).ok_or_else(|| {
            Error::new(
                ErrorKind::NotSeated,
                "bad_token",
                "the token is not a seat of this game (spectators cannot act)",
            )
        })
    }
}

//! The shared state of a running server ([`App`]): it only wires the features, each of which
//! owns its state: the live games ([`crate::games::Games`]: the games held, their counters,
//! leases and engine moves), accounts, ratings and chat, beside the settings, the request
//! limiter, the connection counters and the shutdown signal. Start-up is [`App::start`]; the
//! router is in [`crate::routes`].

use crate::config::Config;
use crate::engine::MovePicker;
use crate::games::Games;
use crate::limit::{ConnCounter, RateLimiter};
use crate::store::Store;
use std::sync::Arc;
use tokio::sync::watch;

/// The shared state of a running server.
pub struct AppInner {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) config: Config,
    pub(crate) limiter: RateLimiter,
    /// The per-address budget of bytes of the web app's files ([`Config::static_bytes_per_sec`]).
    pub(crate) static_limiter: RateLimiter,
    pub(crate) shutdown_tx: Arc<watch::Sender<bool>>,
    /// Open HTTP connections per client address.
    pub(crate) conns: ConnCounter,
    /// Open WebSockets per client address.
    pub(crate) ws_per_ip: ConnCounter,
    /// The live games: games held, their limits, leases and engine moves.
    pub(crate) games: Games,
    /// The accounts feature: accounts, sessions, log-in limits and counters.
    pub(crate) accounts: crate::accounts::Accounts,
    /// The ratings feature: ratings, leaderboards, players' pages and archives.
    pub(crate) ratings: crate::ratings::Ratings,
    /// The puzzles feature: the accounts' puzzle ratings, streaks and attempts.
    pub(crate) puzzles: crate::puzzles::Puzzles,
    /// The chat feature: where the messages of games are kept.
    pub(crate) chat: crate::chat::Chat,
    /// The tournaments feature: Swiss and round robin played as live games.
    pub(crate) tournaments: crate::tournaments::Tournaments,
    /// The shared-games feature: games shared as PDN at `/a/<id>`.
    pub(crate) imports: crate::imports::Imports,
    /// The challenges feature: one account's invitation to another to play.
    pub(crate) challenges: crate::challenges::Challenges,
    /// The API tokens and bot accounts.
    pub(crate) bots: crate::bots::Bots,
    /// The answer of `GET /api/tv`, read once per few seconds for the whole server.
    pub(crate) tv: crate::watch::TvCache,
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
    /// Build the state and start the features: the live games are resumed from `store`
    /// (`Games::resume` with a store of its own, `Games::start_shared` with a shared one,
    /// after the chat's change listener), then their background tasks start (flag sweeper,
    /// heartbeat, engine moves). Must run inside a Tokio runtime.
    ///
    /// # Errors
    /// A message if the store cannot be read or a stored game does not replay.
    pub async fn start(
        store: Arc<dyn Store>,
        config: Config,
        engine: Option<Arc<dyn MovePicker>>,
    ) -> Result<App, String> {
        let (shutdown_tx, _) = watch::channel(false);
        let shutdown_tx = Arc::new(shutdown_tx);
        // The per-pair cap is kept by the store, where its count and the write are one step.
        store.cap_rated_pairs(config.rated_games_per_pair_per_day);
        let ratings = || {
            crate::ratings::Ratings::new(
                store.clone(),
                crate::store::Established {
                    min_games: config.leaderboard_min_games,
                    min_opponents: config.leaderboard_min_opponents,
                    min_plies: config.leaderboard_min_plies,
                    max_deviation: config.leaderboard_max_deviation,
                },
                config.rated_games_per_pair_per_day,
            )
        };
        let games = Games::new(
            store.clone(),
            config.clone(),
            engine,
            ratings(),
            shutdown_tx.clone(),
        );
        let app = App(Arc::new(AppInner {
            limiter: RateLimiter::new(config.rate_per_sec, config.rate_burst),
            static_limiter: RateLimiter::new(
                config.static_bytes_per_sec,
                config.static_burst_bytes,
            ),
            accounts: crate::accounts::Accounts::new(&config, store.clone()),
            ratings: ratings(),
            chat: crate::chat::Chat::new(store.clone()),
            puzzles: crate::puzzles::Puzzles::new(store.clone()),
            imports: crate::imports::Imports::new(&config, store.clone()),
            tournaments: crate::tournaments::Tournaments::new(
                &config,
                store.clone(),
                games.clone(),
            ),
            challenges: crate::challenges::Challenges::new(&config, store.clone(), games.clone()),
            bots: crate::bots::Bots::new(store.clone()),
            tv: crate::watch::TvCache::default(),
            games: games.clone(),
            store,
            config,
            shutdown_tx,
            conns: ConnCounter::default(),
            ws_per_ip: ConnCounter::default(),
        }));
        // Before the games resume: a game that ends while they do advances its tournament.
        app.tournaments.spawn(app.shutdown_signal());
        if games.shared() {
            // Several instances share the store: the chat's messages from other instances
            // reach this one's sockets.
            if let Some(chats) = app.store.chat().and_then(|c| c.chat_changes()) {
                let chat_app = app.clone();
                games.forward_changes(chats, move |games, change| {
                    let app = chat_app.clone();
                    async move {
                        let targets = if change.id.is_empty() {
                            games.all_handles()
                        } else {
                            games.held(&change.id).into_iter().collect()
                        };
                        app.chat().on_change(targets, change).await
                    }
                });
            }
            games.start_shared().await;
            games.spawn_background();
        } else {
            games.resume().await?;
            games.spawn_background();
            for h in games.all_handles() {
                games.maybe_engine(h);
            }
        }
        Ok(app)
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The live games: games held, their limits, leases and engine moves.
    pub fn games(&self) -> &Games {
        &self.games
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

    /// The puzzles feature: the accounts' puzzle ratings, streaks and attempts.
    pub fn puzzles(&self) -> &crate::puzzles::Puzzles {
        &self.puzzles
    }

    /// The tournaments feature: Swiss and round robin played as live games.
    pub fn tournaments(&self) -> &crate::tournaments::Tournaments {
        &self.tournaments
    }

    /// The shared-games feature: games shared as PDN at `/a/<id>`.
    pub fn imports(&self) -> &crate::imports::Imports {
        &self.imports
    }

    /// The challenges feature: one account's invitation to another to play.
    pub fn challenges(&self) -> &crate::challenges::Challenges {
        &self.challenges
    }

    /// The API tokens and bot accounts.
    pub fn bots(&self) -> &crate::bots::Bots {
        &self.bots
    }

    /// Number of games not finished ([`Games::open_games`]).
    pub fn open_games(&self) -> usize {
        self.games.open_games()
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

    /// Write a last heartbeat (at shutdown; [`Games::final_heartbeat`]).
    pub async fn final_heartbeat(&self) {
        self.games.final_heartbeat().await;
    }
}

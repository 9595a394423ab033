//! # crown-server
//!
//! Online play for Crown: durable games stored in SQLite (behind the [`store::Store`] trait), seats
//! protected by secret tokens, a WebSocket per game pushing every change to players and spectators,
//! engine opponents, PDN export, and the web UI's static files. The HTTP API is documented in
//! `docs/api.md`; running several instances is discussed in `docs/scaling.md`.
//!
//! [`App::start`] wires the features and has the live games ([`games::Games`]) load or take over
//! the unfinished games (resuming their clocks) and start their background tasks; [`App::router`] is the axum router (tested in process with `tower::ServiceExt::oneshot`);
//! [`serve`] runs it on a listener with graceful shutdown.
//!
//! The modules, from the HTTP edge inwards:
//! - [`routes`]: the axum router, one module per feature with its `routes()`, the extractors, and
//!   the one mapping of domain errors to HTTP statuses and JSON bodies ([`routes::error`]);
//! - [`serve()`]: the connection layer (timeouts, per-address connection caps, graceful shutdown);
//! - [`app`]: the [`App`] that only wires the features together and hands them out
//!   ([`App::games`], [`App::accounts`], [`App::ratings`], [`App::chat`]);
//! - the features, a folder each, whose errors are [`error::Error`]:
//!   - [`games`]: the live games ([`games::Games`]: their state, counters, leases and engine
//!     slots), a new game checked and built ([`games::new_game`]), the rules of a game in play
//!     ([`games::live`]), the games in memory ([`games::registry`], [`games::handle`]),
//!     coherence between instances sharing a store ([`games::cluster`]), the background tasks
//!     ([`games::housekeeping`]) and PDN export ([`games::pdn`]);
//!   - [`lobby`]: seeks, names and rematches (on [`games::Games`]); [`chat`]: the chat of a game;
//!   - [`accounts`]: sign-up, log-in sessions, log-out and change of password;
//!   - [`ratings`]: ratings, leaderboards, players' pages and archives;
//!   - [`puzzles`]: a logged-in player's puzzle rating, streaks and attempts (crown-puzzle's
//!     rule), and the merge of a browser's local record;
//!   - [`imports`]: games shared as PDN (`/a/<id>`), checked with `crown_notation`, and the
//!     importer's archive flag;
//!   - [`tournaments`]: Swiss and round robin tournaments of two-game matches played as live
//!     games (`crown_tournament`'s rules, one versioned row per tournament);
//!   - [`challenges`]: one account's challenge to another (accept, decline, cancel, expiry),
//!     whose acceptance creates the game between them (one versioned row per challenge);
//!   - [`watch`]: the Watch page's games (the ongoing games highest rated first, the game of
//!     the day);
//!   - [`engine`]: the engine opponent and its scheduling ([`engine::scheduler`],
//!     `Games::maybe_engine`);
//! - [`store`]: durable storage (SQLite or PostgreSQL), one part per feature;
//!   [`token`]: seat tokens; [`limit`]: per-client limits; [`proxy`]: the client's address behind
//!   trusted reverse proxies; [`telemetry`]: the metrics of `/metrics`; [`config`]: the settings;
//!   [`backup`]: online backup and restore of a SQLite store.
//!
//! The modules `live`, `registry`, `handle`, `cluster`, `housekeeping`, `pdn` (now in [`games`])
//! and `scheduler` (now in [`engine`]) are still reachable at their former paths.

pub mod accounts;
pub mod app;
pub mod backup;
mod blocking;
pub mod bots;
pub mod challenges;
pub mod chat;
pub mod config;
pub mod engine;
pub mod error;
pub mod games;
pub mod imports;
pub mod limit;
pub mod lobby;
pub mod proxy;
pub mod puzzles;
pub mod ratings;
pub mod routes;
mod serve;
pub mod store;
pub mod telemetry;
pub mod token;
pub mod tournaments;
pub mod watch;

pub use app::App;
pub use config::Config;
pub use engine::scheduler;
pub use games::handle::GameHandle;
pub use games::{cluster, handle, housekeeping, live, pdn, registry};
pub use serve::serve;

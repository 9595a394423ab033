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
//! - [`accounts`]: sign-up, log-in sessions, log-out and change of password;
//! - [`store`]: durable storage (SQLite or PostgreSQL); [`engine`]: the engine opponent;
//!   [`limit`]: per-client limits; [`config`]: the settings.

pub mod accounts;
pub mod app;
mod blocking;
pub mod chat;
pub mod cluster;
pub mod config;
pub mod engine;
pub mod error;
pub mod games;
pub mod handle;
pub mod housekeeping;
pub mod limit;
pub mod live;
pub mod lobby;
pub mod pdn;
pub mod ratings;
pub mod registry;
pub mod routes;
pub mod scheduler;
mod serve;
pub mod store;
pub mod token;

pub use app::App;
pub use config::Config;
pub use handle::GameHandle;
pub use serve::serve;

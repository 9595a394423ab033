//! # crown-tui
//!
//! Crown in the terminal: American checkers, pool checkers and Impasse against the engine or a
//! second player at the same keyboard, with the keyboard or the mouse.
//!
//! Built the ratatui way: [`state::App`] holds the state (with the new-game [`dialog`] and the
//! [`popup`]s); [`app`] handles [`msg::Msg`]s in [`app::App::update`] and queues
//! [`msg::Effect`]s for the runtime; [`ui::view`] draws it, one file per panel and dialog;
//! [`layout`] is the geometry both share (so mouse clicks hit what is drawn); [`engine::Worker`]
//! runs searches on a background thread (crown-ai's engine session) and [`review`] the game review.
//! The engine plays by crown-ai's one opponent policy ([`crown_ai::Opponent`]). All rules come
//! from `crown-core`.
//!
//! Modules depend one way: `app` → `layout`, `state` → `dialog`, `popup`, `msg` → `engine`,
//! `review`; `ui` → `layout`, `state`.

pub mod app;
pub mod crown_engine;
pub mod dialog;
pub mod engine;
pub mod layout;
pub mod msg;
pub mod popup;
pub mod review;
pub mod state;
pub mod ui;

pub use app::{App, Effect, Msg};

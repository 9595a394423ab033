//! # crown-tui
//!
//! Crown in the terminal: American checkers, pool checkers and Impasse against the engine or a
//! second player at the same keyboard, with the keyboard or the mouse.
//!
//! Built the ratatui way: [`app::App`] holds the state and handles [`app::Msg`]s in
//! [`app::App::update`]; [`ui::view`] draws it; [`layout`] is the geometry both share (so mouse
//! clicks hit what is drawn); [`engine::Worker`] runs searches on a background thread (crown-ai's engine session). All rules
//! come from `crown-core`.

pub mod app;
pub mod crown_engine;
pub mod engine;
pub mod layout;
pub mod review;
pub mod ui;

pub use app::{App, Effect, Msg};

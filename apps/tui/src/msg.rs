//! The messages the app handles ([`Msg`]) and the work it asks of the runtime ([`Effect`]).

use crate::engine::{EngineEvent, Job};
use crate::review::ReviewEvent;
use crossterm::event::{KeyEvent, MouseEvent};
use crown_core::{Move, Position};

/// Something that happened: input, time, or a report from the engine or the file system.
#[derive(Clone, Debug)]
pub enum Msg {
    /// A key press.
    Key(KeyEvent),
    /// A mouse event.
    Mouse(MouseEvent),
    /// The terminal now has this many columns and rows.
    Resize(u16, u16),
    /// This many ms passed (drives the clocks).
    Tick(u64),
    /// The engine reported.
    Engine(EngineEvent),
    /// A file asked for by [`Effect::Load`] was read (or not: the error text).
    Loaded {
        /// The path.
        path: String,
        /// Its text, or why it could not be read.
        result: Result<String, String>,
    },
    /// The game review reported.
    Review(ReviewEvent),
    /// A file asked for by [`Effect::Save`] was written (or not).
    Saved {
        /// The path.
        path: String,
        /// Ok, or why it could not be written.
        result: Result<(), String>,
    },
}

/// Work for the runtime.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Start this search on the engine thread.
    Search(Job),
    /// Stop the running search.
    StopSearch,
    /// A new game starts: clear the engine's tables.
    NewGame,
    /// Write `text` to `path`.
    Save {
        /// File path.
        path: String,
        /// PDN text.
        text: String,
    },
    /// Read `path` and answer with [`Msg::Loaded`].
    Load {
        /// File path.
        path: String,
    },
    /// Review the game (`crown_ai::review`) on a background thread, answering with
    /// [`Msg::Review`]; a review already running is stopped.
    Review {
        /// Identifies the review.
        id: u64,
        /// The game's start position.
        start: Position,
        /// The moves to review.
        moves: Vec<Move>,
    },
    /// Stop the running review.
    StopReview,
    /// Write `text` to `path` quietly (creating its directory): the puzzle ratings.
    Store {
        /// File path.
        path: std::path::PathBuf,
        /// JSON text.
        text: String,
    },
}

//! The popups over the game: help, a choice between moves, a confirmation, a line of input, the
//! end of the game.

use crown_core::{Color, Move};

/// What a confirmation popup confirms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// Leave the program with a game in progress.
    Quit,
    /// Resign the game for this side.
    Resign(Color),
    /// The other player (same keyboard) accepts a draw offered by this side.
    Draw(Color),
}

/// What an input line is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A move in notation.
    Move,
    /// A file to save the game to.
    Save,
    /// A PDN file or a FEN to load.
    Load,
}

/// A popup over the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Popup {
    /// All keys.
    Help,
    /// Several moves go from the selected piece to the chosen square (multi-jump paths, Impasse
    /// crowns): pick one.
    Choice {
        /// The candidates.
        options: Vec<Move>,
        /// The highlighted one.
        index: usize,
    },
    /// Yes or no.
    Confirm(Confirm),
    /// A line of text.
    Input {
        /// What for.
        kind: InputKind,
        /// The text typed so far.
        text: String,
    },
    /// The game just ended.
    GameOver,
}

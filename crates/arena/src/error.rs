//! The error type of the arena.

/// Why an arena operation failed. Each message is one line that names what failed (the file and
/// game of an opening, the engine and its path, the player and ply of a game).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// Openings that cannot be used: unreadable file or PDN, a game of another variant, an illegal
    /// position or move, a game already over, or no opening at all.
    #[error("{0}")]
    Openings(String),
    /// An external engine failed: it could not start, answered `error`, exited, did not answer in
    /// time (it is then killed), or sent a reply that cannot be read.
    #[error("{0}")]
    Engine(String),
    /// A player broke the game: no move where it has legal moves, or an illegal move.
    #[error("{0}")]
    Player(String),
    /// Training data that cannot be made: a chunk file that cannot be read or written, or one
    /// made with other settings.
    #[error("{0}")]
    Data(String),
    /// A game of a run failed: its round (`PAIR.GAME`), the opening's FEN, and why.
    #[error("game {round} (opening \"{opening}\"): {source}")]
    Game {
        /// The round, e.g. `2.1` for the first game of the second pair.
        round: String,
        /// The FEN of the opening the game started from.
        opening: String,
        /// What went wrong.
        source: Box<ArenaError>,
    },
}

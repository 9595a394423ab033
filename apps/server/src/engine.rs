//! The engine opponent, behind the [`MovePicker`] trait so the server does not depend on how moves
//! are chosen. The server calls it on a blocking thread (`tokio::task::spawn_blocking`), never on
//! the async runtime's workers.

use crown_core::Game;
use std::sync::atomic::AtomicBool;

/// Chooses the engine's moves.
pub trait MovePicker: Send + Sync + 'static {
    /// The move to play in `game` (in Crown notation, as `Position::move_text` writes it) at casual
    /// `level` 1..=10, with `clock` = (time left, increment) in ms when the game is timed. Returns
    /// `None` if there is no move or `stop` was set. May block for as long as the search takes.
    fn pick(
        &self,
        game: &Game,
        level: u8,
        clock: Option<(u64, u64)>,
        stop: &AtomicBool,
    ) -> Option<String>;
}

/// The engine this build links, if any: `None` until crown-ai is wired in.
pub fn default_picker(_threads: usize, _hash_mib: usize) -> Option<std::sync::Arc<dyn MovePicker>> {
    None
}

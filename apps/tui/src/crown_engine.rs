//! The Crown engine (`crown-ai`) as the app's searcher.

use crown_ai::{EndgameTables, Engine, EngineOptions, Limits, SearchInfo, SearchResult, Searcher};
use crown_core::Game;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The Crown engine with the default hash size and one thread, using these endgame databases (for
/// its hints and from level [`crown_ai::TABLES_FROM_LEVEL`] up; lower levels use them only to
/// convert a database win), ready for [`crate::engine::Worker::spawn`]. With `book`, the engine's
/// own moves (searches at a casual level) come from the embedded opening book while the position
/// is in it; hints and draw judgements (full strength) always search.
pub fn searcher(tables: Option<Arc<dyn EndgameTables>>, book: bool) -> Box<dyn Searcher> {
    let mut engine = Engine::new(EngineOptions::default());
    engine.set_tables(tables);
    Box::new(BookSearcher { engine, book })
}

/// [`Engine`] with the opening book turned on only for the engine's own moves.
struct BookSearcher {
    engine: Engine,
    book: bool,
}

impl Searcher for BookSearcher {
    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        level: Option<u8>,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.engine.set_book(self.book && level.is_some());
        Searcher::search(&mut self.engine, game, limits, level, stop, on_info)
    }

    fn new_game(&mut self) {
        Searcher::new_game(&mut self.engine);
    }

    fn set_options(&mut self, options: EngineOptions) {
        Searcher::set_options(&mut self.engine, options);
    }
}

//! The Crown engine (`crown-ai`) as the app's searcher.

use crown_ai::{EndgameTables, Engine, EngineOptions, Searcher};
use std::sync::Arc;

/// The Crown engine with the default hash size and one thread, using these endgame databases (for
/// its hints and at levels 7–10; levels 1–6 do not use them), ready for
/// [`crate::engine::Worker::spawn`].
pub fn searcher(tables: Option<Arc<dyn EndgameTables>>) -> Box<dyn Searcher> {
    let mut engine = Engine::new(EngineOptions::default());
    engine.set_tables(tables);
    Box::new(engine)
}

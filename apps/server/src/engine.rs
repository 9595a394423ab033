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

    /// The endgame databases for `/health`: what is loaded and the background build's state
    /// (`crown_ai::tables::auto`), or `None` when the picker has none to report.
    fn egdb_status(&self) -> Option<serde_json::Value> {
        None
    }
}

/// The crown-ai engine as a [`MovePicker`]: a pool of [`crown_ai::Engine`]s (each with its own
/// transposition table), searching at the game's casual level within the clock.
pub struct CrownEngine {
    threads: usize,
    hash_mib: usize,
    pool: std::sync::Mutex<Vec<crown_ai::Engine>>,
    tables: Option<std::sync::Arc<dyn crown_ai::EndgameTables>>,
    /// Play from the embedded opening book (on unless [`CrownEngine::with_book`] turns it off).
    book: bool,
    /// The background build of the recommended databases ([`CrownEngine::with_auto_build`]).
    auto: Option<crown_ai::tables::auto::AutoBuild>,
}

impl CrownEngine {
    /// An engine pool whose searches use `threads` threads and `hash_mib` MiB of hash each.
    pub fn new(threads: usize, hash_mib: usize) -> CrownEngine {
        CrownEngine {
            threads,
            hash_mib,
            pool: std::sync::Mutex::new(Vec::new()),
            tables: None,
            book: true,
            auto: None,
        }
    }

    /// The same pool with the embedded opening book on (the default) or off (every move searched).
    #[must_use]
    pub fn with_book(mut self, on: bool) -> CrownEngine {
        self.book = on;
        self
    }

    /// The same pool whose engines share these endgame databases (used everywhere from level
    /// `crown_ai::TABLES_FROM_LEVEL` up; lower levels use them only to convert a database win).
    #[must_use]
    pub fn with_tables(
        mut self,
        tables: Option<std::sync::Arc<dyn crown_ai::EndgameTables>>,
    ) -> CrownEngine {
        self.tables = tables;
        self
    }

    /// The same pool with this background build of the recommended databases: its engines use
    /// the builder's tables (reloaded when a set is done), and the first move of each game kind
    /// asks for that game's set (logged when a build starts).
    #[must_use]
    pub fn with_auto_build(
        mut self,
        auto: Option<crown_ai::tables::auto::AutoBuild>,
    ) -> CrownEngine {
        if let Some(a) = &auto {
            self.tables = Some(a.tables());
        }
        self.auto = auto;
        self
    }
}

/// The `/health` report of the databases: `loaded` (one line) and `build` (null when there is no
/// background build): `state`, `variant`, `pieces`, `percent`, `dir`, `error`.
pub fn egdb_json(
    tables: Option<&std::sync::Arc<dyn crown_ai::EndgameTables>>,
    auto: Option<&crown_ai::tables::auto::AutoBuild>,
) -> serde_json::Value {
    let build = auto.map(|a| {
        let status = a.status();
        let error = match &status {
            crown_ai::tables::auto::Status::Failed { error, .. } => Some(error.clone()),
            _ => None,
        };
        serde_json::json!({
            "state": status.id(),
            "variant": status.variant().map(|v| v.id()),
            "pieces": a.pieces(),
            "percent": status.percent(),
            "line": status.line(a.pieces()),
            "dir": a.dir().display().to_string(),
            "error": error,
        })
    });
    serde_json::json!({
        "loaded": tables.map(|t| t.describe()),
        "build": build,
    })
}

impl MovePicker for CrownEngine {
    fn pick(
        &self,
        game: &Game,
        level: u8,
        clock: Option<(u64, u64)>,
        stop: &AtomicBool,
    ) -> Option<String> {
        if let Some(line) = self.auto.as_ref().and_then(|a| a.ensure(game.variant())) {
            tracing::info!("{line}");
        }
        // The one opponent policy (crown_ai::Opponent): level, book, databases, clock -> limits.
        let opponent = crown_ai::Opponent::new(level)
            .with_book(self.book)
            .with_tables(self.tables.clone());
        let pooled = self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut engine = pooled.unwrap_or_else(|| opponent.engine(self.hash_mib, self.threads));
        // Positions of another game would only pollute the table.
        engine.new_game();
        opponent.prepare(&mut engine);
        let clock = clock.map(|(remaining_ms, increment_ms)| crown_ai::Clock {
            remaining_ms,
            increment_ms,
        });
        // The engine session's one search path (crown_ai::session), on this blocking thread.
        let request = opponent.request(0, clock);
        let (_, result) = crown_ai::search_now(&mut engine, game, &request, stop, &mut |_| {});
        self.pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(engine);
        let mv = result.best_move?;
        Some(game.position().move_text(&mv))
    }

    fn egdb_status(&self) -> Option<serde_json::Value> {
        Some(egdb_json(self.tables.as_ref(), self.auto.as_ref()))
    }
}

/// The engine this build links: crown-ai, with the endgame databases `tables` (shared by every
/// engine of the pool) and the embedded opening book when `book`.
pub fn default_picker(
    threads: usize,
    hash_mib: usize,
    tables: Option<std::sync::Arc<dyn crown_ai::EndgameTables>>,
    book: bool,
) -> Option<std::sync::Arc<dyn MovePicker>> {
    Some(std::sync::Arc::new(
        CrownEngine::new(threads, hash_mib)
            .with_tables(tables)
            .with_book(book),
    ))
}

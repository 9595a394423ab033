//! The Crown engine (`crown-ai`) as the app's [`Brain`].

use crate::engine::{Brain, Request, Thought};
use crown_ai::{Clock, EndgameTables, Engine, EngineOptions, Limits, SearchInfo};
use crown_core::{Game, Move};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// `crown_ai::Engine` behind the [`Brain`] trait.
pub struct CrownEngine {
    engine: Engine,
    /// Play the engine's own moves from the embedded opening book (hints and draw judgements
    /// always search).
    book: bool,
}

impl CrownEngine {
    /// An engine with the default hash size and one thread.
    pub fn new() -> CrownEngine {
        CrownEngine {
            engine: Engine::new(EngineOptions::default()),
            book: true,
        }
    }

    /// An engine with the default hash size and one thread that uses these endgame databases
    /// (for its hints and from level `crown_ai::TABLES_FROM_LEVEL` up; lower levels use them only
    /// to convert a database win).
    pub fn with_tables(tables: Option<Arc<dyn EndgameTables>>) -> CrownEngine {
        let mut engine = Engine::new(EngineOptions::default());
        engine.set_tables(tables);
        CrownEngine { engine, book: true }
    }

    /// Whether the engine plays its own moves from the embedded opening book (on by default).
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }
}

impl Default for CrownEngine {
    fn default() -> Self {
        CrownEngine::new()
    }
}

fn thought(i: &SearchInfo) -> Thought {
    Thought {
        depth: i.depth,
        score: i.score,
        nodes: i.nodes,
        nps: i.nps,
        time_ms: i.time_ms,
        pv: i.pv.clone(),
    }
}

/// The search limits for a request: the casual level's caps (plus the clock) for the engine's own
/// moves; full strength for a fixed time for hints and draw offers.
pub fn limits(request: &Request) -> Limits {
    match request.movetime_ms {
        Some(ms) => Limits::movetime(ms),
        None => {
            let mut l = Limits::level(request.level);
            l.clock = request.clock.map(|(remaining_ms, increment_ms)| Clock {
                remaining_ms,
                increment_ms,
            });
            l
        }
    }
}

impl Brain for CrownEngine {
    fn think(
        &mut self,
        game: &Game,
        request: &Request,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Thought),
    ) -> (Option<Move>, Thought) {
        // Low levels choose among near-best moves; hints and draw judgements use the best.
        self.engine.set_level(if request.movetime_ms.is_some() {
            None
        } else {
            Some(request.level)
        });
        self.engine
            .set_book(self.book && request.movetime_ms.is_none());
        let limits = limits(request);
        let r = self
            .engine
            .search(game, &limits, stop, &mut |i: &SearchInfo| {
                on_info(&thought(i))
            });
        let t = Thought {
            depth: r.depth,
            score: r.score,
            nodes: r.nodes,
            nps: r.nodes.saturating_mul(1000) / r.time_ms.max(1),
            time_ms: r.time_ms,
            pv: r.pv,
        };
        (r.best_move, t)
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }
}

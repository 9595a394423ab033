//! The engine: `crown.Engine` and what a search answers (`crown.Score`, `crown.Info`,
//! `crown.SearchResult`).

use crate::convert::value_error;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crown_ai::level::{MAX_LEVEL, MIN_LEVEL};
use crown_ai::{Engine as RustEngine, EngineOptions, Limits, Score as RustScore, SearchInfo};
use crown_core::{Game as RustGame, Move as RustMove, Position as RustPosition};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;

/// A search score from the side to move's point of view.
#[pyclass(module = "crown", frozen)]
#[derive(Clone)]
pub(crate) struct Score {
    score: RustScore,
}

#[pymethods]
impl Score {
    /// `value` (an evaluation), `win` or `loss` (proven by search), `db-win` or `db-loss` (proven
    /// with the endgame databases).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.score {
            RustScore::Value(_) => "value",
            RustScore::Win(_) => "win",
            RustScore::Loss(_) => "loss",
            RustScore::DatabaseWin(_) => "db-win",
            RustScore::DatabaseLoss(_) => "db-loss",
        }
    }

    /// The evaluation in men (`0.25`), or `None` for a win or loss.
    #[getter]
    fn men(&self) -> Option<f64> {
        match self.score {
            RustScore::Value(v) => Some(f64::from(v) / 100.0),
            _ => None,
        }
    }

    /// Plies to the proven end of the game for a win or loss, else `None`.
    #[getter]
    fn plies(&self) -> Option<u32> {
        self.score.plies_to_end()
    }

    fn __str__(&self) -> String {
        self.score.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Score('{}')", self.score)
    }
}

/// One completed depth of a search (what `crown analyze` prints per line).
#[pyclass(module = "crown", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct Info {
    /// Completed depth in plies.
    depth: u32,
    /// Deepest ply reached.
    seldepth: u32,
    /// Score of the best line.
    score: Score,
    /// Nodes searched so far.
    nodes: u64,
    /// Milliseconds since the search started.
    time_ms: u64,
    /// The principal variation in Crown's notation.
    pv: Vec<String>,
}

/// The answer of a search.
#[pyclass(module = "crown", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct SearchResult {
    /// The move to play, or `None` when the game is over.
    best_move: Option<Move>,
    /// Its score.
    score: Score,
    /// The principal variation in Crown's notation, starting with the best move.
    pv: Vec<String>,
    /// The last completed depth (0 for a book move).
    depth: u32,
    /// Nodes searched.
    nodes: u64,
    /// Milliseconds the search took.
    time_ms: u64,
    /// Every completed depth, first to last.
    infos: Vec<Info>,
}

/// The texts of `moves` played from `start`, up to the first that is not legal there.
fn line(start: &RustPosition, moves: &[RustMove]) -> Vec<String> {
    let mut p = *start;
    let mut out = Vec::new();
    for m in moves {
        if !p.is_legal(m) {
            break;
        }
        out.push(p.move_text(m));
        p.play(m);
    }
    out
}

/// Crown's engine: alpha-beta search with a transposition table, its trained evaluation, the
/// opening book (off unless asked) and the endgame databases.
#[pyclass(module = "crown")]
pub(crate) struct Engine {
    engine: Option<RustEngine>,
}

#[pymethods]
impl Engine {
    /// An engine with a `hash_mib` MiB table, `threads` search threads and a casual `level` 1–10
    /// (`None`: full strength). `egdb` is a directory of endgame databases (`crown egdb build`),
    /// `"default"` for `$CROWN_EGDB_DIR` or the per-user directory, or `None` for none; `book`
    /// plays from the embedded opening book. Raises `ValueError` for a level outside 1–10 or a
    /// database directory that cannot be opened.
    #[new]
    #[pyo3(signature = (hash_mib = 64, threads = 1, level = None, egdb = None, book = false))]
    fn py_new(
        hash_mib: usize,
        threads: usize,
        level: Option<u8>,
        egdb: Option<&str>,
        book: bool,
    ) -> PyResult<Engine> {
        if let Some(l) = level {
            crown_ai::level::check(l.into()).map_err(|_| {
                PyValueError::new_err(format!(
                    "level must be {MIN_LEVEL} to {MAX_LEVEL} (or None)"
                ))
            })?;
        }
        let mut e = RustEngine::new(EngineOptions {
            hash_mib,
            threads,
            level,
        });
        let tables = match egdb {
            None => None,
            Some("default") => crown_ai::tables::load(None).map_err(value_error)?,
            Some(dir) => {
                crown_ai::tables::load(Some(std::path::Path::new(dir))).map_err(value_error)?
            }
        };
        e.set_tables(tables);
        e.set_book(book);
        Ok(Engine { engine: Some(e) })
    }

    /// Search `position` (a `Position` or a `Game`, whose history counts for repetitions) within
    /// the limits given: `depth` plies, `nodes`, `movetime_ms`, or a clock (`time_ms` left and
    /// `inc_ms`); with none, one second. `on_info(info)` is called after every completed depth.
    /// The search runs without the GIL.
    #[pyo3(signature = (position, depth = None, nodes = None, movetime_ms = None, time_ms = None, inc_ms = 0, on_info = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime_ms: Option<u64>,
        time_ms: Option<u64>,
        inc_ms: u64,
        on_info: Option<PyObject>,
    ) -> PyResult<SearchResult> {
        let game = if let Ok(g) = position.downcast::<Game>() {
            g.borrow().game.clone()
        } else if let Ok(p) = position.downcast::<Position>() {
            RustGame::from_position(p.get().pos)
        } else {
            return Err(PyValueError::new_err("search needs a Position or a Game"));
        };
        let mut limits = Limits {
            depth,
            nodes,
            movetime_ms,
            clock: time_ms.map(|t| crown_ai::Clock {
                remaining_ms: t,
                increment_ms: inc_ms,
            }),
            infinite: false,
        };
        if depth.is_some_and(|d| d == 0 || d > crown_ai::MAX_PLY as u32) {
            return Err(PyValueError::new_err(format!(
                "depth must be 1 to {}",
                crown_ai::MAX_PLY
            )));
        }
        if limits == Limits::default() {
            limits = Limits::movetime(1000);
        }
        let mut engine = self
            .engine
            .take()
            .ok_or_else(|| PyValueError::new_err("the engine is already searching"))?;
        let root = *game.position();
        let stop = AtomicBool::new(false);
        let mut infos: Vec<Info> = Vec::new();
        let mut callback_error: Option<PyErr> = None;
        let r = py.allow_threads(|| {
            let mut each = |i: &SearchInfo| {
                let info = Info {
                    depth: i.depth,
                    seldepth: i.seldepth,
                    score: Score { score: i.score },
                    nodes: i.nodes,
                    time_ms: i.time_ms,
                    pv: line(&root, &i.pv),
                };
                if let Some(f) = on_info.as_ref() {
                    if callback_error.is_none() {
                        Python::with_gil(|py| {
                            if let Err(e) = f.call1(py, (info.clone(),)) {
                                callback_error = Some(e);
                                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                            }
                        });
                    }
                }
                infos.push(info);
            };
            engine.search(&game, &limits, &stop, &mut each)
        });
        self.engine = Some(engine);
        if let Some(e) = callback_error {
            return Err(e);
        }
        Ok(SearchResult {
            best_move: r.best_move.map(|m| Move::new(&root, m)),
            score: Score { score: r.score },
            pv: line(&root, &r.pv),
            depth: r.depth,
            nodes: r.nodes,
            time_ms: r.time_ms,
            infos,
        })
    }

    /// Forget the transposition table (a new game).
    fn new_game(&mut self) {
        if let Some(e) = self.engine.as_mut() {
            e.new_game();
        }
    }
}

//! `import crown`: Crown's rules, notation, engine and endgame databases for Python (PyO3).
//!
//! Every class and function is a thin layer over the Rust crates: positions and moves
//! (`crown-core`), FEN, Hub strings and PDN (`crown-notation`, streaming over big files), perft,
//! the engine (`crown-ai`) and the endgame databases (`crown-egdb`). Bad input raises `ValueError`
//! with the same one-line message the command line prints; nothing panics across the boundary.
//! The type stubs are in `crown.pyi` beside this crate.

use crown_ai::{Engine as RustEngine, EngineOptions, Limits, Score as RustScore, SearchInfo};
use crown_core::{
    Color, Game as RustGame, ImpasseSetup, Move as RustMove, PerftConvention,
    Position as RustPosition, Variant,
};
use crown_notation::{
    game_to_pdn, hub_move, hub_position, is_hub_position, read_fen, read_game_move,
    read_hub_position, read_move, replay, FenPolicy, PdnReader,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn variant_of(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>().map_err(value_error)
}

fn color_name(c: Color) -> &'static str {
    c.name()
}

/// The start position of `variant` (Impasse: `setup` is `seed` or `steere`).
fn start_position(variant: Variant, setup: Option<&str>) -> PyResult<RustPosition> {
    match (variant, setup) {
        (Variant::Impasse, Some(s)) => Ok(RustPosition::impasse(
            s.parse::<ImpasseSetup>().map_err(value_error)?,
        )),
        (_, Some(_)) => Err(PyValueError::new_err(
            "setup= is for Impasse only (seed or steere)",
        )),
        (v, None) => Ok(RustPosition::new(v)),
    }
}

/// A move of one position (only meaningful there).
#[pyclass(module = "crown", frozen)]
#[derive(Clone)]
struct Move {
    mv: RustMove,
    /// Crown's notation in the position it was made from.
    text: String,
    /// The Hub protocol's text.
    hub: String,
}

impl Move {
    fn new(pos: &RustPosition, mv: RustMove) -> Move {
        Move {
            text: pos.move_text(&mv),
            hub: hub_move(pos, &mv),
            mv,
        }
    }
}

#[pymethods]
impl Move {
    /// Crown's notation: `11-15`, `11x18`, `11x18x25`, Impasse `6>10`, `x14`, `22-18=3`.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The Hub protocol's text: `11-15`, or `from x to x captured…` for a capture.
    #[getter]
    fn hub(&self) -> &str {
        &self.hub
    }

    /// The square the piece starts on (1–32).
    #[getter(from_square)]
    fn start_square(&self) -> u32 {
        u32::from(self.mv.from().number())
    }

    /// The square the piece ends on (1–32).
    #[getter]
    fn to_square(&self) -> u32 {
        u32::from(self.mv.to().number())
    }

    /// The squares of the captured pieces, ascending (empty for a non-capture).
    #[getter]
    fn captures(&self) -> Vec<u32> {
        self.mv
            .captures()
            .iter()
            .map(|s| u32::from(s.number()))
            .collect()
    }

    /// The landing squares of a jump in order (empty for other moves).
    #[getter]
    fn path(&self) -> Vec<u32> {
        self.mv.path().map(|s| u32::from(s.number())).collect()
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.text)
    }

    fn __eq__(&self, other: &Move) -> bool {
        self.mv == other.mv && self.text == other.text
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.text.hash(&mut h);
        h.finish()
    }
}

/// A position of one of the three games: pieces, side to move and the variant's rules.
/// Immutable: `play` returns a new position.
#[pyclass(module = "crown", frozen)]
#[derive(Clone)]
struct Position {
    pos: RustPosition,
}

#[pymethods]
impl Position {
    /// The start of `variant` (`american`, `english`, `pool`, `impasse`), or the position of `fen`
    /// (a PDN FEN such as `B:W21-32:B1-12` or a 33-character Hub position string). Impasse takes
    /// `setup="seed"` or `"steere"` for its start. Raises `ValueError` for a bad FEN or name.
    #[new]
    #[pyo3(signature = (variant = "american", fen = None, setup = None))]
    fn py_new(variant: &str, fen: Option<&str>, setup: Option<&str>) -> PyResult<Position> {
        let v = variant_of(variant)?;
        let pos = match fen {
            Some(t) if is_hub_position(t) => read_hub_position(v, t).map_err(value_error)?,
            Some(t) => {
                read_fen(v, t, FenPolicy::Strict)
                    .map_err(value_error)?
                    .position
            }
            None => start_position(v, setup)?,
        };
        Ok(Position { pos })
    }

    /// The variant's identifier: `american`, `pool` or `impasse`.
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.variant().id()
    }

    /// The side to move: `black` or `white`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.pos.side_to_move())
    }

    /// The PDN FEN, e.g. `B:W21,…,32:B1,…,12`.
    fn fen(&self) -> String {
        self.pos.to_fen()
    }

    /// The Hub protocol's position string (docs/protocol.md), e.g.
    /// `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` for the start of American checkers.
    fn hub(&self) -> String {
        hub_position(&self.pos)
    }

    /// The legal moves, in Crown's order (by notation).
    fn legal_moves(&self) -> Vec<Move> {
        self.pos
            .legal_moves_sorted()
            .into_iter()
            .map(|m| Move::new(&self.pos, m))
            .collect()
    }

    /// The legal move named by `text` (Crown notation, algebraic squares or Hub text). Raises
    /// `ValueError` for an illegal, ambiguous or unreadable move, naming the legal ones.
    fn parse_move(&self, text: &str) -> PyResult<Move> {
        let m = read_move(&self.pos, text).map_err(value_error)?;
        Ok(Move::new(&self.pos, m))
    }

    /// The position after `mv` (a `Move` of this position or its text).
    fn play(&self, mv: &Bound<'_, PyAny>) -> PyResult<Position> {
        let m = self.move_of(mv)?;
        Ok(Position {
            pos: self.pos.after(&m),
        })
    }

    /// The winner (`black`/`white`) when the side to move has lost (no pieces or no legal move;
    /// Impasse: a side has removed all its checkers), else `None`.
    fn winner(&self) -> Option<&'static str> {
        self.pos.winner().map(color_name)
    }

    /// The number of move sequences of `depth` plies (perft), captures counted once per set of
    /// captured pieces (the legal-move list a player sees); `paths=True` counts every capture path.
    #[pyo3(signature = (depth, paths = false))]
    fn perft(&self, py: Python<'_>, depth: u32, paths: bool) -> u64 {
        let pos = self.pos;
        let convention = if paths {
            PerftConvention::Paths
        } else {
            PerftConvention::Distinct
        };
        py.allow_threads(|| crown_core::perft(&pos, depth, convention))
    }

    /// A text diagram of the board.
    fn __str__(&self) -> String {
        self.pos.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position('{}', '{}')",
            self.pos.variant().id(),
            self.pos.to_fen()
        )
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.pos == other.pos
    }

    fn __hash__(&self) -> u64 {
        self.pos.zobrist()
    }
}

impl Position {
    fn move_of(&self, mv: &Bound<'_, PyAny>) -> PyResult<RustMove> {
        if let Ok(m) = mv.downcast::<Move>() {
            let m = m.get().mv;
            if !self.pos.is_legal(&m) {
                return Err(PyValueError::new_err(format!(
                    "move {} is not legal in this position",
                    m.short_text()
                )));
            }
            return Ok(m);
        }
        let text: String = mv.extract()?;
        read_move(&self.pos, &text).map_err(value_error)
    }
}

/// A game: a start position and the moves played, with the draw rules of its variant.
#[pyclass(module = "crown")]
#[derive(Clone)]
struct Game {
    game: RustGame,
}

#[pymethods]
impl Game {
    /// A new game of `variant` from its start (Impasse: `setup="seed"`/`"steere"`) or from `fen`.
    #[new]
    #[pyo3(signature = (variant = "american", fen = None, setup = None))]
    fn py_new(variant: &str, fen: Option<&str>, setup: Option<&str>) -> PyResult<Game> {
        let p = Position::py_new(variant, fen, setup)?;
        Ok(Game {
            game: if fen.is_none() && p.pos.variant() == Variant::Impasse {
                RustGame::impasse(
                    setup
                        .unwrap_or("seed")
                        .parse::<ImpasseSetup>()
                        .map_err(value_error)?,
                )
            } else {
                RustGame::from_position(p.pos)
            },
        })
    }

    /// The position now.
    #[getter]
    fn position(&self) -> Position {
        Position {
            pos: *self.game.position(),
        }
    }

    /// The start position.
    #[getter]
    fn start(&self) -> Position {
        Position {
            pos: *self.game.start(),
        }
    }

    /// The moves played, in Crown's notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.history().map(|(p, m)| p.move_text(m)).collect()
    }

    /// Play `mv` (a `Move` of the current position or its text); returns the move played.
    /// Raises `ValueError` for an illegal move or a finished game.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        let before = *self.game.position();
        let m = if let Ok(m) = mv.downcast::<Move>() {
            m.get().mv
        } else {
            let text: String = mv.extract()?;
            read_game_move(&self.game, &text).map_err(value_error)?
        };
        self.game.play(&m).map_err(value_error)?;
        Ok(Move::new(&before, m))
    }

    /// Take the last move back; returns its text, or `None` at the start.
    fn undo(&mut self) -> Option<String> {
        let n = self.game.ply_count();
        let text = self
            .game
            .history()
            .nth(n.checked_sub(1)?)
            .map(|(p, m)| p.move_text(m));
        self.game.undo();
        text
    }

    /// The legal moves now (none once the game is over).
    fn legal_moves(&self) -> Vec<Move> {
        let pos = *self.game.position();
        self.game
            .legal_moves()
            .iter()
            .map(|m| Move::new(&pos, *m))
            .collect()
    }

    /// How the game ended (`Black wins: …`, `Draw: …`), or `None` while it goes on.
    fn outcome(&self) -> Option<String> {
        self.game.outcome().map(|o| o.to_string())
    }

    /// The game as PDN 3.0 text, with `tags` (e.g. `{"Event": "Club"}`) in the roster.
    #[pyo3(signature = (tags = None))]
    fn pdn(&self, tags: Option<Vec<(String, String)>>) -> String {
        let tags = tags.unwrap_or_default();
        let refs: Vec<(&str, &str)> = tags.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        game_to_pdn(&self.game, &refs)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game('{}', {} plies)",
            self.game.variant().id(),
            self.game.ply_count()
        )
    }
}

/// One game of a PDN file: its tags, its main-line move texts and its result, as read (not yet
/// replayed against the rules).
#[pyclass(module = "crown", frozen)]
struct PdnGame {
    game: crown_notation::PdnGame,
}

#[pymethods]
impl PdnGame {
    /// The 1-based index of the game in its file.
    #[getter]
    fn index(&self) -> usize {
        self.game.index
    }

    /// The tags in file order, as `(name, value)` pairs.
    #[getter]
    fn tags(&self) -> Vec<(String, String)> {
        self.game.tags.clone()
    }

    /// The value of tag `name`, or `None`.
    fn tag(&self, name: &str) -> Option<String> {
        self.game.tag(name).map(str::to_string)
    }

    /// The main-line move texts as written.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game
            .nodes
            .iter()
            .filter_map(|n| match n {
                crown_notation::Node::Move(m) => Some(m.text.clone()),
                _ => None,
            })
            .collect()
    }

    /// The game terminator as written (`1-0`, `0-1`, `1/2-1/2`, `*`), or `None`.
    #[getter]
    fn result(&self) -> Option<String> {
        self.game.result.clone()
    }

    /// Replay the moves against the rules: the `Game`. Raises `ValueError` naming the move, line
    /// and column of the first one that is not legal. Archives play on past a draw that could
    /// have been claimed, so the moves are played with the draw rules off; the game's `outcome`
    /// then applies them.
    fn replay(&self) -> PyResult<Game> {
        let r = replay(&self.game).map_err(value_error)?;
        let mut game = RustGame::from_position(r.start);
        let rules = game.draw_rules();
        game.set_draw_rules(crown_core::DrawRules {
            repetition: false,
            forty_moves: false,
        });
        for m in &r.moves {
            game.play(m).map_err(value_error)?;
        }
        game.set_draw_rules(rules);
        Ok(Game { game })
    }

    /// The game in canonical PDN 3.0 (as `crown pdn fmt` writes it).
    fn pdn(&self) -> String {
        crown_notation::write_game(&self.game)
    }
}

/// The games of a PDN file, read one at a time (the file is never held in memory whole). Each item
/// is a `PdnGame`; a game whose text breaks the grammar raises `ValueError` naming its line, and
/// the next call goes on with the following game.
#[pyclass(module = "crown")]
struct PdnFile {
    reader: PdnReader<BufReader<File>>,
}

#[pymethods]
impl PdnFile {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> PyResult<Option<PdnGame>> {
        match self.reader.next() {
            None => Ok(None),
            Some(Ok(game)) => Ok(Some(PdnGame { game })),
            Some(Err(e)) => Err(value_error(e)),
        }
    }
}

/// Open `path` for reading its games one at a time (see `PdnFile`). Raises `OSError` when it
/// cannot be opened.
#[pyfunction]
fn read_pdn(path: PathBuf) -> PyResult<PdnFile> {
    let f =
        File::open(&path).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
    Ok(PdnFile {
        reader: PdnReader::new(BufReader::new(f)),
    })
}

/// Every game of PDN `text` (for small inputs; `read_pdn` streams a file). Raises `ValueError`
/// for the first game that breaks the grammar.
#[pyfunction]
fn parse_pdn(text: &str) -> PyResult<Vec<PdnGame>> {
    crown_notation::read_games(text)
        .into_iter()
        .map(|g| g.map(|game| PdnGame { game }).map_err(value_error))
        .collect()
}

/// Perft of the start of `variant` (or of `fen`) to `depth` plies.
#[pyfunction]
#[pyo3(signature = (variant, depth, fen = None, paths = false))]
fn perft(
    py: Python<'_>,
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    paths: bool,
) -> PyResult<u64> {
    Ok(Position::py_new(variant, fen, None)?.perft(py, depth, paths))
}

/// A search score from the side to move's point of view.
#[pyclass(module = "crown", frozen)]
#[derive(Clone)]
struct Score {
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
struct Info {
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
struct SearchResult {
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
struct Engine {
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
        if level.is_some_and(|l| !(1..=10).contains(&l)) {
            return Err(PyValueError::new_err("level must be 1 to 10 (or None)"));
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

/// The endgame databases of a directory (`crown egdb build`): perfect-play values of positions
/// with few pieces.
#[pyclass(module = "crown")]
struct Tablebase {
    tb: Arc<crown_egdb::Tablebase>,
}

#[pymethods]
impl Tablebase {
    /// Open the databases in `path` (default: `$CROWN_EGDB_DIR` or the per-user data directory).
    /// Raises `OSError` when the directory cannot be read.
    #[new]
    #[pyo3(signature = (path = None))]
    fn py_new(path: Option<PathBuf>) -> PyResult<Tablebase> {
        let dir = match path {
            Some(p) => p,
            None => std::env::var_os("CROWN_EGDB_DIR")
                .map(PathBuf::from)
                .or_else(crown_egdb::Tablebase::default_dir)
                .ok_or_else(|| PyOSError::new_err("no endgame database directory"))?,
        };
        let tb = crown_egdb::Tablebase::open(&dir)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", dir.display())))?;
        Ok(Tablebase { tb: Arc::new(tb) })
    }

    /// The classes present, e.g. `american ≤4 pieces`.
    fn describe(&self) -> String {
        self.tb.describe()
    }

    /// The value of `position` for the side to move: `("win" | "loss" | "draw", plies or None)`,
    /// plies being the distance to the end under perfect play; `None` when its class is not
    /// built. Raises `OSError` for a damaged file.
    fn probe(&self, position: &Position) -> PyResult<Option<(&'static str, Option<u32>)>> {
        if !self.tb.covers(&position.pos) {
            return Ok(None);
        }
        let p = self
            .tb
            .probe(&position.pos)
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        let wdl = match p.wdl {
            crown_egdb::Wdl::Win => "win",
            crown_egdb::Wdl::Loss => "loss",
            crown_egdb::Wdl::Draw => "draw",
        };
        Ok(Some((wdl, p.distance)))
    }

    /// The database's best move of `position` (the shortest win, the longest loss), or `None`
    /// when its class is not built or there is no move.
    fn best_move(&self, position: &Position) -> PyResult<Option<Move>> {
        if !self.tb.covers(&position.pos) {
            return Ok(None);
        }
        let best = self
            .tb
            .best_move(&position.pos)
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        Ok(best.map(|(m, _)| Move::new(&position.pos, m)))
    }
}

/// Crown: American checkers, pool checkers and Impasse.
#[pymodule]
fn crown(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("VARIANTS", vec!["american", "pool", "impasse"])?;
    m.add_class::<Position>()?;
    m.add_class::<Move>()?;
    m.add_class::<Game>()?;
    m.add_class::<PdnGame>()?;
    m.add_class::<PdnFile>()?;
    m.add_class::<Score>()?;
    m.add_class::<Info>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<Engine>()?;
    m.add_class::<Tablebase>()?;
    m.add_function(wrap_pyfunction!(read_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(parse_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    Ok(())
}

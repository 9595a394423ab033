//! The Crown engine (crown-ai) for JavaScript: search with limits and progress reports.
//!
//! WebAssembly in the browser has one thread here, so a search blocks its caller: run it in a Web
//! Worker (the web UI does, `www/js/shared/engine-worker.js`). A search ends at its limits; to abandon one
//! early, terminate the worker. Searches go through crown-ai's engine session path
//! ([`crown_ai::search_now`], the one the threaded [`crown_ai::Session`] runs).

use crate::view::{move_view, MoveView};
use crate::{error, to_js, WasmGame};
use crown_ai::level::{MAX_LEVEL, MIN_LEVEL};
use crown_ai::{
    search_now, Clock, Engine, EngineOptions, Limits, Opponent, Score, SearchInfo, SearchRequest,
    SessionEvent,
};
use crown_core::{Move, Position};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use wasm_bindgen::prelude::*;

/// Search limits as given from JavaScript; every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LimitsArg {
    /// Casual level 1–10 ([`Limits::level`] caps, and the low levels' randomness).
    pub level: Option<u8>,
    /// Depth cap in plies.
    pub depth: Option<u32>,
    /// Node cap.
    pub nodes: Option<u64>,
    /// Time cap in ms.
    pub movetime_ms: Option<u64>,
    /// The mover's clock.
    pub clock: Option<ClockArg>,
    /// Search until the worker is terminated (other limits ignored).
    pub infinite: bool,
}

/// The fields of [`LimitsArg`] as JavaScript spells them.
pub const LIMIT_FIELDS: [&str; 6] = ["level", "depth", "nodes", "movetimeMs", "clock", "infinite"];

/// A game clock from JavaScript.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClockArg {
    /// Time left on the mover's clock in ms.
    pub remaining_ms: u64,
    /// Increment per move in ms.
    pub increment_ms: u64,
}

impl LimitsArg {
    /// The engine limits: the level's caps and the clock as the one opponent policy makes them
    /// ([`Opponent::limits`]), then every explicit field on top.
    pub fn to_limits(&self) -> Limits {
        let clock = self.clock.as_ref().map(|c| Clock {
            remaining_ms: c.remaining_ms,
            increment_ms: c.increment_ms,
        });
        let mut l = match self.level {
            Some(level) => Opponent::new(level).limits(clock),
            None => Limits {
                clock,
                ..Limits::default()
            },
        };
        if self.depth.is_some() {
            l.depth = self.depth;
        }
        if self.nodes.is_some() {
            l.nodes = self.nodes;
        }
        if self.movetime_ms.is_some() {
            l.movetime_ms = self.movetime_ms;
        }
        l.infinite = self.infinite;
        l
    }
}

/// A score as JavaScript gives it back (a [`ScoreView`]; `text` is not needed): exactly one of
/// `value`, `win` or `loss`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
struct ScoreArg {
    value: Option<i32>,
    win: Option<u32>,
    loss: Option<u32>,
}

impl ScoreArg {
    fn score(&self) -> Option<Score> {
        match (self.value, self.win, self.loss) {
            (_, Some(n), None) => Some(Score::Win(n)),
            (_, None, Some(n)) => Some(Score::Loss(n)),
            (Some(v), None, None) => Some(Score::Value(v)),
            _ => None,
        }
    }
}

/// Whether the engine accepts a draw offer: the one rule of every front end
/// ([`Opponent::accepts_draw`]: when, in its own view, it is losing — a forced loss or at least
/// 0.25 of a man behind — or the position is level within 0.10 after 40 plies). `score` is the
/// engine's evaluation from its own side (`{value, win, loss}` as a search returns it), `plies`
/// the number of plies played.
///
/// # Errors
/// `ArgumentError` when `score` is not an object with exactly one of `value`, `win`, `loss`.
#[wasm_bindgen(js_name = engineAcceptsDraw)]
pub fn engine_accepts_draw(score: JsValue, plies: usize) -> Result<bool, JsValue> {
    let bad = || error("ArgumentError", "expected a score {value, win or loss}");
    let arg: ScoreArg = serde_wasm_bindgen::from_value(score).map_err(|_| bad())?;
    let score = arg.score().ok_or_else(bad)?;
    Ok(Opponent::accepts_draw(score, plies))
}

/// A score from the side to move's point of view: exactly one of `value` (centi-men, 100 = one
/// man), `win` or `loss` (plies) is set; `text` is the engine's display (`+1.25`, `win in 7`,
/// `win in 23 (db)` when proven with endgame databases).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreView {
    /// Evaluation in centi-men, or `None` for a forced win or loss.
    pub value: Option<i32>,
    /// Forced win in this many plies.
    pub win: Option<u32>,
    /// Forced loss in this many plies.
    pub loss: Option<u32>,
    /// Readable score.
    pub text: String,
}

impl From<Score> for ScoreView {
    fn from(s: Score) -> ScoreView {
        let (value, win, loss) = match s {
            Score::Value(v) => (Some(v), None, None),
            Score::Win(n) | Score::DatabaseWin(n) => (None, Some(n), None),
            Score::Loss(n) | Score::DatabaseLoss(n) => (None, None, Some(n)),
        };
        ScoreView {
            value,
            win,
            loss,
            text: s.to_string(),
        }
    }
}

/// Progress after a completed depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InfoView {
    /// Completed depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the best move.
    pub score: ScoreView,
    /// Nodes searched so far.
    pub nodes: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Time since the start in ms.
    pub time_ms: f64,
    /// The principal variation as move texts, each written in its own position.
    pub pv_text: Vec<String>,
    /// The principal variation's moves (squares, paths, captures).
    pub pv_moves: Vec<MoveView>,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultView {
    /// The move to play (`None` only when the game is over).
    pub best_move: Option<MoveView>,
    /// Its score from the side to move's point of view.
    pub score: ScoreView,
    /// Principal variation texts.
    pub pv_text: Vec<String>,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: f64,
    /// Time used in ms.
    pub time_ms: f64,
}

/// Texts and views of a line of moves played from `start`.
pub fn line_views(start: &Position, line: &[Move]) -> (Vec<String>, Vec<MoveView>) {
    let mut pos = *start;
    let mut texts = Vec::with_capacity(line.len());
    let mut views = Vec::with_capacity(line.len());
    for mv in line {
        let index = pos.legal_moves().iter().position(|m| m == mv);
        let Some(index) = index else { break };
        texts.push(pos.move_text(mv));
        views.push(move_view(&pos, mv, index));
        pos.play(mv);
    }
    (texts, views)
}

fn info_view(start: &Position, info: &SearchInfo) -> InfoView {
    let (pv_text, pv_moves) = line_views(start, &info.pv);
    InfoView {
        depth: info.depth,
        seldepth: info.seldepth,
        score: info.score.into(),
        nodes: info.nodes as f64,
        nps: info.nps as f64,
        time_ms: info.time_ms as f64,
        pv_text,
        pv_moves,
    }
}

/// The Crown engine. Keeps its transposition table between searches of one game.
#[wasm_bindgen(js_name = Engine)]
pub struct WasmEngine {
    engine: Engine,
}

#[wasm_bindgen(js_class = Engine)]
impl WasmEngine {
    /// A new engine with a transposition table of `hash_mib` MiB (default 16), playing the
    /// opening from the embedded book (see `setBook`).
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mib: Option<usize>) -> WasmEngine {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: hash_mib.unwrap_or(0),
            threads: 1,
            level: None,
        });
        engine.set_book(true);
        WasmEngine { engine }
    }

    /// Answer positions of the embedded opening book at once with a book move (`true`, the
    /// default: the result has depth 0 and no nodes) or search every move (`false`). Infinite
    /// searches (analysis) always search.
    #[wasm_bindgen(js_name = setBook)]
    pub fn set_book(&mut self, on: bool) {
        self.engine.set_book(on);
    }

    /// Forget the previous game (clears the transposition table).
    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Search the current position of `game` within `limits` (`{level, depth, nodes, movetimeMs,
    /// clock: {remainingMs, incrementMs}, infinite}`, all optional; `{}` searches to the engine's
    /// own depth limit). `on_info` is called after each completed depth with `{depth, seldepth,
    /// score: {value, win, loss, text}, nodes, nps, timeMs, pvText, pvMoves}`. Returns `{bestMove,
    /// score, pvText, depth, nodes, timeMs}`; `bestMove` is `null` only when the game is over.
    ///
    /// # Errors
    /// `ArgumentError` when `limits` is not an object of the fields above.
    pub fn search(
        &mut self,
        game: &WasmGame,
        limits: JsValue,
        on_info: Option<js_sys::Function>,
    ) -> Result<JsValue, JsValue> {
        let arg: LimitsArg = if limits.is_undefined() || limits.is_null() {
            LimitsArg::default()
        } else {
            // serde-wasm-bindgen reads only the known fields of an object: reject the others
            // here, so that a misspelt limit is an error rather than an unlimited search.
            if let Some(obj) = limits.dyn_ref::<js_sys::Object>() {
                for key in js_sys::Object::keys(obj).iter() {
                    let key = key.as_string().unwrap_or_default();
                    if !LIMIT_FIELDS.contains(&key.as_str()) {
                        return Err(error(
                            "ArgumentError",
                            format!(
                                "unknown search limit '{key}': expected one of {}",
                                LIMIT_FIELDS.join(", ")
                            ),
                        ));
                    }
                }
            }
            serde_wasm_bindgen::from_value(limits)
                .map_err(|e| error("ArgumentError", format!("bad search limits: {e}")))?
        };
        if let Some(l) = arg.level {
            crown_ai::level::check(l.into()).map_err(|_| {
                error(
                    "ArgumentError",
                    format!("level {l} is out of range: levels are {MIN_LEVEL} to {MAX_LEVEL}"),
                )
            })?;
        }
        // Small endgame databases, built in memory at the first search of the game's variant.
        self.engine
            .set_tables(crate::tables::for_variant(game.core().variant()));
        let request = SearchRequest {
            id: 0,
            limits: arg.to_limits(),
            level: arg.level,
        };
        let start = *game.core().position();
        let stop = AtomicBool::new(false);
        let mut report = |e: SessionEvent| {
            if let (SessionEvent::Info { info, .. }, Some(f)) = (e, &on_info) {
                if let Ok(v) = to_js(&info_view(&start, &info)) {
                    let _ = f.call1(&JsValue::NULL, &v);
                }
            }
        };
        // The engine session's one search path (crown_ai::session), run on this thread: wasm32
        // in the browser has no threads.
        let (_, r) = search_now(&mut self.engine, game.core(), &request, &stop, &mut report);
        let (pv_text, _) = line_views(&start, &r.pv);
        let best_move = r.best_move.and_then(|mv| {
            start
                .legal_moves()
                .iter()
                .position(|m| *m == mv)
                .map(|i| move_view(&start, &mv, i))
        });
        to_js(&ResultView {
            best_move,
            score: r.score.into(),
            pv_text,
            depth: r.depth,
            nodes: r.nodes as f64,
            time_ms: r.time_ms as f64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_limits_take_explicit_fields_on_top() {
        let a = LimitsArg {
            level: Some(3),
            movetime_ms: Some(50),
            ..LimitsArg::default()
        };
        let l = a.to_limits();
        assert_eq!(l.depth, Limits::level(3).depth);
        assert_eq!(l.movetime_ms, Some(50));
        let b = LimitsArg {
            clock: Some(ClockArg {
                remaining_ms: 60_000,
                increment_ms: 2_000,
            }),
            ..LimitsArg::default()
        };
        let c = b.to_limits().clock.unwrap();
        assert_eq!((c.remaining_ms, c.increment_ms), (60_000, 2_000));
    }

    #[test]
    fn a_score_from_javascript_reads_back() {
        let s = |value, win, loss| ScoreArg { value, win, loss }.score();
        assert_eq!(s(Some(-30), None, None), Some(Score::Value(-30)));
        assert_eq!(s(None, Some(7), None), Some(Score::Win(7)));
        assert_eq!(s(None, None, Some(4)), Some(Score::Loss(4)));
        assert_eq!(s(None, None, None), None);
        assert_eq!(s(None, Some(1), Some(2)), None);
    }

    #[test]
    fn score_views() {
        assert_eq!(ScoreView::from(Score::Value(-125)).text, "-1.25");
        assert_eq!(ScoreView::from(Score::Win(7)).win, Some(7));
        assert_eq!(ScoreView::from(Score::Loss(4)).value, None);
    }

    #[test]
    fn a_line_is_written_move_by_move() {
        let start = Position::new(crown_core::Variant::American);
        let a = start.parse_move("11-15").unwrap();
        let b = start.after(&a).parse_move("23-19").unwrap();
        let (texts, views) = line_views(&start, &[a, b]);
        assert_eq!(texts, ["11-15", "23-19"]);
        assert_eq!((views[1].from, views[1].to), (23, 19));
    }
}

//! Game review for JavaScript: `reviewGame(game, depth, movetimeMs, onProgress)` runs
//! `crown_ai::review` (the code `crown annotate` and the TUI use) over the moves of a game. Like a
//! search it blocks its caller: run it in a Web Worker.

use crate::engine::{line_views, ScoreView};
use crate::view::color_id;
use crate::{error, to_js, WasmGame};
use crown_ai::review::{review_game, Band, GameReview, ReviewOptions, SideSummary};
use crown_ai::{Engine, EngineOptions, Limits};
use crown_core::{Move, Position};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use wasm_bindgen::prelude::*;

/// One reviewed move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveReviewView {
    /// 0-based ply.
    pub ply: usize,
    /// `black` or `white`.
    pub mover: String,
    /// The move played, in Crown's notation.
    pub played: String,
    /// The engine's best move.
    pub best: String,
    /// The engine's line from the position before the move (texts).
    pub best_line: Vec<String>,
    /// Score of the move played, mover's view.
    pub score: ScoreView,
    /// Score of the best move, mover's view.
    pub best_score: ScoreView,
    /// Search depth in plies.
    pub depth: u32,
    /// Loss in expected-score units (0–1).
    pub loss: f64,
    /// `!`, `?!`, `?`, `??` or `null`.
    pub mark: Option<String>,
}

/// Counts for one side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SideView {
    /// Moves reviewed.
    pub moves: usize,
    /// `!` moves.
    pub only_moves: usize,
    /// `?!` moves.
    pub inaccuracies: usize,
    /// `?` moves.
    pub mistakes: usize,
    /// `??` moves.
    pub blunders: usize,
    /// Average loss (0–1).
    pub average_loss: f64,
}

impl From<SideSummary> for SideView {
    fn from(s: SideSummary) -> SideView {
        SideView {
            moves: s.moves,
            only_moves: s.only_moves,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
            average_loss: s.average_loss,
        }
    }
}

/// A turning point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurningPointView {
    /// 0-based ply of the move that turned the game.
    pub ply: usize,
    /// `first`, `balanced` or `second` (which player was winning) before the move.
    pub before: String,
    /// The same after the move.
    pub after: String,
}

/// The review of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewView {
    /// The first player (`black` in checkers, `white` in Impasse), whose view `evals` take.
    pub first: String,
    /// Reviewed moves in order.
    pub moves: Vec<MoveReviewView>,
    /// The first player's expected score (0–1) before each ply and after the last.
    pub evals: Vec<f64>,
    /// Turning points in order.
    pub turning_points: Vec<TurningPointView>,
    /// The first player's summary.
    pub first_summary: SideView,
    /// The second player's summary.
    pub second_summary: SideView,
}

fn band(b: Band) -> String {
    match b {
        Band::FirstWins => "first",
        Band::Balanced => "balanced",
        Band::SecondWins => "second",
    }
    .into()
}

/// The view of `review`, a review of `moves` from `start`.
pub fn review_view(start: &Position, moves: &[Move], review: &GameReview) -> ReviewView {
    let mut positions = Vec::with_capacity(moves.len());
    let mut pos = *start;
    for m in moves {
        positions.push(pos);
        pos.play(m);
    }
    let moves = review
        .moves
        .iter()
        .map(|m| {
            let before = positions[m.ply];
            MoveReviewView {
                ply: m.ply,
                mover: color_id(m.mover).into(),
                played: before.move_text(&m.played),
                best: before.move_text(&m.best),
                best_line: line_views(&before, &m.best_line).0,
                score: m.played_score.into(),
                best_score: m.best_score.into(),
                depth: m.depth,
                loss: m.loss,
                mark: m.mark.map(|k| k.symbol().to_string()),
            }
        })
        .collect();
    ReviewView {
        first: color_id(review.first).into(),
        moves,
        evals: review.evals.clone(),
        turning_points: review
            .turning_points
            .iter()
            .map(|t| TurningPointView {
                ply: t.ply,
                before: band(t.before),
                after: band(t.after),
            })
            .collect(),
        first_summary: review.summary(review.first).into(),
        second_summary: review.summary(review.first.opposite()).into(),
    }
}

/// Review every move of `game` (see `crown_ai::review`): each position is searched to `depth`
/// plies, or for `movetimeMs` ms (default 100 when neither is given); `nodes`, with a depth, caps
/// each search at that many nodes. A depth (and node) budget gives the same review of the same
/// game every time (one thread, a fresh engine); a time budget does not, as the depth reached
/// depends on the machine's load. `onProgress(done, total)` is called after each move. Returns `{first, moves: [{ply, mover, played, best, bestLine, score,
/// bestScore, depth, loss, mark}], evals, turningPoints: [{ply, before, after}], firstSummary,
/// secondSummary}` (summaries: `{moves, onlyMoves, inaccuracies, mistakes, blunders,
/// averageLoss}`).
///
/// # Errors
/// `ArgumentError` for a depth of 0 or above 120, a movetime of 0, or nodes below 1.
#[wasm_bindgen(js_name = reviewGame)]
pub fn review_game_js(
    game: &WasmGame,
    depth: Option<u32>,
    movetime_ms: Option<f64>,
    on_progress: Option<js_sys::Function>,
    nodes: Option<f64>,
) -> Result<JsValue, JsValue> {
    let nodes = match nodes {
        Some(n) if n.is_nan() || n < 1.0 => {
            return Err(error(
                "ArgumentError",
                format!("nodes {n} is out of range: at least 1"),
            ))
        }
        Some(n) => Some(n as u64),
        None => None,
    };
    let mut limits = match (depth, movetime_ms) {
        (Some(d), _) if d == 0 || d > 120 => {
            return Err(error(
                "ArgumentError",
                format!("depth {d} is out of range: 1 to 120"),
            ))
        }
        (Some(d), _) => Limits::depth(d),
        (None, Some(ms)) if ms.is_nan() || ms < 1.0 => {
            return Err(error(
                "ArgumentError",
                format!("movetime {ms} is out of range: at least 1 ms"),
            ))
        }
        (None, Some(ms)) => Limits::movetime(ms as u64),
        (None, None) => Limits::movetime(100),
    };
    if limits.depth.is_some() {
        limits.nodes = nodes;
    }
    let core = game.core();
    let start = *core.start();
    let moves = core.moves();
    let total = moves.len();
    let mut engine = Engine::new(EngineOptions::default());
    let options = ReviewOptions {
        limits,
        check_only_moves: true,
    };
    let review = review_game(
        &mut engine,
        &start,
        &moves,
        &options,
        &AtomicBool::new(false),
        &mut |done| {
            if let Some(f) = &on_progress {
                let _ = f.call2(
                    &JsValue::NULL,
                    &JsValue::from(done as f64),
                    &JsValue::from(total as f64),
                );
            }
        },
    )
    .ok_or_else(|| error("Stopped", "the review was stopped"))?;
    to_js(&review_view(&start, &moves, &review))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_core::{Game, Variant};

    #[test]
    fn the_shot_review_as_javascript_sees_it() {
        // B:W16,20:BK3: 3-7?? walks into 16-11! 7x16 20x11 (crates/ai/tests/review.rs proves it).
        let mut game =
            Game::from_position(Position::from_fen(Variant::American, "B:W16,20:BK3").unwrap());
        for m in ["3-7", "16-11", "7x16", "20x11"] {
            game.play_text(m).unwrap();
        }
        let mut engine = Engine::new(EngineOptions::default());
        let options = ReviewOptions {
            limits: Limits::depth(8),
            check_only_moves: true,
        };
        let moves = game.moves();
        let r = review_game(
            &mut engine,
            game.start(),
            &moves,
            &options,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
        let v = review_view(game.start(), &moves, &r);
        assert_eq!(v.first, "black");
        assert_eq!(v.moves[0].played, "3-7");
        assert_eq!(v.moves[0].best, "3-8");
        assert_eq!(v.moves[0].mark.as_deref(), Some("??"));
        assert_eq!(v.moves[1].mark.as_deref(), Some("!"));
        assert_eq!(v.moves[1].mover, "white");
        assert_eq!(v.first_summary.blunders, 1);
        assert_eq!(v.second_summary.only_moves, 1);
        assert_eq!(v.turning_points[0].ply, 0);
        assert_eq!(v.turning_points[0].after, "second");
        assert_eq!(v.evals.len(), 5);
    }
}

//! "Review game" in the terminal: the review of `crown_ai::review` (the code `crown annotate` uses)
//! run on a background thread, and the state the app keeps of it.

use crown_ai::review::{review_game, GameReview, Mark, ReviewOptions};
use crown_ai::{Engine, EngineOptions};
use crown_core::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Search time per position of the TUI's review, in ms (as `crown annotate`'s default).
pub const REVIEW_MOVETIME_MS: u64 = 100;

/// What the review thread reports.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewEvent {
    /// `done` moves of review `id` are reviewed.
    Progress {
        /// The review.
        id: u64,
        /// Moves reviewed so far.
        done: usize,
    },
    /// Review `id` ended: the review, or `None` when it was stopped.
    Done {
        /// The review.
        id: u64,
        /// The result (boxed: it is large).
        review: Option<Box<GameReview>>,
    },
}

/// The review the app shows: running (`result` empty) or done.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewState {
    /// Identifies the review; events with another id are ignored.
    pub id: u64,
    /// The start position of the game reviewed.
    pub start: Position,
    /// The moves reviewed (the game's moves when the review started).
    pub moves: Vec<Move>,
    /// Moves reviewed so far.
    pub done: usize,
    /// The result, once finished.
    pub result: Option<GameReview>,
}

impl ReviewState {
    /// The mark of the move at `ply` (0-based), if the review is done and has one.
    pub fn mark(&self, ply: usize) -> Option<Mark> {
        self.result.as_ref()?.at(ply)?.mark
    }

    /// The plies worth a look, in order: turning points and moves marked `?` or `??`.
    pub fn key_moments(&self) -> Vec<usize> {
        let Some(r) = &self.result else {
            return Vec::new();
        };
        let mut plies: Vec<usize> = r.turning_points.iter().map(|t| t.ply).collect();
        plies.extend(
            r.moves
                .iter()
                .filter(|m| matches!(m.mark, Some(Mark::Mistake | Mark::Blunder)))
                .map(|m| m.ply),
        );
        plies.sort_unstable();
        plies.dedup();
        plies
    }
}

/// A review running on its own thread with its own engine (so the game's engine stays free).
/// Dropping it stops the review and waits for the thread (at most one search).
pub struct ReviewRunner {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl ReviewRunner {
    /// Start review `id` of `moves` from `start` with `options`; events go to `tx`.
    pub fn start(
        id: u64,
        start: Position,
        moves: Vec<Move>,
        options: ReviewOptions,
        tx: Sender<ReviewEvent>,
    ) -> ReviewRunner {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let mut engine = Engine::new(EngineOptions::default());
            let review = review_game(&mut engine, &start, &moves, &options, &flag, &mut |done| {
                let _ = tx.send(ReviewEvent::Progress { id, done });
            });
            let _ = tx.send(ReviewEvent::Done {
                id,
                review: review.map(Box::new),
            });
        });
        ReviewRunner {
            stop,
            handle: Some(handle),
        }
    }
}

impl Drop for ReviewRunner {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

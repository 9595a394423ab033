//! The engine seen from the terminal app: crown-ai's engine [`Session`] runs searches on a
//! background thread ([`Worker`] adapts it) and reports progress as [`EngineEvent`]s, so the UI
//! never waits for it.

use crown_ai::{Clock, Limits, Opponent, SearchRequest, Searcher, Session, SessionEvent};
use crown_core::{Game, Move};
use std::sync::mpsc::Sender;

/// An evaluation from the side to move's point of view: crown-ai's one displayable score
/// (`+1.25` in men, `win in 7`, `loss in 4` in plies, `win in 23 (db)` proven by the endgame
/// databases).
pub use crown_ai::Score;

/// Progress of a search, or its final answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// Completed depth in plies.
    pub depth: u32,
    /// Score of the principal variation, side to move's view.
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time spent in ms.
    pub time_ms: u64,
    /// The principal variation, from the searched position.
    pub pv: Vec<Move>,
}

/// What to search and for how long.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Playing strength 1 (weakest) to 10 (strongest).
    pub level: u8,
    /// Time left and increment of the side to move in ms, when the game has a clock.
    pub clock: Option<(u64, u64)>,
    /// A fixed time for this search in ms (used for hints and draw offers).
    pub movetime_ms: Option<u64>,
}

/// Why a search was started.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's own move.
    Move,
    /// A suggestion for the human to move.
    Hint,
    /// Judging a draw offer.
    DrawOffer,
}

/// One search for the worker.
#[derive(Clone, Debug)]
pub struct Job {
    /// Identifies the search; answers with an old id are ignored by the app.
    pub id: u64,
    /// Why.
    pub purpose: Purpose,
    /// The game to search (its current position and history).
    pub game: Game,
    /// Limits.
    pub request: Request,
}

/// What the worker reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// A depth was completed.
    Info {
        /// The job.
        id: u64,
        /// Progress.
        thought: Thought,
    },
    /// The search finished.
    Done {
        /// The job.
        id: u64,
        /// The best move, or `None` when there is none.
        best: Option<Move>,
        /// Final score, depth and PV.
        thought: Thought,
    },
}

/// The search limits for a request: the [`Opponent`] policy (the casual level's caps plus the
/// clock) for the engine's own moves; full strength for a fixed time for hints and draw offers.
pub fn limits(request: &Request) -> Limits {
    search_request_of(0, request).limits
}

/// The [`SearchRequest`] of a job: its id, [`limits`], and the casual level for the engine's own
/// moves (low levels choose among near-best moves; hints and draw judgements use the best).
pub fn search_request(job: &Job) -> SearchRequest {
    search_request_of(job.id, &job.request)
}

fn search_request_of(id: u64, request: &Request) -> SearchRequest {
    match request.movetime_ms {
        Some(ms) => SearchRequest {
            id,
            limits: Limits::movetime(ms),
            level: None,
        },
        None => Opponent::new(request.level).request(
            id,
            request.clock.map(|(remaining_ms, increment_ms)| Clock {
                remaining_ms,
                increment_ms,
            }),
        ),
    }
}

/// The app's view of a crown-ai session event.
pub fn engine_event(e: SessionEvent) -> EngineEvent {
    match e {
        SessionEvent::Info { id, info, .. } => EngineEvent::Info {
            id,
            thought: Thought {
                depth: info.depth,
                score: info.score,
                nodes: info.nodes,
                nps: info.nps,
                time_ms: info.time_ms,
                pv: info.pv,
            },
        },
        SessionEvent::Done { id, result: r, .. } => EngineEvent::Done {
            id,
            best: r.best_move,
            thought: Thought {
                depth: r.depth,
                score: r.score,
                nodes: r.nodes,
                nps: r.nodes.saturating_mul(1000) / r.time_ms.max(1),
                time_ms: r.time_ms,
                pv: r.pv,
            },
        },
    }
}

/// The engine of the app: crown-ai's [`Session`] (one searcher on a background thread, one search
/// at a time), its events passed on as [`EngineEvent`]s.
pub struct Worker {
    session: Session,
}

impl Worker {
    /// Start the session's thread with `searcher` (the Crown engine, or a stand-in in tests);
    /// events go to `events` (wrapped by `wrap`, e.g. into the app's message type).
    ///
    /// # Errors
    /// The operating system's error when the thread cannot be started.
    pub fn spawn<M: Send + 'static>(
        searcher: Box<dyn Searcher>,
        events: Sender<M>,
        wrap: fn(EngineEvent) -> M,
    ) -> std::io::Result<Worker> {
        let session = Session::spawn_with(searcher, move |e| {
            let _ = events.send(wrap(engine_event(e)));
        })?;
        Ok(Worker { session })
    }

    /// Queue a search (after the current one, which should be stopped first).
    pub fn submit(&self, job: Job) {
        self.session.submit(&job.game, search_request(&job));
    }

    /// Ask the running search to stop now; it still reports `Done`.
    pub fn stop(&self) {
        self.session.stop();
    }

    /// Tell the searcher a new game starts.
    pub fn new_game(&self) {
        self.session.new_game();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_ai::{SearchInfo, SearchResult};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc;

    #[test]
    fn eval_display_matches_the_engine_contract() {
        assert_eq!(Score::Value(125).to_string(), "+1.25");
        assert_eq!(Score::Value(-5).to_string(), "-0.05");
        assert_eq!(Score::Win(7).to_string(), "win in 7");
        assert_eq!(Score::Loss(4).to_string(), "loss in 4");
        assert_eq!(Score::Win(3).negate(), Score::Loss(3));
        assert_eq!(Score::DatabaseWin(23).to_string(), "win in 23 (db)");
        assert_eq!(Score::DatabaseWin(23).negate(), Score::DatabaseLoss(23));
    }

    /// Reports one depth, then waits for `stop` (or 5 s) and answers with the first legal move.
    struct Patient;

    impl Searcher for Patient {
        fn search(
            &mut self,
            game: &Game,
            _limits: &Limits,
            _level: Option<u8>,
            stop: &AtomicBool,
            on_info: &mut dyn FnMut(&SearchInfo),
        ) -> SearchResult {
            let best = game.legal_moves().first().copied();
            on_info(&SearchInfo {
                depth: 1,
                seldepth: 1,
                mean_depth_hundredths: 0,
                score: Score::Value(0),
                nodes: 1,
                nps: 1,
                time_ms: 0,
                pv: best.into_iter().collect(),
            });
            let start = std::time::Instant::now();
            while !stop.load(Ordering::SeqCst) && start.elapsed().as_secs() < 5 {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            SearchResult {
                best_move: best,
                score: Score::Value(0),
                pv: best.into_iter().collect(),
                depth: 1,
                nodes: 1,
                time_ms: 0,
            }
        }
        fn new_game(&mut self) {}
    }

    #[test]
    fn the_worker_searches_off_thread_and_stops_on_request() {
        let (tx, rx) = mpsc::channel();
        let worker = Worker::spawn(Box::new(Patient), tx, |e| e).unwrap();
        let game = Game::new(crown_core::Variant::American);
        worker.submit(Job {
            id: 7,
            purpose: Purpose::Move,
            game: game.clone(),
            request: Request {
                level: 1,
                clock: None,
                movetime_ms: None,
            },
        });
        let wait = std::time::Duration::from_secs(2);
        // The info arrives while the search is still running: the caller was not blocked.
        match rx.recv_timeout(wait).unwrap() {
            EngineEvent::Info { id, thought } => {
                assert_eq!(id, 7);
                assert_eq!(thought.depth, 1);
            }
            other => panic!("expected info, got {other:?}"),
        }
        worker.stop();
        match rx.recv_timeout(wait).unwrap() {
            EngineEvent::Done { id, best, .. } => {
                assert_eq!(id, 7);
                assert_eq!(best, game.legal_moves().first().copied());
            }
            other => panic!("expected the answer, got {other:?}"),
        }
        drop(worker);
    }

    #[test]
    fn searches_queued_behind_a_running_one_collapse_to_the_newest() {
        let (tx, rx) = mpsc::channel();
        let worker = Worker::spawn(Box::new(Patient), tx, |e| e).unwrap();
        let job = |id| Job {
            id,
            purpose: Purpose::Move,
            game: Game::new(crown_core::Variant::Pool),
            request: Request {
                level: 1,
                clock: None,
                movetime_ms: None,
            },
        };
        let wait = std::time::Duration::from_secs(2);
        let id_of = |e: EngineEvent| match e {
            EngineEvent::Info { id, .. } => ("info", id),
            EngineEvent::Done { id, .. } => ("done", id),
        };
        worker.submit(job(1));
        assert_eq!(id_of(rx.recv_timeout(wait).unwrap()), ("info", 1));
        worker.submit(job(2));
        worker.submit(job(3));
        worker.stop();
        assert_eq!(id_of(rx.recv_timeout(wait).unwrap()), ("done", 1));
        assert_eq!(
            id_of(rx.recv_timeout(wait).unwrap()),
            ("info", 3),
            "2 is skipped"
        );
        worker.stop();
        assert_eq!(id_of(rx.recv_timeout(wait).unwrap()), ("done", 3));
    }
}

//! The engine seen from the terminal app: a [`Brain`] runs searches on a background thread
//! ([`Worker`]) and reports progress as [`EngineEvent`]s, so the UI never waits for it.

use crown_core::{Game, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

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

/// Something that can choose moves: the Crown engine, or a scripted stand-in in tests.
pub trait Brain: Send {
    /// Search `game`'s current position. Calls `on_info` as depths complete; returns the best move
    /// (`None` only when there is no legal move) and the final [`Thought`]. Must return soon after
    /// `stop` becomes true.
    fn think(
        &mut self,
        game: &Game,
        request: &Request,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Thought),
    ) -> (Option<Move>, Thought);
    /// Forget what was learnt in the previous game (hash tables).
    fn new_game(&mut self);
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

enum Command {
    Search(Job),
    NewGame,
}

/// A background thread that owns a [`Brain`] and runs one search at a time.
pub struct Worker {
    commands: Option<Sender<Command>>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    /// Start the thread; events go to `events` (wrapped by `wrap`, e.g. into the app's message type).
    pub fn spawn<M: Send + 'static>(
        mut brain: Box<dyn Brain>,
        events: Sender<M>,
        wrap: fn(EngineEvent) -> M,
    ) -> Worker {
        let (tx, rx): (Sender<Command>, Receiver<Command>) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("crown-engine".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    // Only the newest queued search matters: older ones were stopped or replaced.
                    let mut latest = None;
                    for cmd in std::iter::once(first).chain(rx.try_iter()) {
                        match cmd {
                            Command::NewGame => brain.new_game(),
                            Command::Search(job) => latest = Some(job),
                        }
                    }
                    {
                        if let Some(job) = latest {
                            flag.store(false, Ordering::SeqCst);
                            let id = job.id;
                            let mut on_info = |t: &Thought| {
                                let _ = events.send(wrap(EngineEvent::Info {
                                    id,
                                    thought: t.clone(),
                                }));
                            };
                            let (best, thought) =
                                brain.think(&job.game, &job.request, &flag, &mut on_info);
                            if events
                                .send(wrap(EngineEvent::Done { id, best, thought }))
                                .is_err()
                            {
                                break;
                            }
                        }
                    }
                }
            })
            .ok();
        Worker {
            commands: Some(tx),
            stop,
            handle,
        }
    }

    /// Queue a search (after the current one, which should be stopped first).
    pub fn submit(&self, job: Job) {
        if let Some(tx) = &self.commands {
            let _ = tx.send(Command::Search(job));
        }
    }

    /// Ask the running search to stop now; it still reports `Done`.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Tell the brain a new game starts.
    pub fn new_game(&self) {
        if let Some(tx) = &self.commands {
            let _ = tx.send(Command::NewGame);
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
        self.commands = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    impl Brain for Patient {
        fn think(
            &mut self,
            game: &Game,
            _request: &Request,
            stop: &AtomicBool,
            on_info: &mut dyn FnMut(&Thought),
        ) -> (Option<Move>, Thought) {
            let best = game.legal_moves().first().copied();
            let t = Thought {
                depth: 1,
                score: Score::Value(0),
                nodes: 1,
                nps: 1,
                time_ms: 0,
                pv: best.into_iter().collect(),
            };
            on_info(&t);
            let start = std::time::Instant::now();
            while !stop.load(Ordering::SeqCst) && start.elapsed().as_secs() < 5 {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            (best, t)
        }
        fn new_game(&mut self) {}
    }

    #[test]
    fn the_worker_searches_off_thread_and_stops_on_request() {
        let (tx, rx) = mpsc::channel();
        let worker = Worker::spawn(Box::new(Patient), tx, |e| e);
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
        let worker = Worker::spawn(Box::new(Patient), tx, |e| e);
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

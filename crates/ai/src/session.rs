//! An engine session: one [`Engine`] searching on a background thread, so that a front end (the
//! engine protocol, the TUI, the server) never waits for it. Start a search with
//! [`Session::search`], follow it through [`SessionEvent`]s (progress after each depth, then the
//! result), stop it with [`Session::stop`], and drop answers that no longer fit the game with
//! [`SearchKey`] (the position and ply the search was started for).
//!
//! Not for wasm32 without threads: there, call [`Engine::search`] in a worker and use
//! [`SearchKey`] alone for the stale-result check.

use crate::{Engine, EngineOptions, Limits, SearchInfo, SearchResult};
use crown_core::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Which position a search was started for: the root's Zobrist key ([`crown_core::Position::zobrist`])
/// and the number of plies played in the game. A result whose key differs from the game's current
/// key is stale (the game moved on, was undone or replaced) and must not be played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SearchKey {
    /// Zobrist key of the searched position (pieces and side to move).
    pub zobrist: u64,
    /// Plies played in the game before the searched position.
    pub ply: usize,
}

impl SearchKey {
    /// The key of `game`'s current position.
    pub fn of(game: &Game) -> SearchKey {
        SearchKey {
            zobrist: game.position().zobrist(),
            ply: game.ply_count(),
        }
    }

    /// Whether an answer for this key still fits `game` (same position after as many plies).
    pub fn is_current(&self, game: &Game) -> bool {
        *self == SearchKey::of(game)
    }
}

/// What a session reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionEvent {
    /// A depth of the search for `key` was completed.
    Info {
        /// The search's position.
        key: SearchKey,
        /// Progress (depth, score, nodes, principal variation).
        info: SearchInfo,
    },
    /// The search for `key` ended (by its limits or by [`Session::stop`]).
    Done {
        /// The search's position.
        key: SearchKey,
        /// The best move (`None` when the game is over), score, depth and principal variation.
        result: SearchResult,
    },
}

enum Command {
    Search(Box<Game>, Limits),
    NewGame,
    Options(EngineOptions),
}

/// One [`Engine`] on its own thread, running one search at a time.
pub struct Session {
    commands: Option<Sender<Command>>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Session {
    /// Start the thread with an engine of `options`; every event is passed to `on_event` (on the
    /// session's thread: send it on to where it is needed).
    ///
    /// # Errors
    /// The operating system's error when the thread cannot be started.
    pub fn spawn(
        options: EngineOptions,
        mut on_event: impl FnMut(SessionEvent) + Send + 'static,
    ) -> std::io::Result<Session> {
        let (tx, rx): (Sender<Command>, Receiver<Command>) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("crown-session".into())
            .spawn(move || {
                let mut engine = Engine::new(options);
                while let Ok(first) = rx.recv() {
                    // Only the newest queued search matters: older ones were stopped or replaced.
                    let mut latest = None;
                    for cmd in std::iter::once(first).chain(rx.try_iter()) {
                        match cmd {
                            Command::NewGame => engine.new_game(),
                            Command::Options(o) => {
                                engine.set_level(o.level);
                                engine.set_threads(o.threads);
                                if o.hash_mib != engine.options().hash_mib {
                                    engine.set_hash_mib(o.hash_mib);
                                }
                            }
                            Command::Search(game, limits) => latest = Some((game, limits)),
                        }
                    }
                    let Some((game, limits)) = latest else {
                        continue;
                    };
                    let key = SearchKey::of(&game);
                    let mut on_info = |info: &SearchInfo| {
                        on_event(SessionEvent::Info {
                            key,
                            info: info.clone(),
                        });
                    };
                    let result = engine.search(&game, &limits, &flag, &mut on_info);
                    on_event(SessionEvent::Done { key, result });
                }
            })?;
        Ok(Session {
            commands: Some(tx),
            stop,
            handle: Some(handle),
        })
    }

    /// Start searching `game`'s current position within `limits` (after the running search, which
    /// should be stopped first; of several queued searches only the newest runs). Returns the key
    /// its events will carry.
    pub fn search(&self, game: &Game, limits: Limits) -> SearchKey {
        self.stop.store(false, Ordering::SeqCst);
        if let Some(tx) = &self.commands {
            let _ = tx.send(Command::Search(Box::new(game.clone()), limits));
        }
        SearchKey::of(game)
    }

    /// Ask the running search to stop now; it still reports [`SessionEvent::Done`] with its best
    /// move so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Forget what was learnt in the previous game (the hash table), before the next search.
    pub fn new_game(&self) {
        if let Some(tx) = &self.commands {
            let _ = tx.send(Command::NewGame);
        }
    }

    /// Change level, threads or hash size before the next search.
    pub fn set_options(&self, options: EngineOptions) {
        if let Some(tx) = &self.commands {
            let _ = tx.send(Command::Options(options));
        }
    }
}

impl Drop for Session {
    /// Stops the running search and waits for the thread to end.
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
    use std::sync::Mutex;
    use std::time::Duration;

    fn collect() -> (
        Arc<Mutex<Vec<SessionEvent>>>,
        impl FnMut(SessionEvent) + Send,
    ) {
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        (events, move |e| sink.lock().unwrap().push(e))
    }

    fn wait_done(events: &Mutex<Vec<SessionEvent>>) -> (SearchKey, SearchResult) {
        for _ in 0..6000 {
            if let Some(SessionEvent::Done { key, result }) = events
                .lock()
                .unwrap()
                .iter()
                .find(|e| matches!(e, SessionEvent::Done { .. }))
            {
                return (*key, result.clone());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("no result in 30 s");
    }

    #[test]
    fn a_search_reports_progress_then_a_legal_move_for_its_key() {
        let (events, sink) = collect();
        let session = Session::spawn(
            EngineOptions {
                hash_mib: 1,
                threads: 1,
                level: None,
            },
            sink,
        )
        .unwrap();
        let mut game = Game::new(crown_core::Variant::American);
        let key = session.search(&game, Limits::depth(3));
        let (done_key, result) = wait_done(&events);
        assert_eq!(done_key, key);
        let mv = result.best_move.unwrap();
        assert!(game.position().is_legal(&mv));
        assert!(events
            .lock()
            .unwrap()
            .iter()
            .any(|e| matches!(e, SessionEvent::Info { key: k, .. } if *k == key)));
        // Once a move is played the answer is stale.
        assert!(key.is_current(&game));
        game.play(&mv).unwrap();
        assert!(!key.is_current(&game));
    }

    #[test]
    fn stop_ends_an_unbounded_search_with_a_move() {
        let (events, sink) = collect();
        let session = Session::spawn(
            EngineOptions {
                hash_mib: 1,
                threads: 1,
                level: None,
            },
            sink,
        )
        .unwrap();
        let game = Game::new(crown_core::Variant::Impasse);
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        session.search(&game, infinite);
        std::thread::sleep(Duration::from_millis(50));
        session.stop();
        let (_, result) = wait_done(&events);
        assert!(game.position().is_legal(&result.best_move.unwrap()));
    }

    #[test]
    fn the_same_position_after_other_moves_is_another_key() {
        // Two kings shuffling back and forth: the same position at ply 0 and ply 4 has the same
        // Zobrist key, but an answer for ply 0 is not an answer for ply 4.
        let start =
            crown_core::Position::from_fen(crown_core::Variant::American, "B:WK32:BK1").unwrap();
        let mut game = Game::from_position(start);
        let key = SearchKey::of(&game);
        for m in ["1-5", "32-28", "5-1", "28-32"] {
            game.play_text(m).unwrap();
        }
        assert_eq!(game.position().zobrist(), start.zobrist());
        assert!(!key.is_current(&game));
    }
}

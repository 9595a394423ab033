//! An engine session: one searcher (normally an [`Engine`]) searching on a background thread, so
//! that a front end (the TUI, the server, a program) never waits for it. Start a search with
//! [`Session::search`] or [`Session::submit`], follow it through [`SessionEvent`]s (progress after
//! each depth, then the result, each carrying the caller's id and the [`SearchKey`] of the searched
//! position), stop it with [`Session::stop`], and drop answers that no longer fit the game with
//! [`SearchKey::is_current`].
//!
//! Without threads (wasm32 in the browser), [`search_now`] runs one search on the caller's thread
//! and reports the same events, so the browser's engine and the threaded session share one path.

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
    /// A depth of the search was completed.
    Info {
        /// The id the search was submitted with (0 for [`Session::search`]).
        id: u64,
        /// The search's position.
        key: SearchKey,
        /// Progress (depth, score, nodes, principal variation).
        info: SearchInfo,
    },
    /// The search ended (by its limits or by [`Session::stop`]).
    Done {
        /// The id the search was submitted with (0 for [`Session::search`]).
        id: u64,
        /// The search's position.
        key: SearchKey,
        /// The best move (`None` when the game is over), score, depth and principal variation.
        result: SearchResult,
    },
}

/// One search: the caller's id (given back in its events), the limits and the casual level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    /// The caller's name for this search, given back in its [`SessionEvent`]s (to tell a hint
    /// from a move search of the same position).
    pub id: u64,
    /// Depth, nodes, time or clock limits.
    pub limits: Limits,
    /// Casual level 1–10 for this search (low levels choose among near-best moves), or `None` for
    /// full strength.
    pub level: Option<u8>,
}

/// What a session searches with: the Crown [`Engine`], or a scripted stand-in in a front end's
/// tests.
pub trait Searcher: Send {
    /// Search `game`'s current position within `limits` at casual `level` (`None`: full
    /// strength), calling `on_info` after each completed depth. Must return soon after `stop`
    /// becomes true, with the best move found so far.
    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        level: Option<u8>,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult;

    /// Forget what was learnt in the previous game (hash tables).
    fn new_game(&mut self);

    /// Change threads or hash size (the level is given with each search). Does nothing by default.
    fn set_options(&mut self, _options: EngineOptions) {}
}

impl Searcher for Engine {
    fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        level: Option<u8>,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.set_level(level);
        Engine::search(self, game, limits, stop, on_info)
    }

    fn new_game(&mut self) {
        Engine::new_game(self);
    }

    fn set_options(&mut self, o: EngineOptions) {
        self.set_threads(o.threads);
        if o.hash_mib != self.options().hash_mib {
            self.set_hash_mib(o.hash_mib);
        }
    }
}

/// Run one search of `game` on the caller's thread with `searcher`, reporting
/// [`SessionEvent::Info`] after each depth and [`SessionEvent::Done`] at the end, both carrying
/// `request.id` and the [`SearchKey`] of `game`; returns the key and the result as well. The
/// threaded [`Session`] runs every search through this; without threads (wasm32) call it
/// directly.
pub fn search_now(
    searcher: &mut dyn Searcher,
    game: &Game,
    request: &SearchRequest,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(SessionEvent),
) -> (SearchKey, SearchResult) {
    let key = SearchKey::of(game);
    let id = request.id;
    let mut on_info = |info: &SearchInfo| {
        on_event(SessionEvent::Info {
            id,
            key,
            info: info.clone(),
        });
    };
    let result = searcher.search(game, &request.limits, request.level, stop, &mut on_info);
    on_event(SessionEvent::Done {
        id,
        key,
        result: result.clone(),
    });
    (key, result)
}

enum Command {
    Search(Box<Game>, SearchRequest, Arc<AtomicBool>),
    NewGame,
    Options(EngineOptions),
}

/// One [`Searcher`] on its own thread, running one search at a time.
pub struct Session {
    commands: Option<Sender<Command>>,
    /// The stop flags of the searches submitted and not yet stopped (running or queued).
    pending: std::sync::Mutex<Vec<std::sync::Weak<AtomicBool>>>,
    handle: Option<JoinHandle<()>>,
    /// Level of [`Session::search`] (the `level` of the options given at spawn or
    /// [`Session::set_options`]).
    level: std::sync::Mutex<Option<u8>>,
}

impl Session {
    /// Start the thread with an [`Engine`] of `options`; every event is passed to `on_event` (on
    /// the session's thread: send it on to where it is needed).
    ///
    /// # Errors
    /// The operating system's error when the thread cannot be started.
    pub fn spawn(
        options: EngineOptions,
        on_event: impl FnMut(SessionEvent) + Send + 'static,
    ) -> std::io::Result<Session> {
        let level = options.level;
        let mut s = Session::spawn_with(Box::new(Engine::new(options)), on_event)?;
        s.level = std::sync::Mutex::new(level);
        Ok(s)
    }

    /// Start the thread with `searcher` (an [`Engine`] set up by the caller, e.g. with endgame
    /// databases, or a stand-in); every event is passed to `on_event` on the session's thread.
    ///
    /// # Errors
    /// The operating system's error when the thread cannot be started.
    pub fn spawn_with(
        mut searcher: Box<dyn Searcher>,
        mut on_event: impl FnMut(SessionEvent) + Send + 'static,
    ) -> std::io::Result<Session> {
        let (tx, rx): (Sender<Command>, Receiver<Command>) = mpsc::channel();
        let handle = std::thread::Builder::new()
            .name("crown-session".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    // Only the newest queued search matters: older ones were stopped or replaced.
                    let mut latest = None;
                    for cmd in std::iter::once(first).chain(rx.try_iter()) {
                        match cmd {
                            Command::NewGame => searcher.new_game(),
                            Command::Options(o) => searcher.set_options(o),
                            Command::Search(game, request, stop) => {
                                latest = Some((game, request, stop))
                            }
                        }
                    }
                    let Some((game, request, stop)) = latest else {
                        continue;
                    };
                    search_now(searcher.as_mut(), &game, &request, &stop, &mut on_event);
                }
            })?;
        Ok(Session {
            commands: Some(tx),
            pending: std::sync::Mutex::new(Vec::new()),
            handle: Some(handle),
            level: std::sync::Mutex::new(None),
        })
    }

    /// Start searching `game`'s current position within `limits` at the session's level, with id
    /// 0 (see [`Session::submit`]). Returns the key its events will carry.
    pub fn search(&self, game: &Game, limits: Limits) -> SearchKey {
        let level = *self.level.lock().unwrap_or_else(|e| e.into_inner());
        self.submit(
            game,
            SearchRequest {
                id: 0,
                limits,
                level,
            },
        )
    }

    /// Start searching `game`'s current position for `request` (after the running search, which
    /// should be stopped first; of several queued searches only the newest runs). Returns the key
    /// its events will carry.
    pub fn submit(&self, game: &Game, request: SearchRequest) -> SearchKey {
        let stop = Arc::new(AtomicBool::new(false));
        {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            pending.retain(|w| w.strong_count() > 0);
            pending.push(Arc::downgrade(&stop));
        }
        if let Some(tx) = &self.commands {
            let _ = tx.send(Command::Search(Box::new(game.clone()), request, stop));
        }
        SearchKey::of(game)
    }

    /// Ask the running search, and any queued behind it, to stop now; each still reports
    /// [`SessionEvent::Done`] with its best move so far (a queued one at once). A search
    /// submitted after this call is not affected.
    pub fn stop(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        for w in pending.drain(..) {
            if let Some(flag) = w.upgrade() {
                flag.store(true, Ordering::SeqCst);
            }
        }
    }

    /// Forget what was learnt in the previous game (the hash table), before the next search.
    pub fn new_game(&self) {
        if let Some(tx) = &self.commands {
            let _ = tx.send(Command::NewGame);
        }
    }

    /// Change level (of [`Session::search`]), threads or hash size before the next search.
    pub fn set_options(&self, options: EngineOptions) {
        *self.level.lock().unwrap_or_else(|e| e.into_inner()) = options.level;
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
            if let Some(SessionEvent::Done { key, result, .. }) = events
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
    fn a_stop_before_a_search_is_submitted_does_not_cut_it_short() {
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
        session.stop();
        let game = Game::new(crown_core::Variant::American);
        session.submit(
            &game,
            SearchRequest {
                id: 9,
                limits: Limits::depth(4),
                level: None,
            },
        );
        let (_, result) = wait_done(&events);
        // The search ran to its depth limit (the start position has 7 moves, none forced).
        assert_eq!(result.depth, 4);
        let ids: Vec<u64> = events
            .lock()
            .unwrap()
            .iter()
            .map(|e| match e {
                SessionEvent::Info { id, .. } | SessionEvent::Done { id, .. } => *id,
            })
            .collect();
        assert!(ids.iter().all(|&i| i == 9), "{ids:?}");
    }

    #[test]
    fn search_now_reports_the_same_events_on_the_callers_thread() {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 1,
            threads: 1,
            level: None,
        });
        let game = Game::new(crown_core::Variant::Pool);
        let mut seen = Vec::new();
        let request = SearchRequest {
            id: 3,
            limits: Limits::depth(3),
            level: None,
        };
        let (key, result) = search_now(
            &mut engine,
            &game,
            &request,
            &AtomicBool::new(false),
            &mut |e| seen.push(e),
        );
        assert_eq!(key, SearchKey::of(&game));
        assert!(game.position().is_legal(&result.best_move.unwrap()));
        // One Info per completed depth (1, 2, 3), then Done with the result.
        let depths: Vec<u32> = seen
            .iter()
            .filter_map(|e| match e {
                SessionEvent::Info { info, .. } => Some(info.depth),
                _ => None,
            })
            .collect();
        assert_eq!(depths, [1, 2, 3]);
        assert_eq!(
            seen.last(),
            Some(&SessionEvent::Done { id: 3, key, result })
        );
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

//! Engine scheduling: when it is an engine seat's turn, its search waits for one of the bounded
//! pool's workers (with the engine's clock stopped; the waiting searches take turns by the
//! networks of the games' creators, [`crate::engine::fair`]), is asked of the picker from a thread of
//! lower OS priority (the server's picker hands it to its worker process, `WorkerPicker`), and
//! its move is played like any other change.

use crate::error::Error;
use crate::games::handle::GameHandle;
use crate::games::live::now_ms;
use crate::games::Games;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

impl Games {
    /// If it is the engine's turn, compute its move off the async runtime and play it.
    pub(crate) fn maybe_engine(&self, h: Arc<GameHandle>) {
        let Some(picker) = self.engine.clone() else {
            return;
        };
        if !self.owns(&h.id) {
            return;
        }
        if h.engine_busy.swap(true, Ordering::SeqCst) {
            return;
        }
        let games = self.clone();
        tokio::spawn(async move {
            loop {
                // Wait for a free worker with the engine's clock stopped (the flag sweeper skips
                // the game meanwhile); then give the engine back the time it waited.
                let queued_at = now_ms();
                h.engine_waiting.store(true, Ordering::SeqCst);
                metrics::gauge!(crate::telemetry::ENGINE_QUEUE).increment(1.0);
                let slot = games.engine_slots.acquire(h.net.get().copied()).await;
                metrics::gauge!(crate::telemetry::ENGINE_QUEUE).decrement(1.0);
                h.engine_waiting.store(false, Ordering::SeqCst);
                let Some(_slot) = slot else {
                    break;
                };
                if now_ms().saturating_sub(queued_at) >= 20 {
                    let _ = games
                        .mutate(&h, "clock", None, move |live, now| {
                            live.credit_engine_wait(queued_at, now)
                        })
                        .await;
                }
                let (game, level, clock, ply, key) = {
                    let live = h.live.lock().await;
                    let Some(level) = live.engine_to_move() else {
                        break;
                    };
                    let stm = live.game.position().side_to_move();
                    let clock = live
                        .rec
                        .meta
                        .time_control
                        .map(|tc| (live.remaining(stm, now_ms()), tc.increment_ms));
                    (
                        live.game.clone(),
                        level,
                        clock,
                        live.rec.moves.len(),
                        crown_ai::SearchKey::of(&live.game),
                    )
                };
                let stop = Arc::new(AtomicBool::new(false));
                let mut shutdown = games.shutdown_signal();
                let picker = picker.clone();
                let stop2 = stop.clone();
                let searched = std::time::Instant::now();
                let task = search_at_low_priority(move || picker.pick(&game, level, clock, &stop2));
                let mv = tokio::select! {
                    r = task => r.ok().flatten(),
                    _ = shutdown.changed() => { stop.store(true, Ordering::SeqCst); None }
                };
                metrics::histogram!(crate::telemetry::ENGINE_SEARCH_SECONDS)
                    .record(searched.elapsed().as_secs_f64());
                let Some(text) = mv else { break };
                let played = games
                    .mutate(&h, "move", None, move |live, now| {
                        let Some(color) = live.engine_color() else {
                            return Err(Error::conflict("no_engine", "no engine seat"));
                        };
                        // The same ply is not enough: after a takeback and a new move the ply
                        // count is back where it was but the position differs; the engine
                        // session's key holds both.
                        if live.rec.moves.len() != ply || !key.is_current(&live.game) {
                            return Err(Error::conflict(
                                "stale_search",
                                "the position changed during the search",
                            ));
                        }
                        live.play(color, &text, Some(ply), now)
                    })
                    .await;
                if let Err(e) = played {
                    if e.code != "stale_ply" && e.code != "stale_search" {
                        tracing::warn!(error = %e, "engine move refused");
                    }
                }
            }
            h.engine_busy.store(false, Ordering::SeqCst);
            // A change may have arrived between the last check and clearing the flag.
            let again = h.live.lock().await.engine_to_move().is_some();
            if again && !*games.shutdown_signal().borrow() {
                games.maybe_engine(h);
            }
        });
    }
}

/// Run an engine search on its own thread at a lower OS priority than the request handlers
/// (Linux: nice +10 for that thread and the search threads it starts), so that moves and reads
/// stay fast while the engine thinks.
fn search_at_low_priority<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> tokio::sync::oneshot::Receiver<T> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("crown-engine".into())
        .spawn(move || {
            #[cfg(target_os = "linux")]
            {
                // Linux keeps a nice value per thread; `setpriority` on the thread id lowers only
                // this one (and threads it creates inherit it).
                let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 10);
            }
            let _ = tx.send(f());
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "cannot start an engine thread");
    }
    rx
}

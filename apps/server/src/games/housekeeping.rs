//! Housekeeping: the background tasks of a running server. The flag sweeper ends games whose
//! clock ran out, games whose side to move made no first move in time are aborted, open games
//! nobody joined expire, finished games nobody watches leave memory, games that ended with no
//! move leave the store after `Config::purge_unstarted_after_ms`, and the heartbeat lets a
//! restart stop the clocks for the downtime.

use crate::error::Error;
use crate::games::live::now_ms;
use crate::games::Games;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Games deleted per store transaction by [`Games::purge_unstarted`].
const PURGE_BATCH: usize = 1000;

impl Games {
    pub(crate) fn spawn_background(&self) {
        // Flag sweeper and eviction of finished games nobody watches.
        let games = self.clone();
        tokio::spawn(async move {
            let mut shutdown = games.shutdown_signal();
            let mut tick = tokio::time::interval(Duration::from_millis(100));
            let mut rounds = 0u64;
            // Purge every minute, or every half of a shorter grace (rounds of 100 ms).
            let purge_every = (games.config.purge_unstarted_after_ms / 200).clamp(1, 600);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = shutdown.changed() => break,
                }
                rounds += 1;
                let now = now_ms();
                for h in games.all_handles() {
                    if h.deadline.load(Ordering::SeqCst) <= now
                        && !h.engine_waiting.load(Ordering::SeqCst)
                        && games.owns(&h.id)
                    {
                        let r = games
                            .mutate(&h, "time_out", None, |live, now| {
                                if live.check_flag(now) {
                                    Ok(())
                                } else {
                                    Err(Error::conflict("no_flag", "the flag has not fallen"))
                                }
                            })
                            .await;
                        if let Err(e) = r {
                            if e.code != "no_flag" {
                                tracing::warn!(error = %e, "flag check failed");
                            }
                        }
                    }
                }
                // Every second: each game keeps the first-move limit it was created with, so
                // games are checked for it even when the server's is now 0.
                if rounds % 10 == 0 {
                    games.expire_unjoined(now).await;
                }
                if rounds % 300 == 0 {
                    games.evict().await;
                }
                if games.config.purge_unstarted_after_ms > 0 && rounds % purge_every == 0 {
                    games.purge_unstarted(now).await;
                }
            }
        });
        // Heartbeat: lets a restart stop the clocks for the downtime.
        let games = self.clone();
        tokio::spawn(async move {
            let mut shutdown = games.shutdown_signal();
            let mut tick = tokio::time::interval(Duration::from_millis(1000));
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = shutdown.changed() => break,
                }
                let store = games.store.clone();
                let _ = tokio::task::spawn_blocking(move || store.heartbeat(now_ms())).await;
            }
        });
    }

    /// End every open game nobody joined within `open_game_ttl_ms` of its creation, every
    /// untimed game whose player to move made no move within `abandon_after_ms`
    /// ([`crate::games::live::Live::abandon_if_idle`]), and abort every game whose side to move
    /// made no first move by its deadline ([`crate::games::live::Live::abort_if_unstarted`]).
    pub(crate) async fn expire_unjoined(&self, now: u64) {
        let ttl = self.config.open_game_ttl_ms;
        let idle = self.config.abandon_after_ms;
        for h in self.all_handles() {
            if !self.owns(&h.id) {
                continue;
            }
            let (due, abandon, abort) = {
                let live = h.live.lock().await;
                let due = ttl > 0
                    && live.rec.status == "open"
                    && now >= live.rec.created_ms.saturating_add(ttl);
                let abort = live.abort_deadline().is_some_and(|d| now >= d);
                (due, live.idle(idle, now), abort)
            };
            if abort {
                let r = self
                    .mutate(&h, "aborted", None, |live, now| {
                        if live.abort_if_unstarted(now) {
                            Ok(())
                        } else {
                            Err(Error::conflict("not_due", "the game is not due to abort"))
                        }
                    })
                    .await;
                if let Err(e) = r {
                    if e.code != "not_due" {
                        tracing::warn!(error = %e, "aborting an unstarted game failed");
                    }
                }
                continue;
            }
            if abandon {
                let r = self
                    .mutate(&h, "abandoned", None, move |live, now| {
                        if live.abandon_if_idle(idle, now) {
                            Ok(())
                        } else {
                            Err(Error::conflict("not_due", "the game is not abandoned"))
                        }
                    })
                    .await;
                if let Err(e) = r {
                    if e.code != "not_due" {
                        tracing::warn!(error = %e, "ending an abandoned game failed");
                    }
                }
                continue;
            }
            if !due {
                continue;
            }
            let r = self
                .mutate(&h, "expired", None, move |live, now| {
                    if live.expire_if_unjoined(ttl, now) {
                        Ok(())
                    } else {
                        Err(Error::conflict("not_due", "the game is not due to expire"))
                    }
                })
                .await;
            if let Err(e) = r {
                if e.code != "not_due" {
                    tracing::warn!(error = %e, "expiring an open game failed");
                }
            }
        }
    }

    /// Delete from the store the games that ended with no move, and the unlisted games shorter than
    /// `Config::rated_min_plies`, more than `Config::purge_unstarted_after_ms` before `now`
    /// ([`crate::store::Store::purge_unstarted`]),
    /// in batches of [`PURGE_BATCH`]; failures are logged and tried again at the next round.
    pub(crate) async fn purge_unstarted(&self, now: u64) {
        let before = now.saturating_sub(self.config.purge_unstarted_after_ms);
        let min_plies = self.config.rated_min_plies;
        loop {
            let store = self.store.clone();
            match tokio::task::spawn_blocking(move || {
                store.purge_unstarted(before, min_plies, PURGE_BATCH)
            })
            .await
            {
                Ok(Ok(n)) => {
                    if n > 0 {
                        tracing::debug!(games = n, "deleted games that ended with no move");
                    }
                    if n < PURGE_BATCH {
                        return;
                    }
                }
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "deleting games that ended with no move failed");
                    return;
                }
                Err(_) => return,
            }
        }
    }

    /// Drop finished games that no WebSocket watches from memory (they stay in the store).
    pub(crate) async fn evict(&self) {
        let mut finished = Vec::new();
        for (id, h) in self.games.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            if h.tx.receiver_count() == 0 && !h.engine_busy.load(Ordering::SeqCst) {
                finished.push((id.clone(), h.clone()));
            }
        }
        let mut drop_ids = Vec::new();
        for (id, h) in finished {
            if crate::store::is_over(&h.live.lock().await.rec.status) {
                drop_ids.push(id);
            }
        }
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        for id in drop_ids {
            games.remove(&id);
        }
    }

    /// Write a last heartbeat (at shutdown).
    pub async fn final_heartbeat(&self) {
        let store = self.store.clone();
        let _ = tokio::task::spawn_blocking(move || store.heartbeat(now_ms())).await;
    }
}

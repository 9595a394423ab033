//! The one place the domain leaves the async runtime for store calls (SQLite and PostgreSQL
//! clients block): they run on tokio's blocking threads, and their failures become the domain's
//! [`Error`]. (Password hashing runs in its own bounded pool, [`crate::accounts::hashing`].)
//!
//! At most [`STORE_LANE`] such calls run at once; more wait their turn (first come, first
//! served) without holding a thread, and a request that times out while waiting never runs its
//! query. So a flood of slow reads (a player page or leaderboard over a large archive) cannot
//! take every blocking thread, nor leave queries running long after their requests gave up. The
//! games' own store calls (moves, saves: [`crate::games`]) do not pass here: they have their own
//! lane and never wait behind these reads.

use crate::error::{Error, ErrorKind};
use crate::store::StoreError;

/// `accounts_unavailable` (503): the store keeps no accounts (nor ratings).
pub fn unavailable() -> Error {
    Error::new(
        ErrorKind::Full,
        "accounts_unavailable",
        "this server's store keeps no accounts",
    )
}

/// Store calls of [`store`] running at once (see the module documentation): twice the SQLite
/// store's readers and the default PostgreSQL pool, so the store, not this bound, is the limit
/// of normal load.
pub const STORE_LANE: usize = 16;

/// The permits of [`STORE_LANE`].
static LANE: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(STORE_LANE);

/// Run the store call `f` on a blocking thread, once one of the [`STORE_LANE`] places is free.
///
/// # Errors
/// `storage` when `f` fails (or its thread panicked).
pub async fn store<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, Error> {
    let permit = LANE.acquire().await.map_err(Error::storage)?;
    tokio::task::spawn_blocking(move || {
        // Held until the call ends, even when its request has stopped waiting for it.
        let _permit = permit;
        f()
    })
    .await
    .map_err(Error::storage)?
    .map_err(Error::storage)
}

/// Run `f`, a call on a part of the store that a store may not keep (accounts, ratings: `None`
/// when it keeps none), on a blocking thread.
///
/// # Errors
/// `accounts_unavailable` (503) when the store keeps no such part; `storage` when `f` fails.
pub async fn store_part<T: Send + 'static>(
    f: impl FnOnce() -> Option<Result<T, StoreError>> + Send + 'static,
) -> Result<T, Error> {
    store(move || Ok(f()))
        .await?
        .ok_or_else(unavailable)?
        .map_err(Error::storage)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_the_lane_of_store_calls_run_at_once() {
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let calls: Vec<_> = (0..STORE_LANE * 4)
            .map(|_| {
                let (running, most) = (Arc::clone(&running), Arc::clone(&most));
                tokio::spawn(store(move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    // A slow query.
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                    Ok(())
                }))
            })
            .collect();
        for c in calls {
            c.await.unwrap().unwrap();
        }
        let most = most.load(Ordering::SeqCst);
        assert!(most <= STORE_LANE, "{most} store calls ran at once");
        assert!(most > 1, "the calls still run in parallel");
    }
}

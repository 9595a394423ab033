//! The password-hashing pool: every Argon2id hash and check of the server runs here, on
//! [`crate::config::Config::password_workers`] threads of its own (19 MiB and one core each),
//! with at most [`crate::config::Config::password_queue`] waiting; beyond that a request is
//! refused at once with `503 password_busy`, so that a flood of log-ins (each within its
//! per-address limit) cannot take the server's memory, threads and CPU from the games (issue 41,
//! defect 1). The threads are the pool's own, not tokio's blocking threads: each thread that
//! ever hashed keeps its allocator's arena, so hashing on any of tokio's hundreds of blocking
//! threads would grow the memory with the threads even with few hashes at once. They run at a
//! lower OS priority than request handling ([`HASHING_NICE`] on Linux, as the engine's threads),
//! so that moves stay fast while passwords are checked.

use crate::error::{Detail, Error, ErrorKind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

/// How long a refused request is told to wait (`Retry-After`), in ms.
const BUSY_RETRY_MS: u64 = 1000;

/// The nice value of the hashing threads on Linux (request handling runs at 0).
pub const HASHING_NICE: i32 = 10;

/// One hash or check to run.
type Job = Box<dyn FnOnce() + Send>;

/// A bounded pool of password-hashing threads with a bounded queue. Dropping it ends its threads
/// once the queued work is done.
pub struct HashPool {
    queue: SyncSender<Job>,
    peak: Arc<AtomicUsize>,
}

/// `password_busy` (503): every worker is busy and the queue is full.
fn busy() -> Error {
    Error::new(
        ErrorKind::Full,
        "password_busy",
        "the server is checking too many passwords at once; retry in a moment",
    )
    .with(Detail::RetryAfterMs(BUSY_RETRY_MS))
}

/// `internal` (500): the pool's thread is gone (it panicked).
fn lost() -> Error {
    Error::new(
        ErrorKind::Internal,
        "internal",
        "the password check was lost",
    )
}

impl HashPool {
    /// A pool of `workers` threads (at least 1) with `queue` places to wait.
    pub fn new(workers: usize, queue: usize) -> HashPool {
        let (tx, rx) = sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        for i in 0..workers.max(1) {
            let (rx, running, peak) = (rx.clone(), running.clone(), peak.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("crown-password-{i}"))
                .spawn(move || work(&rx, &running, &peak));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password-hashing thread");
            }
        }
        HashPool { queue: tx, peak }
    }

    /// The most hashes that ever ran at once in this pool.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    /// Run `f` (a hash or a check) on one of the pool's threads once one is free.
    ///
    /// # Errors
    /// `password_busy` (503) when every worker is busy and the queue is full; `internal` if the
    /// thread panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Error> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The asker may be gone (its request timed out): nothing to tell then.
            let _ = tx.send(f());
        });
        match self.queue.try_send(job) {
            Ok(()) => rx.await.map_err(|_| lost()),
            Err(TrySendError::Full(_)) => Err(busy()),
            Err(TrySendError::Disconnected(_)) => Err(lost()),
        }
    }
}

/// A worker: run the queue's jobs one at a time until the pool is dropped, at a lower priority.
fn work(rx: &Mutex<Receiver<Job>>, running: &AtomicUsize, peak: &AtomicUsize) {
    #[cfg(target_os = "linux")]
    {
        // Linux keeps a nice value per thread: this lowers only this one.
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), HASHING_NICE);
    }
    loop {
        let job = match rx.lock().unwrap_or_else(|e| e.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
        peak.fetch_max(now, Ordering::SeqCst);
        // A panicking job must not take the worker with it.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        running.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[tokio::test]
    async fn beyond_the_workers_and_the_queue_a_request_is_refused_at_once() {
        let pool = Arc::new(HashPool::new(1, 1));
        let (release, wait) = mpsc::channel::<()>();
        let (started, is_started) = tokio::sync::oneshot::channel();
        let p = pool.clone();
        let first = tokio::spawn(async move {
            p.run(move || {
                let _ = started.send(());
                wait.recv().ok()
            })
            .await
        });
        is_started.await.unwrap();
        // The worker is busy with the first: another waits in the queue (its one place), and
        // the next is refused at once.
        let (done, is_done) = tokio::sync::oneshot::channel();
        let queued: Job = Box::new(move || {
            let _ = done.send(2);
        });
        assert!(pool.queue.try_send(queued).is_ok());
        let refused = pool.run(|| 3).await.unwrap_err();
        assert_eq!(refused.code, "password_busy");
        release.send(()).unwrap();
        assert!(first.await.unwrap().is_ok());
        assert_eq!(is_done.await.unwrap(), 2);
        assert_eq!(pool.peak(), 1);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn hashing_threads_run_below_the_request_handlers() {
        let pool = HashPool::new(1, 1);
        let nice = pool
            .run(|| rustix::process::getpriority_process(Some(rustix::thread::gettid())))
            .await
            .unwrap()
            .unwrap();
        // At least HASHING_NICE: a process already nicer than that keeps its own value.
        assert!(
            nice >= HASHING_NICE,
            "the hashing thread runs at nice {nice}"
        );
    }
}

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
//!
//! The queue is fair between networks (issue 41, the attack review's finding 2): each request
//! names its client's network ([`super::network::network_block`]: an IPv4 /24, an IPv6
//! `--signup-net-v6-prefix` network), and when the queue is full a newcomer whose network holds
//! at least two queued requests fewer than the network holding the most takes the newest queued
//! place of that network, which is refused (`503 password_busy`) instead (with one fewer the
//! places would only change hands). A flood from one network (its
//! thousands of /64s each within the per-address limit) so keeps at most all but one place, and a
//! log-in from any other network is queued. The queue holds at most its places, and the count per
//! network only the networks queued: the memory stays bounded.

use crate::error::{Detail, Error, ErrorKind};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// How long a refused request is told to wait (`Retry-After`), in ms.
const BUSY_RETRY_MS: u64 = 1000;

/// The nice value of the hashing threads on Linux (request handling runs at 0).
pub const HASHING_NICE: i32 = 10;

/// One hash or check to run: called with `true` to run it, `false` to refuse it (its place was
/// given to a request of a less busy network).
type Job = Box<dyn FnOnce(bool) + Send>;

/// The network a request counts under (`None`: no client address).
type Net = Option<IpAddr>;

/// A queued job and its network.
struct Queued {
    net: Net,
    job: Job,
}

/// The queue and what the workers share.
struct State {
    queue: VecDeque<Queued>,
    /// Queued jobs per network; a network with none is not kept.
    per_net: HashMap<Net, usize>,
    /// Workers waiting for a job.
    idle: usize,
    /// The pool was dropped: the workers finish the queue and end.
    closed: bool,
}

/// The pool's shared part.
struct Shared {
    state: Mutex<State>,
    ready: Condvar,
    places: usize,
}

impl Shared {
    /// The state, also after a panic elsewhere (jobs run outside the lock).
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A bounded pool of password-hashing threads with a bounded queue, fair between networks.
/// Dropping it ends its threads once the queued work is done.
pub struct HashPool {
    shared: Arc<Shared>,
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
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                per_net: HashMap::new(),
                idle: 0,
                closed: false,
            }),
            ready: Condvar::new(),
            places: queue,
        });
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        for i in 0..workers.max(1) {
            let (shared, running, peak) = (shared.clone(), running.clone(), peak.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("crown-password-{i}"))
                .spawn(move || work(&shared, &running, &peak));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a password-hashing thread");
            }
        }
        HashPool { shared, peak }
    }

    /// The most hashes that ever ran at once in this pool.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    /// Run `f` (a hash or a check) for a client of network `net` on one of the pool's threads
    /// once one is free.
    ///
    /// # Errors
    /// `password_busy` (503) when every worker is busy, the queue is full and no network holds
    /// two or more queued requests more than `net` (or when a later request of a less busy
    /// network takes this one's place); `internal` if the thread panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        net: Net,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Error> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |run| {
            // The asker may be gone (its request timed out): nothing to tell then.
            let _ = tx.send(if run { Ok(f()) } else { Err(busy()) });
        });
        let refused = self.enqueue(net, job)?;
        if let Some(refused) = refused {
            refused(false);
        }
        rx.await.map_err(|_| lost())?
    }

    /// Queue `job` of `net`; the job whose place it took, if any, to be refused outside the
    /// lock.
    ///
    /// # Errors
    /// `password_busy` when the queue is full and no network holds two or more of it more than
    /// `net`.
    fn enqueue(&self, net: Net, job: Job) -> Result<Option<Job>, Error> {
        let mut st = self.shared.lock();
        let mut refused = None;
        if st.queue.len() >= self.shared.places + st.idle {
            let mine = st.per_net.get(&net).copied().unwrap_or(0);
            let heaviest = st
                .per_net
                .iter()
                .max_by_key(|(_, n)| **n)
                .filter(|(_, n)| **n > mine + 1)
                .map(|(k, _)| *k);
            let Some(heaviest) = heaviest else {
                return Err(busy());
            };
            let Some(at) = st.queue.iter().rposition(|q| q.net == heaviest) else {
                return Err(busy());
            };
            if let Some(q) = st.queue.remove(at) {
                forget(&mut st.per_net, q.net);
                refused = Some(q.job);
            }
        }
        *st.per_net.entry(net).or_insert(0) += 1;
        st.queue.push_back(Queued { net, job });
        drop(st);
        self.shared.ready.notify_one();
        Ok(refused)
    }
}

/// One job fewer queued for `net`.
fn forget(per_net: &mut HashMap<Net, usize>, net: Net) {
    if let Some(n) = per_net.get_mut(&net) {
        *n -= 1;
        if *n == 0 {
            per_net.remove(&net);
        }
    }
}

impl Drop for HashPool {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

/// A worker: run the queue's jobs one at a time until the pool is dropped, at a lower priority.
fn work(shared: &Shared, running: &AtomicUsize, peak: &AtomicUsize) {
    #[cfg(target_os = "linux")]
    {
        // Linux keeps a nice value per thread: this lowers only this one.
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), HASHING_NICE);
    }
    loop {
        let job = {
            let mut st = shared.lock();
            loop {
                if let Some(q) = st.queue.pop_front() {
                    forget(&mut st.per_net, q.net);
                    break q.job;
                }
                if st.closed {
                    return;
                }
                st.idle += 1;
                st = shared.ready.wait(st).unwrap_or_else(|e| e.into_inner());
                st.idle -= 1;
            }
        };
        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
        peak.fetch_max(now, Ordering::SeqCst);
        // A panicking job must not take the worker with it.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(true)));
        running.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A pool of one worker held busy until the returned sender is used (or dropped), and the
    /// first job's answer.
    async fn held(
        pool: &Arc<HashPool>,
    ) -> (
        mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<Option<()>, Error>>,
    ) {
        let (release, wait) = mpsc::channel::<()>();
        let (started, is_started) = tokio::sync::oneshot::channel();
        let p = pool.clone();
        let first = tokio::spawn(async move {
            p.run(None, move || {
                let _ = started.send(());
                wait.recv().ok()
            })
            .await
        });
        is_started.await.unwrap();
        (release, first)
    }

    /// Queue `f` for `net` in the background and wait until it is queued.
    async fn queue<T: Send + 'static>(
        pool: &Arc<HashPool>,
        net: Net,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> tokio::task::JoinHandle<Result<T, Error>> {
        let of_net = || pool.shared.lock().per_net.get(&net).copied().unwrap_or(0);
        let before = of_net();
        let p = pool.clone();
        let task = tokio::spawn(async move { p.run(net, f).await });
        // Queued (or refused at once): the network's count or the task tells.
        loop {
            if task.is_finished() || of_net() != before {
                return task;
            }
            tokio::task::yield_now().await;
        }
    }

    fn net(s: &str) -> Net {
        Some(s.parse().unwrap())
    }

    #[tokio::test]
    async fn beyond_the_workers_and_the_queue_a_request_of_the_same_network_is_refused_at_once() {
        let pool = Arc::new(HashPool::new(1, 1));
        let (release, first) = held(&pool).await;
        // The worker is busy with the first: another waits in the queue (its one place), and
        // the next of the same network is refused at once.
        let queued = queue(&pool, None, || 2).await;
        let refused = pool.run(None, || 3).await.unwrap_err();
        assert_eq!(refused.code, "password_busy");
        release.send(()).unwrap();
        assert!(first.await.unwrap().is_ok());
        assert_eq!(queued.await.unwrap().unwrap(), 2);
        assert_eq!(pool.peak(), 1);
    }

    #[tokio::test]
    async fn a_full_queue_gives_a_place_of_the_busiest_network_to_another_network() {
        let pool = Arc::new(HashPool::new(1, 3));
        let (release, first) = held(&pool).await;
        let flood = net("2001:db8:77::");
        let mut floods = Vec::new();
        for i in 0..3 {
            floods.push(queue(&pool, flood, move || i).await);
        }
        // The flood's fourth is refused: its network holds the whole queue.
        let refused = pool.run(flood, || 9).await.unwrap_err();
        assert_eq!(refused.code, "password_busy");
        // Another network's request takes the flood's newest place.
        let owner = queue(&pool, net("198.51.100.0"), || "owner").await;
        let evicted = floods.pop().unwrap().await.unwrap().unwrap_err();
        assert_eq!(evicted.code, "password_busy");
        // A third network takes another of the flood's places; then the queue holds one of
        // each, and a fourth network is refused (no network holds more than it would).
        let third = queue(&pool, net("203.0.113.0"), || "third").await;
        assert_eq!(
            floods.pop().unwrap().await.unwrap().unwrap_err().code,
            "password_busy"
        );
        let refused = pool.run(net("192.0.2.0"), || "fourth").await.unwrap_err();
        assert_eq!(refused.code, "password_busy");
        release.send(()).unwrap();
        assert!(first.await.unwrap().is_ok());
        assert_eq!(floods.pop().unwrap().await.unwrap().unwrap(), 0);
        assert_eq!(owner.await.unwrap().unwrap(), "owner");
        assert_eq!(third.await.unwrap().unwrap(), "third");
        // Every network's count is gone with its requests.
        assert!(pool.shared.lock().per_net.is_empty());
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn hashing_threads_run_below_the_request_handlers() {
        let pool = HashPool::new(1, 1);
        let nice = pool
            .run(None, || {
                rustix::process::getpriority_process(Some(rustix::thread::gettid()))
            })
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

//! The engine's workers, shared fairly between networks (issue 41, the attack review's M2): a
//! search waits for one of `--engine-workers` slots in a queue that is fair between the networks
//! of the games' creators (an IPv4 /24, an IPv6 `--signup-net-v6-prefix` network,
//! [`crate::accounts::network::network_block`]), not first come first served, so that a few
//! addresses of one network with many engine games cannot push every other player's engine
//! reply back by many searches.
//!
//! It is start-time fair queuing with every search costing one: each waiting search has a tag,
//! `max(now, the finish of its network's previous search)`, its network's finish becomes the
//! tag plus one, and a free worker goes to the waiting search of the smallest tag (the earliest
//! asked among equal tags); `now` is the tag of the search last given a worker. A network's
//! searches so run in the order they were asked, networks take turns (one search each per
//! round), and a network that has none waiting when another's search starts comes before that
//! network's next one: with one worker, a search of a network that was idle waits for at most
//! the search running when it was asked and one search of each other network then waiting.
//! The queue holds one entry per waiting search and remembers a network's finish only while it
//! is ahead of `now`: the memory stays bounded by the searches waiting.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The network a search counts under (`None`: a game no client created, e.g. a tournament's).
pub type Net = Option<IpAddr>;

/// A waiting search: its network and where its slot is sent.
type Waiter = (Net, tokio::sync::oneshot::Sender<Slot>);

/// The queue's state.
struct State {
    /// Workers not running a search.
    free: usize,
    /// The tag of the search last given a worker.
    now: u64,
    /// Numbers the waiting searches in the order they were asked (ties of tags).
    seq: u64,
    /// The waiting searches by `(tag, seq)`.
    waiting: BTreeMap<(u64, u64), Waiter>,
    /// Each network's finish (its latest search's tag plus one), while above `now`.
    finish: HashMap<Net, u64>,
}

/// A bounded set of engine workers handed out fairly between networks (see the module's
/// page). A cheap handle: clone it freely.
#[derive(Clone)]
pub struct FairSlots {
    state: Arc<Mutex<State>>,
    workers: usize,
}

/// One worker, held while a search runs; dropping it hands the worker to the next waiting
/// search.
pub struct Slot {
    state: Option<Arc<Mutex<State>>>,
}

impl FairSlots {
    /// `workers` workers (at least 1), all free.
    pub fn new(workers: usize) -> FairSlots {
        let workers = workers.max(1);
        FairSlots {
            state: Arc::new(Mutex::new(State {
                free: workers,
                now: 0,
                seq: 0,
                waiting: BTreeMap::new(),
                finish: HashMap::new(),
            })),
            workers,
        }
    }

    /// Searches running now (workers taken).
    pub fn running(&self) -> usize {
        self.workers.saturating_sub(lock(&self.state).free)
    }

    /// Searches waiting for a worker.
    pub fn waiting(&self) -> usize {
        lock(&self.state).waiting.len()
    }

    /// Wait for a worker for a search of network `net`, in the fair order of the module's
    /// page. `None` only if the queue lost the request (it never does while `self` lives).
    pub async fn acquire(&self, net: Net) -> Option<Slot> {
        let rx = {
            let mut st = lock(&self.state);
            let tag = st.now.max(st.finish.get(&net).copied().unwrap_or(0));
            st.finish.insert(net, tag + 1);
            if st.free > 0 && st.waiting.is_empty() {
                st.free -= 1;
                st.now = st.now.max(tag);
                let now = st.now;
                st.finish.retain(|_, f| *f > now);
                return Some(Slot {
                    state: Some(self.state.clone()),
                });
            }
            let (tx, rx) = tokio::sync::oneshot::channel();
            let seq = st.seq;
            st.seq += 1;
            st.waiting.insert((tag, seq), (net, tx));
            rx
        };
        rx.await.ok()
    }
}

/// The state, also after a panic elsewhere (nothing runs under the lock that can leave it
/// half changed).
fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(state) = self.state.take() else {
            return;
        };
        let mut st = lock(&state);
        // The next waiting search whose asker is still there gets this worker.
        while let Some(((tag, _), (_net, tx))) = st.waiting.pop_first() {
            st.now = st.now.max(tag);
            let next = Slot {
                state: Some(state.clone()),
            };
            match tx.send(next) {
                Ok(()) => {
                    let now = st.now;
                    st.finish.retain(|_, f| *f > now);
                    return;
                }
                // The asker is gone (its game ended, the server stops): not released again.
                Err(mut unsent) => {
                    unsent.state = None;
                }
            }
        }
        st.free += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(i: u8) -> Net {
        Some(IpAddr::from([192, 0, i, 0]))
    }

    /// Queue `n` searches of `net` behind a held worker; the receivers, in asking order.
    fn queue(
        slots: &FairSlots,
        net: Net,
        n: usize,
        label: &'static str,
        set: &mut tokio::task::JoinSet<(&'static str, usize, Slot)>,
        order: &Arc<Mutex<Vec<(&'static str, usize)>>>,
    ) {
        for i in 0..n {
            let (slots, order) = (slots.clone(), order.clone());
            set.spawn(async move {
                let slot = slots.acquire(net).await.unwrap();
                order.lock().unwrap().push((label, i));
                (label, i, slot)
            });
        }
    }

    #[tokio::test]
    async fn a_network_with_many_searches_waiting_does_not_delay_another_beyond_one_search() {
        let slots = FairSlots::new(1);
        let running = slots.acquire(net(1)).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut set = tokio::task::JoinSet::new();
        queue(&slots, net(1), 6, "flood", &mut set, &order);
        while slots.waiting() < 6 {
            tokio::task::yield_now().await;
        }
        queue(&slots, net(2), 1, "victim", &mut set, &order);
        while slots.waiting() < 7 {
            tokio::task::yield_now().await;
        }
        // Hand the worker on, one search at a time.
        drop(running);
        let mut got = Vec::new();
        while let Some(r) = set.join_next().await {
            let (label, i, slot) = r.unwrap();
            got.push((label, i));
            drop(slot);
        }
        let order = order.lock().unwrap().clone();
        // The victim's search runs next, before any more of the flood's; the flood's searches
        // run in the order they were asked.
        assert_eq!(order[0], ("victim", 0), "{order:?}");
        let flood: Vec<usize> = order.iter().skip(1).map(|(_, i)| *i).collect();
        assert_eq!(flood, (0..6).collect::<Vec<_>>());
        assert_eq!(slots.running(), 0);
        assert_eq!(slots.waiting(), 0);
    }

    #[tokio::test]
    async fn networks_take_turns_and_workers_are_all_given_back() {
        let slots = FairSlots::new(1);
        let running = slots.acquire(None).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut set = tokio::task::JoinSet::new();
        queue(&slots, net(1), 3, "a", &mut set, &order);
        while slots.waiting() < 3 {
            tokio::task::yield_now().await;
        }
        queue(&slots, net(2), 3, "b", &mut set, &order);
        while slots.waiting() < 6 {
            tokio::task::yield_now().await;
        }
        drop(running);
        while let Some(r) = set.join_next().await {
            drop(r.unwrap().2);
        }
        let labels: Vec<&str> = order.lock().unwrap().iter().map(|(l, _)| *l).collect();
        assert_eq!(labels, ["a", "b", "a", "b", "a", "b"]);
        assert_eq!(slots.running(), 0);
        // A worker is free again at once.
        let again = slots.acquire(net(3)).await.unwrap();
        assert_eq!(slots.running(), 1);
        drop(again);
    }

    #[tokio::test]
    async fn a_gone_asker_does_not_keep_a_worker() {
        let slots = FairSlots::new(1);
        let running = slots.acquire(net(1)).await.unwrap();
        let gone = {
            let slots = slots.clone();
            tokio::spawn(async move { slots.acquire(net(2)).await.map(|_| ()) })
        };
        while slots.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        gone.abort();
        let _ = gone.await;
        drop(running);
        assert_eq!(slots.running(), 0);
        assert!(slots.acquire(net(3)).await.is_some());
    }
}

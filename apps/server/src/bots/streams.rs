//! The accounts' open streams on this instance (`GET /api/stream/event`, a bot's
//! `GET /api/bot/game/stream/{id}`): how many event streams each account and each address
//! holds ([`MAX_EVENT_STREAMS_PER_ACCOUNT`], [`MAX_EVENT_STREAMS_PER_ADDRESS`]; more:
//! `429 too_many_streams`), and a signal per account that its credentials changed (a token
//! revoked, a log-out, a password change): each stream of the account checks its own
//! credentials again at once and ends when they no longer hold. Another instance's change
//! reaches a stream by its periodic check ([`RECHECK`]).

use crate::error::Error;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// The most event streams one account may hold open on one instance (lichess allows one per
/// bot; two let a player keep a second tab or a reconnect that overlaps the old stream).
pub const MAX_EVENT_STREAMS_PER_ACCOUNT: usize = 2;

/// The most event streams one client address (an IPv6 /64) may hold open on one instance.
pub const MAX_EVENT_STREAMS_PER_ADDRESS: usize = 8;

/// How often an open stream checks its credentials again even without a change signalled on
/// this instance (a revocation on another instance, a session expired).
pub const RECHECK: Duration = Duration::from_secs(5);

/// One account's open streams.
struct Account {
    /// Event streams open.
    events: usize,
    /// Streams of any kind holding a [`StreamGuard`] (the entry lives while one does).
    holders: usize,
    /// Bumped when the account's credentials change.
    changed: watch::Sender<u64>,
}

/// The open streams of this instance (see the module documentation).
#[derive(Default)]
pub struct Streams {
    /// Per account id.
    accounts: Mutex<HashMap<String, Account>>,
    /// Event streams per client address.
    addresses: Mutex<HashMap<IpAddr, usize>>,
}

/// One open stream: dropping it frees its places. [`StreamGuard::changed`] resolves when the
/// account's credentials change.
pub struct StreamGuard {
    streams: Arc<Streams>,
    user: String,
    /// The address counted, for an event stream whose address is known.
    address: Option<IpAddr>,
    /// Whether it counts as an event stream.
    event: bool,
    rx: watch::Receiver<u64>,
}

impl StreamGuard {
    /// Resolves when the account's credentials changed since the last call (or since the
    /// stream opened): the stream should check its own again.
    pub async fn changed(&mut self) {
        if self.rx.changed().await.is_err() {
            // The sender lives as long as a guard does; never reached.
            std::future::pending::<()>().await;
        }
    }
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        {
            let mut m = self
                .streams
                .accounts
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(a) = m.get_mut(&self.user) {
                a.holders = a.holders.saturating_sub(1);
                if self.event {
                    a.events = a.events.saturating_sub(1);
                }
                if a.holders == 0 {
                    m.remove(&self.user);
                }
            }
        }
        if let Some(ip) = self.address {
            let mut m = self
                .streams
                .addresses
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(n) = m.get_mut(&ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    m.remove(&ip);
                }
            }
        }
    }
}

/// `429 too_many_streams` saying what is full.
fn too_many(what: &str) -> Error {
    Error::limited(
        "too_many_streams",
        format!("{what}; close one before opening another"),
    )
}

impl Streams {
    /// Open an event stream of account `user` from client address `address` (if known).
    ///
    /// # Errors
    /// `too_many_streams` (429) when the account already holds
    /// [`MAX_EVENT_STREAMS_PER_ACCOUNT`] or the address [`MAX_EVENT_STREAMS_PER_ADDRESS`].
    pub fn open_event(
        self: &Arc<Self>,
        user: &str,
        address: Option<IpAddr>,
    ) -> Result<StreamGuard, Error> {
        let mut accounts = self.accounts.lock().unwrap_or_else(|e| e.into_inner());
        if accounts
            .get(user)
            .is_some_and(|a| a.events >= MAX_EVENT_STREAMS_PER_ACCOUNT)
        {
            return Err(too_many(&format!(
                "this account already has {MAX_EVENT_STREAMS_PER_ACCOUNT} event streams open"
            )));
        }
        if let Some(ip) = address {
            let mut m = self.addresses.lock().unwrap_or_else(|e| e.into_inner());
            let n = m.entry(ip).or_insert(0);
            if *n >= MAX_EVENT_STREAMS_PER_ADDRESS {
                return Err(too_many(&format!(
                    "this address already has {MAX_EVENT_STREAMS_PER_ADDRESS} event streams open"
                )));
            }
            *n += 1;
        }
        let a = accounts.entry(user.to_string()).or_insert_with(|| Account {
            events: 0,
            holders: 0,
            changed: watch::channel(0).0,
        });
        a.events += 1;
        a.holders += 1;
        Ok(StreamGuard {
            streams: Arc::clone(self),
            user: user.to_string(),
            address,
            event: true,
            rx: a.changed.subscribe(),
        })
    }

    /// Watch the credentials of account `user` for a stream that is not counted (a bot's game
    /// stream).
    pub fn watch(self: &Arc<Self>, user: &str) -> StreamGuard {
        let mut accounts = self.accounts.lock().unwrap_or_else(|e| e.into_inner());
        let a = accounts.entry(user.to_string()).or_insert_with(|| Account {
            events: 0,
            holders: 0,
            changed: watch::channel(0).0,
        });
        a.holders += 1;
        StreamGuard {
            streams: Arc::clone(self),
            user: user.to_string(),
            address: None,
            event: false,
            rx: a.changed.subscribe(),
        }
    }

    /// Signal that account `user`'s credentials changed (a token revoked, a session ended, the
    /// password changed): each of its open streams checks its own again.
    pub fn credentials_changed(&self, user: &str) {
        let m = self.accounts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(a) = m.get(user) {
            a.changed.send_modify(|g| *g += 1);
        }
    }

    /// Event streams open on this instance.
    pub fn open_events(&self) -> usize {
        self.accounts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .map(|a| a.events)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_streams_are_capped_per_account_and_per_address_and_freed_on_drop() {
        let s = Arc::new(Streams::default());
        let ip: IpAddr = "203.0.113.5".parse().unwrap();
        let a1 = s.open_event("a", Some(ip)).unwrap();
        let _a2 = s.open_event("a", Some(ip)).unwrap();
        let e = s.open_event("a", Some(ip)).err().unwrap();
        assert_eq!(e.code, "too_many_streams");
        drop(a1);
        let _a3 = s.open_event("a", Some(ip)).unwrap();
        // Other accounts from the same address: up to the address's cap.
        let mut others: Vec<StreamGuard> = (0..MAX_EVENT_STREAMS_PER_ADDRESS - 2)
            .map(|i| s.open_event(&format!("u{i}"), Some(ip)).unwrap())
            .collect();
        assert_eq!(
            s.open_event("z", Some(ip)).err().unwrap().code,
            "too_many_streams"
        );
        let other_ip: IpAddr = "198.51.100.7".parse().unwrap();
        let _z = s.open_event("z", Some(other_ip)).unwrap();
        others.pop();
        let _z2 = s.open_event("z", Some(ip)).unwrap();
        // Game streams are not counted.
        let _w = s.watch("a");
        assert_eq!(s.open_events(), MAX_EVENT_STREAMS_PER_ADDRESS + 1);
    }

    #[tokio::test]
    async fn a_credentials_change_wakes_the_accounts_streams_only() {
        let s = Arc::new(Streams::default());
        let mut a = s.open_event("a", None).unwrap();
        let mut g = s.watch("a");
        let b = s.open_event("b", None).unwrap();
        s.credentials_changed("a");
        tokio::time::timeout(Duration::from_secs(5), a.changed())
            .await
            .expect("the event stream is told");
        tokio::time::timeout(Duration::from_secs(5), g.changed())
            .await
            .expect("the game stream is told");
        assert!(
            !b.rx.has_changed().unwrap(),
            "another account's stream is not told"
        );
        drop(b);
    }
}

//! Per-client limits: a token bucket of requests per IP address ([`RateLimiter`]) and counts of
//! what each address holds open ([`ConnCounter`]: connections, WebSockets, unjoined and engine
//! games).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Token buckets keyed by client address (or by another key `K`, e.g. a username): `rate`
/// tokens per second up to `burst`.
pub struct RateLimiter<K = Option<IpAddr>> {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, (f64, Instant)>>,
}

impl RateLimiter {
    /// A limiter allowing `rate_per_sec` requests per second with bursts of `burst`; a rate of 0
    /// allows everything.
    pub fn new(rate_per_sec: u32, burst: u32) -> RateLimiter {
        RateLimiter::keyed(f64::from(rate_per_sec), burst)
    }
}

impl<K: std::hash::Hash + Eq> RateLimiter<K> {
    /// A limiter keyed by `K` allowing `rate_per_sec` (fractions allowed: `10.0 / 60.0` is ten a
    /// minute) with bursts of `burst`; a rate of 0 allows everything.
    pub fn keyed(rate_per_sec: f64, burst: u32) -> RateLimiter<K> {
        RateLimiter {
            rate: rate_per_sec,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Take one token for `client`; `Err(seconds to wait)` when its bucket is empty.
    ///
    /// # Errors
    /// The whole seconds after which a token will be available.
    pub fn check(&self, client: K) -> Result<(), u64> {
        self.check_cost(client, 1)
    }

    /// Take `cost` tokens for `client` (a request that costs the server as much as `cost`
    /// ordinary ones); `Err(seconds to wait)` when its bucket holds fewer. A cost above the burst
    /// is taken as the burst.
    ///
    /// # Errors
    /// The whole seconds after which `cost` tokens will be available.
    pub fn check_cost(&self, client: K, cost: u32) -> Result<(), u64> {
        if self.rate <= 0.0 {
            return Ok(());
        }
        let cost = f64::from(cost.max(1)).min(self.burst);
        self.with_bucket(client, |tokens| {
            if *tokens >= cost {
                *tokens -= cost;
                Ok(())
            } else {
                Err(((cost - *tokens) / self.rate).ceil() as u64)
            }
        })
    }

    /// Take `cost` tokens from `client`'s bucket after the fact (what a response just sent, known
    /// only once it is made): the bucket may go below empty, and [`RateLimiter::check_cost`]
    /// then refuses the client until it has refilled.
    pub fn charge(&self, client: K, cost: u64) {
        if self.rate > 0.0 {
            self.with_bucket(client, |tokens| *tokens -= cost as f64);
        }
    }

    /// Run `f` on `client`'s bucket, refilled to now.
    fn with_bucket<T>(&self, client: K, f: impl FnOnce(&mut f64) -> T) -> T {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // Forget full buckets so that many distinct clients cannot exhaust memory.
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, (t, at)| *t + now.duration_since(*at).as_secs_f64() * rate < burst);
        }
        let (tokens, at) = buckets.entry(client).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.burst);
        *at = now;
        f(tokens)
    }
}

/// Live connections per client address, for the per-address cap (defect: one client holding
/// every file descriptor).
#[derive(Default)]
pub struct ConnCounter {
    per_ip: Mutex<HashMap<IpAddr, usize>>,
}

/// One counted connection; dropping it frees its place.
pub struct ConnGuard<'a> {
    counter: &'a ConnCounter,
    ip: IpAddr,
}

impl ConnCounter {
    /// Count a new connection from `ip` unless it already has `max` open; `None` when full.
    pub fn try_add(&self, ip: IpAddr, max: usize) -> Option<ConnGuard<'_>> {
        self.try_inc(ip, max)
            .then_some(ConnGuard { counter: self, ip })
    }

    /// Count one more for `ip` unless it already has `max`; returns whether it counted.
    pub fn try_inc(&self, ip: IpAddr, max: usize) -> bool {
        let mut m = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        let n = m.entry(ip).or_insert(0);
        if *n >= max {
            if *n == 0 {
                m.remove(&ip);
            }
            return false;
        }
        *n += 1;
        true
    }

    /// Count one less for `ip`.
    pub fn dec(&self, ip: IpAddr) {
        let mut m = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                m.remove(&ip);
            }
        }
    }

    /// The counts of every address together (connections, WebSockets... now open).
    pub fn total(&self) -> usize {
        self.per_ip
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .sum()
    }

    /// Connections now open from `ip`.
    pub fn count(&self, ip: IpAddr) -> usize {
        self.per_ip
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&ip)
            .copied()
            .unwrap_or(0)
    }
}

impl Drop for ConnGuard<'_> {
    fn drop(&mut self) {
        let mut m = self
            .counter
            .per_ip
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_refused_and_zero_rate_is_unlimited() {
        let l = RateLimiter::new(1, 3);
        let ip = Some(IpAddr::from([127, 0, 0, 1]));
        for _ in 0..3 {
            assert!(l.check(ip).is_ok());
        }
        assert_eq!(l.check(ip), Err(1));
        // Another client has its own bucket.
        assert!(l.check(Some(IpAddr::from([127, 0, 0, 2]))).is_ok());
        let open = RateLimiter::new(0, 1);
        for _ in 0..1000 {
            assert!(open.check(ip).is_ok());
        }
    }

    #[test]
    fn a_charge_after_the_fact_may_overdraw_the_bucket_until_it_refills() {
        // A burst of 100 at 10/s: a charge of 150 leaves -50, so a request of cost 1 waits
        // (1 + 50) / 10 = 5.1 s, rounded up to 6; another client is not charged.
        let l = RateLimiter::new(10, 100);
        let ip = Some(IpAddr::from([127, 0, 0, 1]));
        assert!(l.check(ip).is_ok());
        l.charge(ip, 149);
        assert_eq!(l.check(ip), Err(6));
        assert!(l.check(Some(IpAddr::from([127, 0, 0, 2]))).is_ok());
        // No limit: nothing is charged.
        let open = RateLimiter::new(0, 1);
        open.charge(ip, u64::MAX);
        assert!(open.check(ip).is_ok());
    }

    #[test]
    fn a_costly_request_takes_its_cost_from_the_bucket() {
        // A burst of 10 at 1/s: two requests of cost 5 empty it; the third waits 5 s for its
        // 5 tokens, while an ordinary request waits 1 s.
        let l = RateLimiter::new(1, 10);
        let ip = Some(IpAddr::from([127, 0, 0, 1]));
        assert!(l.check_cost(ip, 5).is_ok());
        assert!(l.check_cost(ip, 5).is_ok());
        assert_eq!(l.check_cost(ip, 5), Err(5));
        assert_eq!(l.check(ip), Err(1));
    }
}

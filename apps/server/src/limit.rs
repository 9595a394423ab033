//! Per-client rate limiting: a token bucket per IP address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Token buckets keyed by client address: `rate` tokens per second up to `burst`.
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<Option<IpAddr>, (f64, Instant)>>,
}

impl RateLimiter {
    /// A limiter allowing `rate_per_sec` requests per second with bursts of `burst`; a rate of 0
    /// allows everything.
    pub fn new(rate_per_sec: u32, burst: u32) -> RateLimiter {
        RateLimiter {
            rate: f64::from(rate_per_sec),
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Take one token for `client`; `Err(seconds to wait)` when its bucket is empty.
    ///
    /// # Errors
    /// The whole seconds after which a token will be available.
    pub fn check(&self, client: Option<IpAddr>) -> Result<(), u64> {
        if self.rate <= 0.0 {
            return Ok(());
        }
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
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / self.rate).ceil() as u64)
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
}

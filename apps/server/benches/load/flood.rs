//! The log-in flood of `load --login-flood ADDRS` (issue 41, defect 1): ADDRS client addresses
//! (127.1.x.y, all loopback on Linux, so the server counts each as its own client) each send
//! `POST /api/login` at `--flood-rate` per second, open loop, for the whole row: a third with an
//! account's right password, a third with a wrong one, a third for a username that does not exist
//! (the server hashes for those too, so that the time does not tell). With the defaults (200
//! addresses, 2/s each) the log-ins that pass the per-address limit (30 a minute) alone are far more
//! than the password-hashing pool (`--password-workers`, 19 MiB each) computes, so its queue fills
//! and the rest are refused with `503 password_busy`. Only the human games' moves are measured;
//! this module counts the flood's answers.

use crown_core::rng::Rng;
use serde_json::json;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// The seed of the flood's choices; address `i` draws from stream `i` of it.
const FLOOD_SEED: u64 = 0x5eed_f100_d000;

/// The answers the flood got, by kind.
#[derive(Default)]
pub struct Answers {
    /// `200`: a right password.
    pub ok: AtomicU64,
    /// `401 bad_credentials`: a wrong password or an unknown user.
    pub wrong: AtomicU64,
    /// `429`: a log-in limit (per address or per username).
    pub limited: AtomicU64,
    /// `503 password_busy`: the hashing pool and its queue were full.
    pub busy: AtomicU64,
    /// Any other status, or no answer.
    pub other: AtomicU64,
}

impl Answers {
    fn count(&self, status: Option<u16>) {
        let slot = match status {
            Some(200) => &self.ok,
            Some(401) => &self.wrong,
            Some(429) => &self.limited,
            Some(503) => &self.busy,
            _ => &self.other,
        };
        slot.fetch_add(1, Ordering::Relaxed);
    }

    /// One line for the report.
    pub fn summary(&self) -> String {
        let (ok, wrong, limited, busy, other) = (
            self.ok.load(Ordering::Relaxed),
            self.wrong.load(Ordering::Relaxed),
            self.limited.load(Ordering::Relaxed),
            self.busy.load(Ordering::Relaxed),
            self.other.load(Ordering::Relaxed),
        );
        let sent = ok + wrong + limited + busy + other;
        format!(
            "{sent} log-ins answered: {ok} 200, {wrong} 401, {limited} 429, {busy} 503 password_busy, \
             {other} other or failed"
        )
    }
}

/// The `i`th address of network `127.net.0.0/16`: 127.net.0.1, 127.net.0.2, ... (250 per third
/// octet; at most 64,000).
fn address(net: u8, i: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(
        127,
        net,
        (i / 250) as u8,
        (i % 250 + 1) as u8,
    ))
}

/// The username and password of account `i` of the flood.
pub fn account(i: usize) -> (String, String) {
    (format!("flood{i}"), format!("flood-password-{i}"))
}

/// Sign up `n` accounts ([`account`]) on `base`, four at a time (each is a password hash), each
/// from an address of its own (127.2.x.y), within the server's sign-up and log-in limits.
///
/// # Errors
/// The first sign-up that failed, with its status.
pub async fn sign_up(base: &str, n: usize) -> Result<(), String> {
    for chunk in (0..n).collect::<Vec<_>>().chunks(4) {
        let tasks: Vec<_> = chunk
            .iter()
            .map(|&i| {
                let url = format!("{base}/api/signup");
                tokio::spawn(async move {
                    let http = reqwest::Client::builder()
                        .local_address(address(2, i))
                        .build()
                        .map_err(|e| e.to_string())?;
                    let (username, password) = account(i);
                    let body = json!({"username": username, "password": password});
                    let resp = http.post(url).json(&body).send().await;
                    match resp {
                        Ok(r) if r.status().as_u16() == 201 => Ok(()),
                        Ok(r) => Err(format!("sign-up {i}: {}", r.status())),
                        Err(e) => Err(format!("sign-up {i}: {e}")),
                    }
                })
            })
            .collect();
        for t in tasks {
            t.await.map_err(|e| e.to_string())??;
        }
    }
    Ok(())
}

/// Start the flood against `base` until `end`: `addrs` addresses, `rate` log-ins per second each,
/// over the `accounts` accounts of [`sign_up`]. Await the handles, then read the answers.
pub fn start(
    base: &str,
    addrs: usize,
    rate: f64,
    accounts: usize,
    end: Instant,
) -> (Vec<tokio::task::JoinHandle<()>>, Arc<Answers>) {
    let answers = Arc::new(Answers::default());
    let every = Duration::from_secs_f64(1.0 / rate);
    let tasks = (0..addrs)
        .map(|a| {
            let http = reqwest::Client::builder()
                .local_address(address(1, a))
                .pool_idle_timeout(Duration::from_secs(5))
                .build()
                .unwrap();
            let url = format!("{base}/api/login");
            let answers = answers.clone();
            tokio::spawn(async move {
                let mut rng = Rng::stream(FLOOD_SEED, a as u64);
                // Spread the addresses' first log-ins over one interval.
                let mut next = Instant::now()
                    + Duration::from_micros(rng.below(every.as_micros().max(1) as u64));
                let mut inflight = tokio::task::JoinSet::new();
                while next < end {
                    tokio::time::sleep_until(next).await;
                    let i = rng.below(accounts.max(1) as u64) as usize;
                    let (username, password) = account(i);
                    let body = match rng.below(3) {
                        0 => json!({"username": username, "password": password}),
                        1 => json!({"username": username, "password": "not-the-password"}),
                        _ => json!({"username": format!("nobody{a}x{}", rng.below(1 << 30)),
                                    "password": "a-guessed-password"}),
                    };
                    let (http, url, answers) = (http.clone(), url.clone(), answers.clone());
                    // Open loop: the next log-in does not wait for this one's answer.
                    inflight.spawn(async move {
                        let status = http
                            .post(url)
                            .json(&body)
                            .send()
                            .await
                            .ok()
                            .map(|r| r.status().as_u16());
                        answers.count(status);
                    });
                    while inflight.try_join_next().is_some() {}
                    next += every;
                }
                while inflight.join_next().await.is_some() {}
            })
        })
        .collect();
    (tasks, answers)
}

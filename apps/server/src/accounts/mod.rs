//! Accounts (docs/api.md, "Accounts"): sign-up and log-in with a username and a password, log-in
//! sessions, log-out and change of password. Guests need none of this: seat tokens work as before.
//!
//! - Passwords are hashed with Argon2id (the `argon2` crate's defaults, OWASP's recommended
//!   parameters: 19 MiB, 2 passes, 1 lane) with a random 16-byte salt from the system's source,
//!   each hashing thread reusing its own memory ([`argon`]); the store keeps the PHC string,
//!   never the password. Hashing runs in a bounded pool
//!   ([`hashing::HashPool`]: [`Config::password_workers`] at once, a short queue, `503
//!   password_busy` beyond it), so that a flood of log-ins cannot take the server's memory.
//! - A session is a random 32-byte token (hex) that the browser keeps in a cookie; the store
//!   keeps only its SHA-256 and its expiry ([`crate::config::Config::session_ttl_ms`]).
//! - Log-in is rate-limited per client address, and per username from each network (an IPv4
//!   /24, an IPv6 [`Config::signup_net_v6_prefix`] network) under a higher ceiling per username
//!   from all networks together ([`Accounts`]): a stranger's failures throttle the stranger's
//!   network, not the owner logging in from elsewhere, while guessing from many networks stays
//!   limited. An address that logged in to (or created) an account before is exempt from that
//!   account's per-username limits (not from its own per-address one): strangers' failures
//!   cannot lock the owner out of a place it logged in from, even from many networks. Sign-ups are also limited per address per hour
//!   ([`Config::signup_per_hour_per_ip`]), and each account keeps a hash of the network it
//!   signed up from ([`network`]), which the leaderboard counts. An unknown
//!   username and a wrong password get the same `401 bad_credentials` after the same work: an
//!   unknown name is checked against a dummy hash made with the same parameters.
//! - No password or token is ever written to the log: none of the types holding one implements
//!   `Debug`, and nothing here logs a request's values.

pub mod argon;
pub mod hashing;
pub mod network;

use crate::blocking;
use crate::config::Config;
use crate::error::{Detail, Error, ErrorKind};
use crate::games::live::now_ms;
use crate::limit::RateLimiter;
use crate::store::{AccountStore, SessionRecord, Store, StoreError, UserRecord};
use crate::token::{random_hex, token_hash};
use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Shortest username, in characters.
pub const USERNAME_MIN: usize = 3;
/// Longest username, in characters.
pub const USERNAME_MAX: usize = 20;
/// Shortest password, in characters (NIST SP 800-63B's minimum for a chosen password).
pub const PASSWORD_MIN: usize = 8;
/// Longest password, in characters.
pub const PASSWORD_MAX: usize = 256;

/// Most (username, address) pairs remembered as having logged in ([`Accounts`]); beyond it an
/// arbitrary one is forgotten for each new one.
pub const KNOWN_PLACES_MAX: usize = 100_000;

/// The accounts feature: the store's accounts and sessions, the log-in rate limits, the places
/// that logged in before, the password-hashing pool and a count of password checks. Sign-up,
/// log-in, log-out, change of password and the session of a request are its methods.
pub struct Accounts {
    store: Arc<dyn Store>,
    session_ttl_ms: u64,
    by_ip: RateLimiter,
    /// Attempts per (username key, client network): [`Config::login_per_min_per_user`].
    by_user: RateLimiter<(String, Option<IpAddr>)>,
    /// Attempts per username key from every network: [`Config::login_per_min_per_user_total`].
    by_user_total: RateLimiter<String>,
    signups: RateLimiter,
    /// [`Config::signup_net_v6_prefix`]: the sign-up network's IPv6 prefix length, under which
    /// [`Accounts::signups`] counts too.
    v6_prefix: u8,
    /// (username key, address) pairs that logged in (or signed up): exempt from the
    /// per-username buckets of that username. In memory, per instance, at most
    /// [`KNOWN_PLACES_MAX`].
    known: Mutex<HashSet<(String, IpAddr)>>,
    pool: hashing::HashPool,
    checks: Arc<AtomicU64>,
}

impl Accounts {
    /// The accounts of `store`, with the limits of `config` ([`Config::login_per_min_per_ip`],
    /// [`Config::login_per_min_per_user`], [`Config::login_per_min_per_user_total`],
    /// [`Config::signup_per_hour_per_ip`],
    /// [`Config::password_workers`], [`Config::password_queue`]) and its
    /// [`Config::session_ttl_ms`].
    pub fn new(config: &Config, store: Arc<dyn Store>) -> Accounts {
        // Make the dummy hash now, in the background, so that the first log-in with an unknown
        // username does not take longer than one with a known one.
        let _ = std::thread::Builder::new()
            .name("crown-dummy-hash".into())
            .spawn(|| {
                dummy_hash();
            });
        let (ip, user, total) = (
            config.login_per_min_per_ip,
            config.login_per_min_per_user,
            config.login_per_min_per_user_total,
        );
        Accounts {
            store,
            session_ttl_ms: config.session_ttl_ms,
            by_ip: RateLimiter::keyed(f64::from(ip) / 60.0, ip),
            by_user: RateLimiter::keyed(f64::from(user) / 60.0, user),
            by_user_total: RateLimiter::keyed(f64::from(total) / 60.0, total),
            signups: RateLimiter::keyed(
                f64::from(config.signup_per_hour_per_ip) / 3600.0,
                config.signup_per_hour_per_ip,
            ),
            v6_prefix: config.signup_net_v6_prefix,
            known: Mutex::new(HashSet::new()),
            pool: hashing::HashPool::new(config.password_workers, config.password_queue),
            checks: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Passwords checked against a stored or dummy hash since the server started (each log-in
    /// and change of password checks one, whether or not the username exists).
    pub fn password_checks(&self) -> u64 {
        self.checks.load(Ordering::SeqCst)
    }

    /// The most password hashes and checks that ever ran at once (at most
    /// [`Config::password_workers`]).
    pub fn password_hashing_peak(&self) -> usize {
        self.pool.peak()
    }
}

/// `login_rate_limited` (429): wait `secs` seconds.
fn limited(secs: u64) -> Error {
    metrics::counter!(crate::telemetry::LOGIN_THROTTLED).increment(1);
    Error::limited(
        "login_rate_limited",
        format!("too many log-in attempts; retry in {secs} s"),
    )
    .with(Detail::RetryAfterMs(secs * 1000))
}

/// `signup_rate_limited` (429): wait `secs` seconds.
fn signup_limited(secs: u64) -> Error {
    Error::limited(
        "signup_rate_limited",
        format!("too many accounts created from this address; retry in {secs} s"),
    )
    .with(Detail::RetryAfterMs(secs * 1000))
}

/// The one answer to an unknown username and a wrong password.
fn bad_credentials() -> Error {
    Error::new(
        ErrorKind::Unauthenticated,
        "bad_credentials",
        "wrong username or password",
    )
}

/// `not_logged_in` (401).
pub fn not_logged_in() -> Error {
    Error::new(
        ErrorKind::Unauthenticated,
        "not_logged_in",
        "this needs a log-in session (POST /api/login)",
    )
}

/// `login_required` (401): a rated game's seat needs a log-in session.
pub fn login_required() -> Error {
    Error::new(
        ErrorKind::Unauthenticated,
        "login_required",
        "a rated game's seat needs a log-in session (POST /api/login)",
    )
}

/// The key a username is unique under: its lower case.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// Check a username for sign-up: [`USERNAME_MIN`] to [`USERNAME_MAX`] characters, ASCII letters,
/// digits, `_` and `-`, starting with a letter or a digit.
///
/// # Errors
/// `bad_username` (400) saying which rule it breaks.
pub fn check_username(name: &str) -> Result<(), Error> {
    let n = name.chars().count();
    if !(USERNAME_MIN..=USERNAME_MAX).contains(&n) {
        return Err(Error::invalid(
            "bad_username",
            format!(
                "a username has {USERNAME_MIN} to {USERNAME_MAX} characters (this one has {n})"
            ),
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(Error::invalid(
            "bad_username",
            "a username has only the letters a-z and A-Z, the digits 0-9, '_' and '-'",
        ));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(Error::invalid(
            "bad_username",
            "a username starts with a letter or a digit",
        ));
    }
    Ok(())
}

/// Check a new password: [`PASSWORD_MIN`] to [`PASSWORD_MAX`] characters.
///
/// # Errors
/// `bad_password` (400); the message never repeats the password.
pub fn check_password(password: &str) -> Result<(), Error> {
    let n = password.chars().count();
    if !(PASSWORD_MIN..=PASSWORD_MAX).contains(&n) {
        return Err(Error::invalid(
            "bad_password",
            format!("a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"),
        ));
    }
    Ok(())
}

/// The Argon2id PHC string of `password`, with a random salt from the system's source
/// ([`argon::hash`]: on the hashing thread's kept memory).
fn hash(password: &str) -> Result<String, Error> {
    argon::hash(password.as_bytes()).map_err(|e| {
        Error::new(
            ErrorKind::Internal,
            "no_randomness",
            format!("the password could not be hashed: {e}"),
        )
    })
}

/// A hash of a password nobody knows, made once with the same parameters as every stored hash:
/// what an unknown username's password is checked against.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        // Any fixed salt will do: nobody logs in with this hash.
        argon::hash_with_salt(b"no account has this password", b"crown-dummy-salt")
            .unwrap_or_default()
    })
}

/// Whether `password` matches the PHC string `phc` (an unreadable one matches nothing).
fn verify(password: &str, phc: &str) -> bool {
    argon::verify(password.as_bytes(), phc)
}

impl Accounts {
    /// The account of the request's session cookie, if it carries a valid one; `None` for a guest
    /// (no cookie, an unknown or expired session, or a server without accounts).
    ///
    /// # Errors
    /// `storage`.
    pub async fn seat_account(
        &self,
        token: Option<String>,
    ) -> Result<Option<crate::store::SeatAccount>, Error> {
        let Some(token) = token else { return Ok(None) };
        match self.session_user(&token).await {
            Ok(Some(u)) => Ok(Some(crate::store::SeatAccount {
                bot: self.is_bot(&u.id).await?,
                user_id: u.id,
                name: u.name,
            })),
            Ok(None) => Ok(None),
            Err(e) if e.code == "accounts_unavailable" => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Whether account `user_id` is a bot (docs/api.md, "Bot accounts"); `false` on a store
    /// that keeps no bots.
    ///
    /// # Errors
    /// `storage`.
    pub async fn is_bot(&self, user_id: &str) -> Result<bool, Error> {
        let (store, ids) = (self.store.clone(), vec![user_id.to_string()]);
        let bots = blocking::store(move || {
            store
                .tokens()
                .map_or(Ok(Vec::new()), |t| t.bots_among(&ids))
        })
        .await?;
        Ok(!bots.is_empty())
    }

    /// The network of a client at `ip` (an IPv4 /24, an IPv6 [`Config::signup_net_v6_prefix`]
    /// network, as its address): what it waits under in the hashing pool's fair queue, and what
    /// the per-username log-in limit counts it by.
    fn net_block(&self, ip: Option<IpAddr>) -> Option<IpAddr> {
        ip.map(|ip| network::network_block(ip, self.v6_prefix))
    }

    /// [`verify`] for a client at `ip` in the hashing pool, counted in
    /// [`Accounts::password_checks`].
    async fn check(&self, ip: Option<IpAddr>, password: &str, phc: String) -> Result<bool, Error> {
        let (pw, checks) = (password.to_string(), self.checks.clone());
        self.pool
            .run(self.net_block(ip), move || {
                let ok = verify(&pw, &phc);
                checks.fetch_add(1, Ordering::SeqCst);
                ok
            })
            .await
    }

    /// [`hash`] for a client at `ip` in the hashing pool.
    async fn hash(&self, ip: Option<IpAddr>, password: &str) -> Result<String, Error> {
        let pw = password.to_string();
        self.pool.run(self.net_block(ip), move || hash(&pw)).await?
    }

    /// Run `f` on the store's accounts on a blocking thread.
    ///
    /// # Errors
    /// `accounts_unavailable` (503) for a store without accounts; `storage` when it fails.
    async fn with_store<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn AccountStore) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Error> {
        let store = self.store.clone();
        blocking::store_part(move || store.accounts().map(f)).await
    }

    /// Take one log-in attempt from the bucket of `ip`, and from the buckets of the username
    /// `name`: its bucket for `ip`'s network, then its bucket for every network together (a
    /// network refused by its own takes nothing from the one of all). An address that logged in
    /// as `name` before takes nothing from the username's buckets.
    fn take_attempt(&self, ip: Option<IpAddr>, name: Option<&str>) -> Result<(), Error> {
        self.by_ip.check(ip).map_err(limited)?;
        if let Some(name) = name {
            // A username too long to be valid still counts, under a bounded key.
            let key: String = name_key(name).chars().take(USERNAME_MAX + 1).collect();
            if !self.is_known(&key, ip) {
                self.by_user
                    .check((key.clone(), self.net_block(ip)))
                    .map_err(limited)?;
                self.by_user_total.check(key).map_err(limited)?;
            }
        }
        Ok(())
    }

    /// Whether `ip` logged in as the username of key `key` before.
    fn is_known(&self, key: &str, ip: Option<IpAddr>) -> bool {
        let Some(ip) = ip else { return false };
        self.known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&(key.to_string(), ip))
    }

    /// Remember that `ip` logged in as `user`.
    fn remember(&self, user: &UserRecord, ip: Option<IpAddr>) {
        let Some(ip) = ip else { return };
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= KNOWN_PLACES_MAX {
            if let Some(any) = known.iter().next().cloned() {
                known.remove(&any);
            }
        }
        known.insert((user.name_key.clone(), ip));
    }

    /// A new session for `user`: stored (hashed) and returned as the token for the cookie.
    async fn open_session(&self, user: &UserRecord) -> Result<String, Error> {
        let token = random_hex(32)?;
        let now = now_ms();
        let s = SessionRecord {
            token_hash: token_hash(&token),
            user_id: user.id.clone(),
            created_ms: now,
            expires_ms: now.saturating_add(self.session_ttl_ms),
        };
        self.with_store(move |st| st.create_session(&s)).await?;
        Ok(token)
    }

    /// Create the account `name` with `password` and open a session for it; returns the account
    /// and the session token. Sign-ups count against the per-address log-in limit and the
    /// per-address sign-up limit (taken by a valid request, whether or not the name is free).
    ///
    /// # Errors
    /// `login_rate_limited`, `signup_rate_limited` (429), `bad_username`, `bad_password` (400),
    /// `username_taken` (409, the name in any case), `password_busy`, `accounts_unavailable`
    /// (503), `storage`.
    pub async fn sign_up(
        &self,
        ip: Option<IpAddr>,
        name: &str,
        password: &str,
    ) -> Result<(UserRecord, String), Error> {
        self.take_attempt(ip, None)?;
        check_username(name)?;
        check_password(password)?;
        // Counted per sign-up network (an IPv4 client by its /24, an IPv6 client by its /48, not
        // its /64: one line's /64s are one client's), as the leaderboard and the rating rules
        // see it.
        let net = ip.map(|ip| network::network_block(ip, self.v6_prefix));
        self.signups.check(net).map_err(signup_limited)?;
        let password_hash = self.hash(ip, password).await?;
        let user = UserRecord {
            id: random_hex(8)?,
            name: name.to_string(),
            name_key: name_key(name),
            password_hash,
            created_ms: now_ms(),
            signup_net: network::signup_network(ip, self.v6_prefix),
        };
        let u = user.clone();
        if !self.with_store(move |st| st.create_user(&u)).await? {
            return Err(Error::conflict(
                "username_taken",
                format!("the username '{name}' is taken (usernames ignore case)"),
            ));
        }
        tracing::info!(user = %user.id, "account created");
        self.remember(&user, ip);
        let token = self.open_session(&user).await?;
        Ok((user, token))
    }

    /// Log in as `name` with `password`; returns the account and a new session token.
    ///
    /// # Errors
    /// `login_rate_limited` (429, per address and per username), `bad_credentials` (401, the same
    /// for an unknown username and a wrong password), `password_busy`, `accounts_unavailable`
    /// (503), `storage`.
    pub async fn log_in(
        &self,
        ip: Option<IpAddr>,
        name: &str,
        password: &str,
    ) -> Result<(UserRecord, String), Error> {
        self.take_attempt(ip, Some(name))?;
        let key = name_key(name);
        let user = self.with_store(move |st| st.user_by_name(&key)).await?;
        let phc = user
            .as_ref()
            .map_or_else(|| dummy_hash().to_string(), |u| u.password_hash.clone());
        let ok = self.check(ip, password, phc).await?;
        match user {
            Some(user) if ok => {
                self.remember(&user, ip);
                let token = self.open_session(&user).await?;
                Ok((user, token))
            }
            _ => Err(bad_credentials()),
        }
    }

    /// The account of session `token`, if it is a live session.
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    pub async fn session_user(&self, token: &str) -> Result<Option<UserRecord>, Error> {
        let h = token_hash(token);
        let now = now_ms();
        self.with_store(move |st| st.session_user(&h, now)).await
    }

    /// End session `token` (nothing if it is not a session).
    ///
    /// # Errors
    /// `accounts_unavailable`, `storage`.
    pub async fn log_out(&self, token: &str) -> Result<(), Error> {
        let h = token_hash(token);
        self.with_store(move |st| st.delete_session(&h)).await
    }

    /// Change the password of the account of session `token` from `old` to `new`, ending every
    /// other session of the account (this one stays open). Counts against the log-in limits as
    /// a log-in does (an address that logged in before is exempt from the username's).
    ///
    /// # Errors
    /// `not_logged_in` (401), `login_rate_limited` (429), `wrong_password` (400: `old` is not the
    /// password), `bad_password` (400), `password_busy`, `accounts_unavailable` (503), `storage`.
    pub async fn change_password(
        &self,
        ip: Option<IpAddr>,
        token: &str,
        old: &str,
        new: &str,
    ) -> Result<UserRecord, Error> {
        let user = self.session_user(token).await?.ok_or_else(not_logged_in)?;
        self.take_attempt(ip, Some(&user.name))?;
        check_password(new)?;
        if !self.check(ip, old, user.password_hash.clone()).await? {
            return Err(Error::invalid(
                "wrong_password",
                "the current password is not right",
            ));
        }
        let new_hash = self.hash(ip, new).await?;
        let (id, h, keep) = (user.id.clone(), new_hash.clone(), token_hash(token));
        self.with_store(move |st| st.set_password(&id, &h, &keep))
            .await?;
        tracing::info!(user = %user.id, "password changed");
        Ok(UserRecord {
            password_hash: new_hash,
            ..user
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn username_rules() {
        for ok in ["abc", "Alice_99", "a-b", "0pawn", "abcdefghijklmnopqrst"] {
            assert!(check_username(ok).is_ok(), "{ok}");
        }
        for bad in [
            "ab",
            "abcdefghijklmnopqrstu",
            "al ice",
            "_alice",
            "-bob",
            "élise",
            "bob!",
            "",
        ] {
            assert_eq!(
                check_username(bad).unwrap_err().code,
                "bad_username",
                "{bad}"
            );
        }
    }

    #[test]
    fn password_rules_count_characters() {
        assert!(check_password("12345678").is_ok());
        assert!(check_password("1234567").is_err());
        // Eight characters, sixteen bytes.
        assert!(check_password("éééééééé").is_ok());
        assert!(check_password(&"x".repeat(PASSWORD_MAX + 1)).is_err());
    }

    #[test]
    fn hashes_are_salted_phc_strings_that_verify() {
        let a = hash("correct horse").unwrap();
        let b = hash("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "two hashes of one password share a salt");
        assert!(verify("correct horse", &a) && verify("correct horse", &b));
        assert!(!verify("correct horsf", &a));
        assert!(!verify("anything", "not a PHC string"));
        assert!(dummy_hash().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
    }
}

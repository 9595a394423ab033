//! Accounts in the store ([`AccountStore`]): the `users` and `sessions` tables (store/schema.rs),
//! kept by SQLite and PostgreSQL alike. A user row holds the password's Argon2id PHC string, never
//! the password; a session row holds the SHA-256 of the session token, never the token.

use super::StoreError;

/// Log-in sessions one account keeps at most: [`AccountStore::create_session`] drops the oldest
/// beyond them, so that logging in without end cannot grow the `sessions` table without end
/// (issue 41, m8).
pub const MAX_SESSIONS_PER_ACCOUNT: usize = 20;

/// The statement (parameter `{user}`) that drops account `{user}`'s sessions beyond its newest
/// [`MAX_SESSIONS_PER_ACCOUNT`] (by creation, then token hash), run by
/// [`AccountStore::create_session`] after its insert, in its transaction.
pub fn drop_old_sessions_sql(user: &str) -> String {
    format!(
        "DELETE FROM sessions WHERE user_id = {user} AND token_hash NOT IN
         (SELECT token_hash FROM sessions WHERE user_id = {user}
          ORDER BY created_ms DESC, token_hash DESC LIMIT {MAX_SESSIONS_PER_ACCOUNT})"
    )
}

/// A stored account.
#[derive(Clone, PartialEq, Eq)]
pub struct UserRecord {
    /// Random id (hex), fixed for the account's life.
    pub id: String,
    /// The username as the user spelled it at sign-up.
    pub name: String,
    /// The username in lower case: unique, so that `Alice` and `alice` are one name.
    pub name_key: String,
    /// The password's Argon2id hash as a PHC string (`$argon2id$v=19$...`).
    pub password_hash: String,
    /// When the account was created, ms since the Unix epoch.
    pub created_ms: u64,
    /// The hash of the network the account signed up from
    /// ([`crate::accounts::network::signup_network`]); `None` when none was recorded (no
    /// outside address, or an account older than the record): a network of its own.
    pub signup_net: Option<String>,
}

impl std::fmt::Debug for UserRecord {
    /// The id, name and creation time: never the password hash nor the sign-up network.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserRecord")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("created_ms", &self.created_ms)
            .finish_non_exhaustive()
    }
}

/// A stored log-in session.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionRecord {
    /// SHA-256 (hex) of the session token the browser holds in its cookie.
    pub token_hash: String,
    /// The account logged in.
    pub user_id: String,
    /// When the session was opened, ms since the Unix epoch.
    pub created_ms: u64,
    /// From this instant (ms since the Unix epoch) the session is no longer valid.
    pub expires_ms: u64,
}

/// Storage of accounts and sessions. Each call is atomic and durable before it returns.
pub trait AccountStore: Send + Sync {
    /// Insert a new account unless its `name_key` is taken; returns whether it was inserted.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like.
    fn create_user(&self, user: &UserRecord) -> Result<bool, StoreError>;

    /// The account whose `name_key` is `name_key`, if any.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like.
    fn user_by_name(&self, name_key: &str) -> Result<Option<UserRecord>, StoreError>;

    /// Store session `s`, delete every session expired at `s.created_ms`, and drop the account's
    /// oldest sessions beyond [`MAX_SESSIONS_PER_ACCOUNT`] ([`drop_old_sessions_sql`]), in one
    /// transaction.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like.
    fn create_session(&self, s: &SessionRecord) -> Result<(), StoreError>;

    /// The account of the session whose token hashes to `token_hash`, if it exists and has not
    /// expired at `now_ms`.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like.
    fn session_user(&self, token_hash: &str, now_ms: u64)
        -> Result<Option<UserRecord>, StoreError>;

    /// Delete the session whose token hashes to `token_hash` (nothing if there is none).
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like.
    fn delete_session(&self, token_hash: &str) -> Result<(), StoreError>;

    /// Set the password hash of account `user_id` to `password_hash` and delete every session
    /// of that account but `keep_token_hash`, in one transaction.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] if there is no such account; [`StoreError::Database`],
    /// [`StoreError::Postgres`] and the like.
    fn set_password(
        &self,
        user_id: &str,
        password_hash: &str,
        keep_token_hash: &str,
    ) -> Result<(), StoreError>;
}

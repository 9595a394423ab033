//! Accounts and log-in sessions in SQLite ([`AccountStore`] for [`SqliteStore`]).

use super::SqliteStore;
use crate::store::{AccountStore, SessionRecord, StoreError, UserRecord};
use rusqlite::{params, OptionalExtension};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The columns of `users` read into a [`UserRecord`], in its field order.
const USER_COLUMNS: &str = "id, name, name_key, password_hash, created_ms, signup_net";

/// The [`UserRecord`] in the columns of `r` ([`USER_COLUMNS`]).
fn user_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<UserRecord> {
    Ok(UserRecord {
        id: r.get(0)?,
        name: r.get(1)?,
        name_key: r.get(2)?,
        password_hash: r.get(3)?,
        created_ms: r.get::<_, i64>(4)? as u64,
        signup_net: r.get(5)?,
    })
}

impl AccountStore for SqliteStore {
    fn create_user(&self, user: &UserRecord) -> Result<bool, StoreError> {
        let u = user.clone();
        let inserted = Arc::new(AtomicU64::new(0));
        let i2 = inserted.clone();
        self.write(move |c| {
            let n = c.execute(
                &format!(
                    "INSERT INTO users ({USER_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                     ON CONFLICT(name_key) DO NOTHING"
                ),
                params![
                    u.id,
                    u.name,
                    u.name_key,
                    u.password_hash,
                    u.created_ms as i64,
                    u.signup_net
                ],
            )?;
            i2.store(n as u64, Ordering::SeqCst);
            Ok(())
        })?;
        Ok(inserted.load(Ordering::SeqCst) == 1)
    }

    fn user_by_name(&self, name_key: &str) -> Result<Option<UserRecord>, StoreError> {
        let key = name_key.to_string();
        self.read(move |c| {
            Ok(c.query_row(
                &format!("SELECT {USER_COLUMNS} FROM users WHERE name_key = ?1"),
                params![key],
                user_row,
            )
            .optional()?)
        })
    }

    fn create_session(&self, s: &SessionRecord) -> Result<(), StoreError> {
        let s = s.clone();
        self.write(move |c| {
            c.execute(
                "DELETE FROM sessions WHERE expires_ms <= ?1",
                params![s.created_ms as i64],
            )?;
            c.execute(
                "INSERT INTO sessions (token_hash, user_id, created_ms, expires_ms)
                 VALUES (?1, ?2, ?3, ?4)",
                params![
                    s.token_hash,
                    s.user_id,
                    s.created_ms as i64,
                    s.expires_ms as i64
                ],
            )?;
            c.execute(
                &crate::store::accounts::drop_old_sessions_sql("?1"),
                params![s.user_id],
            )?;
            Ok(())
        })
    }

    fn session_user(
        &self,
        token_hash: &str,
        now_ms: u64,
    ) -> Result<Option<UserRecord>, StoreError> {
        let h = token_hash.to_string();
        self.read(move |c| {
            Ok(c.query_row(
                "SELECT u.id, u.name, u.name_key, u.password_hash, u.created_ms, u.signup_net
                 FROM sessions s JOIN users u ON u.id = s.user_id
                 WHERE s.token_hash = ?1 AND s.expires_ms > ?2",
                params![h, now_ms as i64],
                user_row,
            )
            .optional()?)
        })
    }

    fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        let h = token_hash.to_string();
        self.write(move |c| {
            c.execute("DELETE FROM sessions WHERE token_hash = ?1", params![h])?;
            Ok(())
        })
    }

    fn set_password(
        &self,
        user_id: &str,
        password_hash: &str,
        keep_token_hash: &str,
    ) -> Result<(), StoreError> {
        let (id, ph, keep) = (
            user_id.to_string(),
            password_hash.to_string(),
            keep_token_hash.to_string(),
        );
        self.write(move |c| {
            let n = c.execute(
                "UPDATE users SET password_hash = ?2 WHERE id = ?1",
                params![id, ph],
            )?;
            if n != 1 {
                return Err(StoreError::NotFound(id));
            }
            c.execute(
                "DELETE FROM sessions WHERE user_id = ?1 AND token_hash != ?2",
                params![id, keep],
            )?;
            Ok(())
        })
    }
}

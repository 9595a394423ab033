//! Accounts and log-in sessions in PostgreSQL ([`AccountStore`] for [`PgStore`]): the `users`
//! and `sessions` tables of the schema shared with SQLite (store/schema.rs), each call on a
//! pooled connection, in one statement or one transaction.

use super::{db, PgStore};
use crate::store::{AccountStore, SessionRecord, StoreError, UserRecord};

/// The columns of `users` read into a [`UserRecord`], in its field order.
const USER_COLUMNS: &str = "id, name, name_key, password_hash, created_ms, signup_net";

/// The [`UserRecord`] of a row of [`USER_COLUMNS`].
fn user_row(r: &postgres::Row) -> UserRecord {
    UserRecord {
        id: r.get(0),
        name: r.get(1),
        name_key: r.get(2),
        password_hash: r.get(3),
        created_ms: r.get::<_, i64>(4) as u64,
        signup_net: r.get(5),
    }
}

impl AccountStore for PgStore {
    fn create_user(&self, u: &UserRecord) -> Result<bool, StoreError> {
        self.with(|c| {
            let n = c
                .execute(
                    &format!(
                        "INSERT INTO users ({USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
                         ON CONFLICT (name_key) DO NOTHING"
                    ),
                    &[
                        &u.id,
                        &u.name,
                        &u.name_key,
                        &u.password_hash,
                        &(u.created_ms as i64),
                        &u.signup_net,
                    ],
                )
                .map_err(db)?;
            Ok(n == 1)
        })
    }

    fn user_by_name(&self, name_key: &str) -> Result<Option<UserRecord>, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    &format!("SELECT {USER_COLUMNS} FROM users WHERE name_key = $1"),
                    &[&name_key],
                )
                .map_err(db)?;
            Ok(row.as_ref().map(user_row))
        })
    }

    fn create_session(&self, s: &SessionRecord) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(db)?;
            tx.execute(
                "DELETE FROM sessions WHERE expires_ms <= $1",
                &[&(s.created_ms as i64)],
            )
            .map_err(db)?;
            tx.execute(
                "INSERT INTO sessions (token_hash, user_id, created_ms, expires_ms)
                 VALUES ($1, $2, $3, $4)",
                &[
                    &s.token_hash,
                    &s.user_id,
                    &(s.created_ms as i64),
                    &(s.expires_ms as i64),
                ],
            )
            .map_err(db)?;
            tx.execute(
                &crate::store::accounts::drop_old_sessions_sql("$1"),
                &[&s.user_id],
            )
            .map_err(db)?;
            tx.commit().map_err(db)
        })
    }

    fn session_user(
        &self,
        token_hash: &str,
        now_ms: u64,
    ) -> Result<Option<UserRecord>, StoreError> {
        self.with(|c| {
            let row = c
                .query_opt(
                    "SELECT u.id, u.name, u.name_key, u.password_hash, u.created_ms, u.signup_net
                     FROM sessions s JOIN users u ON u.id = s.user_id
                     WHERE s.token_hash = $1 AND s.expires_ms > $2",
                    &[&token_hash, &(now_ms as i64)],
                )
                .map_err(db)?;
            Ok(row.as_ref().map(user_row))
        })
    }

    fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash])
                .map_err(db)?;
            Ok(())
        })
    }

    fn set_password(
        &self,
        user_id: &str,
        password_hash: &str,
        keep_token_hash: &str,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(db)?;
            let n = tx
                .execute(
                    "UPDATE users SET password_hash = $2 WHERE id = $1",
                    &[&user_id, &password_hash],
                )
                .map_err(db)?;
            if n != 1 {
                return Err(StoreError::NotFound(user_id.to_string()));
            }
            tx.execute(
                "DELETE FROM sessions WHERE user_id = $1 AND token_hash != $2",
                &[&user_id, &keep_token_hash],
            )
            .map_err(db)?;
            tx.commit().map_err(db)
        })
    }
}

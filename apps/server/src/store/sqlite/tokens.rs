//! API tokens and bot accounts in SQLite (store/tokens.rs): the `api_tokens` and `bots` tables,
//! each check-then-write run by the one writer thread, so it is atomic.

use super::SqliteStore;
use crate::store::schema::SQLITE_META_JSON;
use crate::store::tokens::{
    games_of_query, has_games_query, join_scopes, split_scopes, COLUMNS, OWNER_QUERY,
};
use crate::store::{BotUpgrade, StoreError, TokenOwner, TokenRecord, TokenStore};
use rusqlite::{params, OptionalExtension, Row};

/// A row of `api_tokens` read in [`COLUMNS`]' order.
fn of_row(r: &Row<'_>) -> rusqlite::Result<TokenRecord> {
    Ok(TokenRecord {
        id: r.get(0)?,
        token_hash: r.get(1)?,
        user_id: r.get(2)?,
        description: r.get(3)?,
        scopes: split_scopes(&r.get::<_, String>(4)?),
        created_ms: r.get::<_, i64>(5)? as u64,
    })
}

/// `q` with PostgreSQL's numbered parameters `$1`, `$2` written as SQLite's `?1`, `?2` (a bare
/// `$` stays: the JSON paths' `$.accounts…`).
fn numbered(q: &str) -> String {
    q.replace("$1", "?1").replace("$2", "?2")
}

/// Run `op` on the writer thread and return its value.
fn write_value<T: Send + 'static>(
    s: &SqliteStore,
    op: impl FnOnce(&rusqlite::Connection) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let (tx, rx) = std::sync::mpsc::channel();
    s.write(move |c| {
        let v = op(c)?;
        let _ = tx.send(v);
        Ok(())
    })?;
    rx.try_recv().map_err(|_| StoreError::Closed)
}

impl TokenStore for SqliteStore {
    fn create_token(&self, rec: &TokenRecord, max: usize) -> Result<bool, StoreError> {
        let r = rec.clone();
        write_value(self, move |c| {
            let n: i64 = c.query_row(
                "SELECT COUNT(*) FROM api_tokens WHERE user_id = ?1",
                params![r.user_id],
                |row| row.get(0),
            )?;
            if n as usize >= max {
                return Ok(false);
            }
            c.execute(
                &format!("INSERT INTO api_tokens ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"),
                params![
                    r.id,
                    r.token_hash,
                    r.user_id,
                    r.description,
                    join_scopes(&r.scopes),
                    r.created_ms as i64
                ],
            )?;
            Ok(true)
        })
    }

    fn tokens_of(&self, user_id: &str) -> Result<Vec<TokenRecord>, StoreError> {
        let user = user_id.to_string();
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM api_tokens WHERE user_id = ?1 ORDER BY created_ms, id"
            ))?;
            let rows = stmt
                .query_map(params![user], of_row)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn delete_token(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        let (user, id) = (user_id.to_string(), id.to_string());
        write_value(self, move |c| {
            let n = c.execute(
                "DELETE FROM api_tokens WHERE user_id = ?1 AND id = ?2",
                params![user, id],
            )?;
            Ok(n == 1)
        })
    }

    fn token(&self, token_hash: &str) -> Result<Option<TokenOwner>, StoreError> {
        let h = token_hash.to_string();
        self.read(move |c| {
            Ok(c.query_row(&numbered(OWNER_QUERY), params![h], |r| {
                Ok(TokenOwner {
                    token: of_row(r)?,
                    name: r.get(6)?,
                    bot: r.get::<_, i64>(7)? != 0,
                })
            })
            .optional()?)
        })
    }

    fn make_bot(&self, user_id: &str, now_ms: u64) -> Result<BotUpgrade, StoreError> {
        let user = user_id.to_string();
        write_value(self, move |c| {
            let bot: Option<i64> = c
                .query_row(
                    "SELECT 1 FROM bots WHERE user_id = ?1",
                    params![user],
                    |r| r.get(0),
                )
                .optional()?;
            if bot.is_some() {
                return Ok(BotUpgrade::AlreadyBot);
            }
            let [_, _, black, white] = SQLITE_META_JSON;
            let played: i64 = c.query_row(
                &numbered(&has_games_query(black, white)),
                params![user],
                |r| r.get(0),
            )?;
            if played != 0 {
                return Ok(BotUpgrade::HasGames);
            }
            c.execute(
                "INSERT INTO bots (user_id, created_ms) VALUES (?1, ?2)",
                params![user, now_ms as i64],
            )?;
            Ok(BotUpgrade::Upgraded)
        })
    }

    fn bots_among(&self, user_ids: &[String]) -> Result<Vec<String>, StoreError> {
        let ids = user_ids.to_vec();
        self.read(move |c| {
            let mut stmt = c.prepare_cached("SELECT 1 FROM bots WHERE user_id = ?1")?;
            let mut bots = Vec::new();
            for id in ids {
                if stmt.exists(params![id])? {
                    bots.push(id);
                }
            }
            Ok(bots)
        })
    }

    fn games_of(&self, user_id: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let user = user_id.to_string();
        self.read(move |c| {
            let [_, _, black, white] = SQLITE_META_JSON;
            let mut stmt = c.prepare_cached(&numbered(&games_of_query(black, white)))?;
            let rows = stmt
                .query_map(params![user, limit as i64], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(rows)
        })
    }
}

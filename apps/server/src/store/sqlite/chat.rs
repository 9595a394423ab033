//! Chat messages in SQLite (docs/api.md, chat): the `chat` table beside the games, each message
//! numbered per game by the one writer thread.

use super::SqliteStore;
use crate::store::{ChatRecord, ChatStore, Side, StoreError};
use rusqlite::params;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Store `msg` of `game_id` with the next number of that game's chat; returns the number.
pub(super) fn add(store: &SqliteStore, game_id: &str, msg: &ChatRecord) -> Result<u64, StoreError> {
    let (id, msg) = (game_id.to_string(), msg.clone());
    let n = Arc::new(AtomicU64::new(0));
    let n2 = n.clone();
    // One writer thread: the next number cannot be taken twice.
    store.write(move |c| {
        let next: i64 = c.query_row(
            "SELECT COALESCE(MAX(n), 0) + 1 FROM chat WHERE game_id = ?1",
            params![id],
            |r| r.get(0),
        )?;
        c.execute(
            "INSERT INTO chat (game_id, n, color, name, text, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, next, msg.color.name(), msg.name, msg.text, msg.at_ms as i64],
        )?;
        n2.store(next as u64, Ordering::SeqCst);
        Ok(())
    })?;
    Ok(n.load(Ordering::SeqCst))
}

/// The last `limit` messages of `game_id`'s chat numbered above `after`, oldest first.
pub(super) fn load(
    store: &SqliteStore,
    game_id: &str,
    after: u64,
    limit: usize,
) -> Result<Vec<ChatRecord>, StoreError> {
    let id = game_id.to_string();
    store.read(move |conn| {
        let mut stmt = conn.prepare_cached(
            "SELECT n, color, name, text, at_ms FROM chat WHERE game_id = ?1 AND n > ?2
             ORDER BY n DESC LIMIT ?3",
        )?;
        let mut out = stmt
            .query_map(params![id, after as i64, limit as i64], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .map(|(n, color, name, text, at)| {
                Ok(ChatRecord {
                    n: n as u64,
                    color: Side::parse(&color).ok_or_else(|| StoreError::Corrupt {
                        id: id.clone(),
                        reason: format!("chat message {n} has the colour '{color}'"),
                    })?,
                    name,
                    text,
                    at_ms: at as u64,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        out.reverse();
        Ok(out)
    })
}

impl ChatStore for SqliteStore {
    fn add_chat(&self, game_id: &str, msg: &ChatRecord) -> Result<u64, StoreError> {
        add(self, game_id, msg)
    }

    fn load_chat(
        &self,
        game_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<ChatRecord>, StoreError> {
        load(self, game_id, after, limit)
    }
}

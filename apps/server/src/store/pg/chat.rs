//! Chat messages in PostgreSQL (docs/api.md, chat; docs/scaling.md): a `chat` table beside the
//! games, and a `crown_chat` notification channel of its own, so that a message stored by one
//! instance reaches the watchers on every other instance.
//!
//! - [`add`] numbers a message inside a transaction holding a per-game advisory lock (two
//!   instances writing to one game at once never take the same number) and sends
//!   `NOTIFY crown_chat, '<n> <game id>'` in the same transaction (delivered only if it commits).
//! - [`listen`] starts a thread with its own connection that turns those notifications into
//!   [`Change`]s (`version` = the message's number); after a lost connection it reconnects and
//!   sends an empty-id `Change` (messages may have been missed).

use super::{db, PgStore};
use crate::store::{Change, ChatRecord, ChatStore, Side, StoreError};
use postgres::{Client, NoTls};
use std::time::Duration;

/// The channel of chat notifications.
const CHANNEL: &str = "crown_chat";

/// Store `msg` of `game_id` with the next number of that game's chat; returns the number.
pub(super) fn add(store: &PgStore, game_id: &str, msg: &ChatRecord) -> Result<u64, StoreError> {
    store.with(|c| {
        let mut tx = c.transaction().map_err(db)?;
        tx.execute(
            "SELECT pg_advisory_xact_lock(7306, hashtext($1))",
            &[&game_id],
        )
        .map_err(db)?;
        let row = tx
            .query_one(
                "INSERT INTO chat (game_id, n, color, name, text, at_ms)
                 SELECT $1, COALESCE(MAX(n), 0) + 1, $2, $3, $4, $5 FROM chat WHERE game_id = $1
                 RETURNING n",
                &[
                    &game_id,
                    &msg.color.name(),
                    &msg.name,
                    &msg.text,
                    &(msg.at_ms as i64),
                ],
            )
            .map_err(db)?;
        let n = row.get::<_, i64>(0) as u64;
        let payload = format!("{n} {game_id}");
        tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
            .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(n)
    })
}

/// The last `limit` messages of `game_id` numbered above `after`, oldest first.
pub(super) fn load(
    store: &PgStore,
    game_id: &str,
    after: u64,
    limit: usize,
) -> Result<Vec<ChatRecord>, StoreError> {
    let rows = store.with(|c| {
        c.query(
            "SELECT n, color, name, text, at_ms FROM chat WHERE game_id = $1 AND n > $2
             ORDER BY n DESC LIMIT $3",
            &[&game_id, &(after as i64), &(limit as i64)],
        )
        .map_err(db)
    })?;
    let mut out = rows
        .iter()
        .map(|r| {
            let n = r.get::<_, i64>(0) as u64;
            let color: String = r.get(1);
            Ok(ChatRecord {
                n,
                color: Side::parse(&color).ok_or_else(|| StoreError::Corrupt {
                    id: game_id.to_string(),
                    reason: format!("chat message {n} has the colour '{color}'"),
                })?,
                name: r.get(2),
                text: r.get(3),
                at_ms: r.get::<_, i64>(4) as u64,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    out.reverse();
    Ok(out)
}

/// Start the chat listener thread, which opens a connection of its own (the server calls this on
/// an async thread, where the blocking client must not connect); `None` if the thread cannot start
/// (chat then reaches only the sockets of the instance that stored it).
pub(super) fn listen(url: &str) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let url = url.to_string();
    std::thread::Builder::new()
        .name("crown-pg-chat".into())
        .spawn(move || {
            let client = loop {
                match Client::connect(&url, NoTls) {
                    Ok(c) => break c,
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot open the chat listener's connection");
                        if tx.is_closed() {
                            return;
                        }
                        std::thread::sleep(Duration::from_secs(1));
                    }
                }
            };
            let channel = super::listen::Channel {
                url: &url,
                name: CHANNEL,
                what: "chat notification",
                listening: None,
                parse: super::listen::parse_version_id,
            };
            // Chat read before `LISTEN` is active is read again once it is.
            super::listen::run(client, &channel, &tx, false, true);
        })
        .ok()?;
    Some(rx)
}

impl ChatStore for PgStore {
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

    fn chat_changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        listen(&self.url)
    }
}

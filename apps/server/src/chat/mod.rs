//! Chat per game (docs/api.md): the two seats write, everyone reads.
//!
//! Messages are stored with the game through the store's chat part
//! ([`crate::store::ChatStore::add_chat`]: a `chat` table in SQLite and PostgreSQL), so they
//! survive a restart; the store numbers them (1, 2, ... per game). The game's in-memory handle
//! keeps the last [`MAX_MESSAGES`], read from the store the first time the chat is used. With
//! several instances on one PostgreSQL, each stored message is announced
//! ([`crate::store::ChatStore::chat_changes`]) and every instance holding the game reads it and
//! pushes it to its own sockets (`on_change`). A message is plain text of 1..=[`MAX_CHARS`]
//! characters (no control characters); clients must show it as text, never as HTML. Each seat may
//! send [`BURST`] messages at once and then one per [`REFILL_MS`] ms (`429 chat_rate_limited`).
//! Spectators have no seat token and cannot write (`401 missing_token` / `403 bad_token`).
//!
//! What is stored stays bounded: a game's chat holds at most [`MAX_MESSAGES`] messages (then
//! `409 chat_full`), a game that never started (cancelled, expired, aborted, or over with no
//! move and no result) takes no chat, and a finished game takes chat for [`POST_GAME_CHAT_MS`] after its end
//! (then `409 chat_closed`), as lichess keeps post-game chat briefly.

use crate::error::{Detail, Error};
use crate::games::live::now_ms;
pub mod log;

pub use log::{ChatLog, ChatMessage, BURST, MAX_MESSAGES, REFILL_MS};

use crate::games::handle::GameHandle;
use crate::store::{Change, ChatRecord, Side, Store};
use crown_core::Color;
use serde::Serialize;
use std::sync::Arc;

/// Longest message, in characters.
pub const MAX_CHARS: usize = 200;

/// How long after a game's end (its last change) its seats may still chat, in ms: 10 minutes.
pub const POST_GAME_CHAT_MS: u64 = 10 * 60 * 1000;

/// `Err(chat_closed)` when game `rec` takes no more chat at `now`: it never started (ended with
/// no move and no result: cancelled, expired, aborted, abandoned at ply 0), or it ended more than
/// [`POST_GAME_CHAT_MS`] ago.
fn check_open(rec: &crate::store::GameRecord, now: u64) -> Result<(), Error> {
    if !crate::store::is_over(&rec.status) {
        return Ok(());
    }
    if rec.moves.is_empty() && rec.result.is_none() {
        return Err(Error::conflict(
            "chat_closed",
            "the game ended before any move was made: it takes no chat",
        ));
    }
    if now > rec.updated_ms.saturating_add(POST_GAME_CHAT_MS) {
        return Err(Error::conflict(
            "chat_closed",
            format!(
                "the game ended more than {} minutes ago: its chat is closed",
                POST_GAME_CHAT_MS / 60_000
            ),
        ));
    }
    Ok(())
}

/// Push chat message `m` to every WebSocket of `h` on this instance.
fn push(h: &GameHandle, m: &ChatMessage) {
    if let Ok(push) = serde_json::to_string(&ChatPush {
        r#type: "chat",
        message: m,
    }) {
        let _ = h.tx.send(Arc::from(push));
    }
}

/// The text of a message trimmed and checked.
///
/// # Errors
/// `400 bad_chat` saying what is wrong (empty, longer than [`MAX_CHARS`], control characters).
pub fn check_text(text: &str) -> Result<String, Error> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_CHARS {
        return Err(Error::invalid(
            "bad_chat",
            format!("a chat message must have 1..={MAX_CHARS} characters, not {chars}"),
        ));
    }
    if text.chars().any(char::is_control) {
        return Err(Error::invalid(
            "bad_chat",
            "a chat message must not contain control characters (line breaks, tabs, ...)",
        ));
    }
    Ok(text.to_string())
}

/// The WebSocket push of a new message.
#[derive(Serialize)]
struct ChatPush<'a> {
    r#type: &'static str,
    message: &'a ChatMessage,
}

/// The chat feature: the store it keeps the messages in. The messages of a game in memory are in
/// its handle ([`GameHandle`]'s chat log).
pub struct Chat {
    store: Arc<dyn Store>,
}

impl Chat {
    /// The chat of `store` (kept in memory only when the store keeps no chat).
    pub fn new(store: Arc<dyn Store>) -> Chat {
        Chat { store }
    }

    /// Read the stored chat of `h` into memory the first time it is used.
    ///
    /// # Errors
    /// `storage` if the store cannot be read.
    async fn ensure_loaded(&self, h: &GameHandle) -> Result<(), Error> {
        if h.chat.lock().unwrap_or_else(|e| e.into_inner()).loaded {
            return Ok(());
        }
        let (store, id) = (self.store.clone(), h.id.to_string());
        let stored = crate::blocking::store(move || {
            store
                .chat()
                .map_or(Ok(Vec::new()), |c| c.load_chat(&id, 0, MAX_MESSAGES))
        })
        .await?;
        let added = {
            let mut log = h.chat.lock().unwrap_or_else(|e| e.into_inner());
            if log.loaded {
                Vec::new()
            } else {
                log.loaded = true;
                log.merge(stored)
            }
        };
        // Each message is pushed by whichever path adds it to this instance's log, exactly once
        // (the page drops a number it already shows, e.g. one it also read with `GET .../chat`).
        for m in &added {
            push(h, m);
        }
        Ok(())
    }

    /// A chat message stored by some instance (`change.version` is its number; an empty id: any
    /// game may have new messages): every game of `targets` (the held games concerned) whose chat
    /// is in memory reads the new messages and pushes them to its sockets.
    pub(crate) async fn on_change(&self, targets: Vec<Arc<GameHandle>>, change: Change) {
        for h in targets {
            let after = {
                let log = h.chat.lock().unwrap_or_else(|e| e.into_inner());
                if change.id.is_empty() {
                    if !log.loaded {
                        continue; // read whole when first used
                    }
                    0
                } else if log.messages.iter().any(|m| m.n == change.version) {
                    continue;
                } else if log.loaded {
                    change.version.saturating_sub(1)
                } else {
                    0
                }
            };
            let (store, id) = (self.store.clone(), h.id.to_string());
            let stored = match tokio::task::spawn_blocking(move || {
                store
                    .chat()
                    .map_or(Ok(Vec::new()), |c| c.load_chat(&id, after, MAX_MESSAGES))
            })
            .await
            {
                Ok(Ok(s)) => s,
                Ok(Err(e)) => {
                    tracing::warn!(game = %h.id, error = %e, "could not read new chat messages");
                    continue;
                }
                Err(_) => continue,
            };
            let added = {
                let mut log = h.chat.lock().unwrap_or_else(|e| e.into_inner());
                // Not loaded before: this read the last messages, as `ensure_loaded` does.
                log.loaded = true;
                log.merge(stored)
            };
            // Every message added here is pushed, once: the log adds a number only once, and
            // whichever path adds it (this one, `post` or `ensure_loaded`) pushes it.
            for m in &added {
                push(&h, m);
            }
        }
    }

    /// The last [`MAX_MESSAGES`] stored messages of `h`, oldest first (`GET /api/games/{id}/chat`).
    ///
    /// # Errors
    /// `storage` (the store cannot be read).
    pub async fn messages(&self, h: &GameHandle) -> Result<Vec<ChatMessage>, Error> {
        self.ensure_loaded(h).await?;
        let log = h.chat.lock().unwrap_or_else(|e| e.into_inner());
        Ok(log.messages.iter().cloned().collect())
    }

    /// Seat `color` of `h` sends `text` (already checked by [`check_text`]); returns the message,
    /// stored and pushed to every WebSocket of the game as `{"type": "chat", "message": {...}}`.
    ///
    /// # Errors
    /// `chat_closed` (the game never started, or ended more than [`POST_GAME_CHAT_MS`] ago),
    /// `chat_full` (the game's chat has [`MAX_MESSAGES`] messages), `chat_rate_limited`
    /// (limited, with the wait in ms), `storage` (the message could not be stored: nothing was
    /// sent).
    pub async fn post(
        &self,
        h: &GameHandle,
        color: Color,
        text: String,
    ) -> Result<ChatMessage, Error> {
        let name = {
            let live = h.live.lock().await;
            check_open(&live.rec, now_ms())?;
            live.rec.meta.names.get(color).map(str::to_string)
        };
        self.ensure_loaded(h).await?;
        let now = now_ms();
        {
            let mut log = h.chat.lock().unwrap_or_else(|e| e.into_inner());
            let last = log.messages.back().map_or(0, |m| m.n).max(log.next);
            if last >= MAX_MESSAGES as u64 {
                return Err(Error::conflict(
                    "chat_full",
                    format!("this game's chat is full ({MAX_MESSAGES} messages)"),
                ));
            }
            if let Err(wait) = log.take(color, now) {
                return Err(Error::limited(
                    "chat_rate_limited",
                    format!("too many chat messages; wait {} s", wait.div_ceil(1000)),
                )
                .with(Detail::RetryAfterMs(wait)));
            }
        }
        let mut rec = ChatRecord {
            n: 0,
            color: Side::from(color),
            name: name.clone(),
            text: text.clone(),
            at_ms: now,
        };
        let (store, gid, r2) = (self.store.clone(), h.id.to_string(), rec.clone());
        // A store without chat (None): the messages are numbered and kept in memory only.
        let stored = tokio::task::spawn_blocking(move || {
            store.chat().map(|c| c.add_chat(&gid, &r2)).transpose()
        })
        .await
        .map_err(Error::storage)?
        .map_err(|e| {
            tracing::error!(error = %e, "storing a chat message failed");
            Error::storage(e)
        })?;
        let (msg, added) = {
            let mut log = h.chat.lock().unwrap_or_else(|e| e.into_inner());
            match stored {
                Some(n) => {
                    rec.n = n;
                    // Already there (and pushed) if this instance read the message's own
                    // announcement first; then it is not pushed again.
                    let added = !log.merge(vec![rec]).is_empty();
                    (
                        ChatMessage {
                            n,
                            color: color.name(),
                            name,
                            text,
                            at_ms: now,
                        },
                        added,
                    )
                }
                None => (log.push(color, name, text, now), true),
            }
        };
        if added {
            push(h, &msg);
        }
        Ok(msg)
    }
}

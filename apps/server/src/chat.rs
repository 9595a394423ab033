//! Chat per game (docs/api.md): the two seats write, everyone reads.
//!
//! Messages are kept **in memory only**, with the game's in-memory handle: the last
//! [`MAX_MESSAGES`] of each game, lost when the server restarts or drops a finished game nobody
//! watches from memory. A message is plain text of 1..=[`MAX_CHARS`] characters (no control
//! characters); clients must show it as text, never as HTML. Each seat may send
//! [`BURST`] messages at once and then one per [`REFILL_MS`] ms (`429 chat_rate_limited`).
//! Spectators have no seat token and cannot write (`401 missing_token` / `403 bad_token`).

use crate::api::{caller_seat, JsonBody};
use crate::error::ApiError;
use crate::live::now_ms;
use crate::App;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use crown_core::Color;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

/// Longest message, in characters.
pub const MAX_CHARS: usize = 200;
/// Messages kept per game.
pub const MAX_MESSAGES: usize = 200;
/// Messages a seat may send at once.
pub const BURST: u32 = 5;
/// Time in ms after which a seat may send one more message.
pub const REFILL_MS: u64 = 2000;

/// One chat message.
#[derive(Clone, Debug, Serialize)]
pub struct ChatMessage {
    /// Number of the message in this game (1, 2, ...).
    pub n: u64,
    /// The writer's colour (`black`/`white`).
    pub color: &'static str,
    /// The writer's name when the seat has one.
    pub name: Option<String>,
    /// The text, plain (show it as text, never as HTML).
    pub text: String,
    /// When it was sent, ms since the Unix epoch.
    pub at_ms: u64,
}

/// A game's chat: the last messages and each seat's rate-limit bucket.
#[derive(Debug, Default)]
pub struct ChatLog {
    messages: VecDeque<ChatMessage>,
    next: u64,
    /// Per seat (black, white): tokens left and when they were last counted.
    buckets: [(u32, u64); 2],
}

impl ChatLog {
    /// Take one send permit for `color` at `now`; `Err(ms)` is the wait before the next one.
    fn take(&mut self, color: Color, now: u64) -> Result<(), u64> {
        let b = &mut self.buckets[usize::from(color == Color::White)];
        if b.1 == 0 {
            *b = (BURST, now);
        }
        let refilled = (now.saturating_sub(b.1) / REFILL_MS) as u32;
        if refilled > 0 {
            b.0 = (b.0.saturating_add(refilled)).min(BURST);
            b.1 += u64::from(refilled) * REFILL_MS;
        }
        if b.0 == 0 {
            return Err(REFILL_MS - now.saturating_sub(b.1));
        }
        if b.0 == BURST {
            b.1 = now;
        }
        b.0 -= 1;
        Ok(())
    }

    fn push(&mut self, color: Color, name: Option<String>, text: String, now: u64) -> ChatMessage {
        self.next += 1;
        let m = ChatMessage {
            n: self.next,
            color: color.name(),
            name,
            text,
            at_ms: now,
        };
        self.messages.push_back(m.clone());
        while self.messages.len() > MAX_MESSAGES {
            self.messages.pop_front();
        }
        m
    }
}

/// The text of a message trimmed and checked.
///
/// # Errors
/// `400 bad_chat` saying what is wrong (empty, longer than [`MAX_CHARS`], control characters).
pub fn check_text(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_CHARS {
        return Err(ApiError::bad_request(
            "bad_chat",
            format!("a chat message must have 1..={MAX_CHARS} characters, not {chars}"),
        ));
    }
    if text.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "bad_chat",
            "a chat message must not contain control characters (line breaks, tabs, ...)",
        ));
    }
    Ok(text.to_string())
}

/// Body of `POST /api/games/{id}/chat`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostChat {
    /// The message, plain text.
    pub text: String,
}

/// The WebSocket push of a new message.
#[derive(Serialize)]
struct ChatPush<'a> {
    r#type: &'static str,
    message: &'a ChatMessage,
}

/// `GET /api/games/{id}/chat`: the kept messages, oldest first.
///
/// # Errors
/// `not_found`.
pub async fn read(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let h = app.handle(&id).await?;
    let log = h.chat.lock().unwrap_or_else(|e| e.into_inner());
    let messages: Vec<&ChatMessage> = log.messages.iter().collect();
    Ok(Json(serde_json::json!({ "messages": messages })))
}

/// `POST /api/games/{id}/chat` (seat token) `{"text": "..."}`: send a message; `201` with it. It is
/// pushed to every WebSocket of the game as `{"type": "chat", "message": {...}}`.
///
/// # Errors
/// `bad_chat`, `bad_json`, `not_found`, `missing_token`, `bad_token`, `chat_rate_limited` (429,
/// with `retry_after_ms` and a `Retry-After` header).
pub async fn post(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<PostChat>,
) -> Result<Response, ApiError> {
    let text = check_text(&req.text)?;
    let h = app.handle(&id).await?;
    let color = caller_seat(&h, &headers).await?;
    let name = h
        .live
        .lock()
        .await
        .rec
        .meta
        .names
        .get(color)
        .map(str::to_string);
    let now = now_ms();
    let msg = {
        let mut log = h.chat.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(wait) = log.take(color, now) {
            let mut e = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "chat_rate_limited",
                format!("too many chat messages; wait {} s", wait.div_ceil(1000)),
            );
            e.details = Some(serde_json::json!({ "retry_after_ms": wait }));
            let mut resp = e.into_response();
            if let Ok(v) = header::HeaderValue::from_str(&wait.div_ceil(1000).to_string()) {
                resp.headers_mut().insert(header::RETRY_AFTER, v);
            }
            return Ok(resp);
        }
        log.push(color, name, text, now)
    };
    if let Ok(push) = serde_json::to_string(&ChatPush {
        r#type: "chat",
        message: &msg,
    }) {
        let _ = h.tx.send(Arc::from(push));
    }
    Ok((StatusCode::CREATED, Json(msg)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_gets_a_burst_then_one_message_per_refill() {
        let mut log = ChatLog::default();
        let t0 = 1_000_000;
        for _ in 0..BURST {
            assert!(log.take(Color::Black, t0).is_ok());
        }
        assert_eq!(log.take(Color::Black, t0), Err(REFILL_MS));
        // The other seat has its own bucket.
        assert!(log.take(Color::White, t0).is_ok());
        assert!(log.take(Color::Black, t0 + REFILL_MS).is_ok());
        assert!(log.take(Color::Black, t0 + REFILL_MS).is_err());
    }

    #[test]
    fn only_the_last_messages_are_kept() {
        let mut log = ChatLog::default();
        for i in 0..MAX_MESSAGES + 3 {
            log.push(Color::Black, None, format!("m{i}"), 1);
        }
        assert_eq!(log.messages.len(), MAX_MESSAGES);
        assert_eq!(log.messages.front().map(|m| m.n), Some(4));
    }
}

//! `GET` and `POST /api/games/{id}/chat`: read a game's chat, and a seat sends a message
//! (docs/api.md; the rules are in [`crate::chat`]).

use super::error::ApiError;
use super::extract::{bearer, JsonBody};
use crate::app::App;
use crate::chat::check_text;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

/// The chat route.
pub fn routes() -> Router<App> {
    Router::new().route("/games/{id}/chat", get(read).layer(nb!()).merge(post(send)))
}

/// Body of `POST /api/games/{id}/chat`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PostChat {
    /// The message, plain text.
    pub text: String,
}

/// `GET /api/games/{id}/chat`: `{"messages": [...]}`, the last stored messages, oldest first.
///
/// Errors: `not_found`, `storage` (the store cannot be read).
async fn read(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let h = app.games().handle(&id).await?;
    let messages = app.chat().messages(&h).await?;
    Ok(Json(serde_json::json!({ "messages": messages })))
}

/// `POST /api/games/{id}/chat` (seat token) `{"text": "..."}`: send a message; `201` with it.
///
/// Errors: `bad_chat`, `bad_json`, `not_found`, `missing_token`, `bad_token`,
/// `chat_rate_limited` (429, with `retry_after_ms` and a `Retry-After` header), `storage`.
async fn send(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<PostChat>,
) -> Result<Response, ApiError> {
    let text = check_text(&req.text)?;
    let h = app.games().handle(&id).await?;
    let color = h.seat_of_token(&bearer(&headers)?).await?;
    let msg = app.chat().post(&h, color, text).await?;
    Ok((StatusCode::CREATED, Json(msg)).into_response())
}

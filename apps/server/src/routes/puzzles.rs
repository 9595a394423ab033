//! The puzzle endpoints of an account (docs/api.md, "Puzzles"): `POST /api/puzzles/attempts`,
//! `GET /api/puzzles/me` and `POST /api/puzzles/merge`; the rules are in [`crate::puzzles`].
//! Each needs the session cookie (`401 not_logged_in` without one); the state-changing ones
//! pass the router's Origin check and take only `Content-Type: application/json`, as the
//! account endpoints.

use super::accounts::session_token;
use super::error::ApiError;
use super::extract::JsonBody;
use crate::accounts::not_logged_in;
use crate::app::App;
use crate::puzzles::{AttemptResult, Dashboard, MergeResult};
use crate::store::UserRecord;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

/// The puzzle routes.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/puzzles/attempts", post(attempt))
        .route("/puzzles/merge", post(merge))
        .route("/puzzles/me", get(me).layer(nb!()))
}

/// The account of the request's session cookie.
///
/// # Errors
/// `401 not_logged_in`, `accounts_unavailable`, `storage`.
async fn logged_in(app: &App, headers: &HeaderMap) -> Result<UserRecord, ApiError> {
    let token = session_token(headers).ok_or_else(not_logged_in)?;
    Ok(app
        .accounts()
        .session_user(&token)
        .await?
        .ok_or_else(not_logged_in)?)
}

/// `value` as JSON with `Cache-Control: no-store` (an account's own record).
fn private<T: serde::Serialize>(value: T) -> Response {
    let mut resp = Json(value).into_response();
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// `POST /api/puzzles/attempts` `{"puzzle", "solved", "time_ms"?}` (session cookie): rate the
/// attempt by the trainer's rule; `200` with `{"rated", "rating", "deviation", "volatility",
/// "provisional", "streak", "best_streak"}` (`rated: false`: rated before, nothing changed).
///
/// Errors: `bad_origin` (403), `bad_content_type` (415), `bad_json`, `bad_attempt`,
/// `unknown_puzzle`, `bad_time` (400), `not_logged_in` (401), `puzzle_rate_limited` (429),
/// `accounts_unavailable` (503), `storage`.
async fn attempt(
    State(app): State<App>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<serde_json::Value>,
) -> Result<Response, ApiError> {
    let user = logged_in(&app, &headers).await?;
    let r: AttemptResult = app.puzzles().attempt(&user.id, &body).await?;
    Ok(private(r))
}

/// `POST /api/puzzles/merge` (session cookie) with a browser's local record `{"ratings":
/// {"puzzles": {id: {"rating", …}}}, …}`: its attempts replayed by the rule; `200` with
/// `{"rated", "already", "unknown", "rating", …}`.
///
/// Errors: `bad_origin` (403), `bad_content_type` (415), `bad_json`, `bad_merge` (400),
/// `payload_too_large` (413), `not_logged_in` (401), `puzzle_rate_limited` (429),
/// `accounts_unavailable` (503), `storage`.
async fn merge(
    State(app): State<App>,
    headers: HeaderMap,
    JsonBody(body): JsonBody<serde_json::Value>,
) -> Result<Response, ApiError> {
    let user = logged_in(&app, &headers).await?;
    let r: MergeResult = app.puzzles().merge(&user.id, &body).await?;
    Ok(private(r))
}

/// `GET /api/puzzles/me` (session cookie): the account's rating, streaks, history (newest
/// first), solved and failed per theme, the weakest themes ([`Dashboard`]).
///
/// Errors: `unexpected_body` (400), `not_logged_in` (401), `accounts_unavailable` (503),
/// `storage`.
async fn me(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    let user = logged_in(&app, &headers).await?;
    let d: Dashboard = app.puzzles().dashboard(&user.id).await?;
    Ok(private(d))
}

//! The account endpoints (docs/api.md, "Accounts"): `POST /api/signup`, `POST /api/login`,
//! `POST /api/logout`, `POST /api/password` and `GET /api/me`; the rules are in
//! [`crate::accounts`].
//!
//! The session travels in the cookie [`SESSION_COOKIE`] (`HttpOnly`, `SameSite=Lax`, `Path=/`,
//! `Max-Age` the session's life, and `Secure` when the request came through a proxy saying
//! `X-Forwarded-Proto: https`). Against cross-site request forgery, every state-changing request
//! of the API (these and the game routes, which read the cookie too) passes the Origin check of
//! the router's layers (`403 bad_origin`), and the account endpoints with a body take only `Content-Type: application/json` (`415 bad_content_type`), which
//! a cross-site form cannot send; `SameSite=Lax` keeps the cookie off cross-site `POST`s too.

use super::error::ApiError;
use super::extract::{ClientIp, JsonBody};
use crate::accounts::not_logged_in;
use crate::app::App;
use crate::store::UserRecord;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "crown_session";

/// The account routes.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/signup", post(sign_up))
        .route("/login", post(log_in))
        .route("/logout", post(log_out).layer(nb!()))
        .route("/password", post(change_password))
        .route("/me", get(me).layer(nb!()))
        .route("/me/turns", get(turns).layer(nb!()))
}

/// `GET /api/me/turns` (session): `{"count", "games": [...], "server_time_ms"}`, the account's
/// ongoing games where it is its move ([`crate::games::turns`]).
///
/// Errors: `not_logged_in` (401), `storage`.
async fn turns(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let me = session_account(&app, &headers).await?;
    let games = app.games().turns(&me.user_id).await?;
    Ok(Json(serde_json::json!({
        "count": games.len(),
        "games": games,
        "server_time_ms": crate::games::live::now_ms(),
    })))
}

/// Body of `POST /api/signup` and `POST /api/login`. Not `Debug`: it holds a password.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The username.
    pub username: String,
    /// The password.
    pub password: String,
}

/// Body of `POST /api/password`. Not `Debug`: it holds passwords.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The current password.
    pub old_password: String,
    /// The new password.
    pub new_password: String,
}

/// `{"user": {"id", "name", "created_ms"}}`: what the API tells of an account.
fn user_json(u: &UserRecord) -> serde_json::Value {
    serde_json::json!({ "user": { "id": u.id, "name": u.name, "created_ms": u.created_ms } })
}

/// The session token of the request's cookie, if any.
pub(crate) fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == SESSION_COOKIE && !value.is_empty())
        .map(|(_, value)| value.to_string())
}

/// The account of the request's session (the routes that need one: tournaments, challenges).
///
/// # Errors
/// `not_logged_in` (401), `accounts_unavailable`, `storage`.
pub(super) async fn session_account(
    app: &App,
    headers: &HeaderMap,
) -> Result<crate::store::SeatAccount, crate::error::Error> {
    let token = session_token(headers).ok_or_else(crate::accounts::not_logged_in)?;
    let user = app
        .accounts()
        .session_user(&token)
        .await?
        .ok_or_else(crate::accounts::not_logged_in)?;
    Ok(crate::store::SeatAccount {
        bot: app.accounts().is_bot(&user.id).await?,
        user_id: user.id,
        name: user.name,
    })
}

/// The `Set-Cookie` value holding `token` for `max_age_s` seconds (0 and an empty token: delete
/// the cookie).
fn cookie(headers: &HeaderMap, token: &str, max_age_s: u64) -> HeaderValue {
    let secure = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    let value = format!(
        "{SESSION_COOKIE}={token}; Path=/; Max-Age={max_age_s}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    );
    // The token is hex, the rest fixed text: always a valid header value.
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// `status` with the JSON `body`, `Cache-Control: no-store`, and `Set-Cookie: cookie` if given.
fn answer(
    status: StatusCode,
    body: Option<serde_json::Value>,
    set: Option<HeaderValue>,
) -> Response {
    let mut resp = match body {
        Some(b) => (status, Json(b)).into_response(),
        None => status.into_response(),
    };
    let h = resp.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(c) = set {
        h.insert(header::SET_COOKIE, c);
    }
    resp
}

/// `POST /api/signup` `{"username", "password"}`: create an account and log in; `201` with the
/// account and the session cookie.
///
/// Errors: `bad_origin` (403), `bad_content_type` (415), `bad_json`, `bad_username`,
/// `bad_password` (400), `username_taken` (409), `login_rate_limited` (429),
/// `accounts_unavailable` (503), `storage`.
async fn sign_up(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let (user, token) = app
        .accounts()
        .sign_up(ip, &req.username, &req.password)
        .await?;
    let c = cookie(&headers, &token, app.config.session_ttl_ms / 1000);
    Ok(answer(StatusCode::CREATED, Some(user_json(&user)), Some(c)))
}

/// `POST /api/login` `{"username", "password"}`: open a session; `200` with the account and the
/// session cookie.
///
/// Errors: `bad_origin` (403), `bad_content_type` (415), `bad_json` (400), `bad_credentials`
/// (401), `login_rate_limited` (429), `accounts_unavailable` (503), `storage`.
async fn log_in(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let (user, token) = app
        .accounts()
        .log_in(ip, &req.username, &req.password)
        .await?;
    let c = cookie(&headers, &token, app.config.session_ttl_ms / 1000);
    Ok(answer(StatusCode::OK, Some(user_json(&user)), Some(c)))
}

/// `POST /api/logout` (no body): end the cookie's session, if any (the account's event and game
/// streams opened with it end too); `204` deleting the cookie.
///
/// Errors: `bad_origin` (403), `unexpected_body` (400), `accounts_unavailable` (503), `storage`.
async fn log_out(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = session_token(&headers) {
        // Whose session it was: that account's open streams check theirs again.
        let user = app.accounts().session_user(&token).await.ok().flatten();
        app.accounts().log_out(&token).await?;
        if let Some(user) = user {
            app.bots().streams().credentials_changed(&user.id);
        }
    }
    Ok(answer(
        StatusCode::NO_CONTENT,
        None,
        Some(cookie(&headers, "", 0)),
    ))
}

/// `POST /api/password` `{"old_password", "new_password"}` (session cookie): change the
/// password and end every other session of the account (and the streams opened with them);
/// `200` with the account.
///
/// Errors: `bad_origin` (403), `bad_content_type` (415), `bad_json`, `bad_password`,
/// `wrong_password` (400), `not_logged_in` (401), `login_rate_limited` (429),
/// `accounts_unavailable` (503), `storage`.
async fn change_password(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    JsonBody(req): JsonBody<PasswordChange>,
) -> Result<Response, ApiError> {
    let token = session_token(&headers).ok_or_else(not_logged_in)?;
    let user = app
        .accounts()
        .change_password(ip, &token, &req.old_password, &req.new_password)
        .await?;
    app.bots().streams().credentials_changed(&user.id);
    Ok(answer(StatusCode::OK, Some(user_json(&user)), None))
}

/// `GET /api/me` (session cookie): `200` with the account logged in.
///
/// Errors: `not_logged_in` (401: no cookie, or an unknown or expired session),
/// `accounts_unavailable` (503), `storage`.
async fn me(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    let token = session_token(&headers).ok_or_else(not_logged_in)?;
    let user = app
        .accounts()
        .session_user(&token)
        .await?
        .ok_or_else(not_logged_in)?;
    Ok(answer(StatusCode::OK, Some(user_json(&user)), None))
}

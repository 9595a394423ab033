//! The tournament endpoints (docs/api.md, "Tournaments"; the rules are in
//! [`crate::tournaments`]): create, list, show, join, withdraw, start, a player's seat in a
//! tournament game, and the tournament's PDN. Creating, joining, withdrawing, starting and taking
//! a seat need a log-in session.

use super::accounts::session_account as account;
use super::error::ApiError;
use super::extract::{ClientIp, JsonBody};
use crate::app::App;
use crate::error::Error;
use crate::games::live::now_ms;
use crate::tournaments::request::CreateRequest;
use crate::tournaments::view;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

/// The routes of tournaments.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/tournaments", post(create).get(list))
        .route("/tournaments/{id}", get(show).layer(nb!()))
        .route("/tournaments/{id}/join", post(join))
        .route("/tournaments/{id}/withdraw", post(withdraw).layer(nb!()))
        .route("/tournaments/{id}/start", post(start).layer(nb!()))
        .route(
            "/tournaments/{id}/games/{game}/seat",
            post(seat).layer(nb!()),
        )
        .route("/tournaments/{id}/pdn", get(pdn).layer(nb!()))
}

/// A tournament id as the store writes them (8 hex digits); another is no tournament.
fn check_id(id: &str) -> Result<(), Error> {
    if id.len() == 8 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        Err(crate::tournaments::not_found(id))
    }
}

/// `POST /api/tournaments` (session): `201 {"id", "tournament"}`.
///
/// Errors: `not_logged_in` (401), `bad_json`, `bad_variant`, `bad_format`, `bad_rounds`,
/// `bad_time_control`, `bad_openings`, `bad_start`, `bad_password`, `bad_settings` (400),
/// `arena_unavailable` (501), `tournament_rate_limited`, `too_many_tournaments` (429),
/// `tournaments_unavailable` (503), `storage`.
async fn create(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<Response, ApiError> {
    let me = account(&app, &headers).await?;
    let checked = req.check(now_ms())?;
    let (id, s) = app.tournaments().create(ip, checked, me).await?;
    let body = json!({"id": id, "tournament": view::full(&id, &s)});
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `GET /api/tournaments`: `{"upcoming", "running", "finished"}`, at most 50 each: upcoming by
/// start time, the soonest first (those without one after them, the newest first), the others
/// newest first.
///
/// Errors: `tournaments_unavailable` (503), `storage`.
async fn list(State(app): State<App>) -> Result<Json<Value>, ApiError> {
    let mut out = serde_json::Map::new();
    for (key, phase) in [
        ("upcoming", "created"),
        ("running", "running"),
        ("finished", "finished"),
    ] {
        let list = app.tournaments().list(phase).await?;
        let items = list.iter().map(|(id, s)| view::summary(id, s)).collect();
        out.insert(key.to_string(), Value::Array(items));
    }
    Ok(Json(Value::Object(out)))
}

/// `GET /api/tournaments/{id}`: the tournament with players, standings, pairings, crosstable.
///
/// Errors: `not_found`, `tournaments_unavailable`, `storage`.
async fn show(State(app): State<App>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    check_id(&id)?;
    let (_, s) = app.tournaments().load(&id).await?;
    Ok(Json(view::full(&id, &s)))
}

/// The optional body of `POST /api/tournaments/{id}/join`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    /// The tournament's password, when it has one.
    #[serde(default)]
    password: Option<String>,
}

/// `POST /api/tournaments/{id}/join` (session; body `{"password"}` or none): the tournament.
///
/// Errors: `not_logged_in` (401), `bad_json`, `wrong_password`, `bot_not_allowed` (403), `too_many_passwords`
/// (429: 10 wrong passwords by this account for this tournament in 10 minutes), `already_joined`,
/// `network_full` (4 entries from this network), `already_started`, `tournament_finished` (409),
/// `not_found`, `storage`.
async fn join(
    State(app): State<App>,
    Path(id): Path<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    check_id(&id)?;
    let me = account(&app, &headers).await?;
    // Bots play people only through challenges (there are no bot tournaments yet).
    super::bots::refuse_bot(Some(&me), "join a tournament")?;
    let req: JoinBody = if body.is_empty() {
        JoinBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| Error::invalid("bad_json", format!("bad JSON body: {e}")))?
    };
    let (_, s) = app.tournaments().load(&id).await?;
    let speed = crate::ratings::Speed::of(s.time_control).name().to_string();
    let variant = s.variant().id().to_string();
    let rating = app
        .ratings()
        .current(vec![(me.user_id.clone(), variant, speed)])
        .await
        .ok()
        .and_then(|r| r.first().map(|g| g.rating.round().max(0.0) as u32))
        .unwrap_or(1500);
    let s = app
        .tournaments()
        .join(&id, me, req.password, rating, client)
        .await?;
    Ok(Json(view::full(&id, &s)))
}

/// `POST /api/tournaments/{id}/withdraw` (session): the tournament.
///
/// Errors: `not_logged_in` (401), `not_joined`, `tournament_finished` (409), `not_found`,
/// `storage`.
async fn withdraw(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    check_id(&id)?;
    let me = account(&app, &headers).await?;
    let s = app.tournaments().withdraw(&id, me.user_id).await?;
    Ok(Json(view::full(&id, &s)))
}

/// `POST /api/tournaments/{id}/start` (session of its creator): the tournament, round 1 paired.
///
/// Errors: `not_logged_in` (401), `not_creator` (403), `too_few_players`, `already_started`,
/// `tournament_finished` (409), `not_found`, `storage`.
async fn start(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    check_id(&id)?;
    let me = account(&app, &headers).await?;
    let s = app.tournaments().start(&id, Some(me.user_id)).await?;
    Ok(Json(view::full(&id, &s)))
}

/// `POST /api/tournaments/{id}/games/{game}/seat` (session of a player of that game):
/// `{"id", "color", "token"}`, a fresh seat token for the player's seat.
///
/// Errors: `not_logged_in` (401), `not_your_game` (403), `not_found`, `storage`.
async fn seat(
    State(app): State<App>,
    Path((id, game)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    check_id(&id)?;
    let me = account(&app, &headers).await?;
    let (color, token) = app
        .tournaments()
        .claim_seat(&id, &game, &me.user_id)
        .await?;
    Ok(Json(
        json!({"id": game, "color": color.name(), "token": token}),
    ))
}

/// `GET /api/tournaments/{id}/pdn`: every game of the tournament as one PDN (`Round` tags).
///
/// Errors: `not_found`, `tournaments_unavailable`, `storage`.
async fn pdn(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    check_id(&id)?;
    let text = app.tournaments().pdn(&id).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-pdn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"crown-tournament-{id}.pdn\""),
            ),
        ],
        text,
    )
        .into_response())
}

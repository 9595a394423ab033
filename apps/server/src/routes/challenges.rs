//! The challenge endpoints, shaped like lichess's challenge API (docs/api.md, "Challenges"; the
//! rules are in [`crate::challenges`]): challenge a player, list one's challenges, read one,
//! accept, decline, cancel, and take one's seat in an accepted challenge's game. Every endpoint
//! needs a log-in session or an API token with `challenge:write` or `bot:play`
//! ([`super::bots`]).

use super::bots::{api_account, CHALLENGE_SCOPES};
use super::error::ApiError;
use super::extract::{opt_object, ClientIp, JsonBody};
use super::games::{join_url, TimeControlBody};
use crate::app::App;
use crate::challenges::{Challenge, ChallengeRequest, ChallengeSeat};
use crate::error::Error;
use crate::games::live::now_ms;
use crate::store::{SeatAccount, TimeControl};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

/// The routes of challenges.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/challenge", get(list).layer(nb!()))
        .route(
            "/challenge/{id}",
            post(create).merge(get(show).layer(nb!())),
        )
        .route("/challenge/{id}/accept", post(accept).layer(nb!()))
        .route("/challenge/{id}/decline", post(decline))
        .route("/challenge/{id}/cancel", post(cancel).layer(nb!()))
        .route("/challenge/{id}/seat", post(seat).layer(nb!()))
}

/// Body of `POST /api/challenge/{username}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateChallenge {
    /// `american` (default), `pool` or `impasse`.
    #[serde(default)]
    pub variant: Option<String>,
    /// The clock (an object with exactly `initial_ms` and `increment_ms`); untimed when absent.
    #[serde(default, deserialize_with = "opt_object::<_, TimeControlBody>")]
    pub time_control: Option<TimeControlBody>,
    /// A correspondence game's days per move (1, 2, 3, 5, 7 or 14), instead of `time_control`.
    #[serde(default)]
    pub days: Option<Value>,
    /// The challenger's colour: `black`, `white` or `random` (default).
    #[serde(default)]
    pub color: Option<String>,
    /// Rated (default `false`: casual).
    #[serde(default)]
    pub rated: bool,
}

/// The JSON answer of a seat in an accepted challenge's game: `{"id", "color", "token",
/// "join_url", "challenge"}`.
fn seat_json(seat: &ChallengeSeat, c: Option<&Challenge>, me: &SeatAccount) -> Value {
    json!({
        "id": seat.game,
        "color": seat.color.name(),
        "token": seat.token,
        "join_url": join_url(&seat.game),
        "challenge": c.map(|c| c.view(&me.user_id, now_ms())),
    })
}

/// `POST /api/challenge/{username}` (session): `201` with the challenge.
///
/// Errors: `not_logged_in` (401), `bad_json`, `bad_variant`, `bad_color`, `bad_time_control`,
/// `bad_days`, `days_and_clock`, `rated_needs_clock`, `self_challenge` (400), `not_found` (404: no such user),
/// `challenge_rate_limited`, `too_many_challenges`, `too_many_received`, `recently_declined`
/// (429), `challenges_unavailable` (503), `storage`.
async fn create(
    State(app): State<App>,
    Path(name): Path<String>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    JsonBody(req): JsonBody<CreateChallenge>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let me = api_account(&app, &headers, &CHALLENGE_SCOPES).await?;
    let dest = app.ratings().user_named(&name).await?;
    let dest = SeatAccount {
        bot: app.accounts().is_bot(&dest.id).await?,
        user_id: dest.id,
        name: dest.name,
    };
    let req = ChallengeRequest {
        variant: req.variant,
        time_control: req.time_control.map(TimeControl::from),
        days: req
            .days
            .as_ref()
            .map(crate::challenges::check_days)
            .transpose()?,
        color: req.color,
        rated: req.rated,
    };
    let c = app.challenges().create(ip, me.clone(), dest, req).await?;
    Ok((StatusCode::CREATED, Json(c.view(&me.user_id, now_ms()))))
}

/// `GET /api/challenge` (session): `{"in": [...], "out": [...]}`, the pending challenges
/// received and made, newest first. Reading them keeps one's own challenges alive.
///
/// Errors: `not_logged_in` (401), `challenges_unavailable` (503), `storage`.
async fn list(State(app): State<App>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let me = api_account(&app, &headers, &CHALLENGE_SCOPES).await?;
    let (inc, out) = app.challenges().pending(&me).await?;
    let now = now_ms();
    let view = |l: &[Challenge]| {
        l.iter()
            .map(|c| c.view(&me.user_id, now))
            .collect::<Vec<_>>()
    };
    Ok(Json(json!({"in": view(&inc), "out": view(&out)})))
}

/// `GET /api/challenge/{id}` (session of its challenger or challenged player): the challenge,
/// whatever its status. Reading it keeps the challenger's challenges alive.
///
/// Errors: `not_logged_in` (401), `not_found` (404), `challenges_unavailable`, `storage`.
async fn show(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = api_account(&app, &headers, &CHALLENGE_SCOPES).await?;
    let c = app.challenges().get(&id, &me).await?;
    app.challenges()
        .keep_alive(&me, std::slice::from_ref(&c))
        .await?;
    Ok(Json(c.view(&me.user_id, now_ms())))
}

/// `POST /api/challenge/{id}/accept` (session of the challenged player, no body): the game is
/// created; the answer is the caller's seat in it.
///
/// Errors: `not_logged_in` (401), `not_your_challenge` (403), `not_found` (404), `not_pending`
/// (409), `too_many_active_games`, `too_many_network_games` (429: the game counts against the
/// accepting client's address and network; the challenge stays pending), `too_many_games` (503),
/// `challenges_unavailable`, `storage`.
async fn accept(
    State(app): State<App>,
    Path(id): Path<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = api_account(&app, &headers, &CHALLENGE_SCOPES).await?;
    let seat = app.challenges().accept(&id, &me, client).await?;
    let c = app.challenges().get(&id, &me).await.ok();
    Ok(Json(seat_json(&seat, c.as_ref(), &me)))
}

/// The optional body of `POST /api/challenge/{id}/decline`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct DeclineBody {
    /// `generic` (default), `later`, `too_fast`, `too_slow`, `casual` or `rated`.
    #[serde(default)]
    reason: Option<String>,
}

/// `POST /api/challenge/{id}/decline` (session of the challenged player; body `{"reason"}` or
/// none): the challenge, declined.
///
/// Errors: `not_logged_in` (401), `bad_json`, `bad_reason` (400), `not_your_challenge` (403),
/// `not_found` (404), `not_pending` (409), `challenges_unavailable`, `storage`.
async fn decline(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let me = api_account(&app, &headers, &CHALLENGE_SCOPES).await?;
    let req: DeclineBody = if body.is_empty() {
        DeclineBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| Error::invalid("bad_json", format!("bad JSON body: {e}")))?
    };
    let c = app.challenges().decline(&id, &me, req.reason).await?;
    Ok(Json(c.view(&me.user_id, now_ms())))
}

/// `POST /api/challenge/{id}/cancel` (session of the challenger, no body): the challenge,
/// canceled.
///
/// Errors: `not_logged_in` (401), `not_your_challenge` (403), `not_found` (404), `not_pending`
/// (409), `challenges_unavailable`, `storage`.
async fn cancel(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = api_account(&app, &headers, &CHALLENGE_SCOPES).await?;
    let c = app.challenges().cancel(&id, &me).await?;
    Ok(Json(c.view(&me.user_id, now_ms())))
}

/// `POST /api/challenge/{id}/seat` (session of either player, no body): a fresh seat token for
/// the caller's seat in the accepted challenge's game.
///
/// Errors: `not_logged_in` (401), `not_found` (404), `not_accepted` (409), `storage`.
async fn seat(
    State(app): State<App>,
    Path(id): Path<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = api_account(&app, &headers, &CHALLENGE_SCOPES).await?;
    let seat = app.challenges().seat(&id, &me, client).await?;
    let c = app.challenges().get(&id, &me).await.ok();
    Ok(Json(seat_json(&seat, c.as_ref(), &me)))
}

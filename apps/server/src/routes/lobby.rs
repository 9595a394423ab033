//! `GET /api/lobby` (public seeks), `POST /api/games/{id}/name` (a seat's name) and
//! `POST /api/games/{id}/rematch` (docs/api.md; the rules are in [`crate::lobby`]).

use super::error::ApiError;
use super::extract::{bearer, ClientIp, JsonBody};
use super::games::{join_url, SeatGranted};
use crate::app::App;
use crate::games::live::GameView;
use crate::lobby::{self, check_name};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

/// The routes of the lobby, names and rematches.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/lobby", get(seeks).layer(nb!()))
        .route("/games/{id}/name", post(set_name))
        .route("/games/{id}/rematch", post(rematch).layer(nb!()))
}

/// `GET /api/lobby`: `{"seeks": [...]}`, newest first ([`lobby::seeks`]).
async fn seeks(State(app): State<App>) -> Result<Json<serde_json::Value>, ApiError> {
    let seeks = lobby::seeks(app.games(), app.ratings()).await?;
    Ok(Json(serde_json::json!({ "seeks": seeks })))
}

/// Body of `POST /api/games/{id}/name`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetName {
    /// The name (1..=40 characters, trimmed).
    pub name: String,
}

/// `POST /api/games/{id}/name` (seat token): set the caller's seat's name.
///
/// Errors: `bad_name`, `bad_json`, `not_found`, `missing_token`, `bad_token`, `storage`.
async fn set_name(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<SetName>,
) -> Result<Json<GameView>, ApiError> {
    let name = check_name(&req.name)?;
    let h = app.games().handle(&id).await?;
    let color = h.seat_of_token(&bearer(&headers)?).await?;
    Ok(Json(lobby::set_name(app.games(), &h, color, name).await?))
}

/// `POST /api/games/{id}/rematch` (seat token, no body): `201` with the new game's seat when the
/// caller created it, `200` when it took the seat of the rematch its opponent created
/// ([`lobby::rematch`]).
///
/// Errors: `not_found`, `missing_token`, `bad_token`, and those of [`lobby::rematch`].
async fn rematch(
    State(app): State<App>,
    Path(id): Path<String>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<SeatGranted>), ApiError> {
    let h = app.games().handle(&id).await?;
    let color = h.seat_of_token(&bearer(&headers)?).await?;
    let seat = lobby::rematch(app.games(), &h, color, client).await?;
    let status = if seat.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(SeatGranted {
            warnings: Vec::new(),
            join_url: join_url(&seat.id),
            id: seat.id,
            color: seat.color.name(),
            token: seat.token,
            game: seat.game,
        }),
    ))
}

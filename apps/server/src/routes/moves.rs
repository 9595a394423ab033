//! `POST /api/games/{id}/moves` and the seat actions: cancel, resign, abort, draw offers,
//! takebacks and APCA count claims (docs/api.md).

use super::error::ApiError;
use super::extract::{bearer, JsonBody};
use crate::app::App;
use crate::games::live::{now_ms, GameView};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;

/// The routes of moves and seat actions.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/games/{id}/moves", post(make_move))
        .route("/games/{id}/cancel", post(cancel).layer(nb!()))
        .route("/games/{id}/resign", post(resign).layer(nb!()))
        .route("/games/{id}/abort", post(abort).layer(nb!()))
        .route("/games/{id}/draw/offer", post(draw_offer).layer(nb!()))
        .route("/games/{id}/draw/accept", post(draw_accept).layer(nb!()))
        .route("/games/{id}/draw/decline", post(draw_decline).layer(nb!()))
        .route("/games/{id}/count", post(count_claim).layer(nb!()))
        .route(
            "/games/{id}/takeback/request",
            post(takeback_request).layer(nb!()),
        )
        .route(
            "/games/{id}/takeback/accept",
            post(takeback_accept).layer(nb!()),
        )
        .route(
            "/games/{id}/takeback/decline",
            post(takeback_decline).layer(nb!()),
        )
}

/// Body of `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MakeMove {
    /// The move in Crown notation (`11-15`, `11x18x25`, `22-18`, `6>10`, `x14`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Plies played before this move, if the client wants a stale request refused.
    #[serde(default)]
    pub ply: Option<usize>,
}

async fn make_move(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<MakeMove>,
) -> Result<Json<GameView>, ApiError> {
    let h = app.games().handle_for_change(&id).await?;
    let color = app.games().changer_seat(&h, &bearer(&headers)?).await?;
    if let Some(p) = req.ply {
        // A retry of a move already committed (its reply was lost, e.g. `408 timeout`) is
        // answered like the first time instead of `stale_ply`.
        let live = h.live.lock().await;
        if live.already_played(color, &req.mv, p) {
            return Ok(Json(live.view(now_ms(), Some(color))));
        }
    }
    let (mv, ply) = (req.mv.clone(), req.ply);
    match app
        .games()
        .mutate(&h, "move", Some(color), move |live, now| {
            live.play(color, &req.mv, req.ply, now)
        })
        .await
    {
        Ok((_, view)) => Ok(Json(view)),
        // The move may have been committed since the check above: by a twin of this request
        // racing it (a retry sent before the first try was answered; a game-ending move then
        // leaves the twin `game_over`), or, with a shared store, on another instance (this
        // copy was behind, the move lost the version race and was refused on the reloaded
        // game). If the game now holds this very move at `ply`, the request is answered like
        // the first time, as above.
        Err(e) => {
            let live = h.live.lock().await;
            match ply {
                Some(p) if live.already_played(color, &mv, p) => {
                    Ok(Json(live.view(now_ms(), Some(color))))
                }
                _ => Err(e.into()),
            }
        }
    }
}

/// Which seat action a route performs.
#[derive(Clone, Copy, Debug)]
enum Action {
    Cancel,
    Resign,
    Abort,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    TakebackRequest,
    TakebackAccept,
    TakebackDecline,
    CountClaim,
}

async fn seat_action(
    app: App,
    id: String,
    headers: HeaderMap,
    action: Action,
) -> Result<Json<GameView>, ApiError> {
    let h = app.games().handle_for_change(&id).await?;
    let color = app.games().changer_seat(&h, &bearer(&headers)?).await?;
    let event = match action {
        Action::Cancel => "cancel",
        Action::Resign => "resign",
        Action::Abort => "abort",
        Action::DrawOffer => "draw_offer",
        Action::DrawAccept => "draw_accept",
        Action::DrawDecline => "draw_decline",
        Action::TakebackRequest => "takeback_request",
        Action::TakebackAccept => "takeback_accept",
        Action::TakebackDecline => "takeback_decline",
        Action::CountClaim => "count_claim",
    };
    let engine_opponent = h.live.lock().await.engine_color() == Some(color.opposite());
    let (_, view) = app
        .games()
        .mutate(&h, event, Some(color), move |live, now| {
            match action {
                Action::Cancel => live.cancel(color, now)?,
                Action::Resign => live.resign(color, now)?,
                Action::Abort => live.abort(color, now)?,
                Action::DrawOffer => {
                    live.offer_draw(color, now)?;
                }
                Action::DrawAccept => live.accept_draw(color, now)?,
                Action::DrawDecline => live.decline_draw(color, now)?,
                Action::TakebackRequest => {
                    live.request_takeback(color, now)?;
                    // The engine grants takebacks at once.
                    if engine_opponent {
                        live.accept_takeback(color.opposite(), now)?;
                    }
                }
                Action::TakebackAccept => {
                    live.accept_takeback(color, now)?;
                }
                Action::TakebackDecline => live.decline_takeback(color, now)?,
                Action::CountClaim => {
                    live.claim_count(color, now)?;
                }
            }
            Ok(())
        })
        .await?;
    Ok(Json(view))
}

macro_rules! action_route {
    ($name:ident, $action:expr) => {
        async fn $name(
            State(app): State<App>,
            Path(id): Path<String>,
            headers: HeaderMap,
        ) -> Result<Json<GameView>, ApiError> {
            seat_action(app, id, headers, $action).await
        }
    };
}

action_route!(cancel, Action::Cancel);
action_route!(resign, Action::Resign);
action_route!(abort, Action::Abort);
action_route!(draw_offer, Action::DrawOffer);
action_route!(draw_accept, Action::DrawAccept);
action_route!(draw_decline, Action::DrawDecline);
action_route!(takeback_request, Action::TakebackRequest);
action_route!(takeback_accept, Action::TakebackAccept);
action_route!(takeback_decline, Action::TakebackDecline);
action_route!(count_claim, Action::CountClaim);

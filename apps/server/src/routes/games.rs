//! `POST /api/games` (create), `GET /api/games` (list), `GET /api/games/{id}`, `POST
//! /api/games/{id}/join` and `GET /api/games/{id}/pdn` (docs/api.md).

use super::error::ApiError;
use super::extract::{bearer, opt_object, ApiQuery, ClientIp, JsonBody};
use crate::app::App;
use crate::games::live::{now_ms, GameView};
use crate::games::GameRequest;
use crate::store::TimeControl;
use crate::token::random_hex;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

/// The routes of games: create, list, read, join, export.
pub fn routes() -> Router<App> {
    Router::new()
        .route(
            "/games",
            post(create_game).merge(get(list_games).layer(nb!())),
        )
        .route("/games/{id}", get(get_game).layer(nb!()))
        .route("/games/{id}/join", post(join_game).layer(nb!()))
        .route("/games/{id}/pdn", get(export_pdn).layer(nb!()))
}

pub use crate::games::new_game::MAX_INITIAL_MS;

/// Body of `POST /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// `american`, `pool` or `impasse`.
    pub variant: String,
    /// Start position in PDN FEN (default: the variant's start).
    #[serde(default)]
    pub fen: Option<String>,
    /// Impasse only: `seed` (default) or `steere`.
    #[serde(default)]
    pub setup: Option<String>,
    /// `human` (default) or `engine`.
    #[serde(default)]
    pub opponent: Option<String>,
    /// Engine level 1..=10 (default `crown_ai::level::DEFAULT_LEVEL`, 4).
    #[serde(default)]
    pub level: Option<u8>,
    /// The creator's colour: `black`, `white` or `random` (default: the side that moves first).
    #[serde(default)]
    pub color: Option<String>,
    /// Time control (an object with exactly `initial_ms` and `increment_ms`); untimed when
    /// absent.
    #[serde(default, deserialize_with = "opt_object::<_, TimeControlBody>")]
    pub time_control: Option<TimeControlBody>,
    /// `true`: a public seek, listed by `GET /api/games` while its seat is open. `false`
    /// (default): private, reachable only through its link.
    #[serde(default)]
    pub public: bool,
    /// The creator's name, shown on boards and written in PDN (1..=40 characters).
    #[serde(default)]
    pub name: Option<String>,
    /// `true`: a rated game (the creator and the joiner logged in, a time control, the standard
    /// start, a human opponent). Default `false`: casual.
    #[serde(default)]
    pub rated: bool,
}

/// The `time_control` of [`CreateGame`]: an object with exactly these fields.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlBody {
    /// Starting time on each clock, in ms.
    pub initial_ms: u64,
    /// Time added to a player's clock after each of their moves, in ms.
    pub increment_ms: u64,
}

impl From<CreateGame> for GameRequest {
    fn from(b: CreateGame) -> GameRequest {
        GameRequest {
            variant: b.variant,
            fen: b.fen,
            setup: b.setup,
            opponent: b.opponent,
            level: b.level,
            color: b.color,
            time_control: b.time_control.map(TimeControl::from),
            public: b.public,
            name: b.name,
            rated: b.rated,
            correspondence: false,
        }
    }
}

impl From<TimeControlBody> for TimeControl {
    fn from(t: TimeControlBody) -> TimeControl {
        TimeControl {
            initial_ms: t.initial_ms,
            increment_ms: t.increment_ms,
        }
    }
}

/// Reply to creating or joining a game.
#[derive(Debug, Serialize)]
pub struct SeatGranted {
    /// Game id.
    pub id: String,
    /// The caller's colour.
    pub color: &'static str,
    /// The caller's secret seat token: send it as `Authorization: Bearer <token>`.
    pub token: String,
    /// Link for the other player (join) and for spectators (watch).
    pub join_url: String,
    /// The game.
    pub game: GameView,
    /// What was repaired in the request's `fen` (an archive FEN with `?` as the side to move, a man
    /// on its king row read as a king), one printable line of at most 200 characters each; left
    /// out when nothing was.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Query of `GET /api/games`.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// `open`, `ongoing`, `finished` or `aborted`.
    pub status: Option<String>,
    /// At most this many: an integer 1..=500 (default 50), else `400 bad_limit` as on every
    /// endpoint with a `limit`.
    pub limit: Option<String>,
}

/// The page of game `id` for the other player (join) and for spectators (watch).
pub fn join_url(id: &str) -> String {
    format!("/g/{id}")
}

async fn create_game(
    State(app): State<App>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    JsonBody(req): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<SeatGranted>), ApiError> {
    let new = GameRequest::from(req).check(app.games().has_engine())?;
    let account = app
        .accounts()
        .seat_account(super::accounts::session_token(&headers))
        .await?;
    super::bots::refuse_bot(account.as_ref(), "create a game outside a challenge")?;
    let seated = new.seat(account)?;
    let id = random_hex(8)?;
    let token = random_hex(32)?;
    let (color, warnings) = (seated.game.color, seated.game.warnings.clone());
    let live = seated.into_live(id.clone(), token.clone(), now_ms(), &app.config);
    let h = app.games().insert(live, client).await?;
    let game = h.live.lock().await.view(now_ms(), Some(color));
    Ok((
        StatusCode::CREATED,
        Json(SeatGranted {
            join_url: join_url(&id),
            id,
            color: color.name(),
            token,
            game,
            warnings,
        }),
    ))
}

async fn list_games(
    State(app): State<App>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<serde_json::Value>, ApiError> {
    if let Some(s) = &q.status {
        if !matches!(s.as_str(), "open" | "ongoing" | "finished" | "aborted") {
            return Err(ApiError::bad_request(
                "bad_status",
                format!(
                    "status must be 'open', 'ongoing', 'finished' or 'aborted', not {}",
                    crate::error::echo(s)
                ),
            ));
        }
    }
    let limit = crate::ratings::check_limit(q.limit.as_deref(), 50, 500)?;
    let store = app.store.clone();
    let games = crate::blocking::store(move || store.list(q.status.as_deref(), limit)).await?;
    Ok(Json(serde_json::json!({ "games": games })))
}

async fn get_game(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let h = app.games().handle(&id).await?;
    let live = h.live.lock().await;
    let you = bearer(&headers).ok().and_then(|t| live.seat_of(&t));
    Ok(Json(live.view(now_ms(), you)))
}

async fn join_game(
    State(app): State<App>,
    ClientIp(client): ClientIp,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<SeatGranted>, ApiError> {
    let h = app.games().handle_for_change(&id).await?;
    let account = app
        .accounts()
        .seat_account(super::accounts::session_token(&headers))
        .await?;
    super::bots::refuse_bot(account.as_ref(), "join a game outside a challenge")?;
    let (color, token, game) = app.games().join_from(&h, client, account).await?;
    Ok(Json(SeatGranted {
        join_url: join_url(&id),
        id,
        color: color.name(),
        token,
        game,
        warnings: Vec::new(),
    }))
}

async fn export_pdn(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let h = app.games().handle(&id).await?;
    let live = h.live.lock().await;
    let text = crate::games::pdn::export(&live)?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-pdn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"crown-{id}.pdn\""),
            ),
        ],
        text,
    )
        .into_response())
}

//! HTTP routes, the WebSocket, limits and static files. See docs/api.md.

use crate::error::ApiError;
use crate::live::{now_ms, GameView, Live};
use crate::store::{Seat, TimeControl};
use crate::App;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use crown_core::{Color, ImpasseSetup, Position, Variant};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Longest time control accepted, in ms (one day).
pub const MAX_INITIAL_MS: u64 = 24 * 3600 * 1000;

/// A JSON body whose rejections are [`ApiError`]s (`bad_json`, `payload_too_large`,
/// `bad_content_type`).
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<serde_json::Value>::from_request(req, state).await {
            // Every body of this API is a JSON object: serde would also read a struct from an
            // array of its fields in order (`["11-15"]`), which the API does not document.
            Ok(Json(v)) if !v.is_object() => Err(ApiError::bad_request(
                "bad_json",
                "the body must be a JSON object (see docs/api.md)",
            )),
            Ok(Json(v)) => serde_json::from_value(v)
                .map(JsonBody)
                .map_err(|e| ApiError::bad_request("bad_json", format!("bad JSON body: {e}"))),
            Err(rej) => {
                let status = rej.status();
                let code = match status {
                    StatusCode::PAYLOAD_TOO_LARGE => "payload_too_large",
                    StatusCode::UNSUPPORTED_MEDIA_TYPE => "bad_content_type",
                    _ => "bad_json",
                };
                let status = if code == "bad_json" {
                    StatusCode::BAD_REQUEST
                } else {
                    status
                };
                Err(ApiError::new(status, code, rej.body_text()))
            }
        }
    }
}

/// Refuse a request that declares a body (`Content-Length` above 0 or any `Transfer-Encoding`)
/// on an endpoint that takes none: `400 unexpected_body`.
async fn refuse_body(req: Request, next: Next) -> Response {
    use axum::body::HttpBody;
    let h = req.headers();
    let declared = h.contains_key(header::TRANSFER_ENCODING)
        || req.body().size_hint().exact() != Some(0)
        || h.get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0");
    if declared {
        return ApiError::bad_request(
            "unexpected_body",
            format!("{} {} takes no body", req.method(), req.uri().path()),
        )
        .into_response();
    }
    next.run(req).await
}

/// Refuse a request head (request target and headers) larger than `Config::max_header_bytes / 4`
/// with the JSON error `431 headers_too_large`. Heads beyond `max_header_bytes` never reach the
/// router: the connection layer answers a bare 431 and closes.
async fn limit_head(State(app): State<App>, req: Request, next: Next) -> Response {
    let limit = (app.config.max_header_bytes / 4).max(4096);
    let size = req.uri().to_string().len()
        + req
            .headers()
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 4)
            .sum::<usize>();
    if size > limit {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!("the request head is {size} bytes; at most {limit} are accepted"),
        )
        .into_response();
    }
    next.run(req).await
}

/// A query string whose rejections are [`ApiError`]s with code `bad_query` (a value of the wrong
/// type, a negative or non-numeric number, a parameter given twice).
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> axum::extract::FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(v)) => Ok(ApiQuery(v)),
            Err(rej) => Err(ApiError::bad_request("bad_query", rej.body_text())),
        }
    }
}

/// Turn axum's empty `405 Method Not Allowed` into the JSON error `method_not_allowed` (keeping
/// the `Allow` header).
async fn json_method_not_allowed(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let resp = next.run(req).await;
    if resp.status() != StatusCode::METHOD_NOT_ALLOWED
        || resp.headers().contains_key(header::CONTENT_TYPE)
    {
        return resp;
    }
    let allow = resp.headers().get(header::ALLOW).cloned();
    let allowed = allow
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let mut e = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{method} is not allowed on {path}; allowed: {allowed}"),
    );
    e.details = Some(serde_json::json!({ "allow": allowed }));
    let mut out = e.into_response();
    if let Some(v) = allow {
        out.headers_mut().insert(header::ALLOW, v);
    }
    out
}

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
    /// Engine level 1..=10 (default 5).
    #[serde(default)]
    pub level: Option<u8>,
    /// The creator's colour: `black`, `white` or `random` (default: the side that moves first).
    #[serde(default)]
    pub color: Option<String>,
    /// Time control; untimed when absent.
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// `true`: a public seek, listed by `GET /api/games` while its seat is open. `false`
    /// (default): private, reachable only through its link.
    #[serde(default)]
    pub public: bool,
    /// The creator's name, shown on boards and written in PDN (1..=40 characters).
    #[serde(default)]
    pub name: Option<String>,
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

/// Query of `GET /api/games`.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    /// `open`, `ongoing` or `finished`.
    pub status: Option<String>,
    /// At most this many (default 50, at most 500).
    pub limit: Option<usize>,
}

/// Query of the WebSocket and `GET /api/games/{id}`.
#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    /// Optional seat token, only to tell the caller its colour.
    pub token: Option<String>,
}

pub(crate) fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "no_randomness",
            format!("the system random source failed: {e}"),
        )
    })?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

pub(crate) fn bearer(headers: &HeaderMap) -> Result<String, ApiError> {
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "missing_token",
                "this action needs a seat token: send 'Authorization: Bearer <token>'",
            )
        })?;
    // The auth scheme is case-insensitive (RFC 9110 section 11.1): `Bearer`, `bearer`, `BEARER`.
    let token = match value.trim_start().split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => rest.trim(),
        _ => "",
    };
    if token.is_empty() {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing_token",
            "the Authorization header must be 'Bearer <token>'",
        ));
    }
    Ok(token.to_string())
}

/// The seat of the caller's token in game `h`.
pub(crate) async fn caller_seat(
    h: &crate::GameHandle,
    headers: &HeaderMap,
) -> Result<Color, ApiError> {
    let token = bearer(headers)?;
    h.live.lock().await.seat_of(&token).ok_or_else(|| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "bad_token",
            "the token is not a seat of this game (spectators cannot act)",
        )
    })
}

/// [`caller_seat`] for a change, on a copy from [`App::handle_for_change`]: a token the copy
/// does not know is checked again against the stored game (it may have been seated on another
/// instance) before it is refused.
async fn changer_seat(
    app: &App,
    h: &Arc<crate::GameHandle>,
    headers: &HeaderMap,
) -> Result<Color, ApiError> {
    match caller_seat(h, headers).await {
        Ok(c) => Ok(c),
        Err(e) if e.code == "bad_token" && app.recheck(h).await? => caller_seat(h, headers).await,
        Err(e) => Err(e),
    }
}

pub(crate) fn join_url(id: &str) -> String {
    format!("/g/{id}")
}

async fn health(State(app): State<App>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "status": "ok",
        "open_games": app.open_games(),
        "engine": app.engine.is_some(),
        "pdn": crate::pdn::AVAILABLE,
        "time_ms": now_ms(),
    }))
}

/// The client's IP address, when the server knows it (`ConnectInfo` set by [`crate::serve`]).
pub struct ClientIp(pub Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

async fn create_game(
    State(app): State<App>,
    ClientIp(client): ClientIp,
    JsonBody(req): JsonBody<CreateGame>,
) -> Result<(StatusCode, Json<SeatGranted>), ApiError> {
    let variant: Variant = req
        .variant
        .parse()
        .map_err(|e| ApiError::bad_request("bad_variant", format!("{e}")))?;
    let mut warnings = Vec::new();
    let start = match (&req.fen, &req.setup) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "bad_setup",
                "give either 'fen' or 'setup', not both",
            ))
        }
        // The one FEN reader of crown-notation, the lenient way a person writes a FEN; its message
        // already says "bad FEN '…'" (once), quoting at most 60 characters.
        (Some(fen), None) => {
            let read = crown_notation::read_fen(variant, fen, crown_notation::FenPolicy::Lenient)
                .map_err(|e| ApiError::bad_request("bad_fen", e.to_string()))?;
            warnings = read.warnings;
            read.position
        }
        (None, Some(setup)) => {
            if variant != Variant::Impasse {
                return Err(ApiError::bad_request(
                    "bad_setup",
                    "'setup' applies to Impasse only",
                ));
            }
            let s: ImpasseSetup = setup
                .parse()
                .map_err(|e| ApiError::bad_request("bad_setup", format!("{e}")))?;
            Position::impasse(s)
        }
        (None, None) => Position::new(variant),
    };
    if let Some(o) = crown_core::Game::from_position(start).outcome() {
        // The wording of crown-notation's move reader for a finished game (issue 14).
        return Err(ApiError::bad_request(
            "game_already_over",
            format!("the game is over ({o}): the side to move has no legal move"),
        ));
    }
    let other = match req.opponent.as_deref().unwrap_or("human") {
        "human" => {
            if req.level.is_some() {
                return Err(ApiError::bad_request(
                    "bad_level",
                    "'level' applies to engine opponents only",
                ));
            }
            Seat::Human { token_sha256: None }
        }
        "engine" => {
            let level = req.level.unwrap_or(5);
            if !(1..=10).contains(&level) {
                return Err(ApiError::bad_request(
                    "bad_level",
                    format!("engine level must be 1..=10, not {level}"),
                ));
            }
            if app.engine.is_none() {
                return Err(ApiError::new(
                    StatusCode::NOT_IMPLEMENTED,
                    "engine_unavailable",
                    "this server was built without the engine",
                ));
            }
            Seat::Engine { level }
        }
        other => {
            return Err(ApiError::bad_request(
                "bad_opponent",
                format!("opponent must be 'human' or 'engine', not '{other}'"),
            ))
        }
    };
    let color = match req.color.as_deref() {
        None => variant.first_player(),
        Some("black") => Color::Black,
        Some("white") => Color::White,
        Some("random") => {
            let mut b = [0u8; 1];
            getrandom::fill(&mut b).map_err(|e| ApiError::storage(e.to_string()))?;
            if b[0] & 1 == 0 {
                Color::Black
            } else {
                Color::White
            }
        }
        Some(other) => {
            return Err(ApiError::bad_request(
                "bad_color",
                format!("color must be 'black', 'white' or 'random', not '{other}'"),
            ))
        }
    };
    if let Some(tc) = req.time_control {
        if tc.initial_ms == 0 || tc.initial_ms > MAX_INITIAL_MS || tc.increment_ms > 3_600_000 {
            return Err(ApiError::bad_request(
                "bad_time_control",
                format!("initial_ms must be 1..={MAX_INITIAL_MS} and increment_ms at most 3600000"),
            ));
        }
    }
    let id = random_hex(8)?;
    let token = random_hex(32)?;
    let mut live = Live::create(
        id.clone(),
        start,
        color,
        token.clone(),
        other,
        req.time_control,
        now_ms(),
    );
    live.rec.meta.public = req.public;
    if let Some(name) = &req.name {
        let name = crate::lobby::check_name(name)?;
        live.rec.meta.names.set(color, Some(name));
    }
    let h = app.insert(live, client).await?;
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
        if !matches!(s.as_str(), "open" | "ongoing" | "finished") {
            return Err(ApiError::bad_request(
                "bad_status",
                format!("status must be 'open', 'ongoing' or 'finished', not '{s}'"),
            ));
        }
    }
    let limit = q.limit.unwrap_or(50);
    if limit == 0 || limit > 500 {
        return Err(ApiError::bad_request(
            "bad_limit",
            format!("limit must be 1..=500, not {limit}"),
        ));
    }
    let store = app.store.clone();
    let games = tokio::task::spawn_blocking(move || store.list(q.status.as_deref(), limit))
        .await
        .map_err(ApiError::storage)?
        .map_err(ApiError::storage)?;
    Ok(Json(serde_json::json!({ "games": games })))
}

async fn get_game(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    let h = app.handle(&id).await?;
    let live = h.live.lock().await;
    let you = bearer(&headers).ok().and_then(|t| live.seat_of(&t));
    Ok(Json(live.view(now_ms(), you)))
}

async fn join_game(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<SeatGranted>, ApiError> {
    let h = app.handle_for_change(&id).await?;
    let token = random_hex(32)?;
    let t2 = token.clone();
    let (color, _) = app
        .mutate(&h, "join", None, move |live, now| {
            live.join(t2.clone(), now)
        })
        .await?;
    let game = h.live.lock().await.view(now_ms(), Some(color));
    Ok(Json(SeatGranted {
        join_url: join_url(&id),
        id,
        color: color.name(),
        token,
        game,
        warnings: Vec::new(),
    }))
}

async fn make_move(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<MakeMove>,
) -> Result<Json<GameView>, ApiError> {
    let h = app.handle_for_change(&id).await?;
    let color = changer_seat(&app, &h, &headers).await?;
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
        .mutate(&h, "move", Some(color), move |live, now| {
            live.play(color, &req.mv, req.ply, now)
        })
        .await
    {
        Ok((_, view)) => Ok(Json(view)),
        // With a shared store this instance's copy may have been behind: the move was played
        // against it, lost the version race and was refused on the reloaded game. If the
        // reloaded game holds this very move at `ply` (a retry sent to another instance), the
        // retry is answered like the first time, as above.
        Err(e) if e.code == "stale_ply" => {
            let live = h.live.lock().await;
            match ply {
                Some(p) if live.already_played(color, &mv, p) => {
                    Ok(Json(live.view(now_ms(), Some(color))))
                }
                _ => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// Which seat action a route performs.
#[derive(Clone, Copy, Debug)]
enum Action {
    Cancel,
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    TakebackRequest,
    TakebackAccept,
    TakebackDecline,
}

async fn seat_action(
    app: App,
    id: String,
    headers: HeaderMap,
    action: Action,
) -> Result<Json<GameView>, ApiError> {
    let h = app.handle_for_change(&id).await?;
    let color = changer_seat(&app, &h, &headers).await?;
    let event = match action {
        Action::Cancel => "cancel",
        Action::Resign => "resign",
        Action::DrawOffer => "draw_offer",
        Action::DrawAccept => "draw_accept",
        Action::DrawDecline => "draw_decline",
        Action::TakebackRequest => "takeback_request",
        Action::TakebackAccept => "takeback_accept",
        Action::TakebackDecline => "takeback_decline",
    };
    let engine_opponent = h.live.lock().await.engine_color() == Some(color.opposite());
    let (_, view) = app
        .mutate(&h, event, Some(color), move |live, now| {
            match action {
                Action::Cancel => live.cancel(color, now)?,
                Action::Resign => live.resign(color, now)?,
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
action_route!(draw_offer, Action::DrawOffer);
action_route!(draw_accept, Action::DrawAccept);
action_route!(draw_decline, Action::DrawDecline);
action_route!(takeback_request, Action::TakebackRequest);
action_route!(takeback_accept, Action::TakebackAccept);
action_route!(takeback_decline, Action::TakebackDecline);

async fn export_pdn(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let h = app.handle(&id).await?;
    let live = h.live.lock().await;
    let text = crate::pdn::export(&live)?;
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

/// One counted WebSocket of a client address; dropping it frees the place.
struct WsSlot {
    app: App,
    ip: Option<std::net::IpAddr>,
}

impl Drop for WsSlot {
    fn drop(&mut self) {
        if let Some(ip) = self.ip {
            self.app.ws_per_ip.dec(ip);
        }
    }
}

fn too_many_sockets(message: String) -> ApiError {
    ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_sockets", message)
}

async fn game_ws(
    State(app): State<App>,
    Path(id): Path<String>,
    ClientIp(client): ClientIp,
    ApiQuery(q): ApiQuery<TokenQuery>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let h = app.handle(&id).await?;
    let ws = ws.map_err(|rej| ApiError::new(rej.status(), "not_websocket", rej.body_text()))?;
    let you = match &q.token {
        Some(t) => h.live.lock().await.seat_of(t),
        None => None,
    };
    let per_game = app.config.max_ws_per_game;
    if h.tx.receiver_count() >= per_game {
        return Err(too_many_sockets(format!(
            "this game already has {per_game} WebSockets open"
        )));
    }
    if let Some(ip) = client {
        let max = app.config.max_ws_per_ip;
        if !app.ws_per_ip.try_inc(ip, max) {
            return Err(too_many_sockets(format!(
                "this address already has {max} WebSockets open"
            )));
        }
    }
    let slot = WsSlot {
        app: app.clone(),
        ip: client,
    };
    // Client messages are small (at most 4 KiB): a small read buffer instead of tungstenite's
    // 128 KiB; pushes are written at once, and a client that stops reading is dropped once
    // 256 KiB wait for it.
    Ok(ws
        .max_message_size(4096)
        .max_frame_size(4096)
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            ws_session(app, h, you, socket).await
        }))
}

async fn ws_session(
    app: App,
    h: Arc<crate::GameHandle>,
    you: Option<Color>,
    mut socket: WebSocket,
) {
    let mut rx = App::subscribe(&h);
    let mut shutdown = app.shutdown_signal();
    let snapshot = App::snapshot(&h, you).await;
    if socket.send(Message::Text(snapshot.into())).await.is_err() {
        return;
    }
    let mut ping = tokio::time::interval(Duration::from_millis(app.config.ws_ping_ms.max(100)));
    ping.tick().await;
    // Token bucket for the client's messages.
    let rate = f64::from(app.config.ws_msgs_per_sec);
    let burst = f64::from(app.config.ws_msg_burst.max(1));
    let (mut tokens, mut at) = (burst, tokio::time::Instant::now());
    loop {
        tokio::select! {
            msg = rx.recv() => match msg {
                Ok(text) => {
                    if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    // Too slow to follow every change: send the current state instead.
                    let snap = App::snapshot(&h, you).await;
                    if socket.send(Message::Text(snap.into())).await.is_err() {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            incoming = socket.recv() => {
                match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(Message::Pong(_))) => continue,
                    Some(Ok(_)) => {}
                }
                let now = tokio::time::Instant::now();
                if rate > 0.0 {
                    tokens = (tokens + now.duration_since(at).as_secs_f64() * rate).min(burst);
                    at = now;
                    if tokens < 1.0 {
                        let _ = socket.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                            code: 1008,
                            reason: "too many messages".into(),
                        }))).await;
                        return;
                    }
                    tokens -= 1.0;
                }
                if let Some(Ok(Message::Text(t))) = incoming {
                    if t.as_str().contains("\"snapshot\"") {
                        let snap = App::snapshot(&h, you).await;
                        if socket.send(Message::Text(snap.into())).await.is_err() {
                            return;
                        }
                    }
                }
            },
            _ = ping.tick() => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return;
                }
            }
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(Some(axum::extract::ws::CloseFrame {
                    code: 1012,
                    reason: "server restarting".into(),
                }))).await;
                return;
            }
        }
    }
}

async fn rate_limit(
    State(app): State<App>,
    req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let ip = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    if let Err(wait) = app.limiter.check(ip) {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many requests from this address; retry in {wait} s"),
        );
        e.details = Some(serde_json::json!({ "retry_after_s": wait }));
        let mut resp = e.into_response();
        if let Ok(v) = header::HeaderValue::from_str(&wait.to_string()) {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return Ok(resp);
    }
    Ok(next.run(req).await)
}

/// Answer `408 timeout` (JSON) when a request takes longer than the configured limit. Changes run
/// in their own task (see `App::mutate`), so a timed-out change is either fully made or not at all.
async fn request_timeout(State(app): State<App>, req: Request, next: Next) -> Response {
    let limit = Duration::from_millis(app.config.request_timeout_ms);
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(resp) => resp,
        Err(_) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            format!(
                "the request took longer than {} ms; a move may still have been made, check the game",
                limit.as_millis()
            ),
        )
        .into_response(),
    }
}

async fn api_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_route",
        "no such API endpoint (see docs/api.md)",
    )
}

/// The page served at `/` when the web UI has not been built.
pub const INDEX_HTML: &str = include_str!("index.html");

async fn builtin_index() -> Html<&'static str> {
    Html(INDEX_HTML)
}

/// The no-body guard as a layer for one route.
macro_rules! nb {
    () => {
        middleware::from_fn(refuse_body)
    };
}

/// The tracing span of a request: method and path only. The query string is never logged, so a
/// seat token sent as `?token=` (WebSocket) cannot reach the logs at any level.
fn request_span(req: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    tracing::debug_span!("request", method = %req.method(), path = %req.uri().path(), version = ?req.version())
}

/// The full router: API, WebSocket, `/health`, static files, and every limit and layer.
pub fn router(app: App) -> Router {
    let cfg = app.config.clone();
    let api = Router::new()
        .route(
            "/games",
            post(create_game).merge(get(list_games).layer(nb!())),
        )
        .route("/games/{id}", get(get_game).layer(nb!()))
        .route("/games/{id}/join", post(join_game).layer(nb!()))
        .route("/games/{id}/moves", post(make_move))
        .route("/games/{id}/cancel", post(cancel).layer(nb!()))
        .route("/games/{id}/resign", post(resign).layer(nb!()))
        .route("/games/{id}/draw/offer", post(draw_offer).layer(nb!()))
        .route("/games/{id}/draw/accept", post(draw_accept).layer(nb!()))
        .route("/games/{id}/draw/decline", post(draw_decline).layer(nb!()))
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
        .route("/games/{id}/pdn", get(export_pdn).layer(nb!()))
        .route("/lobby", get(crate::lobby::lobby).layer(nb!()))
        .route("/games/{id}/name", post(crate::lobby::set_name))
        .route(
            "/games/{id}/rematch",
            post(crate::lobby::rematch).layer(nb!()),
        )
        .route(
            "/games/{id}/chat",
            get(crate::chat::read)
                .layer(nb!())
                .merge(post(crate::chat::post)),
        )
        .fallback(api_not_found)
        .layer(middleware::from_fn_with_state(app.clone(), request_timeout))
        .route("/games/{id}/ws", get(game_ws))
        .layer(middleware::from_fn_with_state(app.clone(), rate_limit))
        .layer(axum::extract::DefaultBodyLimit::max(cfg.max_body_bytes));
    let mut router = Router::new()
        .route("/health", get(health))
        .nest("/api", api);
    match cfg.static_dir.as_ref().filter(|d| d.is_dir()) {
        Some(dir) => {
            router = router.fallback_service(crate::static_files::router(dir));
        }
        None => {
            router = router
                .route("/", get(builtin_index))
                .route("/g/{id}", get(builtin_index));
        }
    }
    router
        .layer(middleware::from_fn(json_method_not_allowed))
        .layer(middleware::from_fn_with_state(app.clone(), limit_head))
        .layer(tower_http::trace::TraceLayer::new_for_http().make_span_with(request_span))
        .with_state(app)
}

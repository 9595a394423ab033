//! The API-token and bot endpoints, shaped like lichess's bot API (docs/api.md, "API tokens"
//! and "Bot accounts"; the rules are in [`crate::bots`]): create, list and revoke personal API
//! tokens; upgrade an account to a bot; the account's event stream; a bot's game stream, moves
//! and resignation. Streams are NDJSON: one JSON object a line, and an empty line every
//! [`KEEP_ALIVE`] when nothing else was sent.

use super::accounts::session_account;
use super::error::ApiError;
use super::extract::{ClientIp, JsonBody};
use crate::app::App;
use crate::bots::streams::RECHECK;
use crate::bots::{
    bot_not_allowed, is_api_token, not_a_bot, token_json, SCOPE_BOT, SCOPE_CHALLENGE,
};
use crate::challenges::Challenge;
use crate::error::{Error, ErrorKind};
use crate::games::handle::GameHandle;
use crate::games::live::{now_ms, GameView};
use crate::games::Games;
use crate::store::SeatAccount;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use crown_core::Color;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// A stream with nothing to say for this long sends an empty line (so that proxies and clients
/// can tell a quiet stream from a dead one).
pub const KEEP_ALIVE: Duration = Duration::from_secs(5);

/// How often the event stream looks for new challenges and games.
pub const EVENT_POLL: Duration = Duration::from_millis(500);

/// The routes of tokens and bots.
pub fn routes() -> Router<App> {
    Router::new()
        .route(
            "/account/tokens",
            post(create_token).merge(get(list_tokens).layer(nb!())),
        )
        .route("/account/tokens/{id}", delete(revoke_token).layer(nb!()))
        .route("/bot/account/upgrade", post(upgrade).layer(nb!()))
        .route("/stream/event", get(event_stream).layer(nb!()))
        .route("/bot/game/stream/{id}", get(game_stream).layer(nb!()))
        .route("/bot/game/{id}/move/{mv}", post(bot_move).layer(nb!()))
        .route("/bot/game/{id}/resign", post(bot_resign).layer(nb!()))
}

/// The API token of the request's `Authorization: Bearer` header, if it holds one (a seat
/// token is not one).
fn api_bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    match value.trim_start().split_once(' ') {
        Some((scheme, rest))
            if scheme.eq_ignore_ascii_case("bearer") && is_api_token(rest.trim()) =>
        {
            Some(rest.trim().to_string())
        }
        _ => None,
    }
}

/// The account of the request: its API token's if it has one with one of `scopes`, else its
/// session's.
///
/// # Errors
/// `bad_api_token`, `not_logged_in` (401), `missing_scope` (403), `accounts_unavailable`,
/// `storage`.
pub(super) async fn api_account(
    app: &App,
    headers: &HeaderMap,
    scopes: &[&str],
) -> Result<SeatAccount, Error> {
    match api_bearer(headers) {
        Some(token) => app.bots().authenticate(&token, scopes).await,
        None => session_account(app, headers).await,
    }
}

/// Whether the credentials of `headers` still make the request account `me` with one of
/// `scopes` (an open stream's check: a token revoked, a session ended or a scope gone ends
/// it; a store failure does not).
async fn still_holds(app: &App, headers: &HeaderMap, scopes: &[&str], me: &SeatAccount) -> bool {
    match api_account(app, headers, scopes).await {
        Ok(a) => a.user_id == me.user_id && (a.bot || !me.bot),
        Err(e) => e.kind != ErrorKind::Unauthenticated && e.code != "missing_scope",
    }
}

/// The scopes that may use the challenge endpoints.
pub(super) const CHALLENGE_SCOPES: [&str; 2] = [SCOPE_CHALLENGE, SCOPE_BOT];

/// The bot account of the request (token with `bot:play`, or session).
///
/// # Errors
/// Those of [`api_account`], `not_a_bot` (403).
async fn bot_account(app: &App, headers: &HeaderMap) -> Result<SeatAccount, Error> {
    let me = api_account(app, headers, &[SCOPE_BOT]).await?;
    if !me.bot {
        return Err(not_a_bot());
    }
    Ok(me)
}

/// Refuse a bot account where bots may not go: `403 bot_not_allowed` saying `what`.
///
/// # Errors
/// `bot_not_allowed`.
pub(super) fn refuse_bot(account: Option<&SeatAccount>, what: &str) -> Result<(), Error> {
    if account.is_some_and(|a| a.bot) {
        return Err(bot_not_allowed(what));
    }
    Ok(())
}

/// Body of `POST /api/account/tokens`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateToken {
    /// What the owner remembers it by.
    description: String,
    /// The scopes: `bot:play`, `challenge:write`.
    scopes: Vec<String>,
}

/// `POST /api/account/tokens` `{"description", "scopes"}` (session only): `201` with the
/// token's id, description, scopes and, this once, the token itself (`token`).
///
/// Errors: `not_logged_in` (401), `bad_json`, `bad_description`, `bad_scopes` (400),
/// `too_many_tokens` (409), `accounts_unavailable` (503), `storage`.
async fn create_token(
    State(app): State<App>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<CreateToken>,
) -> Result<Response, ApiError> {
    let me = session_account(&app, &headers).await?;
    let (rec, secret) = app
        .bots()
        .create_token(&me, &req.description, req.scopes)
        .await?;
    let mut body = token_json(&rec);
    body["token"] = Value::String(secret);
    let mut resp = (StatusCode::CREATED, Json(body)).into_response();
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(resp)
}

/// `GET /api/account/tokens` (session only): `{"tokens": [...]}`, oldest first, without the
/// tokens themselves.
///
/// Errors: `not_logged_in` (401), `accounts_unavailable` (503), `storage`.
async fn list_tokens(State(app): State<App>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let me = session_account(&app, &headers).await?;
    let tokens = app.bots().tokens(&me).await?;
    Ok(Json(
        json!({"tokens": tokens.iter().map(token_json).collect::<Vec<_>>()}),
    ))
}

/// `DELETE /api/account/tokens/{id}` (session only): `204`; the token stops working at once.
///
/// Errors: `not_logged_in` (401), `not_found` (404), `accounts_unavailable` (503), `storage`.
async fn revoke_token(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let me = session_account(&app, &headers).await?;
    app.bots().revoke(&me, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/bot/account/upgrade` (session, or token with `bot:play`; no body): the account
/// becomes a bot, for good. `200 {"user": {"id", "name", "title": "BOT"}}`.
///
/// Errors: `bad_api_token`, `not_logged_in` (401), `missing_scope` (403), `already_bot`,
/// `has_games` (409), `accounts_unavailable` (503), `storage`.
async fn upgrade(State(app): State<App>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let me = api_account(&app, &headers, &[SCOPE_BOT]).await?;
    app.bots().upgrade(&me).await?;
    Ok(Json(
        json!({"user": {"id": me.user_id, "name": me.name, "title": "BOT"}}),
    ))
}

/// An NDJSON response whose lines are sent through the returned channel; the response ends
/// when the sender is dropped, and the sender fails once the client is gone.
fn ndjson() -> (mpsc::Sender<Bytes>, Response) {
    let (tx, rx) = mpsc::channel::<Bytes>(32);
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|b| (Ok::<_, std::convert::Infallible>(b), rx))
    });
    let mut resp = Response::new(Body::from_stream(stream));
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // nginx: pass each line on at once.
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    (tx, resp)
}

/// `v` as one NDJSON line.
fn line(v: &Value) -> Bytes {
    let mut s = v.to_string();
    s.push('\n');
    Bytes::from(s)
}

/// The colour `me` plays in game `h`.
///
/// # Errors
/// `not_your_game` (403).
async fn seat_color(h: &Arc<GameHandle>, me: &SeatAccount) -> Result<Color, Error> {
    let live = h.live.lock().await;
    Color::ALL
        .into_iter()
        .find(|c| {
            live.rec
                .meta
                .accounts
                .get(*c)
                .is_some_and(|a| a.user_id == me.user_id)
        })
        .ok_or_else(|| {
            Error::new(
                ErrorKind::NotSeated,
                "not_your_game",
                "this account plays neither seat of this game",
            )
        })
}

/// Whether the game of `v` has ended (finished or aborted).
fn over(v: &GameView) -> bool {
    v.outcome.is_some() || matches!(v.status.as_str(), "finished" | "aborted")
}

/// The `gameState` line of view `v`.
fn game_state(v: &GameView) -> Value {
    let clock = v.clock.as_ref();
    json!({
        "type": "gameState",
        "moves": v.moves.join(" "),
        "ply": v.ply,
        "fen": v.fen,
        "side_to_move": v.side_to_move,
        "btime": clock.map(|c| c.black_ms),
        "wtime": clock.map(|c| c.white_ms),
        "binc": clock.map(|c| c.increment_ms),
        "winc": clock.map(|c| c.increment_ms),
        "status": if over(v) { v.status.as_str() } else { "started" },
        "winner": v.outcome.as_ref().and_then(|o| o.winner),
        "result": v.outcome.as_ref().map(|o| o.result.as_str()),
        "reason": v.outcome.as_ref().map(|o| o.reason.as_str()),
        "draw_offer": v.draw_offer,
    })
}

/// The `gameFull` line of view `v`.
fn game_full(v: &GameView) -> Value {
    let player = |a: &Option<crate::games::live::AccountView>| {
        a.as_ref()
            .map(|a| json!({"name": a.name, "title": a.title, "rating": a.rating}))
    };
    json!({
        "type": "gameFull",
        "id": v.id,
        "variant": {"key": v.variant},
        "rated": v.rated,
        "speed": v.clock.as_ref().map(|c| crate::ratings::Speed::of(crate::store::TimeControl {
            initial_ms: c.initial_ms,
            increment_ms: c.increment_ms,
        }).name()),
        "clock": v.clock.as_ref().map(|c| json!({"initial": c.initial_ms, "increment": c.increment_ms})),
        "black": player(&v.accounts.black),
        "white": player(&v.accounts.white),
        "initial_fen": v.start_fen,
        "created_ms": v.created_ms,
        "state": game_state(v),
    })
}

/// `GET /api/bot/game/stream/{id}` (bot: token with `bot:play`, or session): NDJSON, a
/// `gameFull` line, then a `gameState` line after each change of the moves, the status or the
/// draw offer; the stream ends after the game ends.
///
/// Errors (before the stream starts): `bad_api_token`, `not_logged_in` (401), `missing_scope`,
/// `not_a_bot`, `not_your_game` (403), `not_found` (404), `storage`.
async fn game_stream(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let me = bot_account(&app, &headers).await?;
    let h = app.games().handle(&id).await?;
    let color = seat_color(&h, &me).await?;
    let mut guard = app.bots().streams().watch(&me.user_id);
    let mut rx = Games::subscribe(&h);
    let first = h.live.lock().await.view(now_ms(), Some(color));
    let (tx, resp) = ndjson();
    let mut shutdown = app.shutdown_signal();
    tokio::spawn(async move {
        if tx.send(line(&game_full(&first))).await.is_err() {
            return;
        }
        let key = |v: &GameView| (v.ply, v.status.clone(), v.draw_offer, v.outcome.is_some());
        let mut last = key(&first);
        let mut done = over(&first);
        let mut recheck_at = tokio::time::Instant::now() + RECHECK;
        while !done {
            let check = tokio::select! {
                r = rx.recv() => {
                    if let Err(tokio::sync::broadcast::error::RecvError::Closed) = r {
                        break;
                    }
                    tokio::time::Instant::now() >= recheck_at
                }
                () = tokio::time::sleep(KEEP_ALIVE) => {
                    if tx.send(Bytes::from_static(b"\n")).await.is_err() {
                        break;
                    }
                    tokio::time::Instant::now() >= recheck_at
                }
                () = guard.changed() => true,
                _ = shutdown.changed() => break,
            };
            if check {
                if !still_holds(&app, &headers, &[SCOPE_BOT], &me).await {
                    break;
                }
                recheck_at = tokio::time::Instant::now() + RECHECK;
            }
            let v = h.live.lock().await.view(now_ms(), Some(color));
            if key(&v) != last {
                last = key(&v);
                done = over(&v);
                if tx.send(line(&game_state(&v))).await.is_err() {
                    break;
                }
            }
        }
    });
    Ok(resp)
}

/// The `gameStart` (or with `kind` `gameFinish`) line of game `v` played by `color`.
fn game_event(kind: &str, v: &GameView, color: Color) -> Value {
    let opp = match color {
        Color::Black => v.accounts.white.as_ref(),
        Color::White => v.accounts.black.as_ref(),
    };
    json!({
        "type": kind,
        "game": {
            "id": v.id,
            "game_id": v.id,
            "color": color.name(),
            "variant": v.variant,
            "rated": v.rated,
            "fen": v.fen,
            "is_my_turn": !over(v) && v.side_to_move == color.name(),
            "opponent": opp.map(|a| json!({"name": a.name, "title": a.title, "rating": a.rating})),
            "status": if over(v) { v.status.as_str() } else { "started" },
            "winner": v.outcome.as_ref().and_then(|o| o.winner),
        },
    })
}

/// What the event stream has told one client.
#[derive(Default)]
struct Told {
    /// Challenge id → the status last told (`pending`, or the answer).
    challenges: HashMap<String, String>,
    /// The unfinished games told by `gameStart`, with the caller's colour.
    games: HashMap<String, Color>,
}

impl Told {
    /// The lines about `list` (the caller's recent challenges, newest first) not told yet.
    fn challenge_lines(&mut self, me: &SeatAccount, list: &[Challenge], now: u64) -> Vec<Value> {
        let mut out = Vec::new();
        for c in list.iter().rev() {
            let status = c.status(now).to_string();
            let before = self.challenges.get(&c.rec.id).cloned();
            let kind = match (before.as_deref(), status.as_str()) {
                (None, "pending") => Some("challenge"),
                (Some("pending"), "declined") => Some("challengeDeclined"),
                (Some("pending"), "canceled" | "expired") => Some("challengeCanceled"),
                _ => None,
            };
            if let Some(kind) = kind {
                out.push(json!({"type": kind, "challenge": c.view(&me.user_id, now)}));
            }
            self.challenges.insert(c.rec.id.clone(), status);
        }
        out
    }
}

/// One round of the event stream: the lines of the challenges and games that changed.
async fn event_round(
    app: &App,
    me: &SeatAccount,
    since: u64,
    told: &mut Told,
) -> Result<Vec<Value>, Error> {
    let mut out = Vec::new();
    match app.challenges().recent(me, since).await {
        Ok(list) => {
            app.challenges().keep_alive(me, &list).await?;
            out.extend(told.challenge_lines(me, &list, now_ms()));
        }
        // A store without challenges still has games.
        Err(e) if e.code == "challenges_unavailable" => {}
        Err(e) => return Err(e),
    }
    let ids: HashSet<String> = app.bots().games_of(me).await?.into_iter().collect();
    for id in &ids {
        if told.games.contains_key(id) {
            continue;
        }
        let Ok(h) = app.games().handle(id).await else {
            continue;
        };
        let Ok(color) = seat_color(&h, me).await else {
            continue;
        };
        let v = h.live.lock().await.view(now_ms(), Some(color));
        out.push(game_event("gameStart", &v, color));
        told.games.insert(id.clone(), color);
    }
    let ended: Vec<(String, Color)> = told
        .games
        .iter()
        .filter(|(id, _)| !ids.contains(*id))
        .map(|(id, c)| (id.clone(), *c))
        .collect();
    for (id, color) in ended {
        told.games.remove(&id);
        if let Ok(h) = app.games().handle(&id).await {
            let v = h.live.lock().await.view(now_ms(), Some(color));
            out.push(game_event("gameFinish", &v, color));
        }
    }
    Ok(out)
}

/// `GET /api/stream/event` (token with `bot:play` or `challenge:write`, or session): NDJSON,
/// one line per event of the account: `challenge` (made to or by it, pending),
/// `challengeDeclined`, `challengeCanceled` (canceled or expired), `gameStart` (each unfinished
/// game of the account when the stream opens, then each new one), `gameFinish`; an empty line
/// every [`KEEP_ALIVE`] of silence. Reading it keeps the account's own challenges alive.
///
/// Errors (before the stream starts): `bad_api_token`, `not_logged_in` (401), `missing_scope`
/// (403), `accounts_unavailable` (503), `storage`.
async fn event_stream(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let me = api_account(&app, &headers, &CHALLENGE_SCOPES).await?;
    let mut guard = app.bots().streams().open_event(&me.user_id, ip)?;
    let since = now_ms();
    let mut told = Told::default();
    // The first round before the answer: an error is the request's.
    let first = event_round(&app, &me, since, &mut told).await?;
    let (tx, resp) = ndjson();
    let mut shutdown = app.shutdown_signal();
    tokio::spawn(async move {
        let mut lines = first;
        let mut quiet = tokio::time::Instant::now();
        let mut recheck_at = quiet + RECHECK;
        loop {
            for l in &lines {
                if tx.send(line(l)).await.is_err() {
                    return;
                }
                quiet = tokio::time::Instant::now();
            }
            if quiet.elapsed() >= KEEP_ALIVE {
                if tx.send(Bytes::from_static(b"\n")).await.is_err() {
                    return;
                }
                quiet = tokio::time::Instant::now();
            }
            let mut check = false;
            tokio::select! {
                () = tokio::time::sleep(EVENT_POLL) => {}
                () = guard.changed() => check = true,
                () = tx.closed() => return,
                _ = shutdown.changed() => return,
            }
            if check || tokio::time::Instant::now() >= recheck_at {
                if !still_holds(&app, &headers, &CHALLENGE_SCOPES, &me).await {
                    return;
                }
                recheck_at = tokio::time::Instant::now() + RECHECK;
            }
            lines = match event_round(&app, &me, since, &mut told).await {
                Ok(l) => l,
                Err(e) => {
                    tracing::warn!(user = %me.user_id, code = e.code, "event stream round failed");
                    Vec::new()
                }
            };
        }
    });
    Ok(resp)
}

/// The bot of the request makes change `event` (`f`) in game `id` as its colour.
async fn bot_change(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    event: &'static str,
    f: impl Fn(&mut crate::games::live::Live, Color, u64) -> Result<(), Error> + Send + 'static,
) -> Result<Json<Value>, ApiError> {
    let me = bot_account(app, headers).await?;
    let h = app.games().handle_for_change(id).await?;
    let color = seat_color(&h, &me).await?;
    app.games()
        .mutate(&h, event, Some(color), move |live, now| f(live, color, now))
        .await?;
    Ok(Json(json!({"ok": true})))
}

/// `POST /api/bot/game/{id}/move/{move}` (bot; no body): play `move` (the site's move text,
/// `11-15`, `11x18x25`; Impasse's `>` as `%3E`). `200 {"ok": true}`.
///
/// Errors: `bad_api_token`, `not_logged_in` (401), `missing_scope`, `not_a_bot`,
/// `not_your_game` (403), `not_found` (404), `not_your_turn`, `game_over` (409), `illegal_move`,
/// `ambiguous_move`, `bad_move_syntax` (422), `storage`.
async fn bot_move(
    State(app): State<App>,
    Path((id, mv)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    bot_change(&app, &id, &headers, "move", move |live, color, now| {
        live.play(color, &mv, None, now).map(|_| ())
    })
    .await
}

/// `POST /api/bot/game/{id}/resign` (bot; no body): resign. `200 {"ok": true}`.
///
/// Errors: `bad_api_token`, `not_logged_in` (401), `missing_scope`, `not_a_bot`,
/// `not_your_game` (403), `not_found` (404), `game_over` (409), `storage`.
async fn bot_resign(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    bot_change(&app, &id, &headers, "resign", |live, color, now| {
        live.resign(color, now)
    })
    .await
}

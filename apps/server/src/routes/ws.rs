//! `GET /api/games/{id}/ws`: the WebSocket pushing every change of a game to players and
//! spectators, with per-address and per-game caps and a message rate limit (docs/api.md).

use super::error::ApiError;
use super::extract::{ApiQuery, ClientIp};
use crate::app::App;
use crate::handle::GameHandle;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use crown_core::Color;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;

/// The WebSocket route (outside the request time limit: a socket lives long).
pub fn routes() -> Router<App> {
    Router::new().route("/games/{id}/ws", get(game_ws))
}

/// Query of the WebSocket and `GET /api/games/{id}`.
#[derive(Debug, Deserialize)]
pub struct TokenQuery {
    /// Optional seat token, only to tell the caller its colour.
    pub token: Option<String>,
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

async fn ws_session(app: App, h: Arc<GameHandle>, you: Option<Color>, mut socket: WebSocket) {
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

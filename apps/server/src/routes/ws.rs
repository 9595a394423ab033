//! `GET /api/games/{id}/ws`: the WebSocket pushing every change of a game to players and
//! spectators, with per-address, per-game and per-network-per-game caps and a message rate
//! limit (docs/api.md).

use super::error::ApiError;
use super::extract::{ApiQuery, ClientIp};
use crate::accounts::network::network_block;
use crate::app::App;
use crate::games::handle::GameHandle;
use crate::games::Games;
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

/// Largest message a client may send, in bytes: a larger one closes the socket with code 1009.
pub const MAX_WS_MESSAGE_BYTES: usize = 4096;

/// Largest message or frame the WebSocket layer reads whole before the size check: messages
/// between [`MAX_WS_MESSAGE_BYTES`] and this are read and answered with a clean close 1009; a
/// larger frame is refused on its header, with a close 1009 sent but its payload left unread
/// (the kernel may then reset the connection).
const WS_READ_LIMIT_BYTES: usize = 64 * 1024;

/// How long a socket the server closes waits for the client's close frame (the closing
/// handshake) before it is dropped.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// WebSockets one seat of a game may hold open with its token (a player's phone and computer,
/// and a reconnect overlapping the socket it replaces): they are not counted by
/// `--max-ws-per-game`, so that spectators cannot keep the players from their live updates, and
/// this bounds them instead.
pub const MAX_WS_PER_SEAT: usize = 4;

/// Pings a socket may leave unanswered: at the next ping after this many without a word from
/// the client (a pong or any message), the socket is dropped, so that a client gone silently
/// (a phone that lost its network) frees its place of [`MAX_WS_PER_SEAT`], of the game's
/// spectators and of its address within about three `ws_ping_ms` (60 s by default).
pub const MAX_UNANSWERED_PINGS: u32 = 2;

/// One counted WebSocket of a client address and of a game (a spectator's place, with its
/// network's place among the game's spectators, or a place of the seat `seat`); dropping it
/// frees every place it took.
struct WsSlot {
    app: App,
    ip: Option<std::net::IpAddr>,
    game: Arc<GameHandle>,
    seat: Option<Color>,
    /// The spectator's network, when it took a place of `max_spectators_per_network`.
    net: Option<std::net::IpAddr>,
}

impl WsSlot {
    /// The counter of the game's place this socket takes: its seat's, or the spectators'.
    fn game_count(game: &GameHandle, seat: Option<Color>) -> &std::sync::atomic::AtomicUsize {
        match seat {
            Some(c) => &game.seat_ws_count[c.index()],
            None => &game.ws_count,
        }
    }
}

impl Drop for WsSlot {
    fn drop(&mut self) {
        if let Some(ip) = self.ip {
            self.app.ws_per_ip.dec(ip);
        }
        if let Some(net) = self.net {
            self.game.spectators_by_net.dec(net);
        }
        WsSlot::game_count(&self.game, self.seat).fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
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
    let h = app.games().handle(&id).await?;
    let ws = ws.map_err(|rej| ApiError::new(rej.status(), "not_websocket", rej.body_text()))?;
    let you = match &q.token {
        Some(t) => h.live.lock().await.seat_of(t),
        None => None,
    };
    // A seat holder's socket takes a place of its seat (at most `MAX_WS_PER_SEAT`), never one
    // of the spectators' `max_ws_per_game`: strangers filling the game cannot cut its players
    // off. Counted at once (not by the subscriptions made after the upgrade), so that concurrent
    // upgrades never let more in.
    let (count, max, whose) = match you {
        Some(c) => (&h.seat_ws_count[c.index()], MAX_WS_PER_SEAT, "this seat"),
        None => (&h.ws_count, app.config.max_ws_per_game, "this game"),
    };
    if count
        .fetch_update(
            std::sync::atomic::Ordering::SeqCst,
            std::sync::atomic::Ordering::SeqCst,
            |n| (n < max).then_some(n + 1),
        )
        .is_err()
    {
        return Err(too_many_sockets(format!(
            "{whose} already has {max} WebSockets open"
        )));
    }
    // A spectator also takes a place of its network's few on this game, so that filling the
    // game's places takes many networks, not a few addresses' `max_ws_per_ip` each.
    let per_net = app.config.max_spectators_per_network;
    let net = client
        .filter(|_| you.is_none() && per_net > 0)
        .map(|ip| network_block(ip, app.config.signup_net_v6_prefix));
    if let Some(net) = net {
        if !h.spectators_by_net.try_inc(net, per_net) {
            count.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            return Err(too_many_sockets(format!(
                "this network already has {per_net} spectators' WebSockets open on this game"
            )));
        }
    }
    if let Some(ip) = client {
        let max = app.config.max_ws_per_ip;
        if !app.ws_per_ip.try_inc(ip, max) {
            count.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
            if let Some(net) = net {
                h.spectators_by_net.dec(net);
            }
            return Err(too_many_sockets(format!(
                "this address already has {max} WebSockets open"
            )));
        }
    }
    let slot = WsSlot {
        app: app.clone(),
        ip: client,
        game: h.clone(),
        seat: you,
        net,
    };
    // Client messages are small (at most 4 KiB, checked in `ws_session`): a small read buffer
    // instead of tungstenite's 128 KiB; pushes are written at once, and a client that stops
    // reading is dropped once 256 KiB wait for it.
    Ok(ws
        .max_message_size(WS_READ_LIMIT_BYTES)
        .max_frame_size(WS_READ_LIMIT_BYTES)
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            ws_session(app, h, you, socket).await
        }))
}

async fn ws_session(app: App, h: Arc<GameHandle>, you: Option<Color>, mut socket: WebSocket) {
    let mut rx = Games::subscribe(&h);
    let mut shutdown = app.shutdown_signal();
    let snapshot = Games::snapshot(&h, you).await;
    if socket.send(Message::Text(snapshot.into())).await.is_err() {
        return;
    }
    let mut ping = tokio::time::interval(Duration::from_millis(app.config.ws_ping_ms.max(100)));
    ping.tick().await;
    // Token bucket for the client's messages.
    let rate = f64::from(app.config.ws_msgs_per_sec);
    let burst = f64::from(app.config.ws_msg_burst.max(1));
    let (mut tokens, mut at) = (burst, tokio::time::Instant::now());
    let mut unanswered = 0u32;
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
                    let snap = Games::snapshot(&h, you).await;
                    if socket.send(Message::Text(snap.into())).await.is_err() {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            incoming = socket.recv() => {
                let msg = match incoming {
                    None => return,
                    Some(Err(e)) => {
                        // The client broke the protocol: fail the connection with the close
                        // code that says why (RFC 6455 7.4.1) rather than a bare EOF.
                        if let Some((code, reason)) = error_close(e) {
                            close(socket, code, reason).await;
                        }
                        return;
                    }
                    Some(Ok(Message::Close(_))) => {
                        // The WebSocket layer queued the close frame answering the client's:
                        // send it before the socket goes.
                        let _ = futures_util::SinkExt::flush(&mut socket).await;
                        return;
                    }
                    Some(Ok(m)) => m,
                };
                // Any message shows the client is there, the pong to our ping first of all.
                unanswered = 0;
                let len = match &msg {
                    Message::Text(t) => t.len(),
                    Message::Binary(b) | Message::Ping(b) | Message::Pong(b) => b.len(),
                    Message::Close(_) => 0,
                };
                if len > MAX_WS_MESSAGE_BYTES {
                    close(socket, 1009, "message too big").await;
                    return;
                }
                // Every message counts, pings and unsolicited pongs too (a pong answering the
                // server's ping every `ws_ping_ms` is far below the rate).
                let now = tokio::time::Instant::now();
                if rate > 0.0 {
                    tokens = (tokens + now.duration_since(at).as_secs_f64() * rate).min(burst);
                    at = now;
                    if tokens < 1.0 {
                        close(socket, 1008, "too many messages").await;
                        return;
                    }
                    tokens -= 1.0;
                }
                if let Message::Text(t) = msg {
                    if t.as_str().contains("\"snapshot\"") {
                        let snap = Games::snapshot(&h, you).await;
                        if socket.send(Message::Text(snap.into())).await.is_err() {
                            return;
                        }
                    }
                }
            },
            _ = ping.tick() => {
                if unanswered >= MAX_UNANSWERED_PINGS {
                    tracing::debug!(game = %h.id, "websocket dropped: pings unanswered");
                    // A close frame for a client that is only slow, without waiting for its
                    // answer (a gone client sends none) nor on a full send buffer.
                    let frame = axum::extract::ws::CloseFrame {
                        code: 1001,
                        reason: "no answer to pings".into(),
                    };
                    let send = socket.send(Message::Close(Some(frame)));
                    let _ = tokio::time::timeout(Duration::from_secs(1), send).await;
                    return;
                }
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    return;
                }
                unanswered += 1;
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

/// The close code and reason answering a read error of the WebSocket layer: `1009` for a
/// message or frame over its size limit, `1007` for a text message (or close reason) that is not
/// UTF-8, `1002` for a protocol violation (a reserved opcode or reserved bits, an unmasked client
/// frame, a fragmented or oversized control frame, a continuation out of place); `None` when the
/// connection itself failed (nothing can be sent any more).
fn error_close(e: axum::Error) -> Option<(u16, &'static str)> {
    use tokio_tungstenite::tungstenite::error::ProtocolError;
    use tokio_tungstenite::tungstenite::Error as WsError;
    match e.into_inner().downcast_ref::<WsError>()? {
        WsError::Capacity(_) => Some((1009, "message too big")),
        WsError::Utf8(_) => Some((1007, "invalid UTF-8")),
        WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake) => None,
        WsError::Protocol(_) => Some((1002, "protocol error")),
        _ => None,
    }
}

/// Close `socket` with `code` and `reason`, then read (and drop) what the client still sends
/// until its close frame, for at most [`CLOSE_WAIT`] and 64 messages: the closing handshake, so the client gets
/// the code instead of a connection reset.
async fn close(mut socket: WebSocket, code: u16, reason: &'static str) {
    let frame = axum::extract::ws::CloseFrame {
        code,
        reason: reason.into(),
    };
    if socket.send(Message::Close(Some(frame))).await.is_err() {
        return;
    }
    let _ = tokio::time::timeout(CLOSE_WAIT, async {
        // At most a few messages: a flooding client is not read for the whole wait.
        for _ in 0..64 {
            match socket.recv().await {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
}

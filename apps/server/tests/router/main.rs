//! Router tests in process (`tower::ServiceExt::oneshot`): every endpoint and each of its errors.
//!
//! One test binary (each test binary links the whole server), one module per feature:
//! - [`service`]: health, the web UI's pages and static files, the WebSocket route;
//! - [`games`]: creating, listing, getting, joining and cancelling games, open games that expire,
//!   games nobody moves in, which games the list shows;
//! - [`pdn`]: the PDN export of a game;
//! - [`moves`]: playing moves: whose token, which moves, when, retried moves;
//! - [`offers`]: resigning, draw offers, takeback requests (and the time a takeback leaves spent);
//! - [`counts`]: the APCA counts of pool games (rules 27 and 28): claims, expiry, refusals,
//!   restart;
//! - [`clocks`]: a fallen flag, the side to move's clock, time spent loading games;
//! - [`engine`]: games against the server's engine: replies off the runtime and within the clock,
//!   stale searches, the engine's clock while it waits for a worker;
//! - [`limits`]: body and request-head size, open games, request rate, what one address and one
//!   network may hold (open games, public seeks, the lobby's places, the engine's turns);
//! - [`requests`]: malformed requests (bad queries, wrong methods, bodies where none belongs, JSON
//!   that is not the object asked for) answer the JSON error shape; the `Bearer` scheme's case.
//!
//! The helpers the modules share (a test engine, a two-player game, a move) are here; the server
//! set-up shared with the other test files is in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod clocks;
mod counts;
mod engine;
mod games;
mod limits;
mod moves;
mod offers;
mod pdn;
mod requests;
mod service;

use axum::http::{Method, StatusCode};
use common::{send, server};
use crown_core::Game;
use crown_server::engine::MovePicker;
use crown_server::App;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;

/// Test engine: plays the first legal move (crown-core's order).
struct FirstMove;

impl MovePicker for FirstMove {
    fn pick(&self, game: &Game, _: u8, _: Option<(u64, u64)>, _: &AtomicBool) -> Option<String> {
        let mv = *game.legal_moves().first()?;
        Some(game.position().move_text(&mv))
    }
}

async fn app() -> App {
    server().start().await
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("<no error code>")
}

/// A human game with both seats taken: (id, black token, white token).
async fn two_player(app: &App, body: Value) -> (String, String, String) {
    let (s, created) = send(app, Method::POST, "/api/games", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let first = created["token"].as_str().unwrap().to_string();
    let (s, joined) = send(
        app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let second = joined["token"].as_str().unwrap().to_string();
    if created["color"] == "black" {
        (id, first, second)
    } else {
        (id, second, first)
    }
}

async fn mv(app: &App, id: &str, token: Option<&str>, text: &str) -> (StatusCode, Value) {
    send(
        app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        token,
        Some(json!({ "move": text })),
    )
    .await
}

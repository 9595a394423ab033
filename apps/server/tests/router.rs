//! Router tests in process (`tower::ServiceExt::oneshot`): every endpoint and each of its errors.

mod common;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use common::{raw, send, server};
use crown_core::{Game, Position, Variant};
use crown_server::engine::MovePicker;
use crown_server::store::SqliteStore;
use crown_server::{App, Config};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use tower::ServiceExt;

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

#[tokio::test]
async fn health_reports_ok() {
    let app = app().await;
    let (s, v) = send(&app, Method::GET, "/health", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "ok");
    assert_eq!(v["open_games"], 0);
}

#[tokio::test]
async fn create_game_gives_creator_a_secret_token() {
    let app = app().await;
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    // American rule 3: Black moves first, so the creator gets Black by default.
    assert_eq!(v["color"], "black");
    let token = v["token"].as_str().unwrap();
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(v["game"]["status"], "open");
    assert_eq!(
        v["game"]["fen"],
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(v["game"]["legal_moves"].as_array().unwrap().len(), 7);
    // The token never appears in the game view.
    assert!(!v["game"].to_string().contains(token));
    // Impasse: White moves first; the Steere setup is accepted.
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "impasse", "setup": "steere", "color": "black"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["color"], "black");
    assert_eq!(v["game"]["side_to_move"], "white");
    assert_eq!(
        v["game"]["fen"],
        "W:WK1,K3,K6,K8,26,28,29,31:B2,4,5,7,K25,K27,K30,K32"
    );
}

#[tokio::test]
async fn a_repaired_fen_comes_back_with_its_warnings() {
    let app = app().await;
    // An archive FEN: `?` as the side to move (Black, the first player in American, is taken) and
    // a White man on square 1, White's king row, which can only be a king (docs/notation.md).
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "fen": "?:W1:B14"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["game"]["fen"], "B:WK1:B14");
    let w: Vec<&str> = v["warnings"]
        .as_array()
        .expect("a warnings list")
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].contains("side to move unknown"), "{}", w[0]);
    assert!(w[1].contains("White man on 1"), "{}", w[1]);
    // A clean FEN has no warnings field.
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "fen": "B:WK1:B14"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert!(v.get("warnings").is_none(), "{v}");
}

#[tokio::test]
async fn create_game_errors_name_the_problem() {
    let app = app().await;
    let cases = [
        (
            json!({"variant": "chess"}),
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
        (
            json!({"variant": "american", "fen": "B:W99:B1"}),
            StatusCode::BAD_REQUEST,
            "bad_fen",
        ),
        (
            json!({"variant": "american", "setup": "seed"}),
            StatusCode::BAD_REQUEST,
            "bad_setup",
        ),
        (
            json!({"variant": "impasse", "setup": "nope"}),
            StatusCode::BAD_REQUEST,
            "bad_setup",
        ),
        (
            json!({"variant": "impasse", "setup": "seed", "fen": "W:W1:B2"}),
            StatusCode::BAD_REQUEST,
            "bad_setup",
        ),
        (
            json!({"variant": "american", "opponent": "cat"}),
            StatusCode::BAD_REQUEST,
            "bad_opponent",
        ),
        (
            json!({"variant": "american", "level": 3}),
            StatusCode::BAD_REQUEST,
            "bad_level",
        ),
        (
            json!({"variant": "american", "opponent": "engine", "level": 11}),
            StatusCode::BAD_REQUEST,
            "bad_level",
        ),
        (
            json!({"variant": "american", "opponent": "engine", "level": 3}),
            StatusCode::NOT_IMPLEMENTED,
            "engine_unavailable",
        ),
        (
            json!({"variant": "american", "color": "red"}),
            StatusCode::BAD_REQUEST,
            "bad_color",
        ),
        (
            json!({"variant": "american", "time_control": {"initial_ms": 0, "increment_ms": 0}}),
            StatusCode::BAD_REQUEST,
            "bad_time_control",
        ),
        // Black to move with no pieces: the game is over before it starts.
        (
            json!({"variant": "american", "fen": "B:W18:B"}),
            StatusCode::BAD_REQUEST,
            "game_already_over",
        ),
        (
            json!({"variant": "american", "colour": "black"}),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            json!({"fen": "B:W18:B14"}),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
    ];
    for (body, status, want) in cases {
        let (s, v) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
        assert_eq!((s, code(&v)), (status, want), "{body} -> {v}");
        assert!(!v["error"]["message"].as_str().unwrap().is_empty());
    }
    // Not JSON at all, and no content type.
    let req = Request::post("/api/games")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{not json"))
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_json"));
    let req = Request::post("/api/games")
        .body(Body::from(r#"{"variant":"american"}"#))
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "bad_content_type")
    );
    // Nothing was stored by any of these.
    let (_, list) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn body_larger_than_the_limit_is_refused() {
    let app = server().with(|c| c.max_body_bytes = 256).start().await;
    let big = json!({"variant": "american", "fen": "x".repeat(1000)});
    let (s, v) = send(&app, Method::POST, "/api/games", None, Some(big)).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large")
    );
}

#[tokio::test]
async fn open_game_limit_is_enforced() {
    let app = server().with(|c| c.max_open_games = 1).start().await;
    let body = json!({"variant": "pool"});
    let (s, _) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, v) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "too_many_games")
    );
}

#[tokio::test]
async fn rate_limit_refuses_bursts() {
    let app = server()
        .with(|c| {
            c.rate_per_sec = 1;
            c.rate_burst = 2;
        })
        .start()
        .await;
    for _ in 0..2 {
        let (s, _) = send(&app, Method::GET, "/api/games", None, None).await;
        assert_eq!(s, StatusCode::OK);
    }
    let (s, v) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
    // /health is not limited.
    let (s, _) = send(&app, Method::GET, "/health", None, None).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn list_games_filters_and_validates() {
    let app = app().await;
    // Public: only public and rated games are listed.
    let (id, black, _) = two_player(&app, json!({"variant": "american", "public": true})).await;
    let (s, _) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool", "public": true})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    let (_, v) = send(&app, Method::GET, "/api/games?status=finished", None, None).await;
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["id"], id.as_str());
    // White won by resignation; White moves second in American checkers, so 0-1.
    assert_eq!(games[0]["result"], "0-1");
    let (_, v) = send(
        &app,
        Method::GET,
        "/api/games?status=open&limit=1",
        None,
        None,
    )
    .await;
    assert_eq!(v["games"][0]["variant"], "pool");
    let (s, v) = send(&app, Method::GET, "/api/games?status=lost", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_status"));
    let (s, v) = send(&app, Method::GET, "/api/games?limit=0", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_limit"));
    let (s, _) = send(&app, Method::GET, "/api/games?limit=x", None, None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn get_game_and_not_found() {
    let app = app().await;
    let (id, black, white) = two_player(&app, json!({"variant": "american"})).await;
    let (s, v) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "ongoing");
    assert!(v.get("you").is_none());
    let (_, v) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(v["you"], "white");
    let (_, v) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(v["you"], "black");
    for bad in ["0000000000000000", "a-b", "x%20y"] {
        let (s, v) = send(&app, Method::GET, &format!("/api/games/{bad}"), None, None).await;
        assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"), "{bad}");
    }
    let (s, v) = send(&app, Method::GET, "/api/nothing", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "no_route"));
}

#[tokio::test]
async fn join_takes_the_open_seat_once() {
    let app = app().await;
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "color": "white"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["color"], "black");
    assert_ne!(v["token"], created["token"]);
    assert_eq!(v["game"]["status"], "ongoing");
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "seat_taken"));
    let (s, v) = send(&app, Method::POST, "/api/games/ffff/join", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

#[tokio::test]
async fn move_with_other_seats_token_or_no_token_is_refused() {
    let app = app().await;
    let (id, black, white) = two_player(&app, json!({"variant": "american"})).await;
    let (other_game, other_black, _) = two_player(&app, json!({"variant": "american"})).await;
    assert_ne!(id, other_game);
    // Black is to move: White's token may not play Black's move.
    let (s, v) = mv(&app, &id, Some(&white), "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_your_turn"));
    // No token, a garbage token, and a seat token of another game.
    let (s, v) = mv(&app, &id, None, "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let req = Request::post(format!("/api/games/{id}/moves"))
        .header(header::AUTHORIZATION, "Basic abc")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"move":"11-15"}"#))
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let (s, v) = mv(&app, &id, Some("deadbeef"), "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "bad_token"));
    let (s, v) = mv(&app, &id, Some(&other_black), "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "bad_token"));
    // Nothing changed.
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 0);
    // The right token plays.
    let (s, g) = mv(&app, &id, Some(&black), "11-15").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"], json!(["11-15"]));
    assert_eq!(g["side_to_move"], "white");
    // Now Black's token is the one out of turn.
    let (s, v) = mv(&app, &id, Some(&black), "15-19").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_your_turn"));
}

#[tokio::test]
async fn bad_moves_are_refused_and_change_nothing() {
    let app = app().await;
    let (id, black, white) = two_player(
        &app,
        json!({"variant": "american", "fen": "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13"}),
    )
    .await;
    // Black must capture: a plain move is illegal, and the error lists the legal moves.
    let (s, v) = mv(&app, &id, Some(&black), "12-16").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move")
    );
    let legal: Vec<&str> = v["error"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        legal.contains(&"10x17x26") && legal.contains(&"10x19x26"),
        "{legal:?}"
    );
    // 10x26 fits two capture paths.
    let (s, v) = mv(&app, &id, Some(&black), "10x26").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "ambiguous_move")
    );
    assert_eq!(v["error"]["candidates"].as_array().unwrap().len(), 2);
    let (s, v) = mv(&app, &id, Some(&black), "hello").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_move_syntax")
    );
    // A stale ply number.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"move": "10x17x26", "ply": 3})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "stale_ply"));
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"mv": "10x17x26"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_json"));
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 0);
    assert_eq!(g["fen"], "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13");
    // The full path plays, with ply given.
    let (s, g) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"move": "10x17x26", "ply": 0})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"], json!(["10x17x26"]));
    // White must recapture 30x23? No: White's men on 21, 22, 23 ... whatever core says is legal.
    let first = g["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let (s, _) = mv(&app, &id, Some(&white), &first).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn moves_before_join_and_after_the_end_are_refused() {
    let app = app().await;
    let (_, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let (s, v) = mv(&app, id, Some(token), "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "seat_open"));
    // A position where Black wins with one jump: Black 14 takes 18 and White has nothing left.
    let (id, black, white) =
        two_player(&app, json!({"variant": "american", "fen": "B:W18:B14"})).await;
    let (s, g) = mv(&app, &id, Some(&black), "14x23").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "finished");
    assert_eq!(g["outcome"]["winner"], "black");
    assert_eq!(g["outcome"]["result"], "1-0");
    assert_eq!(g["legal_moves"], json!([]));
    let (s, v) = mv(&app, &id, Some(&white), "23-19").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"));
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"));
}

#[tokio::test]
async fn resign_ends_the_game_for_the_other_side() {
    let app = app().await;
    let (id, _, white) = two_player(&app, json!({"variant": "impasse"})).await;
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        None,
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some("nope"),
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "bad_token"));
    let (s, g) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["outcome"]["winner"], "black");
    // Impasse: White moves first, so a Black win is 0-1.
    assert_eq!(g["outcome"]["result"], "0-1");
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games/abcd/resign",
        Some(&white),
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

#[tokio::test]
async fn draw_offer_accept_decline() {
    let app = app().await;
    let (id, black, white) = two_player(&app, json!({"variant": "pool"})).await;
    let url = |a: &str| format!("/api/games/{id}/draw/{a}");
    let (s, v) = send(&app, Method::POST, &url("accept"), Some(&white), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "no_offer"));
    let (s, v) = send(&app, Method::POST, &url("decline"), Some(&white), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "no_offer"));
    let (s, g) = send(&app, Method::POST, &url("offer"), Some(&black), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["draw_offer"], "black");
    let (s, v) = send(&app, Method::POST, &url("offer"), Some(&black), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "already_offered"));
    // The offerer cannot accept its own offer.
    let (s, v) = send(&app, Method::POST, &url("accept"), Some(&black), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "no_offer"));
    let (s, g) = send(&app, Method::POST, &url("decline"), Some(&white), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["draw_offer"], Value::Null);
    let (_, _) = send(&app, Method::POST, &url("offer"), Some(&black), None).await;
    let (s, v) = send(&app, Method::POST, &url("offer"), None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let (s, g) = send(&app, Method::POST, &url("accept"), Some(&white), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["outcome"]["result"], "1/2-1/2");
    assert_eq!(g["outcome"]["winner"], Value::Null);
    let (s, v) = send(&app, Method::POST, &url("offer"), Some(&black), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"));
}

#[tokio::test]
async fn takeback_request_accept_decline() {
    let app = app().await;
    // Public: listed below (only public and rated games are).
    let (id, black, white) = two_player(&app, json!({"variant": "american", "public": true})).await;
    let url = |a: &str| format!("/api/games/{id}/takeback/{a}");
    let (s, v) = send(&app, Method::POST, &url("request"), Some(&black), None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::CONFLICT, "nothing_to_take_back")
    );
    assert_eq!(mv(&app, &id, Some(&black), "11-15").await.0, StatusCode::OK);
    assert_eq!(mv(&app, &id, Some(&white), "23-19").await.0, StatusCode::OK);
    let (s, v) = send(&app, Method::POST, &url("accept"), Some(&white), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "no_request"));
    let (s, g) = send(&app, Method::POST, &url("request"), Some(&white), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["takeback_request"], "white");
    let (s, v) = send(&app, Method::POST, &url("request"), Some(&black), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "already_requested"));
    let (s, g) = send(&app, Method::POST, &url("decline"), Some(&black), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["takeback_request"], Value::Null);
    let (s, v) = send(&app, Method::POST, &url("decline"), Some(&black), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "no_request"));
    // White takes back its own last move only; Black's 11-15 stays.
    send(&app, Method::POST, &url("request"), Some(&white), None).await;
    let (s, g) = send(&app, Method::POST, &url("accept"), Some(&black), None).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"], json!(["11-15"]));
    assert_eq!(g["side_to_move"], "white");
    // Black (not to move... it is White's turn) asks back 11-15: one ply.
    send(&app, Method::POST, &url("request"), Some(&black), None).await;
    let (_, g) = send(&app, Method::POST, &url("accept"), Some(&white), None).await;
    assert_eq!(g["moves"], json!([]));
    // Stored too: the list shows 0 plies.
    let (_, list) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(list["games"][0]["plies"], 0);
    let (s, v) = send(&app, Method::POST, &url("request"), None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
}

#[tokio::test]
async fn a_fallen_flag_loses_on_time() {
    let app = app().await;
    let (id, black, white) = two_player(
        &app,
        json!({"variant": "american", "time_control": {"initial_ms": 1, "increment_ms": 0}}),
    )
    .await;
    // No clock runs before a side's first move: both first moves are in time.
    for (t, m) in [(&black, "11-15"), (&white, "23-19")] {
        let (s, v) = mv(&app, &id, Some(t), m).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    // Black's 1 ms runs from White's first move.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (s, v) = mv(&app, &id, Some(&black), "8-11").await;
    // Either the request or the sweeper saw the flag first; both end the game on time.
    assert!(matches!(code(&v), "time_out" | "game_over"), "{s} {v}");
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "finished");
    assert_eq!(g["outcome"]["winner"], "white");
    assert_eq!(g["ply"], 2);
    assert_eq!(g["clock"]["black_ms"], 0);
}

#[tokio::test]
async fn clock_runs_only_for_the_side_to_move() {
    let app = app().await;
    let (id, black, white) = two_player(
        &app,
        json!({"variant": "american", "time_control": {"initial_ms": 60000, "increment_ms": 2000}}),
    )
    .await;
    // Each side's first move is not timed: no time spent, no increment, and no clock runs
    // until both have moved.
    let (s, g) = mv(&app, &id, Some(&black), "11-15").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["clock"]["black_ms"], 60_000);
    assert_eq!(g["clock"]["running"], Value::Null);
    let (s, g) = mv(&app, &id, Some(&white), "23-19").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["clock"]["white_ms"], 60_000);
    assert_eq!(g["clock"]["running"], "black");
    let (s, g) = mv(&app, &id, Some(&black), "8-11").await;
    assert_eq!(s, StatusCode::OK);
    let b = g["clock"]["black_ms"].as_u64().unwrap();
    // Black spent a little time and got the 2 s increment.
    assert!(b > 60_000 && b <= 62_000, "{b}");
    assert_eq!(g["clock"]["running"], "white");
    assert_eq!(g["clock"]["increment_ms"], 2000);
}

#[tokio::test]
async fn engine_replies_off_the_runtime() {
    let app = server().engine(Arc::new(FirstMove)).start().await;
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "opponent": "engine", "level": 2})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    assert_eq!(created["game"]["white"]["kind"], "engine");
    assert_eq!(created["game"]["status"], "ongoing");
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let (s, _) = mv(&app, id, Some(token), "11-15").await;
    assert_eq!(s, StatusCode::OK);
    let mut g = Value::Null;
    for _ in 0..200 {
        g = send(&app, Method::GET, &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if g["ply"] == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(g["ply"], 2, "{g}");
    // The test engine plays White's first legal move, as crown-core lists it.
    let mut game = Game::from_position(Position::new(Variant::American));
    game.play_text("11-15").unwrap();
    let expected = game.position().move_text(&game.legal_moves()[0]);
    assert_eq!(g["moves"][1], expected.as_str());
    // Takebacks against the engine are granted at once: Black is to move, so two plies go.
    let (s, g) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/request"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 0);
}

#[tokio::test]
async fn pdn_export_answers_for_a_game() {
    let app = app().await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    mv(&app, &id, Some(&black), "11-15").await;
    let (s, v) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}/pdn"),
        None,
        None,
    )
    .await;
    if crown_server::pdn::AVAILABLE {
        assert_eq!(s, StatusCode::OK);
        let text = v.as_str().unwrap();
        assert!(text.contains("[GameType \"21\"]"), "{text}");
        assert!(text.contains("1. 11-15"), "{text}");
    } else {
        assert_eq!(
            (s, code(&v)),
            (StatusCode::NOT_IMPLEMENTED, "pdn_unavailable")
        );
    }
    let (s, v) = send(&app, Method::GET, "/api/games/abc/pdn", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

#[tokio::test]
async fn websocket_route_needs_an_upgrade_and_a_game() {
    let app = app().await;
    let (s, v) = send(&app, Method::GET, "/api/games/abc/ws", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
    let (id, _, _) = two_player(&app, json!({"variant": "american"})).await;
    let (s, v) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}/ws"),
        None,
        None,
    )
    .await;
    assert!(s.is_client_error(), "{s}");
    assert_eq!(code(&v), "not_websocket");
}

#[tokio::test]
async fn index_page_says_the_web_ui_is_not_built() {
    let app = app().await;
    let (s, v) = send(&app, Method::GET, "/", None, None).await;
    assert_eq!(s, StatusCode::OK);
    let html = v.as_str().unwrap();
    assert!(html.contains("web UI is not built"));
    assert!(html.contains("/api/games"));
}

#[tokio::test]
async fn static_directory_is_served() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<p>crown web</p>").unwrap();
    std::fs::write(dir.path().join("app.js"), "let x = 1;").unwrap();
    let app = server()
        .with(|c| c.static_dir = Some(dir.path().to_path_buf()))
        .start()
        .await;
    let (s, v) = send(&app, Method::GET, "/", None, None).await;
    assert_eq!(
        (s, v.as_str().unwrap()),
        (StatusCode::OK, "<p>crown web</p>")
    );
    let (s, v) = send(&app, Method::GET, "/app.js", None, None).await;
    assert_eq!((s, v.as_str().unwrap()), (StatusCode::OK, "let x = 1;"));
    // Client-side routes (the join link) get the index page.
    let (s, v) = send(&app, Method::GET, "/g/abc", None, None).await;
    assert_eq!(
        (s, v.as_str().unwrap()),
        (StatusCode::OK, "<p>crown web</p>")
    );
    // The API still answers JSON.
    let (s, _) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn crown_engine_replies_within_the_clock() {
    let picker: Arc<dyn MovePicker> = Arc::new(crown_server::engine::CrownEngine::new(1, 1));
    let app = server().engine(picker).start().await;
    // The creator takes White in pool checkers, so the engine (Black) moves first.
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(
            json!({"variant": "pool", "opponent": "engine", "level": 1, "color": "white",
                    "time_control": {"initial_ms": 5000, "increment_ms": 0}}),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let mut g = Value::Null;
    for _ in 0..500 {
        g = send(&app, Method::GET, &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if g["ply"] == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(g["ply"], 1, "{g}");
    let played = g["moves"][0].as_str().unwrap();
    let start = Position::new(Variant::Pool);
    assert!(start.parse_move(played).is_ok(), "{played}");
    let black_ms = g["clock"]["black_ms"].as_u64().unwrap();
    assert!(black_ms > 0 && black_ms <= 5000, "{black_ms}");
    assert_eq!(g["clock"]["running"], "white");
    assert_eq!(g["black"]["kind"], "engine");
    // The human may not play the engine's side, and a move from the human is answered.
    let token = created["token"].as_str().unwrap();
    let reply = g["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let (s, _) = mv(&app, id, Some(token), &reply).await;
    assert_eq!(s, StatusCode::OK);
}

/// A takeback restores the position but gives no time back (docs/api.md: "Clocks keep the time
/// they show"): White's 300 ms wait before asking stays spent.
#[tokio::test]
async fn takeback_gives_no_time_back() {
    let store = Arc::new(SqliteStore::open_in_memory().unwrap());
    let app = server().store(store.clone()).start().await;
    let initial = 60_000u64;
    let (id, b, w) = two_player(
        &app,
        json!({"variant": "american", "time_control": {"initial_ms": initial, "increment_ms": 0}}),
    )
    .await;
    assert_eq!(mv(&app, &id, Some(&b), "11-15").await.0, StatusCode::OK);
    assert_eq!(mv(&app, &id, Some(&w), "23-19").await.0, StatusCode::OK);
    assert_eq!(mv(&app, &id, Some(&b), "8-11").await.0, StatusCode::OK);
    // White thinks at least 300 ms, then asks to take back its move (and Black's reply).
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/request"),
        Some(&w),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/accept"),
        Some(&b),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 1, "{v}");
    assert_eq!(v["side_to_move"], "white");
    let white = v["clock"]["white_ms"].as_u64().unwrap();
    assert!(white <= initial - 300, "White got time back: {white} ms");
    // The stored game agrees: a server started afresh on the same store shows no time given back.
    app.shutdown();
    let again = server().store(store).start().await;
    let (_, g) = send(&again, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 1, "{g}");
    assert!(
        g["clock"]["white_ms"].as_u64().unwrap() <= initial - 300,
        "{g}"
    );
}

/// Against the engine (takeback granted at once) the asker's time also stays spent.
#[tokio::test]
async fn engine_takeback_gives_no_time_back() {
    let app = server().engine(Arc::new(FirstMove)).start().await;
    let initial = 60_000u64;
    let (s, c) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(
            json!({"variant": "american", "opponent": "engine", "level": 1,
            "time_control": {"initial_ms": initial, "increment_ms": 0}}),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let t = c["token"].as_str().unwrap().to_string();
    assert_eq!(mv(&app, &id, Some(&t), "11-15").await.0, StatusCode::OK);
    // Wait for the engine's reply.
    let mut ply = 0;
    for _ in 0..200 {
        let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        ply = g["ply"].as_u64().unwrap();
        if ply == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(ply, 2);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/request"),
        Some(&t),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 0, "{v}");
    let black = v["clock"]["black_ms"].as_u64().unwrap();
    assert!(black <= initial - 300, "Black got time back: {black} ms");
}

/// Bad query strings and wrong methods answer the JSON error shape, not axum's plain text or an
/// empty body.
#[tokio::test]
async fn bad_queries_and_wrong_methods_are_json_errors() {
    let app = app().await;
    let (id, _, _) = two_player(&app, json!({"variant": "american"})).await;
    for uri in [
        "/api/games?limit=abc",
        "/api/games?limit=-1",
        "/api/games?status=open&status=finished",
    ] {
        let (s, v) = send(&app, Method::GET, uri, None, None).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_query"),
            "{uri}: {v}"
        );
        assert!(!v["error"]["message"].as_str().unwrap().is_empty(), "{v}");
    }
    for (method, uri, allow) in [
        (Method::GET, format!("/api/games/{id}/moves"), "POST"),
        (Method::DELETE, format!("/api/games/{id}"), "GET"),
        (Method::POST, "/health".to_string(), "GET"),
    ] {
        let resp = app
            .router()
            .oneshot(
                Request::builder()
                    .method(method.clone())
                    .uri(&uri)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(
            resp.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {uri}"
        );
        let ct = resp.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        assert!(ct.starts_with("application/json"), "{method} {uri}: {ct}");
        let allow_header = resp.headers()[header::ALLOW].to_str().unwrap().to_string();
        assert!(allow_header.contains(allow), "{allow_header}");
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .unwrap();
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(code(&v), "method_not_allowed", "{method} {uri}: {v}");
    }
}

/// The creator can withdraw a game nobody joined: it ends as cancelled and frees its place under
/// `max_open_games`; nobody can join or act on it afterwards.
#[tokio::test]
async fn creator_cancels_an_unjoined_game() {
    let app = server().with(|c| c.max_open_games = 1).start().await;
    // Public: listed once cancelled (only public and rated games are).
    let body = json!({"variant": "american", "public": true});
    let (s, c) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let token = c["token"].as_str().unwrap().to_string();
    let cancel = format!("/api/games/{id}/cancel");
    // Without the creator's token: refused.
    let (s, v) = send(&app, Method::POST, &cancel, None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let (s, v) = send(&app, Method::POST, &cancel, Some("00"), None).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "bad_token"));
    let (s, v) = send(&app, Method::POST, &cancel, Some(&token), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "finished");
    assert_eq!(v["outcome"]["result"], "*");
    assert_eq!(v["outcome"]["winner"], Value::Null);
    assert_eq!(app.open_games(), 0);
    // The place is free again, the cancelled game cannot be joined or cancelled twice.
    let (s, v) = send(&app, Method::POST, "/api/games", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "cancelled"));
    let (s, v) = send(&app, Method::POST, &cancel, Some(&token), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "cancelled"));
    let (_, v) = send(&app, Method::GET, "/api/games?status=finished", None, None).await;
    assert_eq!(v["games"][0]["id"], id.as_str());
    // A started game cannot be cancelled (resign instead).
    let app2 = server().start().await;
    let (id2, b, _) = two_player(&app2, json!({"variant": "american"})).await;
    let (s, v) = send(
        &app2,
        Method::POST,
        &format!("/api/games/{id2}/cancel"),
        Some(&b),
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_open"));
}

/// An open game nobody joins expires after `open_game_ttl_ms` and stops counting as open.
#[tokio::test]
async fn unjoined_games_expire() {
    let app = server()
        .with(|c| {
            c.max_open_games = 1;
            c.open_game_ttl_ms = 200;
        })
        .start()
        .await;
    let (s, c) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let mut g = Value::Null;
    for _ in 0..100 {
        g = send(&app, Method::GET, &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if g["status"] == "finished" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(g["status"], "finished", "{g}");
    assert_eq!(g["outcome"]["result"], "*");
    assert_eq!(app.open_games(), 0);
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "cancelled"));
}

/// The `Bearer` scheme is matched without regard to case (RFC 9110 section 11.1).
#[tokio::test]
async fn bearer_scheme_is_case_insensitive() {
    let app = app().await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    for (scheme, text) in [("bearer", "11-15"), ("BEARER", "9-13")] {
        let req = Request::builder()
            .method(Method::POST)
            .uri(format!("/api/games/{id}/moves"))
            .header(header::AUTHORIZATION, format!("{scheme} {black}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(json!({ "move": text, "ply": 0 }).to_string()))
            .unwrap();
        let (s, v) = raw(&app, req).await;
        if scheme == "bearer" {
            assert_eq!(s, StatusCode::OK, "{scheme}: {v}");
        } else {
            // Authenticated (not 401/403); refused only because the ply is now stale (another
            // move than the one played at ply 0, so not a retry).
            assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "stale_ply"), "{v}");
        }
    }
    // Another scheme is still refused.
    let req = Request::builder()
        .method(Method::POST)
        .uri(format!("/api/games/{id}/resign"))
        .header(header::AUTHORIZATION, format!("Basic {black}"))
        .body(Body::empty())
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
}

/// The PDN export's Content-Type is the one docs/api.md names, and the docs say when the FEN tag
/// is written.
#[tokio::test]
async fn pdn_content_type_matches_the_docs() {
    if !crown_server::pdn::AVAILABLE {
        return;
    }
    let app = app().await;
    let (id, _, _) = two_player(&app, json!({"variant": "american"})).await;
    let resp = app
        .router()
        .oneshot(
            Request::builder()
                .uri(format!("/api/games/{id}/pdn"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let ct = resp.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_string();
    let mime = ct.split(';').next().unwrap().trim().to_string();
    assert_eq!(mime, "application/x-pdn");
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    let section = &docs[docs.find("### `GET /api/games/{id}/pdn`").unwrap()..];
    let section = &section[..section[4..].find("###").map_or(section.len(), |i| i + 4)];
    assert!(section.contains(&format!("`200 {mime}")), "{section}");
    assert!(!section.contains("text/x-pdn"), "{section}");
    // A game from the standard start has no FEN tag; the docs must say so.
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(!text.contains("[FEN "), "{text}");
    assert!(
        section.contains("only when the game starts from a set-up position"),
        "{section}"
    );
}

#[tokio::test]
async fn json_arrays_are_not_objects() {
    let app = app().await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    for body in [
        json!(["11-15"]),
        json!(["11-15", 0]),
        json!("11-15"),
        json!(5),
    ] {
        let (s, v) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&black),
            Some(body.clone()),
        )
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(code(&v), "bad_json", "{body}: {v}");
    }
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!(["american"])),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_json"), "{v}");
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 0, "{g}");
}

#[tokio::test]
async fn bodiless_endpoints_refuse_a_declared_body() {
    let app = app().await;
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        Some(json!({"x": 1})),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::BAD_REQUEST, "unexpected_body"),
        "{v}"
    );
    let chunked = Request::builder()
        .method(Method::POST)
        .uri(format!("/api/games/{id}/resign"))
        .header(header::TRANSFER_ENCODING, "chunked")
        .body(Body::from("0\r\n\r\n"))
        .unwrap();
    let (s, v) = raw(&app, chunked).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::BAD_REQUEST, "unexpected_body"),
        "{v}"
    );
    // Nothing changed: the seat is still open.
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "open", "{g}");
    // `Content-Length: 0` is no body.
    let empty = Request::builder()
        .method(Method::POST)
        .uri(format!("/api/games/{id}/join"))
        .header(header::CONTENT_LENGTH, "0")
        .body(Body::empty())
        .unwrap();
    let (s, v) = raw(&app, empty).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn large_request_head_is_a_json_431() {
    let app = app().await;
    let req = Request::builder()
        .uri("/api/games")
        .header("x-big", "a".repeat(20 * 1024))
        .body(Body::empty())
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!(s, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, "{v}");
    assert_eq!(code(&v), "headers_too_large");
}

#[tokio::test]
async fn private_games_stay_out_of_the_lobby() {
    let app = app().await;
    let (_, private) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    let (_, public) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "public": true})),
    )
    .await;
    let (s, v) = send(&app, Method::GET, "/api/games?status=open", None, None).await;
    assert_eq!(s, StatusCode::OK);
    let ids: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![public["id"].as_str().unwrap()], "{v}");
    let (_, v) = send(&app, Method::GET, "/api/games", None, None).await;
    assert!(
        !v.to_string().contains(private["id"].as_str().unwrap()),
        "{v}"
    );
    // Once joined through its link, the private game stays out of the list (docs/api.md: only
    // public and rated games are listed) and is watched through its link.
    let pid = private["id"].as_str().unwrap();
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{pid}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = send(&app, Method::GET, "/api/games?status=ongoing", None, None).await;
    assert_eq!(v["games"], json!([]), "{v}");
    let (s, v) = send(&app, Method::GET, &format!("/api/games/{pid}"), None, None).await;
    assert_eq!(
        (s, &v["status"]),
        (StatusCode::OK, &json!("ongoing")),
        "{v}"
    );
}

/// `GET /api/games` lists only public and rated games, in every status (docs/api.md): a private
/// casual game, finished or ongoing, is reachable only through its link, as the player archive
/// ("Players") keeps it to its own player.
#[tokio::test]
async fn private_games_stay_out_of_the_list_in_every_status() {
    let app = app().await;
    let (private, pb, _) = two_player(&app, json!({"variant": "american"})).await;
    let (public, ub, _) = two_player(&app, json!({"variant": "american", "public": true})).await;
    let (ongoing, _, _) = two_player(&app, json!({"variant": "pool"})).await;
    for (id, black) in [(&private, &pb), (&public, &ub)] {
        let (s, v) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/resign"),
            Some(black),
            None,
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let listed = |v: &Value| -> Vec<String> {
        let games = v["games"].as_array().unwrap();
        games
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    for (query, want) in [
        ("", vec![public.clone()]),
        ("?status=finished", vec![public.clone()]),
        ("?status=ongoing", vec![]),
        ("?status=open", vec![]),
        ("?status=aborted", vec![]),
    ] {
        let (s, v) = send(&app, Method::GET, &format!("/api/games{query}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(listed(&v), want, "{query}: {v}");
    }
    // Still reachable by their links.
    for (id, status) in [(&private, "finished"), (&ongoing, "ongoing")] {
        let (s, v) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        assert_eq!((s, &v["status"]), (StatusCode::OK, &json!(status)), "{v}");
    }
}

/// A request from `ip` (what `crown_server::serve` records for each connection).
/// POST `body` (`null`: no body) to `uri` as the client address `ip`.
async fn send_from(app: &App, ip: [u8; 4], uri: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder().method(Method::POST).uri(uri);
    let mut req = if body.is_null() {
        req.body(Body::empty()).unwrap()
    } else {
        req.header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
            ip, 40000,
        ))));
    raw(app, req).await
}

#[tokio::test]
async fn one_address_cannot_lock_everyone_out_with_unjoined_games() {
    // Issue 12: "minutes, not a day".
    assert!(Config::default().open_game_ttl_ms <= 15 * 60 * 1000);
    let app = server().with(|c| c.max_unjoined_per_ip = 3).start().await;
    let a = [10, 0, 0, 1];
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_unjoined"),
        "{v}"
    );
    // Another address is not affected.
    let (s, _) = send_from(
        &app,
        [10, 0, 0, 2],
        "/api/games",
        json!({"variant": "pool"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    // Once one is joined, the first address may create another.
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{}/join", ids[0]),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn one_address_cannot_lock_everyone_out_with_games_it_joins_itself() {
    // Issue 23: creating *and joining* its own games, one address filled the server-wide limit.
    let app = server()
        .with(|c| {
            c.max_games_per_ip = 3;
            c.max_open_games = 5;
        })
        .start()
        .await;
    let a = [10, 0, 0, 1];
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        let (s, j) = send_from(&app, a, &format!("/api/games/{id}/join"), json!(null)).await;
        assert_eq!(s, StatusCode::OK, "{j}");
        tokens.push((id, v["token"].as_str().unwrap().to_string()));
    }
    // A fourth game, created or joined, is refused to that address only.
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_active_games"),
        "{v}"
    );
    let (s, other) = send_from(
        &app,
        [10, 0, 0, 2],
        "/api/games",
        json!({"variant": "pool"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{other}");
    let other_id = other["id"].as_str().unwrap();
    let (s, v) = send_from(&app, a, &format!("/api/games/{other_id}/join"), json!(null)).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_active_games"),
        "{v}"
    );
    // The refused join took no seat: a third address still can.
    let (s, v) = send_from(
        &app,
        [10, 0, 0, 3],
        &format!("/api/games/{other_id}/join"),
        json!(null),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A game it finishes frees its place.
    let (id, token) = &tokens[0];
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn an_untimed_game_nobody_moves_in_ends_abandoned_and_frees_its_place() {
    // Issue 23: joined games never expired, so the server-wide limit stayed full for good.
    assert!(Config::default().abandon_after_ms >= 3600 * 1000);
    let app = server()
        .with(|c| {
            c.abandon_after_ms = 300;
            c.max_open_games = 1;
        })
        .start()
        .await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool"})),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "too_many_games"),
        "{v}"
    );
    let h = app.handle(&id).await.unwrap();
    let mut rx = App::subscribe(&h);
    // Ended by the server within a generous bound (checked about once a second).
    let pushed = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        loop {
            let msg = rx.recv().await.unwrap();
            let v: Value = serde_json::from_str(&msg).unwrap();
            if v["event"] == "abandoned" {
                break v;
            }
        }
    })
    .await
    .expect("an abandoned event within 60 s");
    assert_eq!(pushed["game"]["status"], "finished");
    let outcome = &pushed["game"]["outcome"];
    assert_eq!(outcome["result"], "*", "{outcome}");
    assert_eq!(outcome["winner"], Value::Null);
    assert!(
        outcome["reason"].as_str().unwrap().starts_with("abandoned"),
        "{outcome}"
    );
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"move": "11-15"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    // Its place is free.
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn a_retried_move_is_answered_like_the_first_time() {
    let app = app().await;
    let (id, black, white) = two_player(&app, json!({"variant": "american"})).await;
    let uri = format!("/api/games/{id}/moves");
    let first = json!({"move": "11-15", "ply": 0});
    let (s, v) = send(&app, Method::POST, &uri, Some(&black), Some(first.clone())).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The same request again (its reply was lost): 200, and the move is not played twice.
    let (s, v) = send(&app, Method::POST, &uri, Some(&black), Some(first.clone())).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 1);
    assert_eq!(v["moves"], json!(["11-15"]));
    // Another move for the same ply is stale, not a retry.
    let (s, v) = send(
        &app,
        Method::POST,
        &uri,
        Some(&black),
        Some(json!({"move": "9-13", "ply": 0})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "stale_ply"), "{v}");
    // The other seat cannot claim Black's move.
    let (s, v) = send(&app, Method::POST, &uri, Some(&white), Some(first.clone())).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    // Still recognised after the opponent replied.
    let (s, _) = send(
        &app,
        Method::POST,
        &uri,
        Some(&white),
        Some(json!({"move": "23-19", "ply": 1})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = send(&app, Method::POST, &uri, Some(&black), Some(first)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["11-15", "23-19"]));
}

/// Test engine whose first search waits for the test's go-ahead and then answers the last legal
/// move; later searches answer the first legal move. Logs (FEN searched, answer).
struct Gated {
    gate: std::sync::Mutex<Option<std::sync::mpsc::Receiver<()>>>,
    log: std::sync::Mutex<Vec<(String, String)>>,
}

impl MovePicker for Gated {
    fn pick(&self, game: &Game, _: u8, _: Option<(u64, u64)>, _: &AtomicBool) -> Option<String> {
        let gate = self.gate.lock().unwrap().take();
        let legal = game.legal_moves();
        let mv = match gate {
            Some(rx) => {
                let _ = rx.recv_timeout(std::time::Duration::from_secs(20));
                *legal.last()?
            }
            None => *legal.first()?,
        };
        let text = game.position().move_text(&mv);
        self.log
            .lock()
            .unwrap()
            .push((game.position().to_fen(), text.clone()));
        Some(text)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_never_plays_a_move_searched_for_an_older_position() {
    // Precondition from the rules: the stale answer (White's last legal move after 11-15) is also
    // legal after 11-16, and differs from White's first legal move there, so playing it would
    // go unnoticed by a check of the ply alone.
    let mut after_15 = Game::from_position(Position::new(Variant::American));
    after_15.play_text("11-15").unwrap();
    let stale = after_15
        .position()
        .move_text(after_15.legal_moves().last().unwrap());
    let mut after_16 = Game::from_position(Position::new(Variant::American));
    after_16.play_text("11-16").unwrap();
    let fresh = after_16
        .position()
        .move_text(after_16.legal_moves().first().unwrap());
    assert!(after_16.position().parse_move(&stale).is_ok());
    assert_ne!(stale, fresh);

    let (go, rx) = std::sync::mpsc::channel();
    let picker = Arc::new(Gated {
        gate: std::sync::Mutex::new(Some(rx)),
        log: std::sync::Mutex::new(Vec::new()),
    });
    let app = server()
        .engine(picker.clone() as Arc<dyn MovePicker>)
        .start()
        .await;
    let (s, g) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "opponent": "engine", "level": 1, "color": "black"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let token = g["token"].as_str().unwrap().to_string();
    let (s, v) = mv(&app, &id, Some(&token), "11-15").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The engine is now searching (held at the gate). Take back and play another move.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/request"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 0);
    let (s, v) = mv(&app, &id, Some(&token), "11-16").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    go.send(()).unwrap();
    let mut game = Value::Null;
    for _ in 0..1000 {
        let (_, v) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        if v["ply"] == 2 {
            game = v;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(game["moves"], json!(["11-16", fresh]), "{game}");
}

/// A store whose reads of games take `delay` (a big database or a slow disk), recording when the
/// last one finished.
struct SlowLoad {
    inner: Arc<SqliteStore>,
    delay: std::time::Duration,
    loaded_at: std::sync::atomic::AtomicU64,
}

impl SlowLoad {
    fn slow<T>(&self, r: T) -> T {
        std::thread::sleep(self.delay);
        self.loaded_at.store(
            crown_server::live::now_ms(),
            std::sync::atomic::Ordering::SeqCst,
        );
        r
    }
}

use crown_server::store::{GameRecord, GameSummary, Store, StoreError};

impl Store for SlowLoad {
    fn create(&self, rec: &GameRecord) -> Result<(), StoreError> {
        self.inner.create(rec)
    }
    fn save(&self, rec: &mut GameRecord, keep: usize) -> Result<(), StoreError> {
        self.inner.save(rec, keep)
    }
    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.slow(self.inner.load(id))
    }
    fn load_unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.slow(self.inner.load_unfinished())
    }
    fn list(&self, s: Option<&str>, n: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.inner.list(s, n)
    }
    fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.inner.unfinished()
    }
    fn heartbeat(&self, now: u64) -> Result<(), StoreError> {
        self.inner.heartbeat(now)
    }
    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        self.inner.last_heartbeat()
    }
}

#[tokio::test]
async fn time_spent_loading_games_is_not_charged_to_clocks() {
    // A timed game whose turn started 1 s before the server's last heartbeat.
    let inner = Arc::new(SqliteStore::open_in_memory().unwrap());
    let app = App::start(inner.clone(), Config::default(), None)
        .await
        .unwrap();
    let (id, _, _) = two_player(
        &app,
        json!({"variant": "american", "time_control": {"initial_ms": 600000, "increment_ms": 0}}),
    )
    .await;
    app.shutdown();
    // Let the first server's heartbeat task see the shutdown: a heartbeat still in flight would
    // otherwise land after the one written below and charge the whole minute.
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    let mut rec = inner.load(&id).unwrap().unwrap();
    let started = crown_server::live::now_ms() - 60_000;
    rec.meta.turn_started_ms = started;
    let keep = rec.moves.len();
    inner.save(&mut rec, keep).unwrap();
    inner.heartbeat(started + 1_000).unwrap();
    // Restart on a store that takes 400 ms to read the games.
    let slow = Arc::new(SlowLoad {
        inner: inner.clone(),
        delay: std::time::Duration::from_millis(400),
        loaded_at: std::sync::atomic::AtomicU64::new(0),
    });
    let app2 = App::start(slow.clone(), Config::default(), None)
        .await
        .unwrap();
    let resumed = inner.load(&id).unwrap().unwrap().meta.turn_started_ms;
    // The clock resumes (charged the 1 s before the heartbeat) no earlier than loading ended.
    let loaded_at = slow.loaded_at.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        resumed + 1_000 >= loaded_at,
        "resumed at {resumed} + 1000 < loading ended at {loaded_at}"
    );
    app2.shutdown();
}

#[tokio::test]
async fn engine_games_are_capped_per_address() {
    let app = server()
        .engine(Arc::new(FirstMove))
        .with(|c| c.max_engine_games_per_ip = 2)
        .start()
        .await;
    let body = json!({"variant": "american", "opponent": "engine", "level": 10});
    let a = [10, 0, 0, 9];
    let mut first = None;
    for _ in 0..2 {
        let (s, v) = send_from(&app, a, "/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        first.get_or_insert((
            v["id"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
        ));
    }
    let (s, v) = send_from(&app, a, "/api/games", body.clone()).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_engine_games"),
        "{v}"
    );
    let (s, _) = send_from(&app, [10, 0, 0, 10], "/api/games", body.clone()).await;
    assert_eq!(s, StatusCode::CREATED);
    // Resigning one frees its place.
    let (id, token) = first.unwrap();
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send_from(&app, a, "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_clock_stops_while_its_search_waits_for_a_worker() {
    let (go, rx) = std::sync::mpsc::channel();
    let picker = Arc::new(Gated {
        gate: std::sync::Mutex::new(Some(rx)),
        log: std::sync::Mutex::new(Vec::new()),
    });
    let app = server()
        .engine(picker.clone() as Arc<dyn MovePicker>)
        .with(|c| c.engine_workers = 1)
        .start()
        .await;
    // Game A: the engine (Black) moves first and its search holds the only worker.
    let engine_black = json!({"variant": "american", "opponent": "engine", "level": 1, "color": "white",
        "time_control": {"initial_ms": 60000, "increment_ms": 0}});
    let (s, _) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(engine_black.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    // Bounds on waiting are generous (a starved machine may take seconds); a passing run never
    // waits them out.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !app_engine_busy(&picker) {
        assert!(
            std::time::Instant::now() < deadline,
            "game A's search never started"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // Game B: its engine waits for the worker for at least `WAIT_MS`.
    const WAIT_MS: u64 = 3000;
    let (s, b) = send(&app, Method::POST, "/api/games", None, Some(engine_black)).await;
    assert_eq!(s, StatusCode::CREATED);
    let id = b["id"].as_str().unwrap().to_string();
    tokio::time::sleep(std::time::Duration::from_millis(WAIT_MS)).await;
    go.send(()).unwrap();
    let mut game = Value::Null;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        let (_, v) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        if v["ply"] == 1 {
            game = v;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(game["ply"], 1, "{game}");
    let used = 60_000 - game["clock"]["black_ms"].as_u64().unwrap();
    // Only the search itself is charged (the test engine answers at once), never the wait: on a
    // starved machine the search may take long, but charging the wait is at least `WAIT_MS`.
    assert!(
        used < WAIT_MS,
        "the engine was charged {used} ms for a {WAIT_MS} ms wait"
    );
}

/// Whether the gated engine's first search has started (its gate was taken).
fn app_engine_busy(p: &Gated) -> bool {
    p.gate.lock().unwrap().is_none()
}

/// Send `body` as the raw text of a JSON request (duplicate keys cannot be built with `json!`).
async fn send_text(app: &App, uri: &str, token: Option<&str>, body: &str) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    raw(app, req.body(Body::from(body.to_string())).unwrap()).await
}

#[tokio::test]
async fn duplicate_keys_and_malformed_nested_objects_are_bad_json() {
    let app = app().await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    let uri = format!("/api/games/{id}/moves");
    for body in [
        r#"{"move":"11-15","move":"9-13"}"#,
        r#"{"move":"11-15","ply":0,"ply":0}"#,
    ] {
        let (s, v) = send_text(&app, &uri, Some(&black), body).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_json"),
            "{body}: {v}"
        );
    }
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 0, "nothing was played: {g}");
    for body in [
        r#"{"variant":"american","variant":"pool"}"#,
        r#"{"variant":"american","time_control":{"initial_ms":1000,"initial_ms":2000,"increment_ms":0}}"#,
        r#"{"variant":"american","time_control":[60000,0]}"#,
        r#"{"variant":"american","time_control":{"initial_ms":60000,"increment_ms":0,"delay_ms":5}}"#,
        r#"{"variant":"american","time_control":{"initial_ms":60000}}"#,
        r#"{"variant":"american","time_control":"60+0"}"#,
        r#"{"variant":"american","time_control":{"initial_ms":"60000","increment_ms":0}}"#,
    ] {
        let (s, v) = send_text(&app, "/api/games", None, body).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_json"),
            "{body}: {v}"
        );
    }
    // The well-formed ones still pass, with or without a time control.
    for body in [
        r#"{"variant":"american","time_control":{"initial_ms":60000,"increment_ms":0}}"#,
        r#"{"variant":"american","time_control":null}"#,
        r#"{"variant":"american"}"#,
    ] {
        let (s, v) = send_text(&app, "/api/games", None, body).await;
        assert_eq!(s, StatusCode::CREATED, "{body}: {v}");
    }
}

/// A game-ending move sent twice at once (a retry racing its first try): both are answered
/// 200 with the same finished game, never `409 game_over` for the retry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_ending_move_sent_twice_at_once_is_answered_200_both_times() {
    let app = app().await;
    for round in 0..40 {
        // Black's 14x23 takes White's last piece.
        let (id, black, _) =
            two_player(&app, json!({"variant": "american", "fen": "B:W18:B14"})).await;
        let uri = format!("/api/games/{id}/moves");
        let body = json!({"move": "14x23", "ply": 0});
        let (a, b) = tokio::join!(
            send(&app, Method::POST, &uri, Some(&black), Some(body.clone())),
            send(&app, Method::POST, &uri, Some(&black), Some(body.clone())),
        );
        for (s, v) in [&a, &b] {
            assert_eq!(*s, StatusCode::OK, "round {round}: {v}");
            assert_eq!(v["status"], "finished", "round {round}: {v}");
            assert_eq!(v["moves"], json!(["14x23"]), "round {round}: {v}");
        }
    }
}

/// Issue 23, "unexplained `ambiguous_move`": the server refused move texts it had itself listed as
/// legal. Cause: a king's single jump and a longer capture can share start and end; both are then
/// listed with their whole path, and the single jump's whole path is just `19x12`, which the move
/// reader (before crown-core c8a6149, 2026-12-01, after the review's 6765126) took as "any capture
/// from 19 to 12" and refused as ambiguous. Every listed text must be accepted and play the listed
/// move. The position is worked out by hand (American numbering, Black to move): the black king on
/// 19 jumps 16 and lands on 12, where it has no further jump (12 is on the board's edge, 8 is
/// Black's own man and 16 was just taken), or goes round 23, 22, 14 and 15 back through 19 (its own start square, empty while
/// it moves) and then takes 16 to 12: five pieces.
#[tokio::test]
async fn every_listed_move_is_accepted_when_a_single_jump_and_a_loop_share_their_ends() {
    let app = app().await;
    let body = json!({"variant": "american", "fen": "B:W14,15,16,21,22,23,30:B6,7,8,K19,11,13"});
    let (id, _, _) = two_player(&app, body.clone()).await;
    let (s, view) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{view}");
    let listed: Vec<(String, Vec<u64>)> = view["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let caps = m["captures"].as_array().unwrap();
            let mut caps: Vec<u64> = caps.iter().map(|c| c.as_u64().unwrap()).collect();
            caps.sort_unstable();
            (m["text"].as_str().unwrap().to_string(), caps)
        })
        .collect();
    let from_19_to_12: Vec<&(String, Vec<u64>)> = listed
        .iter()
        .filter(|(t, _)| t.starts_with("19x") && t.ends_with("x12"))
        .collect();
    assert_eq!(from_19_to_12.len(), 2, "{listed:?}");
    assert!(
        listed.contains(&("19x12".to_string(), vec![16])),
        "{listed:?}"
    );
    let ring = from_19_to_12.iter().find(|(t, _)| t != "19x12").unwrap();
    assert_eq!(ring.1, vec![14, 15, 16, 22, 23], "{listed:?}");
    assert!(
        ["19x26x17x10x19x12", "19x10x17x26x19x12"].contains(&ring.0.as_str()),
        "{listed:?}"
    );
    for (text, captures) in &listed {
        let (id, black, _) = two_player(&app, body.clone()).await;
        let (s, v) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&black),
            Some(json!({"move": text, "ply": 0})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "the listed {text}: {v}");
        assert_eq!(v["moves"], json!([text]), "{v}");
        // The pieces the listed move takes are gone.
        let fen = v["fen"].as_str().unwrap();
        let white = fen
            .split(':')
            .find(|p| p.starts_with('W') && p.len() > 1)
            .unwrap();
        let left: Vec<u64> = white[1..]
            .split(',')
            .map(|s| s.trim_start_matches('K').parse().unwrap())
            .collect();
        for c in captures {
            assert!(!left.contains(c), "{text} took {c}: {fen}");
        }
        assert_eq!(left.len(), 7 - captures.len(), "{text}: {fen}");
    }
}

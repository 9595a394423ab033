//! Resigning, draw offers and takeback requests (and the time a takeback leaves spent).

use crate::common::{send, server};
use crate::{app, code, mv, two_player, FirstMove};
use axum::http::{Method, StatusCode};
use crown_server::store::SqliteStore;
use serde_json::{json, Value};
use std::sync::Arc;

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

//! Health, the web UI's pages and static files, and the WebSocket route.

use crate::common::{send, server};
use crate::{app, code, two_player};
use axum::http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn health_reports_ok() {
    let app = app().await;
    let (s, v) = send(&app, Method::GET, "/health", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "ok");
    assert_eq!(v["open_games"], 0);
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

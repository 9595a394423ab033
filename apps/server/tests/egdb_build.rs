//! The background build of the endgame databases as `/health` reports it: nothing asked before a
//! game; the first engine move of a pool game starts the pool build; `ready` when it is done, the
//! engine's tables reloaded. A tiny set (≤3 pieces) in a temporary directory, so it is quick.

mod common;
use axum::http::{Method, StatusCode};
use common::{send, server};
use crown_ai::tables::auto::{AutoBuild, Status};
use crown_server::engine::CrownEngine;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_reports_the_background_build() {
    let dir = tempfile::tempdir().unwrap();
    let auto = AutoBuild::start(dir.path().to_path_buf(), 3, None, None).unwrap();
    let engine = CrownEngine::new(1, 1).with_auto_build(Some(auto.clone()));
    let app = server().engine(Arc::new(engine)).start().await;

    let (s, v) = send(&app, Method::GET, "/health", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["egdb"]["build"]["state"], "idle", "{v}");
    assert_eq!(v["egdb"]["build"]["pieces"], 3, "{v}");
    assert_eq!(v["egdb"]["loaded"], "no endgame databases", "{v}");

    // The engine (Black) moves first: its first move asks for the pool set.
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool", "opponent": "engine", "level": 1, "color": "white"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let waiter = auto.clone();
    let (status, done) = tokio::task::spawn_blocking(move || {
        waiter.wait_until(
            |s| matches!(s, Status::Ready { .. } | Status::Failed { .. }),
            Duration::from_secs(300),
        )
    })
    .await
    .unwrap();
    assert!(done, "{status:?}");
    let (_, v) = send(&app, Method::GET, "/health", None, None).await;
    let build = &v["egdb"]["build"];
    assert_eq!(build["state"], "ready", "{v}");
    assert_eq!(build["variant"], "pool", "{v}");
    assert_eq!(build["line"], "databases ready (pool ≤3)", "{v}");
    assert_eq!(v["egdb"]["loaded"], "pool ≤3 pieces", "{v}");
}

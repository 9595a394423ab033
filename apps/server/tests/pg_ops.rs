//! `/metrics` with a PostgreSQL store (issue 41): the committer's transactions are timed like
//! SQLite's. Skipped, saying so, when PostgreSQL is not installed (see tests/pg.rs).

mod common;
use axum::http::{Method, StatusCode};
use common::pg::Pg;
use common::{send, server};
use crown_server::store::pg::PgStore;
use crown_server::store::Store;
use serde_json::json;
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgresql_commit_time_is_in_the_metrics() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let store: Arc<dyn Store> = Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    );
    let app = server()
        .store(store)
        .with(|c| c.metrics_token = Some("scrape-token".into()))
        .start()
        .await;
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let black = created["token"].as_str().unwrap();
    let (s, joined) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let mv = created["game"]["legal_moves"][0]["text"].as_str().unwrap();
    let (s, moved) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(black),
        Some(json!({"move": mv, "ply": 0})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{moved}");
    // No client address in process: the token opens /metrics.
    let (s, text) = send(&app, Method::GET, "/metrics", Some("scrape-token"), None).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let text = text.as_str().unwrap();
    let count = text
        .lines()
        .find(|l| l.starts_with("crown_store_commit_duration_seconds_count{store=\"postgres\"}"))
        .and_then(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no PostgreSQL commit time in:\n{text}"));
    assert!(count >= 1.0, "{count}");
    let (s, _) = send(&app, Method::GET, "/metrics", None, None).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}

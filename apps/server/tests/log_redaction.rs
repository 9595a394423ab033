//! Seat tokens never reach the logs, even at `trace` level (issue 12 defect 8). Its own test
//! binary: a thread-scoped `tracing` subscriber is only reliable when no other test runs beside it.

mod common;
use axum::http::{Method, StatusCode};
use common::{send, server};
use serde_json::json;
use std::sync::Arc;

/// A `tracing` writer into a shared buffer.
#[derive(Clone, Default)]
struct Captured(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "current_thread")]
async fn seat_tokens_never_reach_the_debug_log() {
    let buf = Captured::default();
    let b2 = buf.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || b2.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let app = server().start().await;
    let (_, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}/ws?token={black}"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"move": "11-15"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let log = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    assert!(log.contains("/ws"), "the request was not logged: {log}");
    assert!(!log.contains(&black), "token in the log: {log}");
}

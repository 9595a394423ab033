//! API tokens never reach the logs, even at `trace` level (docs/api.md, "API tokens and bot
//! accounts"). Its own test binary: a thread-scoped `tracing` subscriber is only reliable when
//! no other test runs beside it.

mod common;
use axum::http::{Method, StatusCode};
use common::bots::{bot, token};
use common::{send, server, Captured};

#[tokio::test(flavor = "current_thread")]
async fn api_tokens_never_reach_the_trace_log() {
    let buf = Captured::default();
    let b2 = buf.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || b2.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let app = server().start().await;
    let robot = bot(&app, "robot").await;
    let alice = common::accounts::sign_up(&app, "alice", "correct horse").await;
    let other = token(&app, &alice, &["challenge:write"]).await;
    // Used, refused for a missing scope, used on a route that fails.
    let (s, _) = send(&app, Method::GET, "/api/challenge", Some(&robot), None).await;
    assert_eq!(s, StatusCode::OK);
    let uri = "/api/bot/game/0123456789/resign";
    let (s, _) = send(&app, Method::POST, uri, Some(&other), None).await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _) = send(
        &app,
        Method::POST,
        "/api/challenge/alice",
        Some(&robot),
        Some(serde_json::json!({})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let log = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    assert!(
        log.contains("API token created"),
        "the log was captured: {log}"
    );
    for t in [&robot, &other] {
        let secret = t.strip_prefix("crown_").unwrap();
        assert!(!log.contains(secret), "an API token is in the log");
    }
}

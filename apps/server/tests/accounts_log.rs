//! Passwords and session tokens never reach the logs, even at `trace` level (issue 26,
//! security). Its own test binary: a thread-scoped `tracing` subscriber is only reliable when no
//! other test runs beside it.

mod common;
use axum::http::StatusCode;
use common::accounts::{log_in, me, post, sign_up};
use common::server;
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
async fn passwords_and_session_tokens_never_reach_the_trace_log() {
    let buf = Captured::default();
    let b2 = buf.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || b2.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let app = server().start().await;
    let (first, wrong, second) = ("Pw-first-7d1c", "Pw-wrong-93ab", "Pw-second-5e02");
    let t1 = sign_up(&app, "olivia", first).await;
    let (s, _, _) = log_in(&app, "olivia", wrong).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _, _) = log_in(&app, "nobody", wrong).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, t2, _) = log_in(&app, "olivia", first).await;
    assert_eq!(s, StatusCode::OK);
    let t2 = t2.unwrap();
    let mut c = post(
        "/api/password",
        json!({"old_password": first, "new_password": second}),
    );
    c.session = Some(&t2);
    assert_eq!(c.send(&app).await.0, StatusCode::OK);
    // A refused body is logged by nobody either.
    let (s, _, _) = post(
        "/api/signup",
        json!({"username": "olivia", "password": second, "password2": second}),
    )
    .send(&app)
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(me(Some(&t2)).send(&app).await.0, StatusCode::OK);
    let log = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
    assert!(
        log.contains("/api/login") && log.contains("account created"),
        "the requests were not logged: {log}"
    );
    for secret in [first, wrong, second, &t1, &t2] {
        assert!(!log.contains(secret), "'{secret}' in the log: {log}");
    }
}

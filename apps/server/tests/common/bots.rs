//! Helpers of the bot tests (tests/bots.rs on SQLite, tests/pg_bots.rs on PostgreSQL): API
//! tokens, the bot upgrade, and the NDJSON streams read line by line.

use super::accounts::{post, Call};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use crown_server::App;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

/// `POST /api/account/tokens` as `session` with `scopes`; returns the status and the answer.
pub async fn new_token(app: &App, session: &str, scopes: &[&str]) -> (StatusCode, Value) {
    let mut c: Call<'_> = post(
        "/api/account/tokens",
        json!({"description": "test bot", "scopes": scopes}),
    );
    c.session = Some(session);
    let (s, _, v) = c.send(app).await;
    (s, v)
}

/// A new token of `session` with `scopes` (asserting `201`).
pub async fn token(app: &App, session: &str, scopes: &[&str]) -> String {
    let (s, v) = new_token(app, session, scopes).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v["token"].as_str().unwrap().to_string()
}

/// Sign up `name`, make a `bot:play` token and upgrade the account to a bot; the token.
pub async fn bot(app: &App, name: &str) -> String {
    let session = super::accounts::sign_up(app, name, "robot password").await;
    let t = token(app, &session, &["bot:play"]).await;
    let (s, v) = super::send(
        app,
        Method::POST,
        "/api/bot/account/upgrade",
        Some(&t),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    t
}

/// An NDJSON stream being read.
pub struct Lines {
    body: axum::body::BodyDataStream,
    buf: Vec<u8>,
    /// Empty lines (keep-alives) read so far.
    pub blank: usize,
}

impl Lines {
    /// `GET uri` with API token `token`: the status and, when `200`, the stream.
    pub async fn open(app: &App, uri: &str, token: &str) -> (StatusCode, Option<Lines>, Value) {
        Lines::open_with(app, uri, header::AUTHORIZATION, format!("Bearer {token}")).await
    }

    /// `GET uri` with the session cookie of `session`: as [`Lines::open`].
    pub async fn open_session(
        app: &App,
        uri: &str,
        session: &str,
    ) -> (StatusCode, Option<Lines>, Value) {
        Lines::open_with(app, uri, header::COOKIE, format!("crown_session={session}")).await
    }

    /// `GET uri` with header `name: value`: as [`Lines::open`].
    async fn open_with(
        app: &App,
        uri: &str,
        name: header::HeaderName,
        value: String,
    ) -> (StatusCode, Option<Lines>, Value) {
        let req = Request::builder()
            .uri(uri)
            .header(name, value)
            .body(Body::empty())
            .unwrap();
        let resp = app.router().oneshot(req).await.unwrap();
        let status = resp.status();
        if status != StatusCode::OK {
            let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
                .await
                .unwrap();
            return (
                status,
                None,
                serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            );
        }
        assert_eq!(resp.headers()[header::CONTENT_TYPE], "application/x-ndjson");
        let lines = Lines {
            body: resp.into_body().into_data_stream(),
            buf: Vec::new(),
            blank: 0,
        };
        (status, Some(lines), Value::Null)
    }

    /// The next non-empty line as JSON; `None` when the stream ended.
    ///
    /// # Panics
    /// After 20 s without one.
    pub async fn next(&mut self) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                let text = std::str::from_utf8(&line[..i]).unwrap().trim();
                if text.is_empty() {
                    self.blank += 1;
                    continue;
                }
                return Some(serde_json::from_str(text).unwrap());
            }
            match tokio::time::timeout_at(deadline, self.body.next())
                .await
                .expect("no line within 20 s")
            {
                Some(chunk) => self.buf.extend_from_slice(&chunk.unwrap()),
                None => return None,
            }
        }
    }

    /// Read the lines until the stream ends.
    ///
    /// # Panics
    /// When it goes on 20 s without a line.
    pub async fn end(&mut self) {
        while self.next().await.is_some() {}
    }

    /// The next line whose `type` is `kind` (skipping others).
    ///
    /// # Panics
    /// When the stream ends first.
    pub async fn until(&mut self, kind: &str) -> Value {
        loop {
            let v = self
                .next()
                .await
                .unwrap_or_else(|| panic!("the stream ended before a {kind}"));
            if v["type"] == kind {
                return v;
            }
        }
    }
}

/// The keep-alive of an event stream (issue 41): `app` (on `store`) must have
/// `challenge_away_ms` = 8 000. An account with a pending challenge keeps its event stream
/// open (a round every half second) until the challenge's stored `expires_ms` has been pushed
/// back three times: each push comes at least 1.5 s after the one before (once every quarter of
/// the 8 s, when it would expire within 6 s) — not at every round, half a second apart.
pub async fn stream_keeps_challenges_alive_once_per_quarter(
    app: &App,
    store: &std::sync::Arc<dyn crown_server::store::Store>,
) {
    let alice = super::accounts::sign_up(app, "alice", "alice password").await;
    super::accounts::sign_up(app, "bob", "bob's password").await;
    let (s, c) = super::challenges::challenge(
        app,
        &alice,
        "bob",
        json!({"time_control": super::challenges::blitz()}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    // Read on a blocking thread (the PostgreSQL store's client blocks).
    let expires = || {
        let (store, id) = (store.clone(), id.clone());
        async move {
            tokio::task::spawn_blocking(move || {
                let c = store.challenges().unwrap().load_challenge(&id).unwrap();
                c.unwrap().expires_ms
            })
            .await
            .unwrap()
        }
    };
    let (s, events, v) = Lines::open_session(app, "/api/stream/event", &alice).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut events = events.unwrap();
    // Read the stream meanwhile: its rounds run as it is read.
    let reader = tokio::spawn(async move { while events.next().await.is_some() {} });
    // Wait for three pushes (however slowly this machine runs the stream's rounds), then check
    // their spacing: a push at each round (0.5 s) would put them far closer than a quarter of
    // the away time.
    let mut seen = vec![expires().await];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while seen.len() < 4 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "expires_ms changed only {} times in 60 s: {seen:?}",
            seen.len() - 1
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        let e = expires().await;
        if e != *seen.last().unwrap() {
            seen.push(e);
        }
    }
    reader.abort();
    for w in seen.windows(2) {
        assert!(
            w[1] >= w[0] + 1_500,
            "pushed back only a quarter apart: {seen:?}"
        );
    }
}

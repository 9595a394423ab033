//! Helpers for the shared-games tests (tests/imports.rs, tests/pg_imports.rs): a game with
//! variations and comments, and the requests of the imports API with a raw body, a session
//! cookie, a client address and an Origin.

use super::accounts::Call;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use crown_server::App;
use serde_json::{json, Value};
use std::net::SocketAddr;
use tower::ServiceExt;

/// A game of American checkers with a comment on a move, a variation holding a comment, CRLF
/// line ends and non-ASCII text: every main-line and variation move is legal (11-15 and 8-11 are
/// Black men moving down the board, 23-19, 22-17 White's moving up; 15-18 answers 22-17).
pub const GAME: &str = "[Event \"Café ♔ open\"]\r\n[Black \"Alice\"]\r\n[White \"Bob\"]\r\n\
[Result \"*\"]\r\n\r\n1. 11-15 {the Old Faithful} 23-19 (22-17 {a sidestep} 15-18) \
2. 8-11 22-17 *\r\n";

/// One request with a raw body: `session` as the cookie, `from` as the client address,
/// `origin` as the Origin header. Returns the status, the headers and the body's bytes.
pub async fn call(
    app: &App,
    method: Method,
    uri: &str,
    body: Vec<u8>,
    session: Option<&str>,
    from: Option<[u8; 4]>,
    origin: Option<&str>,
) -> (StatusCode, HeaderMap, Vec<u8>) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "crown.test");
    if let Some(s) = session {
        req = req.header(header::COOKIE, format!("crown_session={s}"));
    }
    if let Some(o) = origin {
        req = req.header(header::ORIGIN, o);
    }
    if !body.is_empty() {
        // As a client on the wire declares it (the router's limit reads it first).
        req = req
            .header(header::CONTENT_TYPE, "application/x-pdn")
            .header(header::CONTENT_LENGTH, body.len());
    }
    let mut req = req.body(Body::from(body)).unwrap();
    if let Some(ip) = from {
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from((ip, 40000))));
    }
    let resp = app.router().oneshot(req).await.unwrap();
    let (status, headers) = (resp.status(), resp.headers().clone());
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, headers, bytes.to_vec())
}

/// `POST /api/imports` of `pdn` (as `session`, from `from`): the status and the JSON answer.
pub async fn share(
    app: &App,
    pdn: &[u8],
    session: Option<&str>,
    from: Option<[u8; 4]>,
) -> (StatusCode, Value) {
    let (s, _, b) = call(
        app,
        Method::POST,
        "/api/imports",
        pdn.to_vec(),
        session,
        from,
        Some("http://crown.test"),
    )
    .await;
    (s, serde_json::from_slice(&b).unwrap_or(Value::Null))
}

/// `GET uri` (as `session`) as JSON.
pub async fn get_json(app: &App, uri: &str, session: Option<&str>) -> (StatusCode, Value) {
    let (s, _, b) = call(app, Method::GET, uri, Vec::new(), session, None, None).await;
    (s, serde_json::from_slice(&b).unwrap_or(Value::Null))
}

/// `POST /api/imports/{id}/archive` `{"archived": archived}` as `session`.
pub async fn set_archived(
    app: &App,
    id: &str,
    archived: bool,
    session: Option<&str>,
) -> (StatusCode, Value) {
    let uri = format!("/api/imports/{id}/archive");
    let mut c = Call {
        method: Method::POST,
        uri: &uri,
        session,
        body: Some(json!({ "archived": archived })),
        from: None,
        headers: Vec::new(),
    };
    c.headers.push(("origin", "http://crown.test".into()));
    let (s, _, v) = c.send(app).await;
    (s, v)
}

//! Helpers shared by the server's test files (each file uses some of them).
#![allow(dead_code)]

pub mod pg;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use crown_server::App;
use serde_json::Value;
use tower::ServiceExt;

/// Send one request to `app`'s router: `token` as a Bearer header, `body` as JSON (`None`: no
/// body); returns the status and the JSON answer (`Null` when the answer is not JSON).
pub async fn send(
    app: &App,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(b.to_string()))
            .unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    raw(app, req).await
}

/// Send one built request to `app`'s router; returns the status and the answer as JSON, or as a JSON
/// string holding the text when it is not JSON.
pub async fn raw(app: &App, req: Request<Body>) -> (StatusCode, Value) {
    let resp = app.router().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, v)
}

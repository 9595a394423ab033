//! Malformed requests (bad queries, wrong methods, bodies where none belongs, JSON that is not the
//! object asked for) answer the JSON error shape; the `Bearer` scheme's case.

use crate::common::{raw, send};
use crate::{app, code, two_player};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use crown_server::App;
use serde_json::{json, Value};
use tower::ServiceExt;

/// Bad query strings and wrong methods answer the JSON error shape, not axum's plain text or an
/// empty body.
#[tokio::test]
async fn bad_queries_and_wrong_methods_are_json_errors() {
    let app = app().await;
    let (id, _, _) = two_player(&app, json!({"variant": "american"})).await;
    for uri in [
        "/api/games?status=open&status=finished",
        "/api/games?limit=1&limit=2",
    ] {
        let (s, v) = send(&app, Method::GET, uri, None, None).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_query"),
            "{uri}: {v}"
        );
        assert!(!v["error"]["message"].as_str().unwrap().is_empty(), "{v}");
    }
    for (method, uri, allow) in [
        (Method::GET, format!("/api/games/{id}/moves"), "POST"),
        (Method::DELETE, format!("/api/games/{id}"), "GET"),
        (Method::POST, "/health".to_string(), "GET"),
    ] {
        let resp = app
            .router()
            .oneshot(
                Request::builder()
                    .method(method.clone())
                    .uri(&uri)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(
            resp.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {uri}"
        );
        let ct = resp.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        assert!(ct.starts_with("application/json"), "{method} {uri}: {ct}");
        let allow_header = resp.headers()[header::ALLOW].to_str().unwrap().to_string();
        assert!(allow_header.contains(allow), "{allow_header}");
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .unwrap();
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(code(&v), "method_not_allowed", "{method} {uri}: {v}");
    }
}

/// The `Bearer` scheme is matched without regard to case (RFC 9110 section 11.1).
#[tokio::test]
async fn bearer_scheme_is_case_insensitive() {
    let app = app().await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    for (scheme, text) in [("bearer", "11-15"), ("BEARER", "9-13")] {
        let req = Request::builder()
            .method(Method::POST)
            .uri(format!("/api/games/{id}/moves"))
            .header(header::AUTHORIZATION, format!("{scheme} {black}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(json!({ "move": text, "ply": 0 }).to_string()))
            .unwrap();
        let (s, v) = raw(&app, req).await;
        if scheme == "bearer" {
            assert_eq!(s, StatusCode::OK, "{scheme}: {v}");
        } else {
            // Authenticated (not 401/403); refused only because the ply is now stale (another
            // move than the one played at ply 0, so not a retry).
            assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "stale_ply"), "{v}");
        }
    }
    // Another scheme is still refused.
    let req = Request::builder()
        .method(Method::POST)
        .uri(format!("/api/games/{id}/resign"))
        .header(header::AUTHORIZATION, format!("Basic {black}"))
        .body(Body::empty())
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
}

#[tokio::test]
async fn json_arrays_are_not_objects() {
    let app = app().await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    for body in [
        json!(["11-15"]),
        json!(["11-15", 0]),
        json!("11-15"),
        json!(5),
    ] {
        let (s, v) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&black),
            Some(body.clone()),
        )
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(code(&v), "bad_json", "{body}: {v}");
    }
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!(["american"])),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_json"), "{v}");
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 0, "{g}");
}

#[tokio::test]
async fn bodiless_endpoints_refuse_a_declared_body() {
    let app = app().await;
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        Some(json!({"x": 1})),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::BAD_REQUEST, "unexpected_body"),
        "{v}"
    );
    let chunked = Request::builder()
        .method(Method::POST)
        .uri(format!("/api/games/{id}/resign"))
        .header(header::TRANSFER_ENCODING, "chunked")
        .body(Body::from("0\r\n\r\n"))
        .unwrap();
    let (s, v) = raw(&app, chunked).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::BAD_REQUEST, "unexpected_body"),
        "{v}"
    );
    // Nothing changed: the seat is still open.
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "open", "{g}");
    // `Content-Length: 0` is no body.
    let empty = Request::builder()
        .method(Method::POST)
        .uri(format!("/api/games/{id}/join"))
        .header(header::CONTENT_LENGTH, "0")
        .body(Body::empty())
        .unwrap();
    let (s, v) = raw(&app, empty).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

/// Send `body` as the raw text of a JSON request (duplicate keys cannot be built with `json!`).
async fn send_text(app: &App, uri: &str, token: Option<&str>, body: &str) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json");
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    raw(app, req.body(Body::from(body.to_string())).unwrap()).await
}

#[tokio::test]
async fn duplicate_keys_and_malformed_nested_objects_are_bad_json() {
    let app = app().await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    let uri = format!("/api/games/{id}/moves");
    for body in [
        r#"{"move":"11-15","move":"9-13"}"#,
        r#"{"move":"11-15","ply":0,"ply":0}"#,
    ] {
        let (s, v) = send_text(&app, &uri, Some(&black), body).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_json"),
            "{body}: {v}"
        );
    }
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 0, "nothing was played: {g}");
    for body in [
        r#"{"variant":"american","variant":"pool"}"#,
        r#"{"variant":"american","time_control":{"initial_ms":1000,"initial_ms":2000,"increment_ms":0}}"#,
        r#"{"variant":"american","time_control":[60000,0]}"#,
        r#"{"variant":"american","time_control":{"initial_ms":60000,"increment_ms":0,"delay_ms":5}}"#,
        r#"{"variant":"american","time_control":{"initial_ms":60000}}"#,
        r#"{"variant":"american","time_control":"60+0"}"#,
        r#"{"variant":"american","time_control":{"initial_ms":"60000","increment_ms":0}}"#,
    ] {
        let (s, v) = send_text(&app, "/api/games", None, body).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::BAD_REQUEST, "bad_json"),
            "{body}: {v}"
        );
    }
    // The well-formed ones still pass, with or without a time control.
    for body in [
        r#"{"variant":"american","time_control":{"initial_ms":60000,"increment_ms":0}}"#,
        r#"{"variant":"american","time_control":null}"#,
        r#"{"variant":"american"}"#,
    ] {
        let (s, v) = send_text(&app, "/api/games", None, body).await;
        assert_eq!(s, StatusCode::CREATED, "{body}: {v}");
    }
}

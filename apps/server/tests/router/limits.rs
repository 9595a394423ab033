//! Limits: body and request-head size, open games, request rate, and what one address may hold.

use crate::common::{raw, send, server};
use crate::{app, code, FirstMove};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use crown_server::{App, Config};
use serde_json::{json, Value};
use std::sync::Arc;

#[tokio::test]
async fn body_larger_than_the_limit_is_refused() {
    let app = server().with(|c| c.max_body_bytes = 256).start().await;
    let big = json!({"variant": "american", "fen": "x".repeat(1000)});
    let (s, v) = send(&app, Method::POST, "/api/games", None, Some(big)).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large")
    );
}

#[tokio::test]
async fn open_game_limit_is_enforced() {
    let app = server().with(|c| c.max_open_games = 1).start().await;
    let body = json!({"variant": "pool"});
    let (s, _) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, v) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "too_many_games")
    );
}

#[tokio::test]
async fn rate_limit_refuses_bursts() {
    let app = server()
        .with(|c| {
            c.rate_per_sec = 1;
            c.rate_burst = 2;
        })
        .start()
        .await;
    for _ in 0..2 {
        let (s, _) = send(&app, Method::GET, "/api/games", None, None).await;
        assert_eq!(s, StatusCode::OK);
    }
    let (s, v) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
    // /health is not limited.
    let (s, _) = send(&app, Method::GET, "/health", None, None).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn large_request_head_is_a_json_431() {
    let app = app().await;
    let req = Request::builder()
        .uri("/api/games")
        .header("x-big", "a".repeat(20 * 1024))
        .body(Body::empty())
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!(s, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, "{v}");
    assert_eq!(code(&v), "headers_too_large");
}

/// A request from `ip` (what `crown_server::serve` records for each connection).
/// POST `body` (`null`: no body) to `uri` as the client address `ip`.
async fn send_from(app: &App, ip: [u8; 4], uri: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder().method(Method::POST).uri(uri);
    let mut req = if body.is_null() {
        req.body(Body::empty()).unwrap()
    } else {
        req.header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
            ip, 40000,
        ))));
    raw(app, req).await
}

#[tokio::test]
async fn one_address_cannot_lock_everyone_out_with_unjoined_games() {
    // Issue 12: "minutes, not a day".
    assert!(Config::default().open_game_ttl_ms <= 15 * 60 * 1000);
    let app = server().with(|c| c.max_unjoined_per_ip = 3).start().await;
    let a = [10, 0, 0, 1];
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_unjoined"),
        "{v}"
    );
    // Another address is not affected.
    let (s, _) = send_from(
        &app,
        [10, 0, 0, 2],
        "/api/games",
        json!({"variant": "pool"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    // Once one is joined, the first address may create another.
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{}/join", ids[0]),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn one_address_cannot_lock_everyone_out_with_games_it_joins_itself() {
    // Issue 23: creating *and joining* its own games, one address filled the server-wide limit.
    let app = server()
        .with(|c| {
            c.max_games_per_ip = 3;
            c.max_open_games = 5;
        })
        .start()
        .await;
    let a = [10, 0, 0, 1];
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        let (s, j) = send_from(&app, a, &format!("/api/games/{id}/join"), json!(null)).await;
        assert_eq!(s, StatusCode::OK, "{j}");
        tokens.push((id, v["token"].as_str().unwrap().to_string()));
    }
    // A fourth game, created or joined, is refused to that address only.
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_active_games"),
        "{v}"
    );
    let (s, other) = send_from(
        &app,
        [10, 0, 0, 2],
        "/api/games",
        json!({"variant": "pool"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{other}");
    let other_id = other["id"].as_str().unwrap();
    let (s, v) = send_from(&app, a, &format!("/api/games/{other_id}/join"), json!(null)).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_active_games"),
        "{v}"
    );
    // The refused join took no seat: a third address still can.
    let (s, v) = send_from(
        &app,
        [10, 0, 0, 3],
        &format!("/api/games/{other_id}/join"),
        json!(null),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A game it finishes frees its place.
    let (id, token) = &tokens[0];
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn engine_games_are_capped_per_address() {
    let app = server()
        .engine(Arc::new(FirstMove))
        .with(|c| c.max_engine_games_per_ip = 2)
        .start()
        .await;
    let body = json!({"variant": "american", "opponent": "engine", "level": 10});
    let a = [10, 0, 0, 9];
    let mut first = None;
    for _ in 0..2 {
        let (s, v) = send_from(&app, a, "/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        first.get_or_insert((
            v["id"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
        ));
    }
    let (s, v) = send_from(&app, a, "/api/games", body.clone()).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_engine_games"),
        "{v}"
    );
    let (s, _) = send_from(&app, [10, 0, 0, 10], "/api/games", body.clone()).await;
    assert_eq!(s, StatusCode::CREATED);
    // Resigning one frees its place.
    let (id, token) = first.unwrap();
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send_from(&app, a, "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

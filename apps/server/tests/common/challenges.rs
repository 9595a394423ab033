//! Helpers of the challenge tests (tests/challenges.rs on SQLite, tests/pg_challenges.rs on
//! PostgreSQL with two instances): the requests of the challenge API with a session cookie and
//! a client address, and a move played with a seat token.

use super::accounts::{post, Call};
use axum::http::{Method, StatusCode};
use crown_server::App;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// `method uri` with `session`, an optional JSON body and a client address (`from`).
pub async fn call_from(
    app: &App,
    method: Method,
    uri: &str,
    session: Option<&str>,
    body: Option<Value>,
    from: Option<[u8; 4]>,
) -> (StatusCode, Value) {
    let mut c: Call<'_> = post(uri, Value::Null);
    c.method = method;
    c.session = session;
    c.body = body;
    c.from = from.map(std::net::IpAddr::from);
    let (s, _, v) = c.send(app).await;
    (s, v)
}

/// `method uri` with `session` and an optional JSON body.
pub async fn call(
    app: &App,
    method: Method,
    uri: &str,
    session: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    call_from(app, method, uri, session, body, None).await
}

/// A blitz clock: 3 min + 2 s.
pub fn blitz() -> Value {
    json!({"initial_ms": 180_000, "increment_ms": 2_000})
}

/// `POST /api/challenge/{name}` with `body` as `session`.
pub async fn challenge(app: &App, session: &str, name: &str, body: Value) -> (StatusCode, Value) {
    let uri = format!("/api/challenge/{name}");
    call(app, Method::POST, &uri, Some(session), Some(body)).await
}

/// `POST /api/challenge/{id}/{what}` (no body) as `session`.
pub async fn answer(app: &App, session: &str, id: &str, what: &str) -> (StatusCode, Value) {
    let uri = format!("/api/challenge/{id}/{what}");
    call(app, Method::POST, &uri, Some(session), None).await
}

/// `GET uri` as `session`.
pub async fn get(app: &App, session: &str, uri: &str) -> (StatusCode, Value) {
    call(app, Method::GET, uri, Some(session), None).await
}

/// The error code of an answer (empty when none).
pub fn code(v: &Value) -> String {
    v["error"]["code"].as_str().unwrap_or("").to_string()
}

/// The seat holding `token` plays the first legal move of game `id`; returns the status and
/// the game view.
pub async fn play_first_legal(app: &App, id: &str, token: &str) -> (StatusCode, Value) {
    let (s, game) = super::send(app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{game}");
    let mv = game["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let ply = game["ply"].clone();
    super::send(
        app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(json!({"move": mv, "ply": ply})),
    )
    .await
}

/// `GET /api/games/{id}`.
pub async fn game(app: &App, id: &str) -> Value {
    let (s, g) = super::send(app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    g
}

/// Wait (at most 10 s) until game `id` is no longer ongoing; its view then.
pub async fn wait_over(app: &App, id: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let g = game(app, id).await;
        if g["status"] != "ongoing" {
            return g;
        }
        assert!(Instant::now() < until, "still ongoing: {g}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Alice challenges bob with `body`, bob accepts, alice takes her seat: the game's id and the
/// seat tokens (alice's, bob's).
pub async fn accepted(app: &App, alice: &str, bob: &str, body: Value) -> (String, String, String) {
    let (s, c) = challenge(app, alice, "bob", body).await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let (s, b) = answer(app, bob, &id, "accept").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, a) = answer(app, alice, &id, "seat").await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let token = |v: &Value| v["token"].as_str().unwrap().to_string();
    (id, token(&a), token(&b))
}

/// A 1-day rated correspondence challenge from `alice` (black) to bob, accepted: the game's id
/// and the seat tokens (black, white).
pub async fn one_day_game(app: &App, alice: &str, bob: &str) -> (String, String, String) {
    let body = json!({"variant": "american", "days": 1, "color": "black", "rated": true});
    let (id, black, white) = accepted(app, alice, bob, body).await;
    let (_, c) = get(app, alice, &format!("/api/challenge/{id}")).await;
    assert_eq!(
        (&c["days"], &c["speed"], &c["time_control"]),
        (&json!(1), &json!("correspondence"), &Value::Null),
        "{c}"
    );
    (id, black, white)
}

/// Game view `g` is over: black won on time (white, to move, missed its deadline).
pub fn assert_black_won_on_time(g: &Value) {
    assert_eq!(
        (
            &g["status"],
            &g["outcome"]["winner"],
            &g["outcome"]["result"],
            &g["outcome"]["reason"],
            &g["deadline_ms"]
        ),
        (
            &json!("finished"),
            &json!("black"),
            &json!("1-0"),
            &json!("Black wins: the opponent ran out of time"),
            &Value::Null
        ),
        "{g}"
    );
}

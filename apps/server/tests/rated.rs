//! Rated games through the router (docs/api.md, "Ratings"), on the in-memory SQLite store: seats
//! taken with a session cookie are linked to the account, and a rated game needs two different
//! logged-in accounts, a time control and the standard start. Guest games keep working.

mod common;
use axum::http::StatusCode;
use common::accounts::{post, sign_up, Call};
use common::server;
use serde_json::{json, Value};

/// A blitz time control: 3 min + 2 s (180 + 40 x 2 = 260 s estimated).
fn blitz() -> Value {
    json!({"initial_ms": 180_000, "increment_ms": 2_000})
}

/// `POST uri` without a body.
fn join(uri: &str) -> Call<'_> {
    let mut call = post(uri, Value::Null);
    call.body = None;
    call
}

/// `GET uri`.
fn get(uri: &str) -> Call<'_> {
    let mut call = join(uri);
    call.method = axum::http::Method::GET;
    call
}

/// `call` sent with the session cookie `session`.
fn with<'a>(session: Option<&'a str>, mut call: Call<'a>) -> Call<'a> {
    call.session = session;
    call
}

#[tokio::test]
async fn a_rated_game_links_both_accounts() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let bob = sign_up(&app, "bob", "password-b").await;
    let body = json!({"variant": "american", "rated": true, "time_control": blitz(),
                      "color": "black", "public": true});
    let (s, _, v) = with(Some(&alice), post("/api/games", body))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["game"]["rated"], true, "{v}");
    assert_eq!(v["game"]["accounts"]["black"]["name"], "alice", "{v}");
    assert_eq!(v["game"]["accounts"]["white"], Value::Null, "{v}");
    let uri = format!("/api/games/{}/join", v["id"].as_str().unwrap());
    let (s, _, l) = with(None, get("/api/lobby")).send(&app).await;
    assert_eq!(s, StatusCode::OK, "{l}");
    assert_eq!(l["seeks"][0]["id"], v["id"], "{l}");
    assert_eq!(l["seeks"][0]["rated"], true, "{l}");
    assert_eq!(l["seeks"][0]["account"], "alice", "{l}");

    // A guest cannot take the seat of a rated game, nor can the creator's own account.
    let (s, _, e) = join(&uri).send(&app).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{e}");
    assert_eq!(e["error"]["code"], "login_required");
    let (s, _, e) = with(Some(&alice), join(&uri)).send(&app).await;
    assert_eq!(s, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["error"]["code"], "same_account");

    let (s, _, j) = with(Some(&bob), join(&uri)).send(&app).await;
    assert_eq!(s, StatusCode::OK, "{j}");
    assert_eq!(j["color"], "white");
    assert_eq!(j["game"]["status"], "ongoing", "{j}");
    assert_eq!(j["game"]["accounts"]["black"]["name"], "alice", "{j}");
    assert_eq!(j["game"]["accounts"]["white"]["name"], "bob", "{j}");

    let pdn_uri = format!("/api/games/{}/pdn", v["id"].as_str().unwrap());
    let req = axum::http::Request::get(&pdn_uri)
        .body(axum::body::Body::empty())
        .unwrap();
    let resp = tower::ServiceExt::oneshot(app.router(), req).await.unwrap();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    let pdn = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(pdn.contains("[Black \"alice\"]"), "{pdn}");
    assert!(pdn.contains("[White \"bob\"]"), "{pdn}");
}

#[tokio::test]
async fn a_rated_game_that_is_not_one_is_refused() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let guest = json!({"variant": "american", "rated": true, "time_control": blitz()});
    let (s, _, e) = post("/api/games", guest).send(&app).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{e}");
    assert_eq!(e["error"]["code"], "login_required");
    let cases = [
        (
            json!({"variant": "american", "rated": true}),
            "rated_needs_clock",
        ),
        (
            json!({"variant": "american", "rated": true, "time_control": blitz(),
                   "fen": "B:W28:B5"}),
            "rated_needs_standard_start",
        ),
        (
            json!({"variant": "impasse", "rated": true, "time_control": blitz(),
                   "setup": "steere"}),
            "rated_needs_standard_start",
        ),
    ];
    for (body, code) in cases {
        let (s, _, e) = with(Some(&alice), post("/api/games", body.clone()))
            .send(&app)
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {e}");
        assert_eq!(e["error"]["code"], code, "{body}: {e}");
    }
}

/// An engine that never finds a move: enough to make engine games possible on the test server.
struct Idle;

impl crown_server::engine::MovePicker for Idle {
    fn pick(
        &self,
        _: &crown_core::Game,
        _: u8,
        _: Option<(u64, u64)>,
        _: &std::sync::atomic::AtomicBool,
    ) -> Option<String> {
        None
    }
}

#[tokio::test]
async fn a_rated_game_against_the_engine_is_refused() {
    let app = server().engine(std::sync::Arc::new(Idle)).start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let body = json!({"variant": "american", "rated": true, "time_control": blitz(),
                      "opponent": "engine"});
    let (s, _, e) = with(Some(&alice), post("/api/games", body))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{e}");
    assert_eq!(e["error"]["code"], "rated_needs_human", "{e}");
}

#[tokio::test]
async fn a_casual_game_links_a_logged_in_seat_and_takes_guests() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "password-a").await;
    let body = json!({"variant": "american", "time_control": blitz(), "color": "white"});
    let (s, _, v) = with(Some(&alice), post("/api/games", body))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["game"]["rated"], false, "{v}");
    assert_eq!(v["game"]["accounts"]["white"]["name"], "alice", "{v}");
    let uri = format!("/api/games/{}/join", v["id"].as_str().unwrap());
    let (s, _, j) = join(&uri).send(&app).await;
    assert_eq!(s, StatusCode::OK, "{j}");
    assert_eq!(j["game"]["accounts"]["black"], Value::Null, "{j}");
    assert_eq!(j["game"]["accounts"]["white"]["name"], "alice", "{j}");

    // A guest game is as before: no accounts at all.
    let (s, _, g) = post("/api/games", json!({"variant": "pool"}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["game"]["rated"], false);
    assert_eq!(g["game"]["accounts"], json!({"black": null, "white": null}));
}

//! Helpers for the puzzle tests (tests/puzzles.rs, tests/pg_puzzles.rs): attempts, merges and the
//! dashboard through the router, and puzzles of the embedded sets picked by difficulty.

use super::accounts::post;
use super::ratings::get;
use axum::http::StatusCode;
use crown_core::Variant;
use crown_puzzle::Puzzle;
use crown_server::App;
use serde_json::{json, Value};

/// Every puzzle of the embedded sets.
pub fn all_puzzles() -> Vec<Puzzle> {
    Variant::ALL
        .into_iter()
        .flat_map(|v| crown_puzzle::read_jsonl(crown_puzzle::embedded_set(v).as_bytes()).unwrap())
        .collect()
}

/// The ids of `n` puzzles of difficulty `difficulty`, in file order.
pub fn at_difficulty(difficulty: u32, n: usize) -> Vec<String> {
    let ids: Vec<String> = all_puzzles()
        .into_iter()
        .filter(|p| p.difficulty == difficulty)
        .map(|p| p.id)
        .take(n)
        .collect();
    assert_eq!(ids.len(), n, "the sets have {n} puzzles of {difficulty}");
    ids
}

/// `POST /api/puzzles/attempts` as `session` with `body`: the status and the answer.
pub async fn attempt_body(app: &App, session: Option<&str>, body: Value) -> (StatusCode, Value) {
    let mut c = post("/api/puzzles/attempts", body);
    c.session = session;
    let (s, _, v) = c.send(app).await;
    (s, v)
}

/// One attempt at `puzzle` (solved clean or not, 5 s) as `session`: the status and the answer.
pub async fn attempt(app: &App, session: &str, puzzle: &str, solved: bool) -> (StatusCode, Value) {
    attempt_body(
        app,
        Some(session),
        json!({"puzzle": puzzle, "solved": solved, "time_ms": 5000}),
    )
    .await
}

/// Each of `ids` solved four times at once by `session`, the requests spread over `apps` in
/// turn (asserting `200` each): how many were rated.
pub async fn race(apps: &[App], session: &str, ids: &[String]) -> usize {
    let racers = (0..4 * ids.len()).map(|i| {
        let app = apps[i % apps.len()].clone();
        let (session, id) = (session.to_string(), ids[i % ids.len()].clone());
        tokio::spawn(async move { attempt(&app, &session, &id, true).await })
    });
    let mut rated = 0;
    for r in futures_util::future::join_all(racers).await {
        let (s, v) = r.unwrap();
        assert_eq!(s, StatusCode::OK, "{v}");
        rated += usize::from(v["rated"] == true);
    }
    rated
}

/// A new account `alice` solves a 1500 puzzle, rated (asserting it): the puzzles work on `app`.
pub async fn a_new_account_rates_a_puzzle(app: &App) {
    let alice = super::accounts::sign_up(app, "alice", "password-a").await;
    let (s, v) = attempt(app, &alice, &at_difficulty(1500, 1)[0], true).await;
    assert_eq!(
        (s, v["rated"].as_bool()),
        (StatusCode::OK, Some(true)),
        "{v}"
    );
}

/// `POST /api/puzzles/merge` as `session` with the local record `body`.
pub async fn merge(app: &App, session: &str, body: Value) -> (StatusCode, Value) {
    let mut c = post("/api/puzzles/merge", body);
    c.session = Some(session);
    let (s, _, v) = c.send(app).await;
    (s, v)
}

/// `GET /api/puzzles/me` as `session` (asserting `200`).
pub async fn dashboard(app: &App, session: &str) -> Value {
    let (s, v) = get(app, "/api/puzzles/me", Some(session)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

//! Clocks: a fallen flag, the side to move's clock, and time spent loading games.

use crate::common::send;
use crate::{app, code, mv, two_player};
use axum::http::{Method, StatusCode};
use crown_server::store::{GameRecord, GameSummary, SqliteStore, Store, StoreError};
use crown_server::{App, Config};
use serde_json::{json, Value};
use std::sync::Arc;

#[tokio::test]
async fn a_fallen_flag_loses_on_time() {
    let app = app().await;
    let (id, black, white) = two_player(
        &app,
        json!({"variant": "american", "time_control": {"initial_ms": 1, "increment_ms": 0}}),
    )
    .await;
    // No clock runs before a side's first move: both first moves are in time.
    for (t, m) in [(&black, "11-15"), (&white, "23-19")] {
        let (s, v) = mv(&app, &id, Some(t), m).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    // Black's 1 ms runs from White's first move.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (s, v) = mv(&app, &id, Some(&black), "8-11").await;
    // Either the request or the sweeper saw the flag first; both end the game on time.
    assert!(matches!(code(&v), "time_out" | "game_over"), "{s} {v}");
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "finished");
    assert_eq!(g["outcome"]["winner"], "white");
    assert_eq!(g["ply"], 2);
    assert_eq!(g["clock"]["black_ms"], 0);
}

#[tokio::test]
async fn clock_runs_only_for_the_side_to_move() {
    let app = app().await;
    let (id, black, white) = two_player(
        &app,
        json!({"variant": "american", "time_control": {"initial_ms": 60000, "increment_ms": 2000}}),
    )
    .await;
    // Each side's first move is not timed: no time spent, no increment, and no clock runs
    // until both have moved.
    let (s, g) = mv(&app, &id, Some(&black), "11-15").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["clock"]["black_ms"], 60_000);
    assert_eq!(g["clock"]["running"], Value::Null);
    let (s, g) = mv(&app, &id, Some(&white), "23-19").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["clock"]["white_ms"], 60_000);
    assert_eq!(g["clock"]["running"], "black");
    let (s, g) = mv(&app, &id, Some(&black), "8-11").await;
    assert_eq!(s, StatusCode::OK);
    let b = g["clock"]["black_ms"].as_u64().unwrap();
    // Black spent a little time and got the 2 s increment.
    assert!(b > 60_000 && b <= 62_000, "{b}");
    assert_eq!(g["clock"]["running"], "white");
    assert_eq!(g["clock"]["increment_ms"], 2000);
}

/// A store whose reads of games take `delay` (a big database or a slow disk), recording when the
/// last one finished.
struct SlowLoad {
    inner: Arc<SqliteStore>,
    delay: std::time::Duration,
    loaded_at: std::sync::atomic::AtomicU64,
}

impl SlowLoad {
    fn slow<T>(&self, r: T) -> T {
        std::thread::sleep(self.delay);
        self.loaded_at.store(
            crown_server::live::now_ms(),
            std::sync::atomic::Ordering::SeqCst,
        );
        r
    }
}

impl Store for SlowLoad {
    fn create(&self, rec: &GameRecord) -> Result<(), StoreError> {
        self.inner.create(rec)
    }
    fn save(&self, rec: &mut GameRecord, keep: usize) -> Result<(), StoreError> {
        self.inner.save(rec, keep)
    }
    fn cap_rated_pairs(&self, per_day: u32) {
        self.inner.cap_rated_pairs(per_day);
    }
    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.slow(self.inner.load(id))
    }
    fn load_unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.slow(self.inner.load_unfinished())
    }
    fn list(&self, s: Option<&str>, n: usize) -> Result<Vec<GameSummary>, StoreError> {
        self.inner.list(s, n)
    }
    fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.inner.unfinished()
    }
    fn heartbeat(&self, now: u64) -> Result<(), StoreError> {
        self.inner.heartbeat(now)
    }
    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        self.inner.last_heartbeat()
    }
}

#[tokio::test]
async fn time_spent_loading_games_is_not_charged_to_clocks() {
    // A timed game whose turn started 1 s before the server's last heartbeat.
    let inner = Arc::new(SqliteStore::open_in_memory().unwrap());
    let app = App::start(inner.clone(), Config::default(), None)
        .await
        .unwrap();
    let (id, _, _) = two_player(
        &app,
        json!({"variant": "american", "time_control": {"initial_ms": 600000, "increment_ms": 0}}),
    )
    .await;
    app.shutdown();
    // Let the first server's heartbeat task see the shutdown: a heartbeat still in flight would
    // otherwise land after the one written below and charge the whole minute.
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    let mut rec = inner.load(&id).unwrap().unwrap();
    let started = crown_server::live::now_ms() - 60_000;
    rec.meta.turn_started_ms = started;
    let keep = rec.moves.len();
    inner.save(&mut rec, keep).unwrap();
    inner.heartbeat(started + 1_000).unwrap();
    // Restart on a store that takes 400 ms to read the games.
    let slow = Arc::new(SlowLoad {
        inner: inner.clone(),
        delay: std::time::Duration::from_millis(400),
        loaded_at: std::sync::atomic::AtomicU64::new(0),
    });
    let app2 = App::start(slow.clone(), Config::default(), None)
        .await
        .unwrap();
    let resumed = inner.load(&id).unwrap().unwrap().meta.turn_started_ms;
    // The clock resumes (charged the 1 s before the heartbeat) no earlier than loading ended.
    let loaded_at = slow.loaded_at.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        resumed + 1_000 >= loaded_at,
        "resumed at {resumed} + 1000 < loading ended at {loaded_at}"
    );
    app2.shutdown();
}

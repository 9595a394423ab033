//! How long the per-account tournament cap and the rated pair cap take with many rows in the
//! store (issue 41's known minors): measurements, not checks, so `#[ignore]`d; run them with
//! `cargo nextest run -p crown-server --test cap_scale --run-ignored only --no-capture`
//! (`CAP_SCALE_ROWS` rows, 20,000 by default; `CAP_SCALE_CALLS` timed calls, 200 by default).
//! Each prints the median and the slowest of its timed calls.

mod common;
use axum::http::{Method, StatusCode};
use common::server;
use common::tournaments::{blitz, call, players};
use crown_server::store::fixture::GameRecordBuilder;
use crown_server::store::{Durability, SeatAccount, SqliteStore, Store};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `name` from the environment, or `default`.
fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Print the median and the slowest of `times` under `what`.
fn report(what: &str, rows: usize, mut times: Vec<Duration>) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{what}: {rows} rows, {} calls: median {:.3} ms, max {:.3} ms",
        times.len(),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run with --run-ignored only"]
async fn time_the_tournament_cap_with_many_open_tournaments() {
    let (rows, calls) = (
        setting("CAP_SCALE_ROWS", 20_000),
        setting("CAP_SCALE_CALLS", 200),
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let open = || Arc::new(SqliteStore::open(&path, Durability::Normal).unwrap());
    let config = |c: &mut crown_server::Config| c.tournaments_per_hour_per_ip = 0;
    // Alice creates her three (the cap): their state is what every seeded row copies.
    let app = server().with(config).store(open()).start().await;
    let sessions = players(&app).await;
    let body = json!({"name": "Cap", "variant": "american", "format": "swiss", "rounds": 3,
                      "time_control": blitz()});
    for _ in 0..3 {
        let (s, v) = call(
            &app,
            Method::POST,
            "/api/tournaments",
            Some(&sessions["alice"]),
            Some(body.clone()),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    app.shutdown();
    drop(app);
    // Other accounts' open tournaments, written as rows of the original schema.
    {
        let db = rusqlite::Connection::open(&path).unwrap();
        let (state, alice_id): (String, String) = db
            .query_row(
                "SELECT t.state, u.id FROM tournaments t, users u WHERE u.name = 'alice' LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let tx = db.unchecked_transaction().unwrap();
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO tournaments (id, phase, starts_ms, created_ms, updated_ms, state,
                     version) VALUES (?1, 'created', 0, ?2, ?2, ?3, 1)",
                )
                .unwrap();
            for i in 0..rows {
                let other = state.replace(&alice_id, &format!("{:016x}", i + 1));
                insert
                    .execute(rusqlite::params![format!("s{i:07x}"), i as i64, other])
                    .unwrap();
            }
        }
        tx.commit().unwrap();
    }
    let app = server().with(config).store(open()).start().await;
    let mut times = Vec::with_capacity(calls);
    for _ in 0..calls {
        let at = Instant::now();
        let (s, v) = call(
            &app,
            Method::POST,
            "/api/tournaments",
            Some(&sessions["alice"]),
            Some(body.clone()),
        )
        .await;
        times.push(at.elapsed());
        assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
        assert_eq!(v["error"]["code"], "too_many_tournaments", "{v}");
    }
    report("POST /api/tournaments over the cap", rows, times);
}

#[test]
#[ignore = "a measurement: run with --run-ignored only"]
fn time_the_rated_pair_query_with_many_unfinished_rated_games() {
    let (rows, calls) = (
        setting("CAP_SCALE_ROWS", 20_000),
        setting("CAP_SCALE_CALLS", 200),
    );
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("crown.db"), Durability::Normal).unwrap();
    let account = |i: usize| SeatAccount {
        user_id: format!("{i:016x}"),
        name: format!("p{i}"),
        bot: false,
    };
    // Rated blitz games being played between other pairs of accounts, created from a few
    // threads so that the writer commits them in batches.
    let store = Arc::new(store);
    std::thread::scope(|s| {
        for part in 0..4 {
            let store = store.clone();
            s.spawn(move || {
                for i in (part..rows).step_by(4) {
                    let mut rec = GameRecordBuilder::new(&format!("g{i:07x}"))
                        .time_control(180_000, 2_000)
                        .build();
                    rec.meta.rated = true;
                    rec.meta.accounts.black = Some(account(2 * i + 10));
                    rec.meta.accounts.white = Some(account(2 * i + 11));
                    store.create(&rec).unwrap();
                }
            });
        }
    });
    let ratings = store.ratings().unwrap();
    let (a, b) = (account(1).user_id, account(2).user_id);
    let mut times = Vec::with_capacity(calls);
    for _ in 0..calls {
        let at = Instant::now();
        let pair = ratings.pair_history(&a, &b, 0).unwrap();
        times.push(at.elapsed());
        assert_eq!(pair.recent_rated, 0);
    }
    report("pair_history", rows, times);
}

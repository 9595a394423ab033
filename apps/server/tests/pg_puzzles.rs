//! Puzzles on the account on PostgreSQL (store/pg/puzzles.rs): two instances on one database,
//! one account's attempts sent to both at once, every puzzle rated exactly once and the same
//! record seen from both; a merge through one seen by the other; a database made before the
//! puzzle table gets it at the next start. Starts its own PostgreSQL (tests/common/pg.rs);
//! skipped, saying so, when PostgreSQL is not installed.

mod common;
use axum::http::StatusCode;
use common::accounts::sign_up;
use common::pg::{store, Pg};
use common::puzzles::{a_new_account_rates_a_puzzle, at_difficulty, dashboard, merge, race};
use common::server;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_rate_each_puzzle_once() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    let b = server().store(store(&pg.url()).await).start().await;
    let alice = sign_up(&a, "alice", "password-a").await;
    let ids = at_difficulty(1500, 3);
    // Each puzzle sent four times at once, through both instances in turn.
    assert_eq!(race(&[a.clone(), b.clone()], &alice, &ids).await, 3);
    let (da, db) = (dashboard(&a, &alice).await, dashboard(&b, &alice).await);
    assert_eq!(da, db);
    assert_eq!(
        (da["attempts"].as_u64(), da["streak"].as_u64()),
        (Some(3), Some(3)),
        "{da}"
    );
    // A merge through one instance, seen by the other; sent again to it, nothing changes.
    let hard = at_difficulty(1900, 1);
    let body = json!({"ratings": {"puzzles": {hard[0].clone(): {"rating": 2000.0}, ids[0].clone(): {"rating": 1400.0}}}});
    let (s, m) = merge(&a, &alice, body.clone()).await;
    assert_eq!(s, StatusCode::OK, "{m}");
    assert_eq!(
        (m["rated"].as_u64(), m["already"].as_u64()),
        (Some(1), Some(1)),
        "{m}"
    );
    assert_eq!(
        m["streak"], 0,
        "the 1900 puzzle's rating rose: a failure: {m}"
    );
    let (_, again) = merge(&b, &alice, body).await;
    assert_eq!(
        (again["rated"].as_u64(), again["rating"].clone()),
        (Some(0), m["rating"].clone())
    );
    assert_eq!(dashboard(&b, &alice).await["attempts"], 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_made_before_the_puzzle_table_gets_it() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    drop(store(&url).await);
    tokio::task::spawn_blocking({
        let url = url.clone();
        move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.batch_execute("DROP TABLE puzzle_records").unwrap();
        }
    })
    .await
    .unwrap();
    let app = server().store(store(&url).await).start().await;
    a_new_account_rates_a_puzzle(&app).await;
}

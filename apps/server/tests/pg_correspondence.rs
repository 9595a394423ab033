//! Correspondence games on PostgreSQL with several instances on one database (docs/api.md,
//! "Correspondence games"; docs/scaling.md): a 1-day game accepted through one instance and
//! played through another keeps its deadline when the first stops and a new one starts, and
//! the instances left end it on time once the side to move misses the deadline, with nobody
//! watching; "your turn" lists it through any instance. Days pass through the server's test clock
//! ([`crown_server::games::live::advance_clock`], shared by the instances of this process),
//! never waited for; this file holds one test so that moving the clock disturbs no other test.
//! Starts its own PostgreSQL (tests/common/pg.rs); skipped, saying so, when it is not installed.

mod common;
use axum::http::StatusCode;
use common::accounts::sign_up;
use common::challenges::{
    assert_black_won_on_time, game, get, one_day_game, play_first_legal, wait_over,
};
use common::pg::{store, Pg};
use common::server;
use crown_server::games::live::{advance_clock, now_ms};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_correspondence_game_outlives_its_instance_and_another_ends_it_by_the_deadline() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let config = |c: &mut crown_server::Config| {
        c.rated_min_plies = 2;
        c.lease_ms = 1_000;
    };
    let a = server()
        .store(store(&pg.url()).await)
        .with(config)
        .start()
        .await;
    let b = server()
        .store(store(&pg.url()).await)
        .with(config)
        .start()
        .await;
    let alice = sign_up(&a, "alice", "correct horse").await;
    let bob = sign_up(&b, "bob", "battery staple").await;
    let (id, black, white) = one_day_game(&a, &alice, &bob).await;
    for (app, token) in [(&b, &black), (&a, &white), (&b, &black)] {
        let (s, v) = play_first_legal(app, &id, token).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let deadline = game(&b, &id).await["deadline_ms"].as_u64().unwrap();

    // The instance that made the game stops; a new one starts and reads the same deadline.
    a.shutdown();
    let c = server()
        .store(store(&pg.url()).await)
        .with(config)
        .start()
        .await;
    let g = game(&c, &id).await;
    assert_eq!(
        (&g["status"], &g["speed"], &g["deadline_ms"]),
        (
            &json!("ongoing"),
            &json!("correspondence"),
            &json!(deadline)
        ),
        "{g}"
    );
    // It is bob's (white's) move, as any instance reads it; alice has no turn.
    let (_, t) = get(&c, &bob, "/api/me/turns").await;
    assert_eq!(
        (
            &t["count"],
            &t["games"][0]["id"],
            &t["games"][0]["deadline_ms"]
        ),
        (&json!(1), &json!(id), &json!(deadline)),
        "{t}"
    );
    assert_eq!(get(&b, &alice, "/api/me/turns").await.1["count"], 0);

    // White misses the deadline: an instance left ends the game on time.
    advance_clock((deadline + 1_000).saturating_sub(now_ms()));
    let g = wait_over(&c, &id).await;
    assert_black_won_on_time(&g);
    assert!(
        g["accounts"]["white"]["rating_diff"].as_i64().unwrap() < 0,
        "{g}"
    );
    let g = wait_over(&b, &id).await;
    assert_eq!(g["outcome"]["winner"], "black", "{g}");
    b.shutdown();
    c.shutdown();
}

//! Challenges on PostgreSQL with two instances on one database (store/pg/challenges.rs;
//! docs/api.md, "Challenges"): a challenge made through one instance is listed through the
//! other, accepted through both at once it is accepted once and makes one game, and both players
//! take their seats and play through either instance. Starts its own PostgreSQL
//! (tests/common/pg.rs); skipped, saying so, when PostgreSQL is not installed.

mod common;
use axum::http::{Method, StatusCode};
use common::accounts::sign_up;
use common::challenges::{answer, blitz, challenge, code, get, play_first_legal};
use common::pg::{store, Pg};
use common::server;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_challenge_accepted_on_two_instances_at_once_makes_one_game_played_on_both() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    let b = server().store(store(&pg.url()).await).start().await;
    let alice = sign_up(&a, "alice", "correct horse").await;
    let bob = sign_up(&b, "bob", "battery staple").await;

    for round in 0..3 {
        let (s, c) = challenge(
            &a,
            &alice,
            "bob",
            json!({"variant": "pool", "time_control": blitz(), "color": "black", "rated": true}),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{c}");
        let id = c["id"].as_str().unwrap().to_string();
        let (_, l) = get(&b, &bob, "/api/challenge").await;
        assert_eq!(
            l["in"][0]["id"],
            json!(id),
            "listed on the other instance: {l}"
        );

        let (x, y) = tokio::join!(
            answer(&a, &bob, &id, "accept"),
            answer(&b, &bob, &id, "accept")
        );
        let (won, lost) = if x.0 == StatusCode::OK {
            (x, y)
        } else {
            (y, x)
        };
        assert_eq!(won.0, StatusCode::OK, "round {round}: {}", won.1);
        assert_eq!(
            (lost.0, code(&lost.1)),
            (StatusCode::CONFLICT, "not_pending".into()),
            "round {round}: {}",
            lost.1
        );
        assert_eq!(won.1["color"], "white", "alice asked for black");

        let (s, alice_seat) = answer(&b, &alice, &id, "seat").await;
        assert_eq!((s, &alice_seat["color"]), (StatusCode::OK, &json!("black")));
        // Black moves first in pool checkers: alice on instance B, then bob on instance A.
        let (s, v) = play_first_legal(&b, &id, alice_seat["token"].as_str().unwrap()).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, v) = play_first_legal(&a, &id, won.1["token"].as_str().unwrap()).await;
        assert_eq!((s, &v["ply"]), (StatusCode::OK, &json!(2)), "{v}");
        assert_eq!((&v["rated"], &v["variant"]), (&json!(true), &json!("pool")));
    }
    let (_, games) = common::send(&a, Method::GET, "/api/games?limit=100", None, None).await;
    assert_eq!(
        games["games"].as_array().unwrap().len(),
        3,
        "one game each: {games}"
    );

    // A decline through one instance is seen through the other, and blocks a repeat on both.
    let (_, c) = challenge(&b, &alice, "bob", json!({})).await;
    let id = c["id"].as_str().unwrap().to_string();
    let (s, _) = answer(&a, &bob, &id, "decline").await;
    assert_eq!(s, StatusCode::OK);
    let (_, seen) = get(&b, &alice, &format!("/api/challenge/{id}")).await;
    assert_eq!(
        (&seen["status"], &seen["decline_reason_key"]),
        (&json!("declined"), &json!("generic"))
    );
    for app in [&a, &b] {
        let (s, v) = challenge(app, &alice, "bob", json!({})).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::TOO_MANY_REQUESTS, "recently_declined".into())
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_made_before_challenges_gets_their_table() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    drop(store(&url).await);
    tokio::task::spawn_blocking({
        let url = url.clone();
        move || {
            let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            c.batch_execute("DROP TABLE challenges").unwrap();
        }
    })
    .await
    .unwrap();
    let app = server().store(store(&url).await).start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let bob = sign_up(&app, "bob", "battery staple").await;
    let (s, c) = challenge(&app, &alice, "bob", json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let (_, l) = get(&app, &bob, "/api/challenge").await;
    assert_eq!(l["in"][0]["id"], c["id"], "{l}");
}

//! Bot accounts and API tokens on PostgreSQL with two instances on one database
//! (store/pg/tokens.rs; docs/api.md, "API tokens and bot accounts"): a token made on one
//! instance works on the other and stops there once revoked; a bot upgraded on one is a bot on
//! the other; its event stream on one instance sees the challenge made and the game started on
//! the other, and it plays the game through both to the end; an account with a game stays
//! human. Starts its own PostgreSQL (tests/common/pg.rs); skipped, saying so, when PostgreSQL
//! is not installed.

mod common;
use axum::http::{Method, StatusCode};
use common::accounts::sign_up;
use common::bots::{token, Lines};
use common::challenges::{answer, blitz, call, challenge, code};
use common::pg::{store, Pg};
use common::{send, server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_stream_keeps_a_pending_challenge_alive_without_writing_each_round() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let s = store(&pg.url()).await;
    let app = server()
        .with(|c| c.challenge_away_ms = 8_000)
        .store(s.clone())
        .start()
        .await;
    common::bots::stream_keeps_challenges_alive_once_per_quarter(&app, &s).await;
    app.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_bot_plays_a_challenge_through_two_instances_and_tokens_work_on_both() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    let b = server().store(store(&pg.url()).await).start().await;
    let robot_session = sign_up(&a, "robot", "robot password").await;
    let robot = token(&a, &robot_session, &["bot:play"]).await;
    let (s, v) = send(
        &b,
        Method::POST,
        "/api/bot/account/upgrade",
        Some(&robot),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send(
        &a,
        Method::POST,
        "/api/bot/account/upgrade",
        Some(&robot),
        None,
    )
    .await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::CONFLICT, "already_bot")
    );

    let alice = sign_up(&a, "alice", "correct horse").await;
    let (s, events, v) = Lines::open(&b, "/api/stream/event", &robot).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut events = events.unwrap();
    let (s, c) = challenge(
        &a,
        &alice,
        "robot",
        json!({"variant": "pool", "time_control": blitz(), "color": "white", "rated": true}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(
        events.until("challenge").await["challenge"]["id"],
        json!(id)
    );
    let uri = format!("/api/challenge/{id}/accept");
    let (s, v) = send(&a, Method::POST, &uri, Some(&robot), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let start = events.until("gameStart").await;
    assert_eq!(
        (&start["game"]["id"], &start["game"]["is_my_turn"]),
        (&json!(id), &json!(true))
    );
    let (_, seat) = answer(&b, &alice, &id, "seat").await;
    let alice_token = seat["token"].as_str().unwrap().to_string();

    let (s, stream, v) = Lines::open(&a, &format!("/api/bot/game/stream/{id}"), &robot).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut stream = stream.unwrap();
    let full = stream.next().await.unwrap();
    assert_eq!(
        (&full["variant"]["key"], &full["black"]["title"]),
        (&json!("pool"), &json!("BOT"))
    );
    // The bot (Black) moves first, on instance b; the person answers on b too; each move is
    // seen on a's game stream.
    for ply in 0..6 {
        let (s, g) = send(&b, Method::GET, &format!("/api/games/{id}"), None, None).await;
        assert_eq!(s, StatusCode::OK);
        let mv = g["legal_moves"][0]["text"].as_str().unwrap().to_string();
        let (s, v) = if ply % 2 == 0 {
            let uri = format!("/api/bot/game/{id}/move/{mv}");
            send(&b, Method::POST, &uri, Some(&robot), None).await
        } else {
            let uri = format!("/api/games/{id}/moves");
            send(
                &b,
                Method::POST,
                &uri,
                Some(&alice_token),
                Some(json!({"move": mv})),
            )
            .await
        };
        assert_eq!(s, StatusCode::OK, "{v}");
        let st = stream.until("gameState").await;
        assert_eq!(st["ply"], json!(ply + 1), "{st}");
    }
    let (s, v) = send(
        &b,
        Method::POST,
        &format!("/api/bot/game/{id}/resign"),
        Some(&robot),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let end = stream.until("gameState").await;
    assert_eq!(
        (&end["status"], &end["winner"]),
        (&json!("finished"), &json!("white"))
    );
    let fin = events.until("gameFinish").await;
    assert_eq!(fin["game"]["id"], json!(id));

    // Alice has played: she stays human. Her token, revoked on b, stops on a at once.
    let (s, v) = call(
        &b,
        Method::POST,
        "/api/bot/account/upgrade",
        Some(&alice),
        None,
    )
    .await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::CONFLICT, "has_games"),
        "{v}"
    );
    let hers = token(&a, &alice, &["challenge:write"]).await;
    let (s, _) = send(&b, Method::GET, "/api/challenge", Some(&hers), None).await;
    assert_eq!(s, StatusCode::OK);
    let (_, list) = call(&b, Method::GET, "/api/account/tokens", Some(&alice), None).await;
    let tid = list["tokens"][0]["id"].as_str().unwrap().to_string();
    let (s, _) = call(
        &b,
        Method::DELETE,
        &format!("/api/account/tokens/{tid}"),
        Some(&alice),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = send(&a, Method::GET, "/api/challenge", Some(&hers), None).await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_api_token")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_token_revoked_or_a_session_ended_on_one_instance_ends_its_streams_on_the_other() {
    // Issue 41 (third review, D): a stream checked its credentials once, at its start; another
    // instance's revocation reaches it by its periodic check.
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    let b = server().store(store(&pg.url()).await).start().await;
    let alice = sign_up(&a, "alice", "correct horse").await;
    let hers = token(&a, &alice, &["challenge:write"]).await;
    let (s, by_token, v) = Lines::open(&b, "/api/stream/event", &hers).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, by_session, v) = Lines::open_session(&b, "/api/stream/event", &alice).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (mut by_token, mut by_session) = (by_token.unwrap(), by_session.unwrap());
    let (_, list) = call(&a, Method::GET, "/api/account/tokens", Some(&alice), None).await;
    let tid = list["tokens"][0]["id"].as_str().unwrap().to_string();
    let (s, _) = call(
        &a,
        Method::DELETE,
        &format!("/api/account/tokens/{tid}"),
        Some(&alice),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    by_token.end().await;
    let (s, _, _) = common::accounts::Call {
        session: Some(&alice),
        body: None,
        ..common::accounts::post("/api/logout", json!({}))
    }
    .send(&a)
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    by_session.end().await;
    a.shutdown();
    b.shutdown();
}

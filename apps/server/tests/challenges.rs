//! Challenges on SQLite (docs/api.md, "Challenges"): an account challenges another, the
//! challenged player sees it, accepts it (the game is created between the two accounts, both
//! take their seats and play) or declines it with a reason; the challenger cancels; limits and
//! every bad request answered with a clear error; an unanswered challenge expires.

mod common;
use axum::http::{Method, StatusCode};
use common::accounts::sign_up;
use common::challenges::{
    accepted, answer, blitz, call, call_from, challenge, code, get, play_first_legal,
};
use common::server;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Sign up alice, bob and carol; their sessions.
async fn three(app: &crown_server::App) -> (String, String, String) {
    (
        sign_up(app, "alice", "correct horse").await,
        sign_up(app, "bob", "battery staple").await,
        sign_up(app, "carol", "tr0ub4dor&3").await,
    )
}

#[tokio::test]
async fn an_accepted_challenge_makes_the_game_both_players_take_their_seats_and_play() {
    let app = server().start().await;
    let (alice, bob, _) = three(&app).await;
    let (s, c) = challenge(
        &app,
        &alice,
        "Bob",
        json!({"variant": "american", "time_control": blitz(), "color": "white", "rated": true}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    assert_eq!(
        (
            &c["status"],
            &c["direction"],
            &c["speed"],
            &c["final_color"]
        ),
        (
            &json!("pending"),
            &json!("out"),
            &json!("blitz"),
            &json!("white")
        )
    );
    assert_eq!(
        (&c["challenger"]["name"], &c["dest_user"]["name"]),
        (&json!("alice"), &json!("bob"))
    );
    let id = c["id"].as_str().unwrap().to_string();

    let (s, lists) = get(&app, &bob, "/api/challenge").await;
    assert_eq!(s, StatusCode::OK, "{lists}");
    assert_eq!(lists["in"].as_array().unwrap().len(), 1, "{lists}");
    assert_eq!(
        (&lists["in"][0]["id"], &lists["in"][0]["direction"]),
        (&json!(id), &json!("in"))
    );
    assert_eq!(lists["out"], json!([]));
    let (_, mine) = get(&app, &alice, "/api/challenge").await;
    assert_eq!(mine["out"][0]["id"], json!(id), "{mine}");

    let (s, bob_seat) = answer(&app, &bob, &id, "accept").await;
    assert_eq!(s, StatusCode::OK, "{bob_seat}");
    assert_eq!(
        bob_seat["id"],
        json!(id),
        "the game's id is the challenge's"
    );
    assert_eq!(bob_seat["color"], "black", "alice asked for white");
    assert_eq!(bob_seat["join_url"], format!("/g/{id}"));
    assert_eq!(bob_seat["challenge"]["status"], "accepted");

    // The challenger learns it by reading the challenge, then takes its seat.
    let (_, seen) = get(&app, &alice, &format!("/api/challenge/{id}")).await;
    assert_eq!(
        (&seen["status"], &seen["game_id"]),
        (&json!("accepted"), &json!(id))
    );
    let (s, alice_seat) = answer(&app, &alice, &id, "seat").await;
    assert_eq!(s, StatusCode::OK, "{alice_seat}");
    assert_eq!(alice_seat["color"], "white");

    let (s, game) = common::send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        (
            &game["accounts"]["black"]["name"],
            &game["accounts"]["white"]["name"]
        ),
        (&json!("bob"), &json!("alice"))
    );
    assert_eq!(
        (&game["rated"], &game["status"]),
        (&json!(true), &json!("ongoing"))
    );
    assert_eq!(game["clock"]["initial_ms"], 180_000);

    // Black (bob) moves first in American checkers, then alice.
    let (s, v) = play_first_legal(&app, &id, bob_seat["token"].as_str().unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = play_first_legal(&app, &id, alice_seat["token"].as_str().unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 2);

    // Answered: in nobody's pending lists any more, and not acceptable again.
    for who in [&alice, &bob] {
        let (_, l) = get(&app, who, "/api/challenge").await;
        assert_eq!((&l["in"], &l["out"]), (&json!([]), &json!([])), "{l}");
    }
    let (s, v) = answer(&app, &bob, &id, "accept").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_pending".into()));
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already accepted"),
        "{v}"
    );
}

#[tokio::test]
async fn bad_challenge_requests_get_clear_errors() {
    let app = server().start().await;
    let (alice, bob, carol) = three(&app).await;
    let casual = json!({"variant": "pool", "time_control": blitz()});

    // Without an account: no challenge, casual or rated.
    for body in [
        casual.clone(),
        json!({"time_control": blitz(), "rated": true}),
    ] {
        let (s, v) = call(&app, Method::POST, "/api/challenge/bob", None, Some(body)).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::UNAUTHORIZED, "not_logged_in".into())
        );
    }
    let (s, v) = call(&app, Method::GET, "/api/challenge", None, None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "not_logged_in".into())
    );

    let cases: [(&str, Value, StatusCode, &str); 11] = [
        ("nobody", casual.clone(), StatusCode::NOT_FOUND, "not_found"),
        (
            "ALICE",
            casual.clone(),
            StatusCode::BAD_REQUEST,
            "self_challenge",
        ),
        (
            "bob",
            json!({"rated": true}),
            StatusCode::BAD_REQUEST,
            "rated_needs_clock",
        ),
        (
            "bob",
            json!({"variant": "chess"}),
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
        (
            "bob",
            json!({"color": "red"}),
            StatusCode::BAD_REQUEST,
            "bad_color",
        ),
        (
            "bob",
            json!({"days": 4}),
            StatusCode::BAD_REQUEST,
            "bad_days",
        ),
        (
            "bob",
            json!({"days": "3"}),
            StatusCode::BAD_REQUEST,
            "bad_days",
        ),
        (
            "bob",
            json!({"days": 0, "rated": true}),
            StatusCode::BAD_REQUEST,
            "bad_days",
        ),
        (
            "bob",
            json!({"days": 3, "time_control": blitz()}),
            StatusCode::BAD_REQUEST,
            "days_and_clock",
        ),
        (
            "bob",
            json!({"time_control": {"initial_ms": 0, "increment_ms": 0}}),
            StatusCode::BAD_REQUEST,
            "bad_time_control",
        ),
        (
            "bob",
            json!({"time_control": [60000, 0]}),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
    ];
    for (to, body, status, want) in cases {
        let (s, v) = challenge(&app, &alice, to, body.clone()).await;
        assert_eq!(
            (s, code(&v)),
            (status, want.to_string()),
            "{to} {body}: {v}"
        );
    }
    // A bad number of days names the allowed ones.
    let (_, v) = challenge(&app, &alice, "bob", json!({"days": 10})).await;
    assert_eq!(
        v["error"]["message"],
        "days (per move, a correspondence game) must be one of 1, 2, 3, 5, 7, 14, not '10'"
    );
    let (s, v) = get(&app, &alice, "/api/challenge").await;
    assert_eq!(
        v["out"],
        json!([]),
        "no refused request left a challenge: {s} {v}"
    );

    let (s, c) = challenge(&app, &alice, "bob", casual.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    // Only the challenged player accepts or declines, only the challenger cancels; a third
    // account does not see it at all.
    let (s, v) = answer(&app, &alice, &id, "accept").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::FORBIDDEN, "not_your_challenge".into())
    );
    let (s, v) = answer(&app, &alice, &id, "decline").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::FORBIDDEN, "not_your_challenge".into())
    );
    let (s, v) = answer(&app, &bob, &id, "cancel").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::FORBIDDEN, "not_your_challenge".into())
    );
    for what in ["accept", "decline", "cancel", "seat"] {
        let (s, v) = answer(&app, &carol, &id, what).await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::NOT_FOUND, "not_found".into()),
            "{what}"
        );
    }
    let (s, v) = get(&app, &carol, &format!("/api/challenge/{id}")).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found".into()));
    for bad in ["0000000000", "..%2F..", "ZZZZZZZZZZ"] {
        let (s, v) = answer(&app, &bob, bad, "accept").await;
        assert_eq!(
            (s, code(&v)),
            (StatusCode::NOT_FOUND, "not_found".into()),
            "{bad}"
        );
    }
    // No seat before it is accepted; an unknown reason; a body where none is taken.
    let (s, v) = answer(&app, &alice, &id, "seat").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_accepted".into()));
    let decline = format!("/api/challenge/{id}/decline");
    for (body, want) in [
        (json!({"reason": "tooFast"}), "bad_reason"),
        (json!({"why": "later"}), "bad_json"),
    ] {
        let (s, v) = call(&app, Method::POST, &decline, Some(&bob), Some(body)).await;
        assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, want.into()), "{v}");
    }
    let accept = format!("/api/challenge/{id}/accept");
    let (s, v) = call(&app, Method::POST, &accept, Some(&bob), Some(json!({}))).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::BAD_REQUEST, "unexpected_body".into())
    );

    // Canceled: no longer acceptable, and says so.
    let (s, v) = answer(&app, &alice, &id, "cancel").await;
    assert_eq!(
        (s, &v["status"]),
        (StatusCode::OK, &json!("canceled")),
        "{v}"
    );
    let (s, v) = answer(&app, &bob, &id, "accept").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_pending".into()));
    assert!(
        v["error"]["message"].as_str().unwrap().contains("canceled"),
        "{v}"
    );
    let (s, v) = common::send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(
        s,
        StatusCode::NOT_FOUND,
        "no game for a canceled challenge: {v}"
    );
}

#[tokio::test]
async fn ten_pending_challenges_are_the_most_and_a_cancel_frees_a_place() {
    let app = server().start().await;
    let (alice, _, _) = three(&app).await;
    let mut ids = Vec::new();
    for i in 0..10 {
        let to = if i % 2 == 0 { "bob" } else { "carol" };
        let (s, v) = challenge(&app, &alice, to, json!({})).await;
        assert_eq!(s, StatusCode::CREATED, "challenge {i}: {v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, v) = challenge(&app, &alice, "bob", json!({})).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_challenges".into())
    );
    let (_, l) = get(&app, &alice, "/api/challenge").await;
    assert_eq!(l["out"].as_array().unwrap().len(), 10);
    let (s, _) = answer(&app, &alice, &ids[3], "cancel").await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = challenge(&app, &alice, "bob", json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn a_declined_challenge_says_why_and_is_not_repeated_at_once() {
    let app = server().start().await;
    let (alice, bob, _) = three(&app).await;
    let (_, c) = challenge(&app, &alice, "bob", json!({"time_control": blitz()})).await;
    let id = c["id"].as_str().unwrap().to_string();
    let uri = format!("/api/challenge/{id}/decline");
    let (s, v) = call(
        &app,
        Method::POST,
        &uri,
        Some(&bob),
        Some(json!({"reason": "too_fast"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, seen) = get(&app, &alice, &format!("/api/challenge/{id}")).await;
    assert_eq!(
        (&seen["status"], &seen["decline_reason_key"]),
        (&json!("declined"), &json!("too_fast"))
    );
    assert!(
        seen["decline_reason"]
            .as_str()
            .unwrap()
            .contains("too fast"),
        "{seen}"
    );

    let (s, v) = challenge(&app, &alice, "bob", json!({})).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "recently_declined".into())
    );
    let wait = v["error"]["retry_after_ms"].as_u64().unwrap_or(u64::MAX);
    assert!(wait > 0 && wait <= 60_000, "{v}");
    // Another player may still be challenged, and bob may challenge alice.
    let (s, v) = challenge(&app, &alice, "carol", json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, v) = challenge(&app, &bob, "alice", json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    // A second answer is refused: it was declined.
    let (s, v) = answer(&app, &bob, &id, "accept").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_pending".into()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_accepts_at_once_make_one_game() {
    let app = server().start().await;
    let (alice, bob, _) = three(&app).await;
    for round in 0..5 {
        let (_, c) = challenge(&app, &alice, "bob", json!({"time_control": blitz()})).await;
        let id = c["id"].as_str().unwrap().to_string();
        let (a, b) = tokio::join!(
            answer(&app, &bob, &id, "accept"),
            answer(&app, &bob, &id, "accept")
        );
        let mut statuses = [a.0, b.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "round {round}: {} / {}",
            a.1,
            b.1
        );
        let (s, game) =
            common::send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{game}");
        assert_eq!(game["status"], "ongoing");
    }
    let (_, l) = get(&app, &bob, "/api/challenge").await;
    assert_eq!(l["in"], json!([]), "all five answered: {l}");
}

/// Read challenge `id` as `session` until its status is `want` (at most 10 s).
async fn wait_status(app: &crown_server::App, session: &str, id: &str, want: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, v) = get(app, session, &format!("/api/challenge/{id}")).await;
        if v["status"] == want || Instant::now() > deadline {
            assert_eq!(v["status"], want, "{v}");
            return v;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn an_unanswered_challenge_expires_and_cannot_be_accepted() {
    let app = server()
        .with(|c| {
            c.challenge_ttl_ms = 300;
            c.challenge_away_ms = 60_000;
        })
        .start()
        .await;
    let (alice, bob, _) = three(&app).await;
    let (_, c) = challenge(&app, &alice, "bob", json!({})).await;
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(c["status"], "pending");
    wait_status(&app, &bob, &id, "expired").await;
    let (s, v) = answer(&app, &bob, &id, "accept").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_pending".into()));
    assert!(
        v["error"]["message"].as_str().unwrap().contains("expired"),
        "{v}"
    );
    let (_, l) = get(&app, &bob, "/api/challenge").await;
    assert_eq!(
        l["in"],
        json!([]),
        "an expired challenge is not listed: {l}"
    );
}

#[tokio::test]
async fn a_challenge_lives_while_its_challenger_reads_and_expires_once_they_are_gone() {
    // Long enough that a read on a loaded machine comes well within it.
    let away = 2_000u64;
    let app = server().with(|c| c.challenge_away_ms = away).start().await;
    let (alice, bob, _) = three(&app).await;
    let (_, c) = challenge(&app, &alice, "bob", json!({})).await;
    let id = c["id"].as_str().unwrap().to_string();
    // The challenger's page reads its challenges: twice the away time passes, the challenge
    // still pending.
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(2 * away) {
        let (_, l) = get(&app, &alice, "/api/challenge").await;
        assert_eq!(
            l["out"][0]["status"],
            "pending",
            "after {:?}: {l}",
            start.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The challenged player's reads do not keep it alive: once the challenger stops, it expires.
    wait_status(&app, &bob, &id, "expired").await;
}

#[tokio::test]
async fn challenges_per_address_are_limited() {
    let app = server()
        .with(|c| c.challenges_per_hour_per_ip = 2)
        .start()
        .await;
    let (alice, _, _) = three(&app).await;
    let from = |ip: [u8; 4]| Some(ip);
    for to in ["bob", "carol"] {
        let uri = format!("/api/challenge/{to}");
        let (s, v) = call_from(
            &app,
            Method::POST,
            &uri,
            Some(&alice),
            Some(json!({})),
            from([203, 0, 113, 7]),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let (s, v) = call_from(
        &app,
        Method::POST,
        "/api/challenge/bob",
        Some(&alice),
        Some(json!({})),
        from([203, 0, 113, 7]),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (
            StatusCode::TOO_MANY_REQUESTS,
            "challenge_rate_limited".into()
        )
    );
    assert!(v["error"]["retry_after_ms"].as_u64().is_some(), "{v}");
    let (s, v) = call_from(
        &app,
        Method::POST,
        "/api/challenge/bob",
        Some(&alice),
        Some(json!({})),
        from([198, 51, 100, 1]),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "another address: {v}");
}

/// `GET /api/me/turns` of `session`: the ids of its games where it is its move, in order, and
/// the answer.
async fn turns(app: &crown_server::App, session: &str) -> (Vec<String>, Value) {
    let (s, v) = get(app, session, "/api/me/turns").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let ids: Vec<String> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(v["count"], json!(ids.len()), "{v}");
    (ids, v)
}

#[tokio::test]
async fn your_turn_lists_the_games_where_it_is_the_accounts_move_soonest_deadline_first() {
    let app = server().start().await;
    let (alice, bob, carol) = three(&app).await;
    let (s, v) = call(&app, Method::GET, "/api/me/turns", None, None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "not_logged_in".into())
    );
    // A 3-day correspondence game where alice (black) moves first, a blitz game where bob does.
    let body = json!({"days": 3, "color": "black"});
    let (corr, alice_corr, _) = accepted(&app, &alice, &bob, body).await;
    let body = json!({"time_control": blitz(), "color": "white"});
    let (live, _, bob_live) = accepted(&app, &alice, &bob, body).await;

    let (ids, v) = turns(&app, &alice).await;
    assert_eq!(ids, vec![corr.clone()], "{v}");
    let t = &v["games"][0];
    let (_, g) = get(&app, &alice, &format!("/api/games/{corr}")).await;
    assert_eq!(
        (
            &t["color"],
            &t["opponent"],
            &t["speed"],
            &t["days"],
            &t["deadline_ms"],
            &t["url"],
            &t["seat_url"]
        ),
        (
            &json!("black"),
            &json!("bob"),
            &json!("correspondence"),
            &json!(3),
            &g["deadline_ms"],
            &json!(format!("/g/{corr}")),
            &json!(format!("/api/challenge/{corr}/seat"))
        ),
        "{v}"
    );
    assert_eq!(turns(&app, &bob).await.0, vec![live.clone()]);
    assert_eq!(turns(&app, &carol).await.0, Vec::<String>::new());

    // Alice moves: both games are bob's move, the blitz game's first-move deadline (seconds)
    // before the correspondence game's (days).
    let (s, v) = play_first_legal(&app, &corr, &alice_corr).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(turns(&app, &alice).await.0, Vec::<String>::new());
    let (ids, v) = turns(&app, &bob).await;
    assert_eq!(ids, vec![live.clone(), corr.clone()], "{v}");
    assert_eq!(v["games"][0]["speed"], "blitz");
    assert_eq!(v["games"][0]["days"], Value::Null);

    // Bob moves in the blitz game: it is alice's move there.
    let (s, v) = play_first_legal(&app, &live, &bob_live).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(turns(&app, &alice).await.0, vec![live]);
    assert_eq!(turns(&app, &bob).await.0, vec![corr]);
}

#[tokio::test]
async fn challenge_games_count_against_the_accepting_network_and_a_refused_accept_stays_pending() {
    let app = server()
        .with(|c| {
            c.max_games_per_net = 3;
            c.max_games_per_ip = 100;
        })
        .start()
        .await;
    let (alice, bob, _) = three(&app).await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        let (s, c) = challenge(&app, &alice, "bob", json!({"variant": "american"})).await;
        assert_eq!(s, StatusCode::CREATED, "{c}");
        ids.push(c["id"].as_str().unwrap().to_string());
    }
    let accept_from = |id: &str, ip: [u8; 4]| {
        let uri = format!("/api/challenge/{id}/accept");
        let app = app.clone();
        let bob = bob.clone();
        async move { call_from(&app, Method::POST, &uri, Some(&bob), None, Some(ip)).await }
    };
    // Three accepts from three addresses of one /24 make three games...
    for (i, id) in ids[..3].iter().enumerate() {
        let (s, v) = accept_from(id, [203, 0, 113, 10 + i as u8]).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    // ...and the network's fourth is refused, the challenge left pending (no game).
    let (s, v) = accept_from(&ids[3], [203, 0, 113, 20]).await;
    assert_eq!(
        (s, code(&v)),
        (
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_network_games".into()
        ),
        "{v}"
    );
    let (_, seen) = get(&app, &bob, &format!("/api/challenge/{}", ids[3])).await;
    assert_eq!(seen["status"], "pending", "{seen}");
    let (s, _) = call(
        &app,
        Method::GET,
        &format!("/api/games/{}", ids[3]),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "no game was made");
    // From another network the same challenge is accepted.
    let (s, v) = accept_from(&ids[3], [198, 51, 100, 1]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["challenge"]["status"], "accepted", "{v}");
}

#[tokio::test]
async fn one_network_holds_at_most_three_places_of_a_players_inbox() {
    let app = server()
        .with(|c| c.signup_per_hour_per_ip = 0)
        .start()
        .await;
    let bob = sign_up(&app, "bob", "battery staple").await;
    let mut sybils = Vec::new();
    for i in 0..5 {
        sybils.push(sign_up(&app, &format!("sybil{i}"), "correct horse").await);
    }
    let challenge_from = |session: &str, ip: [u8; 4]| {
        let (app, session) = (app.clone(), session.to_string());
        async move {
            let body = json!({"variant": "american"});
            call_from(
                &app,
                Method::POST,
                "/api/challenge/bob",
                Some(&session),
                Some(body),
                Some(ip),
            )
            .await
        }
    };
    // Five accounts on five addresses of one /24: three challenges land, then the network is full.
    for (i, s) in sybils.iter().enumerate() {
        let (status, v) = challenge_from(s, [203, 0, 113, 10 + i as u8]).await;
        if i < 3 {
            assert_eq!(status, StatusCode::CREATED, "{i}: {v}");
        } else {
            assert_eq!(
                (status, code(&v)),
                (StatusCode::TOO_MANY_REQUESTS, "too_many_received".into()),
                "{i}: {v}"
            );
        }
    }
    // A player of another network still gets through.
    let carol = sign_up(&app, "carol", "tr0ub4dor&3").await;
    let (status, v) = challenge_from(&carol, [198, 51, 100, 1]).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (_, lists) = get(&app, &bob, "/api/challenge").await;
    assert_eq!(lists["in"].as_array().unwrap().len(), 4, "{lists}");
    assert!(
        !lists.to_string().contains("203.0.113"),
        "the challengers' network is never shown: {lists}"
    );
}

//! Bot accounts and API tokens on SQLite (docs/api.md, "API tokens" and "Bot accounts"): a bot
//! reads its event stream, accepts a challenge with its token, plays the game through the bot
//! API against a person's seat to the end; bad tokens, missing scopes, moves out of turn and
//! bots where bots may not go are refused with clear errors.

mod common;
use axum::http::{Method, StatusCode};
use common::accounts::sign_up;
use common::bots::{bot, new_token, token, Lines};
use common::challenges::{answer, blitz, call, challenge, code, get};
use common::{send, server};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_stream_keeps_a_pending_challenge_alive_without_writing_each_round() {
    let store: std::sync::Arc<dyn crown_server::store::Store> =
        std::sync::Arc::new(crown_server::store::SqliteStore::open_in_memory().unwrap());
    let app = server()
        .with(|c| c.challenge_away_ms = 8_000)
        .store(store.clone())
        .start()
        .await;
    common::bots::stream_keeps_challenges_alive_once_per_quarter(&app, &store).await;
}

/// The game view of `id`.
async fn game(app: &crown_server::App, id: &str) -> Value {
    let (s, g) = send(app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    g
}

#[tokio::test]
async fn a_bot_accepts_a_challenge_with_its_token_and_plays_the_game_to_the_end() {
    // One rated game against one opponent is enough for the leaderboard here.
    let app = server()
        .with(|c| {
            c.leaderboard_min_games = 1;
            c.leaderboard_min_opponents = 1;
            c.leaderboard_min_plies = 0;
            c.leaderboard_max_deviation = 350.0;
        })
        .start()
        .await;
    let robot = bot(&app, "robot").await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let (s, events, v) = Lines::open(&app, "/api/stream/event", &robot).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut events = events.unwrap();

    let (s, c) = challenge(
        &app,
        &alice,
        "robot",
        json!({"time_control": blitz(), "color": "black", "rated": true}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    assert_eq!(c["dest_user"]["title"], "BOT", "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let ev = events.until("challenge").await;
    assert_eq!(ev["challenge"]["id"], json!(id), "{ev}");
    assert_eq!(ev["challenge"]["direction"], "in");

    // Accepted with the token, through the challenge feature's own endpoint.
    let uri = format!("/api/challenge/{id}/accept");
    let (s, seat) = send(&app, Method::POST, &uri, Some(&robot), None).await;
    assert_eq!(s, StatusCode::OK, "{seat}");
    assert_eq!(seat["color"], "white", "alice asked for black");
    let ev = events.until("gameStart").await;
    assert_eq!(
        (
            &ev["game"]["id"],
            &ev["game"]["color"],
            &ev["game"]["is_my_turn"]
        ),
        (&json!(id), &json!("white"), &json!(false)),
        "{ev}"
    );
    assert_eq!(ev["game"]["opponent"]["name"], "alice");

    let (s, alice_seat) = answer(&app, &alice, &id, "seat").await;
    assert_eq!(s, StatusCode::OK, "{alice_seat}");
    let alice_token = alice_seat["token"].as_str().unwrap().to_string();

    let (s, stream, v) = Lines::open(&app, &format!("/api/bot/game/stream/{id}"), &robot).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut stream = stream.unwrap();
    let full = stream.next().await.unwrap();
    assert_eq!(full["type"], "gameFull", "{full}");
    assert_eq!(
        (
            &full["variant"]["key"],
            &full["rated"],
            &full["speed"],
            &full["clock"]["initial"]
        ),
        (
            &json!("american"),
            &json!(true),
            &json!("blitz"),
            &json!(180_000)
        )
    );
    assert_eq!(
        (&full["white"]["name"], &full["white"]["title"]),
        (&json!("robot"), &json!("BOT"))
    );
    assert_eq!(full["black"]["name"], "alice");
    assert!(
        full["black"].get("title").is_none_or(Value::is_null),
        "{full}"
    );
    // American checkers' start position, Black (the first player) to move.
    assert_eq!(full["initial_fen"], game(&app, &id).await["start_fen"]);
    assert_eq!(
        (
            &full["state"]["moves"],
            &full["state"]["status"],
            &full["state"]["wtime"]
        ),
        (&json!(""), &json!("started"), &json!(180_000))
    );
    // The web game view marks the bot too.
    assert_eq!(game(&app, &id).await["accounts"]["white"]["title"], "BOT");

    // A move out of turn: Black moves first.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/bot/game/{id}/move/22-18"),
        Some(&robot),
        None,
    )
    .await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::CONFLICT, "not_your_turn"),
        "{v}"
    );

    // Twelve plies: the person's seat plays through the game API, the bot through the bot
    // API, each of the bot's turns read from its game stream.
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..12 {
        let g = game(&app, &id).await;
        let mv = g["legal_moves"][0]["text"].as_str().unwrap().to_string();
        if ply % 2 == 0 {
            let (s, v) = send(
                &app,
                Method::POST,
                &format!("/api/games/{id}/moves"),
                Some(&alice_token),
                Some(json!({"move": mv})),
            )
            .await;
            assert_eq!(s, StatusCode::OK, "{v}");
        } else {
            let (s, v) = send(
                &app,
                Method::POST,
                &format!("/api/bot/game/{id}/move/{mv}"),
                Some(&robot),
                None,
            )
            .await;
            assert_eq!(s, StatusCode::OK, "{v}");
        }
        moves.push(mv);
        let st = stream.until("gameState").await;
        assert_eq!(st["moves"], json!(moves.join(" ")), "{st}");
        assert_eq!(st["status"], "started");
    }

    // The person resigns: the stream tells the end and closes; the event stream says so too.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&alice_token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let end = stream.until("gameState").await;
    assert_eq!(
        (&end["status"], &end["winner"]),
        (&json!("finished"), &json!("white")),
        "{end}"
    );
    assert!(
        stream.next().await.is_none(),
        "the game stream ends with the game"
    );
    let fin = events.until("gameFinish").await;
    assert_eq!(
        (&fin["game"]["id"], &fin["game"]["winner"]),
        (&json!(id), &json!("white"))
    );
    // No rematch through a seat token: neither the bot's seat (from its accept) nor the
    // person's asks for one; a bot is challenged again instead.
    let bot_seat = seat["token"].as_str().unwrap().to_string();
    for token in [&bot_seat, &alice_token] {
        let (s, v) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/rematch"),
            Some(token),
            None,
        )
        .await;
        assert_eq!(
            (s, code(&v).as_str()),
            (StatusCode::FORBIDDEN, "bot_not_allowed"),
            "{v}"
        );
    }
    assert_eq!(game(&app, &id).await["rematch"], Value::Null);
    // A rated game: the bot has a rating now, and its page says BOT.
    let (s, page) = get(&app, &alice, "/api/users/robot").await;
    assert_eq!(s, StatusCode::OK, "{page}");
    assert_eq!(page["user"]["title"], "BOT");
    assert_eq!(page["ratings"].as_array().map(Vec::len), Some(1), "{page}");
    let (s, board) = get(
        &app,
        &alice,
        "/api/leaderboard?variant=american&speed=blitz",
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{board}");
    let players = board["players"].as_array().unwrap();
    assert_eq!(players.len(), 2, "{board}");
    for p in players {
        let want = if p["name"] == "robot" {
            json!("BOT")
        } else {
            Value::Null
        };
        assert_eq!(
            p.get("title").cloned().unwrap_or(Value::Null),
            want,
            "{board}"
        );
    }
    // The person's archive names the bot as BOT; the bot's names the person plainly.
    let (s, games) = get(&app, &alice, "/api/users/alice/games").await;
    assert_eq!(s, StatusCode::OK, "{games}");
    assert_eq!(
        games["games"][0]["opponent"],
        json!({"name": "robot", "account": true, "title": "BOT"}),
        "{games}"
    );
    let (_, games) = get(&app, &alice, "/api/users/robot/games").await;
    assert_eq!(
        games["games"][0]["opponent"],
        json!({"name": "alice", "account": true}),
        "{games}"
    );
}

#[tokio::test]
async fn bad_tokens_are_401_missing_scopes_403_and_revoked_tokens_stop_at_once() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let robot = bot(&app, "robot").await;
    let bot_uri = "/api/bot/game/0123456789/resign";
    let (s, v) = send(&app, Method::POST, bot_uri, Some("crown_0000"), None).await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_api_token")
    );
    let (s, _, v) = Lines::open(&app, "/api/stream/event", "crown_nope").await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_api_token")
    );

    // A challenge-only token may not use the bot API.
    let challenge_only = token(&app, &alice, &["challenge:write"]).await;
    let (s, v) = send(&app, Method::POST, bot_uri, Some(&challenge_only), None).await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::FORBIDDEN, "missing_scope"),
        "{v}"
    );
    // A person's bot:play token may not either: the bot API is for bots.
    let alice_bot = token(&app, &alice, &["bot:play"]).await;
    let (s, v) = send(&app, Method::POST, bot_uri, Some(&alice_bot), None).await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::FORBIDDEN, "not_a_bot"),
        "{v}"
    );
    // A bot's token on a game it does not play: 404 for no such game.
    let (s, v) = send(&app, Method::POST, bot_uri, Some(&robot), None).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");

    // The challenge-only token makes challenges.
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/challenge/robot",
        Some(&challenge_only),
        Some(json!({})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");

    // Listed without the secret; bad requests; a revoked token stops at once.
    let (s, list) = get(&app, &alice, "/api/account/tokens").await;
    assert_eq!(s, StatusCode::OK, "{list}");
    let tokens = list["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 2, "{list}");
    assert!(
        !list.to_string().contains(&challenge_only),
        "a listed token shows its secret"
    );
    assert_eq!(tokens[0]["scopes"], json!(["challenge:write"]));
    for (body, want) in [
        (
            json!({"description": "", "scopes": ["bot:play"]}),
            "bad_description",
        ),
        (json!({"description": "x", "scopes": []}), "bad_scopes"),
        (
            json!({"description": "x", "scopes": ["admin"]}),
            "bad_scopes",
        ),
    ] {
        let (s, v) = call(
            &app,
            Method::POST,
            "/api/account/tokens",
            Some(&alice),
            Some(body),
        )
        .await;
        assert_eq!(
            (s, code(&v).as_str()),
            (StatusCode::BAD_REQUEST, want),
            "{v}"
        );
    }
    // A token cannot make tokens.
    let (s, v) = send(
        &app,
        Method::GET,
        "/api/account/tokens",
        Some(&challenge_only),
        None,
    )
    .await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::UNAUTHORIZED, "not_logged_in"),
        "{v}"
    );
    let id = tokens[0]["id"].as_str().unwrap();
    let (s, _) = call(
        &app,
        Method::DELETE,
        &format!("/api/account/tokens/{id}"),
        Some(&alice),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = send(
        &app,
        Method::GET,
        "/api/challenge",
        Some(&challenge_only),
        None,
    )
    .await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_api_token"),
        "{v}"
    );
    let (s, v) = call(
        &app,
        Method::DELETE,
        &format!("/api/account/tokens/{id}"),
        Some(&alice),
        None,
    )
    .await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::NOT_FOUND, "not_found"),
        "{v}"
    );

    // At most ten tokens an account.
    for _ in 0..9 {
        token(&app, &alice, &["bot:play"]).await;
    }
    let (s, v) = new_token(&app, &alice, &["bot:play"]).await;
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::CONFLICT, "too_many_tokens"),
        "{v}"
    );
}

/// `method uri` as `session` with `body`: asserts the status and error code of a refusal.
async fn refused(
    app: &crown_server::App,
    (method, uri): (Method, &str),
    session: &str,
    body: Option<Value>,
    (status, want): (StatusCode, &str),
) {
    let (s, v) = call(app, method, uri, Some(session), body).await;
    assert_eq!((s, code(&v).as_str()), (status, want), "{uri}: {v}");
}

#[tokio::test]
async fn an_account_that_played_stays_human_and_a_bot_stays_out_of_the_lobby_and_tournaments() {
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let bob = sign_up(&app, "bob", "battery staple").await;
    let (_, c) = challenge(&app, &alice, "bob", json!({})).await;
    let (s, _) = answer(&app, &bob, c["id"].as_str().unwrap(), "accept").await;
    assert_eq!(s, StatusCode::OK);
    let upgrade = (Method::POST, "/api/bot/account/upgrade");
    // Bob is playing a game (unfinished): no upgrade; nor for alice.
    for who in [&alice, &bob] {
        refused(
            &app,
            upgrade.clone(),
            who,
            None,
            (StatusCode::CONFLICT, "has_games"),
        )
        .await;
    }
    // A bot, twice: the second time says so.
    let robot = sign_up(&app, "robot", "robot password").await;
    let (s, v) = call(&app, Method::POST, upgrade.1, Some(&robot), None).await;
    assert_eq!(
        (s, &v["user"]["title"]),
        (StatusCode::OK, &json!("BOT")),
        "{v}"
    );
    refused(
        &app,
        upgrade,
        &robot,
        None,
        (StatusCode::CONFLICT, "already_bot"),
    )
    .await;

    // No seek in the lobby, no joining one, no tournament.
    let seek = json!({"variant": "american", "public": true});
    let no = (StatusCode::FORBIDDEN, "bot_not_allowed");
    refused(
        &app,
        (Method::POST, "/api/games"),
        &robot,
        Some(seek.clone()),
        no,
    )
    .await;
    let (s, open) = call(&app, Method::POST, "/api/games", Some(&alice), Some(seek)).await;
    assert_eq!(s, StatusCode::CREATED, "{open}");
    let uri = format!("/api/games/{}/join", open["id"].as_str().unwrap());
    refused(&app, (Method::POST, &uri), &robot, None, no).await;
    let t = common::tournaments::create_swiss(&app, &alice, 3).await;
    let uri = format!("/api/tournaments/{t}/join");
    refused(&app, (Method::POST, &uri), &robot, None, no).await;
}

/// The id and secret of a new `challenge:write` token of `session`.
async fn challenge_token(app: &crown_server::App, session: &str) -> (String, String) {
    let (s, v) = new_token(app, session, &["challenge:write"]).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn revoking_a_token_logging_out_or_changing_the_password_ends_the_streams_opened_with_them() {
    // Issue 41 (third review, D): a stream checked its credentials once, at its start.
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let bob = sign_up(&app, "bob", "battery staple").await;
    let (id1, t1) = challenge_token(&app, &alice).await;
    let (_, t2) = challenge_token(&app, &alice).await;
    let (s, one, v) = Lines::open(&app, "/api/stream/event", &t1).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, two, v) = Lines::open(&app, "/api/stream/event", &t2).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (mut one, mut two) = (one.unwrap(), two.unwrap());
    let (s, v) = call(
        &app,
        Method::DELETE,
        &format!("/api/account/tokens/{id1}"),
        Some(&alice),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
    one.end().await;
    // The other token's stream goes on: it hears a challenge made after the revocation.
    let (s, c) = challenge(&app, &bob, "alice", json!({})).await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let line = two.until("challenge").await;
    assert_eq!(line["challenge"]["id"], c["id"], "{line}");

    // A stream opened with a session ends when that session logs out.
    let (s, by_session, v) = Lines::open_session(&app, "/api/stream/event", &alice).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut by_session = by_session.unwrap();
    let (s, _, _) = common::accounts::Call {
        session: Some(&alice),
        body: None,
        ..common::accounts::post("/api/logout", json!({}))
    }
    .send(&app)
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    by_session.end().await;

    // ... and when the password changes on another session.
    let (s, first, v) = common::accounts::log_in(&app, "alice", "correct horse").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, second, v) = common::accounts::log_in(&app, "alice", "correct horse").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (first, second) = (first.unwrap(), second.unwrap());
    let (s, by_first, v) = Lines::open_session(&app, "/api/stream/event", &first).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut by_first = by_first.unwrap();
    let mut c = common::accounts::post(
        "/api/password",
        json!({"old_password": "correct horse", "new_password": "correct horse 2"}),
    );
    c.session = Some(&second);
    let (s, _, v) = c.send(&app).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    by_first.end().await;
    drop(two);
    app.shutdown();
}

#[tokio::test]
async fn an_account_holds_two_event_streams_at_most_and_a_closed_one_frees_its_place() {
    // Issue 41 (third review, A): one account held any number of streams, each polling the
    // store twice a second.
    let app = server().start().await;
    let alice = sign_up(&app, "alice", "correct horse").await;
    let t = token(&app, &alice, &["challenge:write"]).await;
    let (s, first, v) = Lines::open(&app, "/api/stream/event", &t).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, _second, v) = Lines::open_session(&app, "/api/stream/event", &alice).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, third, v) = Lines::open(&app, "/api/stream/event", &t).await;
    assert!(third.is_none());
    assert_eq!(
        (s, code(&v).as_str()),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_streams"),
        "{v}"
    );
    // Another account is not affected.
    let bob = sign_up(&app, "bob", "battery staple").await;
    let (s, _bobs, v) = Lines::open_session(&app, "/api/stream/event", &bob).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Closing the first frees its place once the server sees it gone.
    drop(first);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (s, again, v) = Lines::open(&app, "/api/stream/event", &t).await;
        if s == StatusCode::OK {
            assert!(again.is_some());
            break;
        }
        assert_eq!(code(&v), "too_many_streams", "{v}");
        assert!(
            tokio::time::Instant::now() < deadline,
            "the closed stream's place was not freed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    app.shutdown();
}

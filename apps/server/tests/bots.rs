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

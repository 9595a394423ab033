//! Router tests of the lobby, players' names, rematches and chat (docs/api.md).

mod common;
use axum::http::{Method, StatusCode};
use common::{send, server};
use crown_server::chat::{BURST, REFILL_MS};
use crown_server::store::{SqliteStore, Store};
use crown_server::App;
use serde_json::{json, Value};
use std::sync::Arc;

async fn app() -> App {
    server().start().await
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("<no error code>")
}

async fn create(app: &App, body: Value) -> Value {
    let (s, v) = send(app, Method::POST, "/api/games", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v
}

async fn join(app: &App, id: &str) -> Value {
    let (s, v) = send(
        app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

#[tokio::test]
async fn lobby_lists_public_seeks_only_while_their_seat_is_open() {
    let app = app().await;
    let seek = create(
        &app,
        json!({"variant": "pool", "public": true, "color": "white", "name": "Ann",
               "time_control": {"initial_ms": 180000, "increment_ms": 2000}}),
    )
    .await;
    let private = create(&app, json!({"variant": "american"})).await;
    let (s, lobby) = send(&app, Method::GET, "/api/lobby", None, None).await;
    assert_eq!(s, StatusCode::OK, "{lobby}");
    let seeks = lobby["seeks"].as_array().unwrap();
    assert_eq!(seeks.len(), 1, "{lobby}");
    assert_eq!(seeks[0]["id"], seek["id"]);
    assert_eq!(seeks[0]["variant"], "pool");
    // The creator plays White, so the one who accepts plays Black.
    assert_eq!(seeks[0]["color"], "black");
    assert_eq!(seeks[0]["name"], "Ann");
    assert_eq!(seeks[0]["time_control"]["initial_ms"], 180000);
    assert_eq!(seeks[0]["time_control"]["increment_ms"], 2000);
    assert_ne!(seeks[0]["id"], private["id"]);
    // The game views say which is which (the web app words its waiting line by it).
    assert_eq!(seek["game"]["public"], true, "{seek}");
    assert_eq!(private["game"]["public"], false, "{private}");
    // Accepting the seek is joining it; it leaves the lobby.
    let joined = join(&app, seek["id"].as_str().unwrap()).await;
    assert_eq!(joined["color"], "black");
    let (_, lobby) = send(&app, Method::GET, "/api/lobby", None, None).await;
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 0, "{lobby}");
    // A cancelled seek leaves it too.
    let seek2 = create(&app, json!({"variant": "impasse", "public": true})).await;
    let id2 = seek2["id"].as_str().unwrap();
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id2}/cancel"),
        seek2["token"].as_str(),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (_, lobby) = send(&app, Method::GET, "/api/lobby", None, None).await;
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 0, "{lobby}");
}

#[tokio::test]
async fn names_are_shown_in_the_view_and_written_in_pdn() {
    let app = app().await;
    let created = create(
        &app,
        json!({"variant": "american", "name": "  Marion Tinsley "}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    assert_eq!(created["game"]["black"]["name"], "Marion Tinsley");
    let joined = join(&app, id).await;
    let white = joined["token"].as_str().unwrap();
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/name"),
        Some(white),
        Some(json!({"name": "Don Lafferty"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["white"]["name"], "Don Lafferty");
    let (s, pdn) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}/pdn"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let pdn = pdn.as_str().unwrap();
    assert!(pdn.contains("[Black \"Marion Tinsley\"]"), "{pdn}");
    assert!(pdn.contains("[White \"Don Lafferty\"]"), "{pdn}");
    // Bad names are refused and change nothing.
    for bad in [
        json!({"name": ""}),
        json!({"name": "a\nb"}),
        json!({"name": "x".repeat(41)}),
    ] {
        let (s, v) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/name"),
            Some(white),
            Some(bad),
        )
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(code(&v), "bad_name");
    }
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "name": "   "})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_name"));
    // A spectator cannot name a seat.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/name"),
        None,
        Some(json!({"name": "Spy"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
}

#[tokio::test]
async fn rematch_swaps_colours_and_the_opponent_takes_the_other_seat() {
    let app = app().await;
    let created = create(
        &app,
        json!({"variant": "american", "name": "Ann",
               "time_control": {"initial_ms": 60000, "increment_ms": 1000}}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let black = created["token"].as_str().unwrap();
    let white = join(&app, id).await["token"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/rematch");
    // Not before the game is over.
    let (s, v) = send(&app, Method::POST, &uri, Some(black), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_not_over"));
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    // Black asks: a new game where Black's player now plays White, with the same clock.
    let (s, r) = send(&app, Method::POST, &uri, Some(black), None).await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    assert_eq!(r["color"], "white");
    assert_eq!(r["game"]["status"], "open");
    assert_eq!(r["game"]["white"]["name"], "Ann");
    assert_eq!(r["game"]["clock"]["initial_ms"], 60000);
    assert_eq!(r["game"]["clock"]["increment_ms"], 1000);
    let new_id = r["id"].as_str().unwrap();
    let (_, old) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(old["rematch"]["id"], new_id);
    assert_eq!(old["rematch"]["by"], "black");
    // Asking twice is refused; a spectator cannot take it.
    let (s, v) = send(&app, Method::POST, &uri, Some(black), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "already_requested"));
    let (s, v) = send(&app, Method::POST, &uri, None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    // White accepts: it plays Black in the new game, which starts.
    let (s, a) = send(&app, Method::POST, &uri, Some(&white), None).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["id"], new_id);
    assert_eq!(a["color"], "black");
    assert_eq!(a["game"]["status"], "ongoing");
    let (s, v) = send(&app, Method::POST, &uri, Some(&white), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "seat_taken"));
}

#[tokio::test]
async fn chat_is_for_seats_limited_in_length_and_rate_and_kept_as_text() {
    let app = app().await;
    let created = create(&app, json!({"variant": "american", "name": "Ann"})).await;
    let id = created["id"].as_str().unwrap();
    let black = created["token"].as_str().unwrap();
    let white = join(&app, id).await["token"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/chat");
    let html = "<img src=x onerror=alert(1)> good luck";
    // Black's rate bucket starts with this first message.
    let started = std::time::Instant::now();
    let (s, m) = send(
        &app,
        Method::POST,
        &uri,
        Some(black),
        Some(json!({"text": html})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{m}");
    assert_eq!(m["text"], html, "stored as the text it is, not rewritten");
    assert_eq!(m["color"], "black");
    assert_eq!(m["name"], "Ann");
    // Spectators read but cannot write.
    let (s, v) = send(&app, Method::POST, &uri, None, Some(json!({"text": "hi"}))).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let (s, v) = send(
        &app,
        Method::POST,
        &uri,
        Some(&"0".repeat(64)),
        Some(json!({"text": "hi"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "bad_token"));
    // 200 characters pass, 201 do not; nor an empty or multi-line message.
    let (s, _) = send(
        &app,
        Method::POST,
        &uri,
        Some(&white),
        Some(json!({"text": "é".repeat(200)})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    for bad in ["é".repeat(201), "  ".to_string(), "a\nb".to_string()] {
        let (s, v) = send(
            &app,
            Method::POST,
            &uri,
            Some(&white),
            Some(json!({"text": bad})),
        )
        .await;
        assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_chat"));
    }
    // Five at once, then the next waits (429 with Retry-After). The bucket refills one message
    // per `REFILL_MS` from Black's first message: on a starved machine sending may take that long,
    // so the test sends until refused and allows one more message per refill interval elapsed.
    let mut sent = vec![html.to_string()];
    loop {
        let text = format!("m{}", sent.len() - 1);
        let (s, v) = send(
            &app,
            Method::POST,
            &uri,
            Some(black),
            Some(json!({"text": text})),
        )
        .await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(code(&v), "chat_rate_limited", "{v}");
            break;
        }
        assert_eq!(s, StatusCode::CREATED, "{v}");
        sent.push(text);
        let refills = started.elapsed().as_millis() as usize / REFILL_MS as usize;
        assert!(
            sent.len() <= BURST as usize + refills + 1,
            "{} messages accepted in {:?}",
            sent.len(),
            started.elapsed()
        );
    }
    assert!(sent.len() >= BURST as usize, "{sent:?}");
    let (s, log) = send(&app, Method::GET, &uri, None, None).await;
    assert_eq!(s, StatusCode::OK);
    let texts: Vec<&str> = log["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    // Black's messages and White's one of 200 characters (second).
    assert_eq!(texts.len(), sent.len() + 1, "{log}");
    assert_eq!(texts[0], html);
    assert_eq!(texts.last().copied(), sent.last().map(String::as_str));
    let (s, v) = send(&app, Method::GET, "/api/games/nosuchgame/chat", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

#[tokio::test]
async fn chat_is_stored_with_the_game_and_read_back_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let open =
        || Arc::new(SqliteStore::open(&path, crown_server::store::Durability::Normal).unwrap());
    let app1 = server().store(open()).start().await;
    let created = create(&app1, json!({"variant": "american", "name": "Ann"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let white = join(&app1, &id).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let uri = format!("/api/games/{id}/chat");
    for (token, text) in [(&black, "good luck"), (&white, "you too")] {
        let (s, m) = send(
            &app1,
            Method::POST,
            &uri,
            Some(token),
            Some(json!({"text": text})),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{m}");
    }
    // Another game's chat is numbered on its own.
    let other = create(&app1, json!({"variant": "pool"})).await;
    let oid = other["id"].as_str().unwrap();
    let (s, m) = send(
        &app1,
        Method::POST,
        &format!("/api/games/{oid}/chat"),
        other["token"].as_str(),
        Some(json!({"text": "anyone?"})),
    )
    .await;
    assert_eq!((s, m["n"].as_u64()), (StatusCode::CREATED, Some(1)), "{m}");
    app1.shutdown();
    drop(app1);

    // A new server on the same database: the chat is there, in order, with the names.
    let app2 = server().store(open()).start().await;
    let (s, log) = send(&app2, Method::GET, &uri, None, None).await;
    assert_eq!(s, StatusCode::OK, "{log}");
    let msgs = log["messages"].as_array().unwrap();
    let got: Vec<(u64, &str, &str, Option<&str>)> = msgs
        .iter()
        .map(|m| {
            (
                m["n"].as_u64().unwrap(),
                m["color"].as_str().unwrap(),
                m["text"].as_str().unwrap(),
                m["name"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (1, "black", "good luck", Some("Ann")),
            (2, "white", "you too", None)
        ]
    );
    // Numbering goes on after the stored messages.
    let (s, m) = send(
        &app2,
        Method::POST,
        &uri,
        Some(&white),
        Some(json!({"text": "still here"})),
    )
    .await;
    assert_eq!((s, m["n"].as_u64()), (StatusCode::CREATED, Some(3)), "{m}");
    app2.shutdown();
}

/// A finished two-player game on `app`: (id, black token, white token).
async fn finished_game(app: &App) -> (String, String, String) {
    let created = create(app, json!({"variant": "american"})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let white = join(app, &id).await["token"].as_str().unwrap().to_string();
    let (s, _) = send(
        app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    (id, black, white)
}

#[tokio::test]
async fn a_rematch_seat_belongs_to_the_opponent_not_to_whoever_joins_first() {
    let app = app().await;
    let (id, black, white) = finished_game(&app).await;
    let uri = format!("/api/games/{id}/rematch");
    let (s, r) = send(&app, Method::POST, &uri, Some(&black), None).await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    let new_id = r["id"].as_str().unwrap().to_string();
    // Anyone reading the finished game sees the rematch's id, but cannot take its seat.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{new_id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::CONFLICT, "seat_reserved"),
        "{v}"
    );
    // The opponent still takes it.
    let (s, a) = send(&app, Method::POST, &uri, Some(&white), None).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["id"], new_id.as_str());
    assert_eq!(a["game"]["status"], "ongoing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_players_asking_for_a_rematch_at_once_get_one_game_and_leave_no_orphan() {
    let store = Arc::new(SqliteStore::open_in_memory().unwrap());
    let app = server().store(store.clone()).start().await;
    for round in 0..10 {
        let (id, black, white) = finished_game(&app).await;
        let uri = format!("/api/games/{id}/rematch");
        let (a, b) = tokio::join!(
            send(&app, Method::POST, &uri, Some(&black), None),
            send(&app, Method::POST, &uri, Some(&white), None),
        );
        let mut statuses = [a.0, b.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CREATED],
            "round {round}: {} / {}",
            a.1,
            b.1
        );
        assert_eq!(a.1["id"], b.1["id"], "round {round}: one rematch");
        assert_ne!(a.1["color"], b.1["color"]);
    }
    let open: Vec<_> = tokio::task::spawn_blocking(move || store.load_unfinished().unwrap())
        .await
        .unwrap()
        .into_iter()
        .filter(|g| g.status == "open")
        .map(|g| g.id)
        .collect();
    assert_eq!(open, Vec::<String>::new(), "orphan open games");
}

/// Poll (bounded) until `done` holds.
async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "never {what}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn games_that_ended_with_no_move_and_short_guest_games_leave_the_store_after_the_grace_with_their_chat(
) {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(
        SqliteStore::open(
            &dir.path().join("crown.db"),
            crown_server::store::Durability::Normal,
        )
        .unwrap(),
    );
    let app = server()
        .store(store.clone())
        .with(|c| c.purge_unstarted_after_ms = 300)
        .start()
        .await;
    // Purged too: a guest game resigned before any move (shorter than --rated-min-plies,
    // whatever its result), and a public game resigned so (issue 41, fourth review: a public
    // game that short is as empty). Kept: a game still open.
    let (resigned, _, _) = finished_game(&app).await;
    let public = create(&app, json!({"variant": "american", "public": true})).await;
    let public_id = public["id"].as_str().unwrap().to_string();
    let white = join(&app, &public_id).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let uri = format!("/api/games/{public_id}/resign");
    let (s, v) = send(&app, Method::POST, &uri, Some(&white), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let open = create(&app, json!({"variant": "pool"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    // A seek with a chat message, then cancelled: nothing worth keeping.
    let created = create(&app, json!({"variant": "american"})).await;
    let cancelled = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap();
    let chat = format!("/api/games/{cancelled}/chat");
    let (s, m) = send(
        &app,
        Method::POST,
        &chat,
        Some(token),
        Some(json!({"text": "anyone?"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{m}");
    let uri = format!("/api/games/{cancelled}/cancel");
    let (s, v) = send(&app, Method::POST, &uri, Some(token), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A cancelled game takes no chat.
    let (s, v) = send(
        &app,
        Method::POST,
        &chat,
        Some(token),
        Some(json!({"text": "hello?"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "chat_closed"), "{v}");
    let store2 = store.clone();
    let id = cancelled.clone();
    wait_until("the cancelled game purged", move || {
        store2.load(&id).unwrap().is_none()
    })
    .await;
    let chat_left = store.chat().unwrap().load_chat(&cancelled, 0, 10).unwrap();
    assert!(chat_left.is_empty(), "{chat_left:?}");
    // The resigned guest game ended before the cancelled one: purged by then.
    assert!(
        store.load(&resigned).unwrap().is_none(),
        "a short guest game is purged"
    );
    assert!(
        store.load(&public_id).unwrap().is_none(),
        "a short public game is purged"
    );
    assert!(store.load(&open).unwrap().is_some(), "an open game is kept");
    app.shutdown();
}

#[tokio::test]
async fn chat_closes_ten_minutes_after_the_end_and_holds_at_most_200_messages() {
    use crown_server::store::{ChatRecord, Side};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let open =
        || Arc::new(SqliteStore::open(&path, crown_server::store::Durability::Normal).unwrap());
    let store = open();
    let app1 = server().store(store.clone()).start().await;
    // Just finished: its seats may still chat.
    let (ended, black, _) = finished_game(&app1).await;
    let (s, m) = send(
        &app1,
        Method::POST,
        &format!("/api/games/{ended}/chat"),
        Some(&black),
        Some(json!({"text": "good game"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{m}");
    // A chat holding 199 messages takes one more, then no more.
    let (full, black2, white2) = finished_game(&app1).await;
    for n in 1..=199u64 {
        let msg = ChatRecord {
            n: 0,
            color: if n % 2 == 0 { Side::White } else { Side::Black },
            name: None,
            text: format!("message {n}"),
            at_ms: 1,
        };
        store.chat().unwrap().add_chat(&full, &msg).unwrap();
    }
    let uri = format!("/api/games/{full}/chat");
    let (s, m) = send(
        &app1,
        Method::POST,
        &uri,
        Some(&black2),
        Some(json!({"text": "the 200th"})),
    )
    .await;
    assert_eq!(
        (s, m["n"].as_u64()),
        (StatusCode::CREATED, Some(200)),
        "{m}"
    );
    let (s, v) = send(
        &app1,
        Method::POST,
        &uri,
        Some(&white2),
        Some(json!({"text": "the 201st"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "chat_full"), "{v}");
    app1.shutdown();
    drop((app1, store));
    // Eleven minutes later (the end moved back in the store), the chat is closed.
    let c = rusqlite::Connection::open(&path).unwrap();
    let eleven_minutes_ago = crown_server::live::now_ms() - 11 * 60 * 1000;
    c.execute(
        "UPDATE games SET updated_ms = ?1 WHERE id = ?2",
        rusqlite::params![eleven_minutes_ago as i64, ended],
    )
    .unwrap();
    drop(c);
    let app2 = server().store(open()).start().await;
    let (s, v) = send(
        &app2,
        Method::POST,
        &format!("/api/games/{ended}/chat"),
        Some(&black),
        Some(json!({"text": "still there?"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "chat_closed"), "{v}");
    app2.shutdown();
}

#[test]
fn only_empty_games_and_short_unrated_games_are_purged_on_sqlite() {
    let store = SqliteStore::open_in_memory().unwrap();
    common::check_purge_unstarted(&store);
}

//! Issue 26, defect 1: no clock runs before a side's first move, and a timed game between two
//! people whose side to move makes no first move within `--abort-after-secs` is aborted (status
//! `aborted`, result `*`); `POST /api/games/{id}/abort` ends a game before both sides have moved
//! (docs/api.md, "Aborted games"). On SQLite and, when installed, PostgreSQL.

mod common;
use axum::http::{Method, StatusCode};
use common::pg::Pg;
use common::{send, server};
use crown_server::store::pg::PgStore;
use crown_server::store::Store;
use crown_server::{App, Config};
use serde_json::{json, Value};
use std::sync::Arc;

/// 0.25+0, the time control of the report: 15 s each.
fn quarter() -> Value {
    json!({"variant": "american", "time_control": {"initial_ms": 15000, "increment_ms": 0}})
}

fn code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("<no error code>")
}

/// A human game with both seats taken: (id, black token, white token, the join's game view).
async fn two_player(app: &App, body: Value) -> (String, String, String, Value) {
    let (s, created) = send(app, Method::POST, "/api/games", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    assert_eq!(created["color"], "black");
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let (s, joined) = send(
        app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let white = joined["token"].as_str().unwrap().to_string();
    (id, black, white, joined["game"].clone())
}

async fn post(
    app: &App,
    id: &str,
    what: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    send(
        app,
        Method::POST,
        &format!("/api/games/{id}/{what}"),
        Some(token),
        body,
    )
    .await
}

/// Wait (at most 60 s: the server checks about once a second) for the push `event` of game `id`.
async fn wait_for(app: &App, id: &str, event: &str) -> Value {
    let h = app.games().handle(id).await.unwrap();
    let mut rx = crown_server::games::Games::subscribe(&h);
    // It may have happened before the subscription: then the game already shows it.
    let (_, now) = send(app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    if now["status"] == "aborted" {
        return json!({ "event": event, "game": now });
    }
    tokio::time::timeout(std::time::Duration::from_secs(60), async {
        loop {
            let msg = rx.recv().await.unwrap();
            let v: Value = serde_json::from_str(&msg).unwrap();
            if v["event"] == event {
                break v;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("a {event} event within 60 s"))
}

/// The checks of an unstarted game aborted by the server, on any store: the push, the stored
/// state, no move accepted, its place freed, listed as `aborted`, a rematch as after any end.
async fn unstarted_game_is_aborted(app: &App) {
    // The game as the join left it (a later read may come after the abort on a starved machine).
    // Public: listed by `GET /api/games` below (a private game is reachable only by its link).
    let mut body = quarter();
    body["public"] = json!(true);
    let (id, black, white, g) = two_player(app, body).await;
    // No clock runs yet; the first move is due the first-move limit after Black's turn started,
    // which is the join (the game's last change).
    assert_eq!(g["clock"]["running"], Value::Null, "{g}");
    let deadline = g["first_move_deadline_ms"].as_u64().expect("a deadline");
    let turn_started = g["updated_ms"].as_u64().unwrap();
    assert_eq!(deadline, turn_started + SHORT_ABORT_MS, "{g}");
    // 0.25+0 with nobody moving: after the limit, aborted and not lost on time.
    let pushed = wait_for(app, &id, "aborted").await;
    let game = &pushed["game"];
    assert_eq!(game["status"], "aborted", "{game}");
    assert_eq!(game["outcome"]["result"], "*");
    assert_eq!(game["outcome"]["winner"], Value::Null);
    assert_eq!(
        game["outcome"]["reason"],
        "aborted: black did not make a first move in time"
    );
    assert_eq!(game["clock"]["black_ms"], 15000, "no time was charged");
    assert_eq!(game["legal_moves"], json!([]));
    assert_eq!(game["first_move_deadline_ms"], Value::Null);
    // Over: no move, no resignation, no abort.
    let (s, v) = post(app, &id, "moves", &black, Some(json!({"move": "11-15"}))).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    let (s, v) = post(app, &id, "resign", &white, None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    let (s, v) = post(app, &id, "abort", &white, None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    // The PDN has no result.
    let (s, _) = send(
        app,
        Method::GET,
        &format!("/api/games/{id}/pdn"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    // Its place is free (the test servers allow one game).
    let (s, v) = send(app, Method::GET, "/health", None, None).await;
    assert_eq!((s, &v["open_games"]), (StatusCode::OK, &json!(0)), "{v}");
    let (_, list) = send(app, Method::GET, "/api/games?status=aborted", None, None).await;
    assert!(
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == id.as_str()),
        "{list}"
    );
    // A rematch is offered as after any other end: a new game, colours swapped, same clock.
    let (s, r) = post(app, &id, "rematch", &black, None).await;
    assert_eq!(s, StatusCode::CREATED, "{r}");
    assert_eq!(r["color"], "white");
    assert_eq!(r["game"]["status"], "open");
    assert_eq!(r["game"]["clock"]["initial_ms"], 15000);
}

/// The first-move limit of [`short_abort`], in ms.
const SHORT_ABORT_MS: u64 = 300;

fn short_abort(c: &mut Config) {
    c.abort_after_ms = SHORT_ABORT_MS;
    c.max_open_games = 1;
}

#[tokio::test]
async fn an_unstarted_game_is_aborted_not_lost_on_time() {
    assert_eq!(Config::default().abort_after_ms, 30_000);
    let app = server().with(short_abort).start().await;
    unstarted_game_is_aborted(&app).await;
}

#[tokio::test]
async fn the_second_player_is_aborted_too_and_the_clock_runs_after_both_first_moves() {
    // Black's first move must reach the server within the limit of its turn: 10 s, however
    // starved the machine; White's limit then runs out while the test waits for the abort.
    let app = server().with(|c| c.abort_after_ms = 10_000).start().await;
    let (id, black, _, _) = two_player(&app, quarter()).await;
    let (s, g) = post(&app, &id, "moves", &black, Some(json!({"move": "11-15"}))).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["clock"]["black_ms"], 15000, "a first move is not timed");
    assert_eq!(g["clock"]["running"], Value::Null);
    assert!(g["first_move_deadline_ms"].is_u64(), "{g}");
    let pushed = wait_for(&app, &id, "aborted").await;
    assert_eq!(
        pushed["game"]["outcome"]["reason"],
        "aborted: white did not make a first move in time"
    );
    assert_eq!(pushed["game"]["moves"], json!(["11-15"]));
    // Both first moves made: the clock runs and no abort limit is left.
    let (id, black, white, _) = two_player(&app, quarter()).await;
    for (t, m) in [(&black, "11-15"), (&white, "23-19")] {
        let (s, v) = post(&app, &id, "moves", t, Some(json!({"move": m}))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["clock"]["running"], "black", "{g}");
    assert_eq!(g["first_move_deadline_ms"], Value::Null);
    assert_eq!(g["status"], "ongoing");
}

#[tokio::test]
async fn a_player_aborts_before_both_first_moves_and_not_after() {
    let app = server().start().await;
    let (id, black, white, _) = two_player(&app, quarter()).await;
    let (s, v) = post(&app, &id, "moves", &black, Some(json!({"move": "11-15"}))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Only a seat may abort.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/abort"),
        None,
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let (s, v) = post(&app, &id, "abort", &white, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "aborted");
    assert_eq!(v["outcome"]["result"], "*");
    assert_eq!(v["outcome"]["reason"], "aborted by white");
    let (s, v) = post(&app, &id, "moves", &white, Some(json!({"move": "23-19"}))).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    // Once both have moved: 409 not_abortable, and the game goes on.
    let (id, black, white, _) = two_player(&app, quarter()).await;
    for (t, m) in [(&black, "11-15"), (&white, "23-19")] {
        let (s, v) = post(&app, &id, "moves", t, Some(json!({"move": m}))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (s, v) = post(&app, &id, "abort", &black, None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::CONFLICT, "not_abortable"),
        "{v}"
    );
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "ongoing");
    // An open game is cancelled, not aborted.
    let (s, created) = send(&app, Method::POST, "/api/games", None, Some(quarter())).await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, v) = post(
        &app,
        created["id"].as_str().unwrap(),
        "abort",
        created["token"].as_str().unwrap(),
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "seat_open"), "{v}");
}

/// A store lists an aborted game as over: a restart does not resume it.
#[tokio::test]
async fn an_aborted_game_stays_over_after_a_restart() {
    let store: Arc<dyn Store> =
        Arc::new(crown_server::store::SqliteStore::open_in_memory().unwrap());
    restart_keeps_aborted(store).await;
}

async fn restart_keeps_aborted(store: Arc<dyn Store>) {
    let app = server().store(store.clone()).start().await;
    let (id, black, _, _) = two_player(&app, quarter()).await;
    let (s, v) = post(&app, &id, "abort", &black, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    app.shutdown();
    let s2 = store.clone();
    let unfinished = tokio::task::spawn_blocking(move || s2.unfinished().unwrap())
        .await
        .unwrap();
    assert!(!unfinished.contains(&id), "{unfinished:?}");
    let app = server().store(store).start().await;
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["status"], "aborted", "{g}");
    assert_eq!(g["outcome"]["reason"], "aborted by black");
    app.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_an_unstarted_game_is_aborted_and_stays_over() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let store: Arc<dyn Store> = Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    );
    let app = server()
        .store(store.clone())
        .with(short_abort)
        .start()
        .await;
    unstarted_game_is_aborted(&app).await;
    app.shutdown();
    restart_keeps_aborted(store).await;
}

//! PostgreSQL backup and restore as docs/deploy.md ("Backups", "PostgreSQL") documents it
//! (issue 41): `pg_dump --format=custom` while a server plays, `createdb` and
//! `pg_restore --no-owner --role=...` into a new database, and a server on the restored database
//! serves every move acknowledged before the dump began, the finished games, the running game
//! (which it then plays on), the accounts (log-in and the old sessions), the ratings and the chat.
//! Starts its own PostgreSQL (tests/common/pg.rs); skipped, saying so, when PostgreSQL is not
//! installed.

mod common;
use axum::http::{Method, StatusCode};
use common::accounts::{log_in, me, sign_up};
use common::pg::{store, Pg};
use common::ratings::{act, blitz_rating, call, game, get};
use common::{send, server};
use crown_server::App;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// Lease length of both servers, in ms: the restored server takes the running games over soon.
const LEASE_MS: u64 = 1_500;

/// A server on the PostgreSQL database at `url`.
async fn start(url: &str) -> App {
    server()
        .with(|c| c.lease_ms = LEASE_MS)
        .store(store(url).await)
        .start()
        .await
}

/// What the mover did, in order: a game created, or a move acknowledged (`200`) in it.
#[derive(Clone, Debug)]
enum Done {
    Created(String),
    Moved(String, String),
}

/// Play guest games on `app` as fast as answers come (the first legal move each time, a new game
/// when one ends) until `stop`, logging each acknowledged step in `log`.
async fn mover(app: App, log: Arc<Mutex<Vec<Done>>>, stop: Arc<AtomicBool>, step: Arc<Notify>) {
    while !stop.load(Ordering::SeqCst) {
        let (s, created) = send(
            &app,
            Method::POST,
            "/api/games",
            None,
            Some(json!({"variant": "american"})),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        let black = created["token"].as_str().unwrap().to_string();
        let uri = format!("/api/games/{id}/join");
        let (s, joined) = send(&app, Method::POST, &uri, None, None).await;
        assert_eq!(s, StatusCode::OK, "{joined}");
        let white = joined["token"].as_str().unwrap().to_string();
        log.lock().unwrap().push(Done::Created(id.clone()));
        let mut view = joined["game"].clone();
        while !stop.load(Ordering::SeqCst) && view["status"] == "ongoing" {
            let ply = view["ply"].as_u64().unwrap();
            let Some(mv) = view["legal_moves"][0]["text"].as_str().map(str::to_string) else {
                break;
            };
            let token = if ply % 2 == 0 { &black } else { &white };
            let (s, v) = send(
                &app,
                Method::POST,
                &format!("/api/games/{id}/moves"),
                Some(token),
                Some(json!({"move": mv, "ply": ply})),
            )
            .await;
            assert_eq!(s, StatusCode::OK, "{mv} at ply {ply}: {v}");
            log.lock().unwrap().push(Done::Moved(id.clone(), mv));
            step.notify_one();
            view = v;
        }
    }
}

/// The moves of game `id` in `log`.
fn moves_in(log: &[Done], id: &str) -> Vec<String> {
    log.iter()
        .filter_map(|d| match d {
            Done::Moved(g, mv) if g == id => Some(mv.clone()),
            _ => None,
        })
        .collect()
}

/// `POST /api/games/{id}/chat` as the seat `token`.
async fn chat(app: &App, id: &str, token: &str, text: &str) {
    let uri = format!("/api/games/{id}/chat");
    let mut c = call(Method::POST, &uri, None, Some(token));
    c.body = Some(json!({ "text": text }));
    let (s, _, v) = c.send(app).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

/// Run a PostgreSQL client program to success.
fn run(mut cmd: std::process::Command) {
    let out = cmd.output().expect("run a PostgreSQL client");
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The parts of a game view that the store keeps (the clock's running time is not compared).
fn kept(v: &Value) -> Value {
    json!({
        "moves": v["moves"],
        "status": v["status"],
        "outcome": v["outcome"],
        "accounts": v["accounts"],
        "rated": v["rated"],
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_dump_while_playing_restores_every_acknowledged_move_account_and_rating() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let old = start(&pg.url()).await;

    // Accounts, two finished rated games, a finished guest game, and a running rated game with chat.
    let alice = sign_up(&old, "alice", "password-a").await;
    let bob = sign_up(&old, "bob", "password-b").await;
    let carol = sign_up(&old, "carol", "password-c").await;
    let g1 = game(&old, Some(&alice), Some(&bob), json!({"rated": true})).await;
    chat(&old, &g1.id, &g1.black, "good luck").await;
    chat(&old, &g1.id, &g1.white, "thanks, you too").await;
    assert_eq!(
        act(&old, &g1.id, "resign", &g1.white).await.0,
        StatusCode::OK
    );
    let g2 = game(&old, Some(&bob), Some(&carol), json!({"rated": true})).await;
    assert_eq!(
        act(&old, &g2.id, "resign", &g2.black).await.0,
        StatusCode::OK
    );
    let g3 = game(&old, None, None, json!({})).await;
    assert_eq!(
        act(&old, &g3.id, "resign", &g3.black).await.0,
        StatusCode::OK
    );
    let running = game(&old, Some(&alice), Some(&carol), json!({"rated": true})).await;
    chat(&old, &running.id, &running.white, "your move").await;
    let games = [&g1.id, &g2.id, &g3.id, &running.id];

    let mut before = Vec::new();
    for id in games {
        let (s, v) = get(&old, &format!("/api/games/{id}"), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (_, c) = get(&old, &format!("/api/games/{id}/chat"), None).await;
        before.push((kept(&v), c["messages"].clone()));
    }
    assert_eq!(before[0].1.as_array().unwrap().len(), 2, "{:?}", before[0]);
    let mut ratings = Vec::new();
    for name in ["alice", "bob", "carol"] {
        let r = blitz_rating(&old, name).await;
        assert!(r.is_some(), "{name} has no blitz rating");
        ratings.push(r);
    }
    let (s, _, alice_me) = me(Some(&alice)).send(&old).await;
    assert_eq!(s, StatusCode::OK, "{alice_me}");

    // pg_dump runs while the mover plays; the moves acknowledged before it starts must be in it.
    let log = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let step = Arc::new(Notify::new());
    let moving = tokio::spawn(mover(old.clone(), log.clone(), stop.clone(), step.clone()));
    let moved = |log: &[Done]| log.iter().filter(|d| matches!(d, Done::Moved(..))).count();
    while moved(&log.lock().unwrap()) < 20 {
        tokio::time::timeout(Duration::from_secs(60), step.notified())
            .await
            .expect("the mover made no move within 60 s");
    }
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("crown.dump");
    let mut pg_dump = pg.client("pg_dump");
    pg_dump
        .arg("--format=custom")
        .arg(format!("--file={}", dump.display()))
        .arg(pg.url());
    let acked_before = log.lock().unwrap().clone();
    tokio::task::spawn_blocking(move || run(pg_dump))
        .await
        .unwrap();
    stop.store(true, Ordering::SeqCst);
    moving.await.unwrap();
    let acked_all = log.lock().unwrap().clone();
    eprintln!(
        "{} steps acknowledged before pg_dump began, {} while it ran",
        acked_before.len(),
        acked_all.len() - acked_before.len()
    );

    // Stop every instance, restore into a new database, start a server on it.
    old.shutdown();
    drop(old);
    let mut createdb = pg.client("createdb");
    createdb
        .args(["-h", "127.0.0.1", "-p", &pg.port().to_string()])
        .args(["-U", "crown", "-O", "crown", "crown_restored"]);
    run(createdb);
    let mut pg_restore = pg.client("pg_restore");
    pg_restore
        .args(["--no-owner", "--role=crown"])
        .arg(format!("--dbname={}", pg.url_of("crown_restored")))
        .arg(&dump);
    tokio::task::spawn_blocking(move || run(pg_restore))
        .await
        .unwrap();
    let new = start(&pg.url_of("crown_restored")).await;

    // Every game as it was, with its chat.
    for (id, (view, messages)) in games.iter().zip(&before) {
        let (s, v) = get(&new, &format!("/api/games/{id}"), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(&kept(&v), view, "game {id}");
        let (_, c) = get(&new, &format!("/api/games/{id}/chat"), None).await;
        assert_eq!(&c["messages"], messages, "chat of {id}");
    }
    // Every move acknowledged before the dump began; nothing that was not acknowledged.
    let mut checked = 0;
    for done in &acked_all {
        let Done::Created(id) = done else { continue };
        let (first, all) = (moves_in(&acked_before, id), moves_in(&acked_all, id));
        let (s, v) = get(&new, &format!("/api/games/{id}"), None).await;
        let created_before = acked_before
            .iter()
            .any(|d| matches!(d, Done::Created(g) if g == id));
        if s == StatusCode::NOT_FOUND && !created_before {
            continue; // created after the dump's snapshot
        }
        assert_eq!(s, StatusCode::OK, "game {id}: {v}");
        let restored: Vec<String> = serde_json::from_value(v["moves"].clone()).unwrap();
        assert!(
            restored.starts_with(&first) && all.starts_with(&restored),
            "game {id}: acknowledged before the dump {first:?}, restored {restored:?}, \
             acknowledged in all {all:?}"
        );
        checked += first.len();
    }
    assert!(checked >= 20, "only {checked} acknowledged moves checked");

    // The accounts: the old session still works, the passwords log in, the ratings are equal.
    let (s, _, v) = me(Some(&alice)).send(&new).await;
    assert_eq!((s, &v), (StatusCode::OK, &alice_me));
    for (name, password) in [("alice", "password-a"), ("bob", "password-b")] {
        let (s, token, v) = log_in(&new, name, password).await;
        assert_eq!(s, StatusCode::OK, "{name}: {v}");
        assert!(token.is_some(), "{name}: no session cookie");
    }
    let (s, _, v) = log_in(&new, "carol", "password-a").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    for (name, rating) in ["alice", "bob", "carol"].iter().zip(&ratings) {
        assert_eq!(&blitz_rating(&new, name).await, rating, "{name}");
    }

    // The running game goes on on the restored server with the seat tokens it had.
    let (s, before) = get(&new, &format!("/api/games/{}", running.id), None).await;
    assert_eq!(s, StatusCode::OK, "{before}");
    let mv = before["legal_moves"][0]["text"].clone();
    let token = if before["side_to_move"] == "black" {
        &running.black
    } else {
        &running.white
    };
    let uri = format!("/api/games/{}/moves", running.id);
    let mut c = call(Method::POST, &uri, None, Some(token));
    c.body = Some(json!({"move": mv, "ply": common::ratings::GAME_PLIES}));
    let (s, _, v) = c.send(&new).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let mut want = before["moves"].as_array().unwrap().clone();
    want.push(mv);
    assert_eq!(v["moves"], Value::Array(want), "{v}");
}

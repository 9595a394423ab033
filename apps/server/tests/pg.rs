//! `PgStore` against a real PostgreSQL: the harness runs Debian's `initdb` and `pg_ctl`
//! (`/usr/lib/postgresql/*/bin`) in a temporary directory on a free port, as the `postgres` user
//! when run as root (initdb refuses root). Skipped, saying so, when PostgreSQL is not installed.

mod common;
use axum::http::{Method, StatusCode};
use common::pg::Pg;
use common::send;
use crown_server::pg::PgStore;
use crown_server::store::{Store, StoreError};
use crown_server::{App, Config};
use serde_json::json;
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_survive_a_restart_on_postgresql() {
    let Some(pg) = tokio::task::spawn_blocking(Pg::start).await.unwrap() else {
        eprintln!("SKIPPED: PostgreSQL is not installed (apt-get install postgresql)");
        return;
    };
    let url = pg.url();
    let store: Arc<dyn Store> = Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    );
    let config = Config {
        rate_per_sec: 0,
        ..Config::default()
    };
    let app = App::start(store.clone(), config.clone(), None)
        .await
        .unwrap();
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
    // A private open game stays out of the list.
    let (_, list) = send(&app, Method::GET, "/api/games?status=open", None, None).await;
    assert_eq!(list["games"], json!([]));
    let (s, joined) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let white = joined["token"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/moves");
    for (t, m, ply) in [(&black, "11-15", 0), (&white, "23-19", 1)] {
        let (s, v) = send(
            &app,
            Method::POST,
            &uri,
            Some(t),
            Some(json!({"move": m, "ply": ply})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    app.shutdown();
    // A second server on the same database resumes the game and finishes a move.
    let app2 = App::start(store.clone(), config, None).await.unwrap();
    let (s, v) = send(
        &app2,
        Method::POST,
        &uri,
        Some(&black),
        Some(json!({"move": "8-11", "ply": 2})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["11-15", "23-19", "8-11"]));
    let (_, list) = send(&app2, Method::GET, "/api/games?status=ongoing", None, None).await;
    assert_eq!(list["games"][0]["plies"], 3, "{list}");
    // A save from a stale copy is a conflict and writes nothing.
    let s2 = store.clone();
    let id2 = id.clone();
    tokio::task::spawn_blocking(move || {
        let mut rec = s2.load(&id2).unwrap().unwrap();
        rec.version -= 1;
        rec.status = "finished".into();
        assert!(matches!(s2.save(&mut rec, 0), Err(StoreError::Conflict(_))));
        assert_eq!(s2.load(&id2).unwrap().unwrap().status, "ongoing");
        assert!(s2.last_heartbeat().unwrap().is_some());
    })
    .await
    .unwrap();
    app2.shutdown();
}

//! Shared games on PostgreSQL with two instances on one database (store/pg/imports.rs;
//! docs/api.md, "Shared games"): a game shared through one instance comes back byte for byte
//! through the other, its importer puts it in the archive through the other, and both list it.
//! Starts its own PostgreSQL (tests/common/pg.rs); skipped, saying so, when PostgreSQL is not
//! installed.

mod common;
use axum::http::{Method, StatusCode};
use common::accounts::sign_up;
use common::imports::{call, get_json, set_archived, share, GAME};
use common::pg::{store, Pg};
use common::server;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_shared_through_one_instance_is_read_and_archived_through_the_other() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    let b = server().store(store(&pg.url()).await).start().await;
    let alice = sign_up(&a, "alice", "correct horse").await;
    let (s, v) = share(&a, GAME.as_bytes(), Some(&alice), None).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["plies"], 4);
    let id = v["id"].as_str().unwrap().to_string();

    let uri = format!("/api/imports/{id}/pdn");
    let (s, _, body) = call(&b, Method::GET, &uri, Vec::new(), None, None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(body, GAME.as_bytes(), "the PDN exactly as sent");
    let (_, v) = get_json(&b, &format!("/api/imports/{id}"), Some(&alice)).await;
    assert_eq!(
        (v["mine"].clone(), v["archived"].clone()),
        (json!(true), json!(false))
    );

    let (s, v) = set_archived(&b, &id, true, Some(&alice)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    for app in [&a, &b] {
        let (_, v) = get_json(app, "/api/users/alice/imports", None).await;
        assert_eq!(v["imports"][0]["id"], id, "{v}");
        assert_eq!(v["imports"][0]["imported"], true);
        let (_, games) = get_json(app, "/api/users/alice/games", None).await;
        assert_eq!(
            games["games"],
            json!([]),
            "never a rated or played game: {games}"
        );
    }
    let (s, _) = get_json(&b, "/api/imports/0123456789", None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}

//! Abuse of the accounts and the ratings through the router, with the default limits (issue 41,
//! "run it for real"): a foreign page cannot join or create a game with the player's session
//! cookie.

mod common;
use axum::http::{Method, StatusCode};
use common::accounts::{post, sign_up, Call};
use common::ratings::{call, get};
use common::server;
use serde_json::json;

/// `POST uri` with the session cookie `session`, `origins` as `Origin` headers, no body.
fn with_origins<'a>(uri: &'a str, session: &'a str, origins: &[&str]) -> Call<'a> {
    let mut c = call(Method::POST, uri, Some(session), None);
    for o in origins {
        c.headers.push(("origin", (*o).to_string()));
    }
    c
}

#[tokio::test]
async fn a_foreign_page_cannot_create_or_join_a_game_with_the_session_cookie() {
    let app = server().start().await;
    let session = sign_up(&app, "peggy", "peggy's password").await;
    let (s, _, created) = post("/api/games", json!({"variant": "american"}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let join = format!("/api/games/{}/join", created["id"].as_str().unwrap());
    let foreign: [&[&str]; 4] = [
        &["http://evil.test"],
        &["null"],
        // Two Origin headers, even both this server's, are refused.
        &["http://crown.test", "http://crown.test"],
        &["http://crown.test", "http://evil.test"],
    ];
    for origins in foreign {
        let (s, _, v) = with_origins(&join, &session, origins).send(&app).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{origins:?}: {v}");
        assert_eq!(v["error"]["code"], "bad_origin");
        let mut create = with_origins("/api/games", &session, origins);
        create.body = Some(json!({"variant": "american"}));
        let (s, _, v) = create.send(&app).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{origins:?}: {v}");
        // The account routes refuse two as well.
        let mut login = post(
            "/api/login",
            json!({"username": "peggy", "password": "peggy's password"}),
        );
        for o in origins {
            login.headers.push(("origin", (*o).to_string()));
        }
        assert_eq!(
            login.send(&app).await.0,
            StatusCode::FORBIDDEN,
            "{origins:?}"
        );
    }
    // Nobody joined.
    let id = created["id"].as_str().unwrap();
    let (s, g) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "open", "{g}");
    assert_eq!(g["white"]["joined"], false, "{g}");
    assert_eq!(g["accounts"]["white"], serde_json::Value::Null, "{g}");
    // The web app's own page (its Origin, once) joins, and the seat is linked to the account.
    let (s, _, v) = with_origins(&join, &session, &["http://crown.test"])
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_ne!(
        v["game"]["accounts"]["white"],
        serde_json::Value::Null,
        "{v}"
    );
}

//! Accounts on PostgreSQL (store/pg/accounts.rs) through the router: sign-up, log-in, `GET
//! /api/me`, change of password, log-out, case-insensitive uniqueness, and sessions seen by a
//! second instance on the same database. Starts its own PostgreSQL (tests/common/pg.rs);
//! skipped, saying so, when PostgreSQL is not installed.

mod common;
use axum::http::{header, Method, StatusCode};
use common::accounts::{log_in, me, post, sign_up, Call};
use common::pg::{store, Pg};
use common::server;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_sign_up_log_in_and_log_out_on_postgresql() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    // A second instance on the same database.
    let b = server().store(store(&pg.url()).await).start().await;
    let on_a = sign_up(&a, "Quinn", "quinn's password").await;
    let (s, _, v) = me(Some(&on_a)).send(&b).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["user"]["name"], "Quinn");
    let (s, h, v) = post(
        "/api/signup",
        json!({"username": "QUINN", "password": "another password"}),
    )
    .send(&b)
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "username_taken");
    assert!(h.get(header::SET_COOKIE).is_none());
    let (s, t, v) = log_in(&b, "quinn", "wrong password").await;
    assert_eq!((s, t), (StatusCode::UNAUTHORIZED, None));
    assert_eq!(v["error"]["code"], "bad_credentials");
    let (s, on_b, v) = log_in(&b, "quinn", "quinn's password").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let on_b = on_b.unwrap();
    // Changing the password on `a` ends the session opened on `b`.
    let mut c = post(
        "/api/password",
        json!({"old_password": "quinn's password", "new_password": "quinn's new password"}),
    );
    c.session = Some(&on_a);
    let (s, _, v) = c.send(&a).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(me(Some(&on_b)).send(&b).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(me(Some(&on_a)).send(&b).await.0, StatusCode::OK);
    let (s, _, _) = Call {
        method: Method::POST,
        session: Some(&on_a),
        body: None,
        ..me(None)
    }
    .send(&a)
    .await;
    // `/api/me` is GET only.
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    let (s, _, _) = Call {
        uri: "/api/logout",
        method: Method::POST,
        session: Some(&on_a),
        body: None,
        ..me(None)
    }
    .send(&b)
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(me(Some(&on_a)).send(&a).await.0, StatusCode::UNAUTHORIZED);
    let (s, _, _) = log_in(&a, "Quinn", "quinn's new password").await;
    assert_eq!(s, StatusCode::OK);
    a.shutdown();
    b.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_keeps_its_newest_sessions_and_drops_the_oldest_on_postgresql() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let s = store(&pg.url()).await;
    let app = server().store(s.clone()).start().await;
    common::accounts::check_session_cap(&app, s).await;
}

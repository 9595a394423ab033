//! Accounts through the router (docs/api.md, "Accounts"), on the in-memory SQLite store: sign-up,
//! log-in, `GET /api/me`, log-out, change of password, the cookie's attributes, and the security
//! rules (rate limits per address and per username, no user enumeration, username and password
//! rules, CSRF refusals, bad JSON). Guests keep playing with seat tokens.

mod common;
use axum::http::{header, Method, StatusCode};
use common::accounts::{log_in, me, post, set_cookie, sign_up, token_of, Call};
use common::{send, server};
use serde_json::json;

/// A 30-day session, in seconds: the default `Max-Age`.
const MONTH_S: u64 = 30 * 24 * 3600;

#[tokio::test]
async fn sign_up_sets_a_session_cookie_and_me_answers() {
    let app = server().start().await;
    let (s, h, v) = post(
        "/api/signup",
        json!({"username": "Alice_1", "password": "correct horse"}),
    )
    .send(&app)
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["user"]["name"], "Alice_1");
    assert!(v["user"]["id"].as_str().is_some_and(|id| id.len() == 16));
    assert!(v["user"].get("password_hash").is_none(), "{v}");
    assert_eq!(h[header::CACHE_CONTROL], "no-store");
    let c = set_cookie(&h);
    let token = token_of(&h);
    assert_eq!(token.len(), 64, "{c}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{c}");
    let attrs: Vec<&str> = c.split("; ").skip(1).collect();
    assert_eq!(
        attrs,
        [
            "Path=/",
            &format!("Max-Age={MONTH_S}"),
            "HttpOnly",
            "SameSite=Lax"
        ],
        "{c}"
    );
    let (s, _, v) = me(Some(&token)).send(&app).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["user"]["name"], "Alice_1");
    for bad in [None, Some("0000"), Some(&token[1..])] {
        let (s, _, v) = me(bad).send(&app).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "{bad:?}: {v}");
        assert_eq!(v["error"]["code"], "not_logged_in");
    }
}

#[tokio::test]
async fn the_cookie_is_secure_behind_an_https_proxy() {
    let app = server().start().await;
    let mut call = post(
        "/api/signup",
        json!({"username": "bob", "password": "12345678"}),
    );
    call.headers.push(("x-forwarded-proto", "https".into()));
    let (s, h, _) = call.send(&app).await;
    assert_eq!(s, StatusCode::CREATED);
    assert!(
        set_cookie(&h).ends_with("; HttpOnly; SameSite=Lax; Secure"),
        "{}",
        set_cookie(&h)
    );
}

#[tokio::test]
async fn log_in_any_case_then_log_out_ends_the_session() {
    let app = server().start().await;
    let first = sign_up(&app, "Carol", "carol's secret").await;
    let (s, second, v) = log_in(&app, "cAROL", "carol's secret").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["user"]["name"], "Carol");
    let second = second.unwrap();
    assert_ne!(first, second);
    let (s, h, _) = Call {
        session: Some(&second),
        ..post("/api/logout", json!({}))
    }
    .send(&app)
    .await;
    // Log-out takes no body.
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(h.get(header::SET_COOKIE).is_none());
    let (s, h, _) = Call {
        session: Some(&second),
        body: None,
        ..post("/api/logout", json!({}))
    }
    .send(&app)
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    assert_eq!(
        set_cookie(&h),
        "crown_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
    );
    assert_eq!(
        me(Some(&second)).send(&app).await.0,
        StatusCode::UNAUTHORIZED
    );
    // The other session is untouched, and logging out without a session is no error.
    assert_eq!(me(Some(&first)).send(&app).await.0, StatusCode::OK);
    let (s, _, _) = Call {
        body: None,
        ..post("/api/logout", json!({}))
    }
    .send(&app)
    .await;
    assert_eq!(s, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn unknown_user_and_wrong_password_get_the_same_answer_after_the_same_check() {
    let app = server().start().await;
    sign_up(&app, "dave", "dave's password").await;
    let checks = app.accounts().password_checks();
    let (s1, t1, wrong) = log_in(&app, "dave", "not dave's password").await;
    assert_eq!(app.accounts().password_checks(), checks + 1);
    let (s2, t2, unknown) = log_in(&app, "nobody", "not dave's password").await;
    // The unknown name was checked against the dummy hash: one more Argon2 verification.
    assert_eq!(app.accounts().password_checks(), checks + 2);
    assert_eq!(
        (s1, s2),
        (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED)
    );
    assert_eq!((t1, t2), (None, None));
    assert_eq!(wrong, unknown);
    assert_eq!(
        wrong,
        json!({"error": {"code": "bad_credentials", "message": "wrong username or password"}})
    );
    let (s, t, _) = log_in(&app, "dave", "dave's password").await;
    assert_eq!(s, StatusCode::OK);
    assert!(t.is_some());
}

#[tokio::test]
async fn username_and_password_rules() {
    let app = server().start().await;
    for name in [
        "ab",
        "a_very_long_username_x",
        "al ice",
        "_alice",
        "zoë",
        "<b>",
    ] {
        let (s, _, v) = post(
            "/api/signup",
            json!({"username": name, "password": "12345678"}),
        )
        .send(&app)
        .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{name}: {v}");
        assert_eq!(v["error"]["code"], "bad_username", "{name}");
    }
    let (s, _, v) = post(
        "/api/signup",
        json!({"username": "erin", "password": "1234567"}),
    )
    .send(&app)
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_password");
    assert!(!v.to_string().contains("1234567"), "{v}");
    sign_up(&app, "Erin", "12345678").await;
    for again in ["Erin", "erin", "ERIN"] {
        let (s, h, v) = post(
            "/api/signup",
            json!({"username": again, "password": "another password"}),
        )
        .send(&app)
        .await;
        assert_eq!(s, StatusCode::CONFLICT, "{again}: {v}");
        assert_eq!(v["error"]["code"], "username_taken");
        assert!(h.get(header::SET_COOKIE).is_none());
    }
    // The first account's password is unchanged.
    assert_eq!(log_in(&app, "erin", "12345678").await.0, StatusCode::OK);
}

/// Check the wait a bucket of three attempts a minute (one back every 20 s) asks for once
/// emptied by three attempts, the first of which was made after `first`: 20 s less what refilled
/// since that first attempt was counted (the bucket refills continuously), rounded up — so
/// between 20 s less the time elapsed since `first`, however slowly the machine answered, and
/// 20 s. The header and the JSON detail agree.
fn assert_three_a_minute_wait(
    h: &axum::http::HeaderMap,
    v: &serde_json::Value,
    first: std::time::Instant,
) {
    let elapsed = first.elapsed().as_secs_f64();
    let secs: u64 = h[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!(
        secs <= 20 && secs as f64 >= 20.0 - elapsed,
        "Retry-After {secs} s, {elapsed:.1} s after the first attempt"
    );
    assert_eq!(v["error"]["retry_after_ms"], secs * 1000, "{v}");
}

#[tokio::test]
async fn log_in_is_rate_limited_per_address() {
    let app = server()
        .with(|c| {
            c.login_per_min_per_ip = 3;
            c.login_per_min_per_user = 100;
        })
        .start()
        .await;
    let attempt = |from: [u8; 4], name: &'static str| {
        let mut c = post(
            "/api/login",
            json!({"username": name, "password": "guess guess"}),
        );
        c.from = Some(std::net::IpAddr::from(from));
        c
    };
    let here = [10, 0, 0, 1];
    let first = std::time::Instant::now();
    for name in ["u1", "u2", "u3"] {
        let (s, _, v) = attempt(here, name).send(&app).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    }
    let (s, h, v) = attempt(here, "u4").send(&app).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "login_rate_limited");
    // One attempt comes back every 20 s (3 a minute).
    assert_three_a_minute_wait(&h, &v, first);
    // Sign-ups from the address count too; another address is not limited.
    let mut c = post(
        "/api/signup",
        json!({"username": "frank", "password": "12345678"}),
    );
    c.from = Some(std::net::IpAddr::from(here));
    assert_eq!(c.send(&app).await.0, StatusCode::TOO_MANY_REQUESTS);
    let (s, _, _) = attempt([10, 0, 0, 2], "u4").send(&app).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn log_in_is_rate_limited_per_username_from_any_address() {
    let app = server()
        .with(|c| {
            c.login_per_min_per_ip = 100;
            c.login_per_min_per_user = 3;
        })
        .start()
        .await;
    sign_up(&app, "grace", "grace's password").await;
    let first = std::time::Instant::now();
    for (i, name) in ["grace", "Grace", "GRACE"].into_iter().enumerate() {
        let mut c = post(
            "/api/login",
            json!({"username": name, "password": "wrong guess"}),
        );
        c.from = Some(std::net::IpAddr::from([10, 0, 1, i as u8]));
        assert_eq!(c.send(&app).await.0, StatusCode::UNAUTHORIZED);
    }
    // Even the right password waits now, from a new address.
    let mut c = post(
        "/api/login",
        json!({"username": "grace", "password": "grace's password"}),
    );
    c.from = Some(std::net::IpAddr::from([10, 0, 1, 9]));
    let (s, h, v) = c.send(&app).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "login_rate_limited");
    assert_three_a_minute_wait(&h, &v, first);
    // An unknown username has its own bucket too, and another username is not limited.
    let mut c = post(
        "/api/login",
        json!({"username": "heidi", "password": "wrong guess"}),
    );
    c.from = Some(std::net::IpAddr::from([10, 0, 1, 9]));
    assert_eq!(c.send(&app).await.0, StatusCode::UNAUTHORIZED);
}

/// A wrong log-in as `name` from `from`: its status.
async fn wrong_log_in(app: &crown_server::App, name: &str, from: [u8; 4]) -> StatusCode {
    let mut c = post(
        "/api/login",
        json!({"username": name, "password": "wrong guess"}),
    );
    c.from = Some(std::net::IpAddr::from(from));
    c.send(app).await.0
}

/// The right log-in as `name` with `password` from `from`: its status and answer.
async fn right_log_in(
    app: &crown_server::App,
    name: &str,
    password: &str,
    from: [u8; 4],
) -> (StatusCode, serde_json::Value) {
    let mut c = post(
        "/api/login",
        json!({"username": name, "password": password}),
    );
    c.from = Some(std::net::IpAddr::from(from));
    let (s, _, v) = c.send(app).await;
    (s, v)
}

#[tokio::test]
async fn one_addresss_failures_do_not_lock_the_owner_out_of_a_new_address() {
    // Issue 41: ten wrong log-ins from one address made the owner's right password get 429
    // from every address it had never logged in from. The defaults: 10 a minute.
    let app = server().start().await;
    sign_up(&app, "ivan", "ivan's password").await;
    let stranger = [198, 51, 100, 7];
    for i in 0..10 {
        assert_eq!(
            wrong_log_in(&app, "ivan", stranger).await,
            StatusCode::UNAUTHORIZED,
            "attempt {i}"
        );
    }
    // The stranger's address, and its /24, are throttled for this username...
    assert_eq!(
        wrong_log_in(&app, "ivan", stranger).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        wrong_log_in(&app, "ivan", [198, 51, 100, 200]).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // ...the owner, from an address it never logged in from, is not.
    let (s, v) = right_log_in(&app, "ivan", "ivan's password", [203, 0, 113, 9]).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn failures_from_many_networks_still_throttle_a_username_except_from_a_known_address() {
    // Few attempts a minute, so that the buckets barely refill while the checks run.
    let app = server()
        .with(|c| {
            c.login_per_min_per_ip = 0;
            c.login_per_min_per_user = 1;
            c.login_per_min_per_user_total = 4;
        })
        .start()
        .await;
    sign_up(&app, "judy", "judy's password").await;
    let home = [192, 0, 2, 10];
    let (s, v) = right_log_in(&app, "judy", "judy's password", home).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // Three networks, one wrong guess each: each its own limit, together (with the owner's
    // first log-in from home, not yet known then) the ceiling of four.
    for net in 0..3 {
        let from = [198, 51, net, 1];
        assert_eq!(
            wrong_log_in(&app, "judy", from).await,
            StatusCode::UNAUTHORIZED,
            "{from:?}"
        );
    }
    assert_eq!(
        wrong_log_in(&app, "judy", [198, 51, 0, 2]).await,
        StatusCode::TOO_MANY_REQUESTS,
        "the first network's own limit"
    );
    // A fourth network, untouched, waits for the ceiling; so does the owner from a new one.
    assert_eq!(
        wrong_log_in(&app, "judy", [198, 51, 3, 1]).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    let mut c = post(
        "/api/login",
        json!({"username": "judy", "password": "judy's password"}),
    );
    c.from = Some(std::net::IpAddr::from([203, 0, 113, 9]));
    let (s, h, v) = c.send(&app).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["error"]["code"], "login_rate_limited");
    // The ceiling's wait: four a minute, one back within 15 s.
    let secs: u64 = h[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((1..=15).contains(&secs), "Retry-After {secs} s");
    assert_eq!(v["error"]["retry_after_ms"], secs * 1000, "{v}");
    // The owner's known address is exempt from both.
    let (s, v) = right_log_in(&app, "judy", "judy's password", home).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn bad_bodies_get_the_documented_400s() {
    let app = server().start().await;
    let raw = |body: &'static str, ct: Option<&'static str>| {
        let mut c = Call {
            body: None,
            ..post("/api/signup", json!({}))
        };
        if let Some(ct) = ct {
            c.headers.push(("content-type", ct.into()));
        }
        (c, body)
    };
    for (body, ct, status, code) in [
        (
            r#"{"username":"ivan","password":"12345678"}"#,
            None,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "bad_content_type",
        ),
        (
            r#"{"username":"ivan","password":"12345678"}"#,
            Some("application/x-www-form-urlencoded"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "bad_content_type",
        ),
        (
            r#"{"username":"ivan","password":"12345678","password":"87654321"}"#,
            Some("application/json"),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            r#"["ivan","12345678"]"#,
            Some("application/json"),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            r#"{"username":"ivan"}"#,
            Some("application/json"),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            r#"{"username":"ivan","password":"12345678","admin":true}"#,
            Some("application/json"),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            r#"{"username":"ivan","password":12345678}"#,
            Some("application/json"),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            r#"{"username":"ivan","#,
            Some("application/json"),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
    ] {
        let (c, body) = raw(body, ct);
        let (s, v) = send_raw(&app, c, body).await;
        assert_eq!(s, status, "{body}: {v}");
        assert_eq!(v["error"]["code"], code, "{body}: {v}");
        assert!(v["error"]["message"].is_string(), "{v}");
    }
    // Nothing was created.
    assert_eq!(
        log_in(&app, "ivan", "12345678").await.0,
        StatusCode::UNAUTHORIZED
    );
}

/// Send `c` with the raw `body` (its own content type, if any).
async fn send_raw(
    app: &crown_server::App,
    c: Call<'_>,
    body: &str,
) -> (StatusCode, serde_json::Value) {
    use tower::ServiceExt;
    let mut req = axum::http::Request::builder()
        .method(c.method)
        .uri(c.uri)
        .header(header::HOST, "crown.test");
    for (k, v) in c.headers {
        req = req.header(k, v);
    }
    let req = req.body(axum::body::Body::from(body.to_string())).unwrap();
    let resp = app.router().oneshot(req).await.unwrap();
    let s = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    (s, serde_json::from_slice(&bytes).unwrap_or_default())
}

#[tokio::test]
async fn cross_site_requests_are_refused() {
    let app = server().start().await;
    let token = sign_up(&app, "judy", "judy's password").await;
    for origin in [
        "http://evil.test",
        "https://crown.test.evil.test",
        "null",
        "",
    ] {
        for uri in ["/api/login", "/api/signup", "/api/password", "/api/logout"] {
            let mut c = post(
                uri,
                json!({"username": "judy2", "password": "judy's password"}),
            );
            if uri == "/api/logout" {
                c.body = None;
            }
            c.session = Some(&token);
            c.headers.push(("origin", origin.into()));
            let (s, h, v) = c.send(&app).await;
            assert_eq!(s, StatusCode::FORBIDDEN, "{origin} {uri}: {v}");
            assert_eq!(v["error"]["code"], "bad_origin");
            assert!(h.get(header::SET_COOKIE).is_none());
        }
    }
    // Nothing happened: the session lives, judy2 does not exist.
    assert_eq!(me(Some(&token)).send(&app).await.0, StatusCode::OK);
    assert_eq!(
        log_in(&app, "judy2", "judy's password").await.0,
        StatusCode::UNAUTHORIZED
    );
    // The page's own origin (scheme and host as the request's Host) is accepted.
    for origin in ["http://crown.test", "https://CROWN.test"] {
        let mut c = post(
            "/api/login",
            json!({"username": "judy", "password": "judy's password"}),
        );
        c.headers.push(("origin", origin.into()));
        assert_eq!(c.send(&app).await.0, StatusCode::OK, "{origin}");
    }
}

#[tokio::test]
async fn change_password_needs_the_old_one_and_ends_the_other_sessions() {
    let app = server().start().await;
    let here = sign_up(&app, "kim", "first password").await;
    let (_, elsewhere, _) = log_in(&app, "kim", "first password").await;
    let elsewhere = elsewhere.unwrap();
    fn change<'a>(session: Option<&'a str>, old: &str, new: &str) -> Call<'a> {
        let mut c = post(
            "/api/password",
            json!({"old_password": old, "new_password": new}),
        );
        c.session = session;
        c
    }
    let (s, _, v) = change(None, "first password", "second password")
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert_eq!(v["error"]["code"], "not_logged_in");
    let (s, _, v) = change(Some(&here), "wrong password", "second password")
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "wrong_password");
    let (s, _, v) = change(Some(&here), "first password", "short")
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_password");
    // Nothing changed yet: both sessions live.
    assert_eq!(me(Some(&elsewhere)).send(&app).await.0, StatusCode::OK);
    let (s, _, v) = change(Some(&here), "first password", "second password")
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["user"]["name"], "kim");
    assert_eq!(me(Some(&here)).send(&app).await.0, StatusCode::OK);
    assert_eq!(
        me(Some(&elsewhere)).send(&app).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        log_in(&app, "kim", "first password").await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        log_in(&app, "kim", "second password").await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn an_expired_session_is_refused() {
    let app = server().with(|c| c.session_ttl_ms = 0).start().await;
    let token = sign_up(&app, "leo", "leo's password").await;
    let (s, _, v) = me(Some(&token)).send(&app).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    assert_eq!(v["error"]["code"], "not_logged_in");
}

#[tokio::test]
async fn guests_keep_playing_with_seat_tokens_beside_accounts() {
    let app = server().start().await;
    let session = sign_up(&app, "mallory", "mallory's password").await;
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
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"move": "11-15"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A session is not a seat token.
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&session),
        Some(json!({"move": "23-19"})),
    )
    .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn accounts_and_sessions_survive_a_restart_on_an_sqlite_file() {
    use crown_server::store::{Durability, SqliteStore};
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crown.db");
    let open = || Arc::new(SqliteStore::open(&path, Durability::Normal).unwrap());
    let app1 = server().store(open()).start().await;
    let session = sign_up(&app1, "Nadia", "nadia's password").await;
    app1.shutdown();
    drop(app1);
    let app2 = server().store(open()).start().await;
    let (s, _, v) = me(Some(&session)).send(&app2).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["user"]["name"], "Nadia");
    let (s, _, _) = post(
        "/api/signup",
        json!({"username": "nadia", "password": "12345678"}),
    )
    .send(&app2)
    .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(
        log_in(&app2, "NADIA", "nadia's password").await.0,
        StatusCode::OK
    );
}

/// A store that keeps games but no accounts (as an embedder's own store may).
struct NoAccounts(crown_server::store::SqliteStore);

impl crown_server::store::Store for NoAccounts {
    fn create(&self, rec: &crown_server::store::GameRecord) -> Result<(), StoreError> {
        self.0.create(rec)
    }
    fn save(
        &self,
        rec: &mut crown_server::store::GameRecord,
        keep: usize,
    ) -> Result<(), StoreError> {
        self.0.save(rec, keep)
    }
    fn load(&self, id: &str) -> Result<Option<crown_server::store::GameRecord>, StoreError> {
        self.0.load(id)
    }
    fn list(
        &self,
        s: Option<&str>,
        n: usize,
    ) -> Result<Vec<crown_server::store::GameSummary>, StoreError> {
        self.0.list(s, n)
    }
    fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.0.unfinished()
    }
    fn heartbeat(&self, now: u64) -> Result<(), StoreError> {
        self.0.heartbeat(now)
    }
    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        self.0.last_heartbeat()
    }
}

use crown_server::store::StoreError;

#[tokio::test]
async fn a_store_without_accounts_answers_503() {
    let store = NoAccounts(crown_server::store::SqliteStore::open_in_memory().unwrap());
    let app = server().store(std::sync::Arc::new(store)).start().await;
    for uri in ["/api/signup", "/api/login"] {
        let (s, h, v) = post(uri, json!({"username": "oscar", "password": "12345678"}))
            .send(&app)
            .await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{uri}: {v}");
        assert_eq!(v["error"]["code"], "accounts_unavailable");
        assert!(h.get(header::SET_COOKIE).is_none());
    }
    let (s, _, v) = me(Some("00")).send(&app).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    // Without a cookie there is nobody to look up.
    assert_eq!(me(None).send(&app).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_account_keeps_its_newest_sessions_and_drops_the_oldest() {
    let store: std::sync::Arc<dyn crown_server::store::Store> =
        std::sync::Arc::new(crown_server::store::SqliteStore::open_in_memory().unwrap());
    let app = server().store(store.clone()).start().await;
    common::accounts::check_session_cap(&app, store).await;
}

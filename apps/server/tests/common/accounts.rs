//! Helpers for the account tests: a request with a session cookie, a client address and extra
//! headers, answered with its status, headers and JSON.

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderMap, Method, Request, StatusCode};
use crown_server::App;
use serde_json::Value;
use std::net::SocketAddr;
use tower::ServiceExt;

/// One request to the account API.
pub struct Call<'a> {
    /// The method.
    pub method: Method,
    /// The path, e.g. `/api/login`.
    pub uri: &'a str,
    /// The session token to send as the `crown_session` cookie.
    pub session: Option<&'a str>,
    /// The JSON body (sent as `application/json`).
    pub body: Option<Value>,
    /// The client's address (`ConnectInfo`), if any.
    pub from: Option<std::net::IpAddr>,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
}

/// `POST uri` with the JSON `body`.
pub fn post(uri: &str, body: Value) -> Call<'_> {
    Call {
        method: Method::POST,
        uri,
        session: None,
        body: Some(body),
        from: None,
        headers: Vec::new(),
    }
}

/// `GET /api/me` with `session`.
pub fn me(session: Option<&str>) -> Call<'_> {
    Call {
        method: Method::GET,
        uri: "/api/me",
        session,
        body: None,
        from: None,
        headers: Vec::new(),
    }
}

impl Call<'_> {
    /// Send it to `app`'s router: the status, the headers and the JSON answer (`Null` if none).
    pub async fn send(self, app: &App) -> (StatusCode, HeaderMap, Value) {
        let mut req = Request::builder()
            .method(self.method)
            .uri(self.uri)
            .header(header::HOST, "crown.test");
        if let Some(s) = self.session {
            req = req.header(header::COOKIE, format!("theme=dark; crown_session={s}"));
        }
        for (k, v) in self.headers {
            req = req.header(k, v);
        }
        let mut req = match self.body {
            Some(b) => req
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(b.to_string()))
                .unwrap(),
            None => req.body(Body::empty()).unwrap(),
        };
        if let Some(ip) = self.from {
            req.extensions_mut()
                .insert(ConnectInfo(SocketAddr::from((ip, 40000))));
        }
        let resp = app.router().oneshot(req).await.unwrap();
        let (status, headers) = (resp.status(), resp.headers().clone());
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .unwrap();
        let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, headers, v)
    }
}

/// The `Set-Cookie` header of an answer.
pub fn set_cookie(h: &HeaderMap) -> String {
    h.get(header::SET_COOKIE)
        .unwrap_or_else(|| panic!("no Set-Cookie in {h:?}"))
        .to_str()
        .unwrap()
        .to_string()
}

/// The session token a `Set-Cookie: crown_session=...` carries.
pub fn token_of(h: &HeaderMap) -> String {
    let c = set_cookie(h);
    let v = c
        .strip_prefix("crown_session=")
        .unwrap_or_else(|| panic!("not the session cookie: {c}"));
    v.split(';').next().unwrap().to_string()
}

/// Sign up `name` with `password` and return the session token (asserting `201`).
pub async fn sign_up(app: &App, name: &str, password: &str) -> String {
    let (s, h, v) = post(
        "/api/signup",
        serde_json::json!({"username": name, "password": password}),
    )
    .send(app)
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    token_of(&h)
}

/// Log in as `name` and return the status, the session token (if one was set) and the answer.
pub async fn log_in(app: &App, name: &str, password: &str) -> (StatusCode, Option<String>, Value) {
    let (s, h, v) = post(
        "/api/login",
        serde_json::json!({"username": name, "password": password}),
    )
    .send(app)
    .await;
    let token = h.get(header::SET_COOKIE).map(|_| token_of(&h));
    (s, token, v)
}

/// The per-account cap on sessions (issue 41, m8) on `app`'s `store`: an account signed up
/// (its first session) then given [`MAX_SESSIONS_PER_ACCOUNT`] sessions more, each newer, keeps
/// the newest [`MAX_SESSIONS_PER_ACCOUNT`]: the sign-up's session ends, the others stay, and
/// another account's session is untouched.
///
/// [`MAX_SESSIONS_PER_ACCOUNT`]: crown_server::store::accounts::MAX_SESSIONS_PER_ACCOUNT
pub async fn check_session_cap(app: &App, store: std::sync::Arc<dyn crown_server::store::Store>) {
    use crown_server::store::accounts::MAX_SESSIONS_PER_ACCOUNT;
    use crown_server::store::SessionRecord;
    let first = sign_up(app, "many", "many's password").await;
    let other = sign_up(app, "other", "other's password").await;
    let (s, _, v) = me(Some(&first)).send(app).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let id = v["user"]["id"].as_str().unwrap().to_string();
    let far = u64::MAX / 2;
    let now = crown_server::games::live::now_ms();
    tokio::task::spawn_blocking(move || {
        let accounts = store.accounts().unwrap();
        for i in 0..MAX_SESSIONS_PER_ACCOUNT as u64 {
            let s = SessionRecord {
                token_hash: format!("h{i:02}"),
                user_id: id.clone(),
                created_ms: now + 1 + i,
                expires_ms: far,
            };
            accounts.create_session(&s).unwrap();
        }
        for i in 0..MAX_SESSIONS_PER_ACCOUNT {
            let h = format!("h{i:02}");
            assert!(accounts.session_user(&h, now).unwrap().is_some(), "{h}");
        }
    })
    .await
    .unwrap();
    assert_eq!(me(Some(&first)).send(app).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(me(Some(&other)).send(app).await.0, StatusCode::OK);
}

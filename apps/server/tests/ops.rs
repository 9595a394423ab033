//! Operating the server for real (issue 41): the client's address behind trusted reverse proxies,
//! `/metrics` (over the router and over a real socket with an engine game and a WebSocket), JSON
//! logs, and the online backup and restore of a SQLite store while games are
//! played. Every wait is for an event (an answer, a line, a process's exit), bounded.

mod common;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Method, Request, StatusCode};
use common::server;
use crown_server::App;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tower::ServiceExt;

/// A server on a real socket of 127.0.0.1 and the sender that stops it.
struct Running {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    async fn start(app: App) -> Running {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            crown_server::serve(app, listener, async move {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        Running {
            addr,
            stop: Some(tx),
            task: Some(task),
        }
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task.take().unwrap()).await;
    }
}

/// Connect to `to` from the loopback address `from` (any of 127.0.0.0/8 works on Linux).
async fn connect_from(from: [u8; 4], to: SocketAddr) -> TcpStream {
    let s = TcpSocket::new_v4().unwrap();
    s.bind(SocketAddr::from((from, 0))).unwrap();
    s.connect(to).await.unwrap()
}

/// One request on connection `s` (kept open): the status and the JSON body of the answer.
async fn request(s: &mut TcpStream, req: &str) -> (u16, Value) {
    s.write_all(req.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    let text = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let n = s.read(&mut buf).await.unwrap();
            assert!(
                n > 0,
                "closed before a whole answer: {:?}",
                String::from_utf8_lossy(&got)
            );
            got.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&got).into_owned();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let len: usize = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse().ok())?
                    })
                    .expect("a Content-Length");
                if body.len() >= len {
                    return text;
                }
            }
        }
    })
    .await
    .expect("an answer in time");
    let status = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = text.split_once("\r\n\r\n").unwrap().1;
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// `POST /api/games` (an American game) with the extra header lines `headers`.
fn create(headers: &str) -> String {
    let body = r#"{"variant":"american"}"#;
    format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_behind_a_trusted_proxy_are_limited_apart_and_spoofed_headers_are_ignored() {
    // 127.0.0.1 is the proxy; 127.0.0.2 a client connecting directly.
    let app = server()
        .with(|c| {
            c.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
            c.max_unjoined_per_ip = 1;
            c.max_conns_per_ip = 2;
            c.header_read_timeout_ms = 30_000;
        })
        .start()
        .await;
    let srv = Running::start(app).await;
    let mut proxy = connect_from([127, 0, 0, 1], srv.addr).await;
    let created = |(status, body): (u16, Value)| {
        assert_eq!(status, 201, "{body}");
    };
    let refused = |(status, body): (u16, Value)| {
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["error"]["code"], "too_many_unjoined", "{body}");
    };
    // One client behind the proxy reaches its own limit...
    created(request(&mut proxy, &create("X-Forwarded-For: 198.51.100.1\r\n")).await);
    refused(request(&mut proxy, &create("X-Forwarded-For: 198.51.100.1\r\n")).await);
    // ...and the other clients of the proxy are not locked out with it.
    created(request(&mut proxy, &create("X-Forwarded-For: 198.51.100.2\r\n")).await);
    created(
        request(
            &mut proxy,
            &create("Forwarded: for=\"198.51.100.3:4711\"\r\n"),
        )
        .await,
    );
    // A client that forges the first hop is still known by the hop the proxy appended.
    created(
        request(
            &mut proxy,
            &create("X-Forwarded-For: 198.51.100.2, 198.51.100.4\r\n"),
        )
        .await,
    );
    // A client that is not a trusted proxy cannot name another address: both are 127.0.0.2.
    let mut direct = connect_from([127, 0, 0, 2], srv.addr).await;
    created(request(&mut direct, &create("X-Forwarded-For: 198.51.100.5\r\n")).await);
    refused(request(&mut direct, &create("X-Forwarded-For: 198.51.100.6\r\n")).await);
    refused(request(&mut direct, &create("Forwarded: for=198.51.100.7\r\n")).await);
    // The proxy carries more connections than one address may hold (2): all are served.
    let mut more = Vec::new();
    for _ in 0..3 {
        more.push(connect_from([127, 0, 0, 1], srv.addr).await);
    }
    for s in &mut more {
        let (status, body) = request(s, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n").await;
        assert_eq!(status, 200, "{body}");
    }
    drop((proxy, direct, more));
    srv.stop().await;
}

/// One request to `app`'s router from `from` with `headers`: the status and the body as text.
async fn call(
    app: &App,
    method: Method,
    uri: &str,
    from: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (StatusCode, String) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "crown.test");
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let mut req = match body {
        Some(b) => req
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(b.to_string()))
            .unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    let ip: std::net::IpAddr = from.parse().unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::new(ip, 40000)));
    let resp = app.router().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 22)
        .await
        .unwrap();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// The value of the sample of `name` whose labels include every `labels` pair, if any.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
        let (series, value) = l.rsplit_once(' ')?;
        let (n, rest) = series.split_once('{').unwrap_or((series, ""));
        (n == name
            && labels
                .iter()
                .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\""))))
        .then(|| value.parse().ok())?
    })
}

#[tokio::test]
async fn ipv6_clients_of_one_slash_48_share_the_sign_up_limit_and_another_slash_48_has_its_own() {
    // A home line gets a /56 or a /48 and can pick any address in it: the sign-up limit (2 an
    // hour here) is counted per sign-up network (/48 by default), whether the client is the
    // peer or named by a trusted proxy.
    let app = server()
        .with(|c| {
            c.trusted_proxies = vec!["::1/128".parse().unwrap()];
            c.signup_per_hour_per_ip = 2;
        })
        .start()
        .await;
    let mut n = 0;
    let mut sign_up = |from: &'static str, xff: Option<&'static str>| {
        n += 1;
        let body = json!({"username": format!("user{n}"), "password": "12345678"});
        let app = app.clone();
        async move {
            let headers: Vec<(&str, &str)> =
                xff.map(|x| ("x-forwarded-for", x)).into_iter().collect();
            let (s, b) = call(
                &app,
                Method::POST,
                "/api/signup",
                from,
                &headers,
                Some(body),
            )
            .await;
            (s, b)
        }
    };
    let refused = |(s, b): (StatusCode, String)| {
        assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{b}");
        assert!(b.contains("signup_rate_limited"), "{b}");
    };
    // Behind the proxy: 2001:db8::1 and 2001:db8::2 use up the limit of 2001:db8::/48...
    for xff in ["2001:db8::1", "2001:db8::2"] {
        let (s, b) = sign_up("::1", Some(xff)).await;
        assert_eq!(s, StatusCode::CREATED, "{xff}: {b}");
    }
    // ...so a third address of that /48 is refused, in another of its /64s too, as is one
    // connecting directly...
    refused(sign_up("::1", Some("2001:db8::ffff:1")).await);
    refused(sign_up("::1", Some("2001:db8:0:1::1")).await);
    refused(sign_up("2001:db8:0:ff::3", None).await);
    // ...while another /48 has its own limit.
    for _ in 0..2 {
        let (s, b) = sign_up("::1", Some("2001:db8:1::1")).await;
        assert_eq!(s, StatusCode::CREATED, "{b}");
    }
    refused(sign_up("2001:db8:1:1::2", None).await);
    // An IPv4-mapped address is its IPv4 address: one limit for both spellings.
    for from in ["192.0.2.9", "::ffff:192.0.2.9"] {
        let (s, b) = sign_up(from, None).await;
        assert_eq!(s, StatusCode::CREATED, "{from}: {b}");
    }
    refused(sign_up("192.0.2.9", None).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_scraped_by_loopback_trusted_networks_and_the_token_holder() {
    let app = server()
        .with(|c| {
            c.trusted_proxies = vec!["10.0.0.0/8".parse().unwrap()];
            c.metrics_token = Some("s3cret-token".into());
            c.login_per_min_per_ip = 1;
        })
        .start()
        .await;
    // Some traffic: a game created, joined and a move made; a log-in throttled.
    let (s, created) = call(
        &app,
        Method::POST,
        "/api/games",
        "127.0.0.1",
        &[],
        Some(json!({"variant": "american"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let created: Value = serde_json::from_str(&created).unwrap();
    let id = created["id"].as_str().unwrap();
    let token = format!("Bearer {}", created["token"].as_str().unwrap());
    let (s, joined) = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        "127.0.0.1",
        &[],
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    let mv = created["game"]["legal_moves"][0]["text"].as_str().unwrap();
    let (s, moved) = call(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        "127.0.0.1",
        &[("authorization", token.as_str())],
        Some(json!({"move": mv, "ply": 0})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{moved}");
    for expect in [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS] {
        let (s, body) = call(
            &app,
            Method::POST,
            "/api/login",
            "192.0.2.1",
            &[],
            Some(json!({"username": "nobody", "password": "not-the-password"})),
        )
        .await;
        assert_eq!(s, expect, "{body}");
    }

    let (s, text) = call(&app, Method::GET, "/metrics", "127.0.0.1", &[], None).await;
    assert_eq!(s, StatusCode::OK, "{text}");
    let has = |name: &str, labels: &[(&str, &str)]| {
        sample(&text, name, labels).unwrap_or_else(|| panic!("no {name} {labels:?} in:\n{text}"))
    };
    assert!(
        has(
            "crown_http_requests_total",
            &[
                ("route", "/api/games"),
                ("method", "POST"),
                ("status", "201")
            ]
        ) >= 1.0
    );
    assert!(
        has(
            "crown_http_requests_total",
            &[
                ("route", "/api/games/{id}/moves"),
                ("method", "POST"),
                ("status", "200")
            ]
        ) >= 1.0
    );
    assert!(has("crown_move_duration_seconds_count", &[("status", "200")]) >= 1.0);
    assert!(has("crown_move_duration_seconds_bucket", &[("le", "+Inf")]) >= 1.0);
    assert!(
        has(
            "crown_store_commit_duration_seconds_count",
            &[("store", "sqlite")]
        ) >= 1.0
    );
    assert!(has("crown_login_throttled_total", &[]) >= 1.0);
    assert_eq!(has("crown_open_games", &[]), 1.0);
    assert_eq!(has("crown_websockets_open", &[]), 0.0);
    assert!(
        text.contains("# TYPE crown_http_requests_total counter"),
        "{text}"
    );

    let forbidden = |(s, body): (StatusCode, String)| {
        assert_eq!(s, StatusCode::FORBIDDEN, "{body}");
        assert!(body.contains("metrics_forbidden"), "{body}");
    };
    let ok = |(s, body): (StatusCode, String)| {
        assert_eq!(s, StatusCode::OK, "{body}");
        assert!(body.contains("crown_http_requests_total"), "{body}");
    };
    let get = |from: &'static str, headers: &'static [(&'static str, &'static str)]| {
        call(&app, Method::GET, "/metrics", from, headers, None)
    };
    // Loopback (v6 too) and the trusted network.
    ok(get("::1", &[]).await);
    ok(get("10.1.2.3", &[]).await);
    // Anyone else, unless it has the token.
    forbidden(get("203.0.113.5", &[]).await);
    forbidden(get("203.0.113.5", &[("authorization", "Bearer wrong")]).await);
    ok(get("203.0.113.5", &[("authorization", "Bearer s3cret-token")]).await);
    // Through the trusted proxy, the client's address decides, not the proxy's.
    forbidden(get("10.0.0.1", &[("x-forwarded-for", "203.0.113.9")]).await);
    // A forged header from outside does not make a loopback client.
    forbidden(get("203.0.113.5", &[("x-forwarded-for", "127.0.0.1")]).await);
}

/// Test engine: plays the first legal move (crown-core's order).
struct FirstMove;

impl crown_server::engine::MovePicker for FirstMove {
    fn pick(
        &self,
        game: &crown_core::Game,
        _: u8,
        _: Option<(u64, u64)>,
        _: &AtomicBool,
    ) -> Option<String> {
        let mv = *game.legal_moves().first()?;
        Some(game.position().move_text(&mv))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_engine_searches_and_open_websockets() {
    use futures_util::StreamExt;
    let app = server().engine(Arc::new(FirstMove)).start().await;
    let srv = Running::start(app).await;
    let base = format!("http://{}", srv.addr);
    let http = reqwest::Client::new();
    // The engine has Black and moves first.
    let created: Value = http
        .post(format!("{base}/api/games"))
        .json(&json!({"variant": "american", "opponent": "engine", "level": 1, "color": "white"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap();
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", srv.addr))
            .await
            .unwrap();
    // Wait for the engine's move (the snapshot may already hold it).
    tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(msg) = ws.next().await {
            if let Ok(tokio_tungstenite::tungstenite::Message::Text(t)) = msg {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["game"]["ply"].as_u64().unwrap_or(0) >= 1 {
                    return;
                }
            }
        }
        panic!("the socket closed before the engine moved");
    })
    .await
    .expect("the engine's move in time");
    let text = http
        .get(format!("{base}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let has =
        |name: &str| sample(&text, name, &[]).unwrap_or_else(|| panic!("no {name} in:\n{text}"));
    assert!(has("crown_engine_search_duration_seconds_count") >= 1.0);
    assert_eq!(has("crown_engine_queue"), 0.0);
    assert_eq!(has("crown_websockets_open"), 1.0);
    assert_eq!(has("crown_open_games"), 1.0);
    drop(ws);
    srv.stop().await;
}

#[test]
fn json_logs_are_one_json_object_a_line() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crown.db");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_crown-server"))
        .args(["--port", "0", "--no-egdb", "--log-format", "json", "--db"])
        .arg(&db)
        .env("CROWN_EGDB_BUILD", "0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start crown-server");
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let mut lines = Vec::new();
    for line in stderr.lines() {
        let line = line.unwrap();
        let done = line.contains("listening");
        lines.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        lines.last().is_some_and(|l| l.contains("listening")),
        "{lines:?}"
    );
    for line in &lines {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(v["level"].is_string(), "{v}");
        assert!(v["timestamp"].is_string(), "{v}");
        assert!(v["fields"]["message"].is_string(), "{v}");
    }
    let listening: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(listening["fields"]["message"], "listening");
    assert!(listening["fields"]["addr"]
        .as_str()
        .unwrap()
        .starts_with("127.0.0.1:"));
}

/// Run `crown-server` with `args` to its end: whether it succeeded, and its stdout and stderr.
fn run_cli(args: &[&std::ffi::OsStr]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crown-server"))
        .args(args)
        .output()
        .expect("run crown-server");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// A game between two people and both seat tokens (black's first).
async fn two_player_game(http: &reqwest::Client, base: &str) -> (String, [String; 2]) {
    let created: Value = http
        .post(format!("{base}/api/games"))
        .json(&json!({"variant": "american", "color": "black"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let joined: Value = http
        .post(format!("{base}/api/games/{id}/join"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let tokens = [
        created["token"].as_str().unwrap().to_string(),
        joined["token"].as_str().unwrap().to_string(),
    ];
    (id, tokens)
}

/// Play the game `id` until it ends or `stop` is set: each move's acknowledgement sends the plies
/// acknowledged on `acked`. Returns the moves acknowledged.
/// The view of game `id` (`GET {base}/api/games/{id}`) over real HTTP.
async fn game_view(http: &reqwest::Client, base: &str, id: &str) -> Value {
    http.get(format!("{base}/api/games/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn play(
    http: reqwest::Client,
    base: String,
    id: String,
    tokens: [String; 2],
    acked: tokio::sync::watch::Sender<usize>,
    stop: Arc<AtomicBool>,
) -> Vec<String> {
    let mut view: Value = game_view(&http, &base, &id).await;
    let mut moves = Vec::new();
    while !stop.load(Ordering::SeqCst) && view["status"] == "ongoing" {
        let ply = view["ply"].as_u64().unwrap();
        let mv = view["legal_moves"][0]["text"].as_str().unwrap().to_string();
        let token = &tokens[(ply % 2) as usize];
        let resp = http
            .post(format!("{base}/api/games/{id}/moves"))
            .bearer_auth(token)
            .json(&json!({"move": mv, "ply": ply}))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        view = resp.json().await.unwrap();
        moves.push(mv);
        acked.send_replace(moves.len());
    }
    moves
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_games_are_played_restores_every_move_acknowledged_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crown.db");
    let (mut live, base) = common::spawn_server(&[
        "--port".as_ref(),
        "0".as_ref(),
        "--no-egdb".as_ref(),
        "--rate-limit".as_ref(),
        "0".as_ref(),
        "--db".as_ref(),
        db.as_os_str(),
    ]);
    let http = reqwest::Client::new();
    let stop = Arc::new(AtomicBool::new(false));
    let mut games = Vec::new();
    for _ in 0..4 {
        let (id, tokens) = two_player_game(&http, &base).await;
        let (acked, watch) = tokio::sync::watch::channel(0);
        let task = tokio::spawn(play(
            http.clone(),
            base.clone(),
            id.clone(),
            tokens,
            acked,
            stop.clone(),
        ));
        games.push((id, watch, task));
    }
    // Wait until every game has moves acknowledged.
    for (id, watch, _) in &mut games {
        tokio::time::timeout(Duration::from_secs(60), watch.wait_for(|n| *n >= 4))
            .await
            .unwrap_or_else(|_| panic!("game {id}: no moves acknowledged"))
            .unwrap();
    }
    // The moves acknowledged before the backup begins; the players go on meanwhile.
    let before: Vec<usize> = games.iter().map(|(_, watch, _)| *watch.borrow()).collect();
    let out = dir.path().join("backup.db");
    let (db2, out2) = (db.clone(), out.clone());
    let (ok, text) = tokio::task::spawn_blocking(move || {
        run_cli(&[
            "backup".as_ref(),
            "--db".as_ref(),
            db2.as_os_str(),
            "--out".as_ref(),
            out2.as_os_str(),
        ])
    })
    .await
    .unwrap();
    assert!(ok, "{text}");
    let during: Vec<usize> = games.iter().map(|(_, watch, _)| *watch.borrow()).collect();
    eprintln!("plies acknowledged when the backup began: {before:?}; when it ended: {during:?}");
    stop.store(true, Ordering::SeqCst);
    let mut played = Vec::new();
    for (id, _, task) in games {
        played.push((id, task.await.unwrap()));
    }
    let _ = live.kill();
    let _ = live.wait();

    // A second backup to the same file is refused without --force; so is a restore over a store.
    let (ok, text) = run_cli(&[
        "backup".as_ref(),
        "--db".as_ref(),
        db.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(!ok && text.contains("--force"), "{text}");
    let (ok, text) = run_cli(&[
        "restore".as_ref(),
        "--from".as_ref(),
        out.as_os_str(),
        "--db".as_ref(),
        db.as_os_str(),
    ]);
    assert!(!ok && text.contains("--force"), "{text}");
    let restored = dir.path().join("restored.db");
    let (ok, text) = run_cli(&[
        "restore".as_ref(),
        "--from".as_ref(),
        out.as_os_str(),
        "--db".as_ref(),
        restored.as_os_str(),
    ]);
    assert!(ok, "{text}");

    // A server on the restored store has every move acknowledged before the backup began, and
    // no move that was not played (each game a prefix of what was played).
    let (mut back, base) = common::spawn_server(&[
        "--port".as_ref(),
        "0".as_ref(),
        "--no-egdb".as_ref(),
        "--db".as_ref(),
        restored.as_os_str(),
    ]);
    for (((id, moves), before), during) in played.iter().zip(&before).zip(&during) {
        let view: Value = game_view(&http, &base, id).await;
        let got: Vec<String> = view["moves"]
            .as_array()
            .unwrap_or_else(|| panic!("game {id} missing: {view}"))
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert!(
            got.len() >= *before,
            "game {id}: {} plies restored, {before} acknowledged before the backup",
            got.len()
        );
        // At most one move past what was acknowledged when the backup ended (committed, its
        // answer still on the way).
        assert!(
            got.len() <= during + 1,
            "game {id}: {} > {during} + 1",
            got.len()
        );
        assert_eq!(got[..], moves[..got.len()], "game {id}");
    }
    let _ = back.kill();
    let _ = back.wait();
}

/// A server process, killed when dropped (also when an assertion fails).
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restore_onto_a_store_a_running_server_uses_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crown.db");
    let (live, base) = common::spawn_server(&[
        "--port".as_ref(),
        "0".as_ref(),
        "--no-egdb".as_ref(),
        "--db".as_ref(),
        db.as_os_str(),
    ]);
    let live = Killed(live);
    let http = reqwest::Client::new();
    let (id, _) = two_player_game(&http, &base).await;
    let out = dir.path().join("backup.db");
    let backup: [&std::ffi::OsStr; 5] = [
        "backup".as_ref(),
        "--db".as_ref(),
        db.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ];
    let (ok, text) = tokio::task::block_in_place(|| run_cli(&backup));
    assert!(ok, "{text}");
    // With --force, onto the store the server is writing: refused, naming the store and why.
    let restore: [&std::ffi::OsStr; 6] = [
        "restore".as_ref(),
        "--from".as_ref(),
        out.as_os_str(),
        "--db".as_ref(),
        db.as_os_str(),
        "--force".as_ref(),
    ];
    let (ok, text) = tokio::task::block_in_place(|| run_cli(&restore));
    assert!(!ok, "{text}");
    assert!(
        text.contains("in use by a running crown-server") && text.contains("crown.db"),
        "{text}"
    );
    // The server goes on with its store.
    let view: Value = game_view(&http, &base, &id).await;
    assert_eq!(view["id"], id.as_str(), "{view}");
    // Stopped, the store is restored.
    drop(live);
    let (ok, text) = tokio::task::block_in_place(|| run_cli(&restore));
    assert!(ok, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_onto_a_running_servers_store_or_its_files_is_refused_and_the_store_survives() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crown.db");
    let serve = |db: &std::path::Path| {
        let (child, base) = common::spawn_server(&[
            "--port".as_ref(),
            "0".as_ref(),
            "--no-egdb".as_ref(),
            "--db".as_ref(),
            db.as_os_str(),
        ]);
        (Killed(child), base)
    };
    // Another store (the one an operator meant to back up).
    let other = dir.path().join("other.db");
    let (server, _) = serve(&other);
    drop(server);
    let (live, base) = serve(&db);
    let http = reqwest::Client::new();
    let (before, _) = two_player_game(&http, &base).await;
    let wal = dir.path().join("crown.db-wal");
    let link = dir.path().join("link.db");
    std::os::unix::fs::symlink(&db, &link).unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let dotdot = sub.join("../crown.db");
    let cases: [(&std::path::Path, &std::path::Path, &str); 5] = [
        (&other, &db, "in use by a running crown-server"),
        (&other, &link, "in use by a running crown-server"),
        (&other, &dotdot, "in use by a running crown-server"),
        (&other, &wal, "write-ahead log"),
        (&db, &link, "is the store being backed up"),
    ];
    for (from, out, why) in cases {
        let args: [&std::ffi::OsStr; 6] = [
            "backup".as_ref(),
            "--db".as_ref(),
            from.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--force".as_ref(),
        ];
        let (ok, text) = tokio::task::block_in_place(|| run_cli(&args));
        assert!(!ok, "backup to {out:?}: {text}");
        assert!(text.contains(why), "backup to {out:?}: {text}");
    }
    assert!(wal.exists(), "the live write-ahead log is left alone");
    // A game created after the refused backups survives a restart, with the one before.
    let (after, _) = two_player_game(&http, &base).await;
    drop(live);
    let (_live, base) = serve(&db);
    for id in [before, after] {
        let view = game_view(&http, &base, &id).await;
        assert_eq!(view["id"], id.as_str(), "{view}");
    }
}

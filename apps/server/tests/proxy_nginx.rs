//! nginx in front of two `crown-server` instances on one PostgreSQL (issue 41, "operating it"),
//! with the nginx configuration of docs/deploy.md.
//!
//! The configuration is read from the doc's ```` ```nginx ```` block and changed only where a test
//! must: the upstream lists the two instances instead of `127.0.0.1:8080`, the TLS server listens on
//! a free loopback port without TLS (no certificate here; `ssl_*`, `http2` and the `[::]` listen go),
//! and the port-80 redirect server goes. Everything else (the WebSocket upgrade, `X-Forwarded-For`,
//! `X-Forwarded-Proto`, keep-alive to the upstream) is the doc's text. nginx runs as the current user
//! with `-p <tmpdir>`, in the foreground and as one process (`daemon off; master_process off;`), its
//! pid, logs and temporary files in the temporary directory; it is killed when the test ends.
//!
//! Through nginx a game is created, joined and played over HTTP while both players and a spectator
//! follow it over WebSockets; the moves reach both instances. Then the per-address limits count the
//! real client: the clients connect from 127.0.0.2 and 127.0.0.3 (both loopback on Linux), one
//! exhausts `--max-unjoined-per-ip`, a forged `X-Forwarded-For` does not get it past the limit, and
//! the other client is not limited. Skipped, saying so, without nginx or PostgreSQL.

mod common;
use common::cluster::{Instance, Ws, LEASE_MS};
use common::pg::Pg;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// The bound on waiting for an event (nginx listening, a state message): generous for a starved
/// CI machine; a passing run never waits it out.
const WAIT_S: u64 = 60;

/// The two clients' addresses, and the spectator's.
const CLIENT_A: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
const CLIENT_B: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 3);
const SPECTATOR: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 4);

/// `--max-unjoined-per-ip` of each instance.
const MAX_UNJOINED: usize = 1;

/// Debian's nginx, if installed.
fn nginx_binary() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/sbin/nginx");
    if fixed.is_file() {
        return Some(fixed);
    }
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("nginx"))
            .find(|f| f.is_file())
    })
}

/// Replace `from` by `to` in `text`, asserting that `from` occurs exactly once (so that a change
/// of the doc fails here instead of testing another configuration).
fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "docs/deploy.md's nginx configuration should contain {from:?} once"
    );
    text.replacen(from, to, 1)
}

/// The nginx configuration of docs/deploy.md for this test: upstream `backends`, listening on
/// `127.0.0.1:port` without TLS, wrapped in a main context that keeps every file in `dir`.
fn nginx_conf(doc: &str, backends: &[String], port: u16, dir: &Path) -> String {
    let start = doc
        .find("```nginx\n")
        .expect("an nginx block in docs/deploy.md")
        + 9;
    let end = start + doc[start..].find("```").unwrap();
    let site = &doc[start..end];

    // The upstream: the two instances.
    let servers: String = backends
        .iter()
        .map(|b| format!("    server {b};\n"))
        .collect();
    let site = replace_once(site, "    server 127.0.0.1:8080;\n", &servers);
    // The port-80 redirect server goes.
    let redirect = site
        .find("server {\n    listen 80;")
        .expect("the port-80 server in docs/deploy.md");
    let redirect_end = redirect + site[redirect..].find("\n}\n").unwrap() + 3;
    let site = format!("{}{}", &site[..redirect], &site[redirect_end..]);
    // The TLS server listens on the test's port, in plain HTTP.
    let site = replace_once(
        &site,
        "    listen 443 ssl;\n",
        &format!("    listen 127.0.0.1:{port};\n"),
    );
    let site = replace_once(&site, "    listen [::]:443 ssl;\n", "");
    let site = replace_once(&site, "    http2 on;\n", "");
    let site: String = site
        .lines()
        .filter(|l| !l.trim_start().starts_with("ssl_"))
        .map(|l| format!("{l}\n"))
        .collect();

    let d = dir.display();
    let site = replace_once(
        &site,
        "/var/log/nginx/crown-access.log",
        &format!("{d}/crown-access.log"),
    );
    format!(
        "daemon off;\n\
         master_process off;\n\
         pid {d}/nginx.pid;\n\
         error_log {d}/error.log info;\n\
         events {{ worker_connections 512; }}\n\
         http {{\n\
         access_log {d}/access.log;\n\
         client_body_temp_path {d}/client_body;\n\
         proxy_temp_path {d}/proxy;\n\
         fastcgi_temp_path {d}/fastcgi;\n\
         uwsgi_temp_path {d}/uwsgi;\n\
         scgi_temp_path {d}/scgi;\n\
         {site}}}\n"
    )
}

/// A running nginx, killed when dropped.
struct Nginx {
    child: Child,
    dir: tempfile::TempDir,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Nginx {
    /// Start `binary` with `conf` (listening on `port`) and wait until it accepts connections.
    async fn start(binary: &Path, conf: String, dir: tempfile::TempDir, port: u16) -> Nginx {
        let conf_path = dir.path().join("nginx.conf");
        std::fs::write(&conf_path, conf).unwrap();
        let child = Command::new(binary)
            // -e: the log for errors before the configuration is read (not /var/log/nginx).
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .arg("-p")
            .arg(dir.path())
            .arg("-c")
            .arg(&conf_path)
            .spawn()
            .expect("start nginx");
        let mut nginx = Nginx { child, dir };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(WAIT_S);
        loop {
            if let Some(status) = nginx.child.try_wait().unwrap() {
                panic!("nginx exited ({status}):\n{}", nginx.error_log());
            }
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return nginx;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "nginx does not listen on {port} after {WAIT_S} s:\n{}",
                nginx.error_log()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn error_log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("error.log")).unwrap_or_default()
    }
}

/// A free loopback port (bound and released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A `crown-server` on the PostgreSQL at `url` that trusts nginx on 127.0.0.1.
fn start_instance(url: &str) -> Instance {
    let lease = LEASE_MS.to_string();
    let unjoined = MAX_UNJOINED.to_string();
    let args = [
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--rate-limit",
        "0",
        "--log",
        "warn",
        "--no-egdb",
        "--engine-workers",
        "1",
        "--lease-ms",
        &lease,
        "--database",
        url,
        "--trusted-proxy",
        "127.0.0.1/32",
        "--max-unjoined-per-ip",
        &unjoined,
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let (child, base) = common::spawn_server(&args);
    Instance { child, base }
}

/// An HTTP client whose connections come from `from`.
fn client(from: Ipv4Addr) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(IpAddr::V4(from))
        .build()
        .unwrap()
}

/// POST `body` to `url` as `client`, with `token` as Bearer and `headers`; status and JSON.
async fn post(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    let mut req = client.post(url);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// A WebSocket to game `id` through nginx on `port`, from `from`, with `token` if any.
async fn watch(port: u16, id: &str, from: Ipv4Addr, token: Option<&str>) -> Ws {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((from, 0))).unwrap();
    let stream = socket
        .connect(SocketAddr::from(([127, 0, 0, 1], port)))
        .await
        .unwrap();
    let mut url = format!("ws://127.0.0.1:{port}/api/games/{id}/ws");
    if let Some(t) = token {
        url = format!("{url}?token={t}");
    }
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    tokio_tungstenite::client_async(url, stream)
        .await
        .expect("WebSocket through nginx")
        .0
}

/// Read state messages until one has `ply` plies; returns that game view.
async fn wait_ply(ws: &mut Ws, ply: usize) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(WAIT_S);
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no state with ply {ply} within {WAIT_S} s"))
            .expect("socket closed")
            .expect("socket error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "state" && v["game"]["ply"] == ply {
                return v["game"].clone();
            }
        }
    }
}

/// The `POST /api/games/{id}/moves` requests an instance answered, from its `/metrics`
/// (asked directly, from loopback).
async fn moves_served(base: &str) -> f64 {
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .filter(|l| {
            l.starts_with("crown_http_requests_total{")
                && l.contains("route=\"/api/games/{id}/moves\"")
        })
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nginx_from_the_deploy_guide_serves_two_instances_and_limits_each_real_client() {
    let Some(nginx_bin) = nginx_binary() else {
        eprintln!("SKIPPED: nginx is not installed (apt-get install nginx)");
        return;
    };
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let one = start_instance(&url);
    let two = start_instance(&url);
    let backends: Vec<String> = [&one, &two]
        .iter()
        .map(|i| i.base.trim_start_matches("http://").to_string())
        .collect();

    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/deploy.md");
    let doc = std::fs::read_to_string(doc_path).unwrap();
    let port = free_port();
    let dir = tempfile::tempdir().unwrap();
    let conf = nginx_conf(&doc, &backends, port, dir.path());
    let _nginx = Nginx::start(&nginx_bin, conf, dir, port).await;
    let proxy = format!("http://127.0.0.1:{port}");
    let (a, b) = (client(CLIENT_A), client(CLIENT_B));

    // A creates a game, both players and a spectator watch it, B joins: all through nginx.
    let (s, created) = post(
        &a,
        &format!("{proxy}/api/games"),
        None,
        Some(json!({"variant": "american", "color": "black"})),
        &[],
    )
    .await;
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let mut spectator = watch(port, &id, SPECTATOR, None).await;
    let mut black_ws = watch(port, &id, CLIENT_A, Some(&black)).await;
    let (s, joined) = post(&b, &format!("{proxy}/api/games/{id}/join"), None, None, &[]).await;
    assert_eq!(s, 200, "{joined}");
    let white = joined["token"].as_str().unwrap().to_string();
    let mut white_ws = watch(port, &id, CLIENT_B, Some(&white)).await;

    // Eight plies over HTTP, each seen by all three sockets with the same move list.
    let mut view = joined["game"].clone();
    let mut played: Vec<String> = Vec::new();
    for ply in 0..8 {
        let (client, token) = if ply % 2 == 0 {
            (&a, &black)
        } else {
            (&b, &white)
        };
        let mv = view["legal_moves"][0]["text"].as_str().unwrap().to_string();
        let (s, v) = post(
            client,
            &format!("{proxy}/api/games/{id}/moves"),
            Some(token),
            Some(json!({"move": mv, "ply": ply})),
            &[],
        )
        .await;
        assert_eq!(s, 200, "move {mv} at ply {ply}: {v}");
        played.push(mv);
        for ws in [&mut spectator, &mut black_ws, &mut white_ws] {
            view = wait_ply(ws, ply + 1).await;
            assert_eq!(view["moves"], json!(played));
        }
    }
    assert_eq!(view["status"], "ongoing", "{view}");
    // nginx passed moves to both instances (round robin).
    for instance in [&one, &two] {
        let served = moves_served(&instance.base).await;
        assert!(served >= 1.0, "{} served {served} moves", instance.base);
    }

    // A exhausts --max-unjoined-per-ip. The counts are per instance, so A may have one unjoined
    // game on each; a dozen requests reach both instances several times.
    let create = json!({"variant": "american"});
    let games = format!("{proxy}/api/games");
    let mut created_by_a = 0;
    for _ in 0..12 {
        let (s, v) = post(&a, &games, None, Some(create.clone()), &[]).await;
        match s {
            201 => created_by_a += 1,
            429 => assert_eq!(v["error"]["code"], "too_many_unjoined", "{v}"),
            _ => panic!("{s} {v}"),
        }
    }
    assert!(
        (1..=2 * MAX_UNJOINED).contains(&created_by_a),
        "A created {created_by_a} unjoined games"
    );
    // A forged X-Forwarded-For does not make A someone else: nginx appends A's address, and the
    // server takes the rightmost untrusted hop.
    for forged in ["198.51.100.7", "127.0.0.3", "127.0.0.1"] {
        for _ in 0..3 {
            let (s, v) = post(
                &a,
                &games,
                None,
                Some(create.clone()),
                &[("x-forwarded-for", forged)],
            )
            .await;
            assert_eq!(s, 429, "forged X-Forwarded-For {forged}: {v}");
            assert_eq!(v["error"]["code"], "too_many_unjoined", "{v}");
        }
    }
    // B, another real client behind the same proxy, is not limited by A's games.
    let (s, v) = post(&b, &games, None, Some(create.clone()), &[]).await;
    assert_eq!(s, 201, "B is limited by A's games: {v}");

    // The access log names the WebSocket requests without their query: no seat token on disk.
    drop((spectator, black_ws, white_ws));
    let log = _nginx.dir.path().join("crown-access.log");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let text = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        // The three sockets' lines (written as each closes).
        let ws_lines = text.lines().filter(|l| l.contains("/ws")).count();
        if ws_lines >= 3 || std::time::Instant::now() > deadline {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(
        text.lines().filter(|l| l.contains("/ws HTTP/1.1")).count(),
        3,
        "the three WebSockets, each without its query: {text}"
    );
    assert!(
        !text.contains("token="),
        "a seat token in the access log: {text}"
    );
}

//! `crown bot` against a real `crown-server` on loopback (docs/api.md, "API tokens and bot
//! accounts"): a person challenges the bot through the API, `crown bot` accepts with `crown
//! engine` and plays the game to its end; a bot process killed in the middle of a game is
//! started again and finishes it. Needs the `crown-server` binary of this build beside `crown`
//! (built by a workspace build or test run); skipped, saying so, when it is missing.

mod common;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `crown-server` binary of this build, if built.
fn server_bin() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_BIN_EXE_crown")).with_file_name("crown-server");
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "skipped: {} is not built (cargo build -p crown-server)",
            p.display()
        );
        None
    }
}

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A `crown-server` on a free loopback port with a fresh database; its URL.
fn start_server(bin: &Path, dir: &Path) -> (Killed, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(bin)
        .args(["--port", "0", "--no-egdb", "--rate-limit", "0", "--db"])
        .arg(dir.join("crown.db"))
        .env("CROWN_EGDB_BUILD", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start crown-server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (Killed(child), url)
}

/// A plain HTTP client for the person's side.
struct Http {
    agent: ureq::Agent,
    base: String,
}

impl Http {
    fn new(base: &str) -> Http {
        Http {
            agent: ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .into(),
            base: base.to_string(),
        }
    }

    /// `method path` with a header and a JSON body; the status, the `Set-Cookie` and the JSON.
    fn call(
        &self,
        method: &str,
        path: &str,
        header: Option<(&str, String)>,
        body: Option<Value>,
    ) -> (u16, String, Value) {
        let url = format!("{}{path}", self.base);
        let (k, v) = header.unwrap_or(("X-None", String::new()));
        let resp = match (method, body) {
            ("GET", _) => self.agent.get(url).header(k, &v).call(),
            (_, Some(b)) => self
                .agent
                .post(url)
                .header(k, &v)
                .header("Content-Type", "application/json")
                .send(b.to_string()),
            (_, None) => self.agent.post(url).header(k, &v).send_empty(),
        }
        .unwrap();
        let status = resp.status().as_u16();
        let cookie = resp
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("")
            .to_string();
        let text = resp.into_body().read_to_string().unwrap_or_default();
        (
            status,
            cookie,
            serde_json::from_str(&text).unwrap_or(Value::Null),
        )
    }

    /// Sign up `name`: the session cookie (`crown_session=…`).
    fn sign_up(&self, name: &str) -> String {
        let body = json!({"username": name, "password": "long enough"});
        let (s, cookie, v) = self.call("POST", "/api/signup", None, Some(body));
        assert_eq!(s, 201, "{v}");
        cookie
    }

    /// `method path` with the session cookie `cookie`.
    fn with_cookie(&self, method: &str, path: &str, cookie: &str, body: Option<Value>) -> Value {
        let (s, _, v) = self.call(method, path, Some(("Cookie", cookie.to_string())), body);
        assert!(s < 300, "{method} {path}: {s} {v}");
        v
    }

    /// The game view of `id`.
    fn game(&self, id: &str) -> Value {
        self.call("GET", &format!("/api/games/{id}"), None, None).2
    }
}

/// A bot account `robot` with a `bot:play` token in `dir/token`; the token file.
fn bot_account(http: &Http, dir: &Path) -> PathBuf {
    let cookie = http.sign_up("robot");
    let body = json!({"description": "crown bot test", "scopes": ["bot:play"]});
    let t = http.with_cookie("POST", "/api/account/tokens", &cookie, Some(body));
    http.with_cookie("POST", "/api/bot/account/upgrade", &cookie, None);
    let file = dir.join("token");
    std::fs::write(&file, format!("{}\n", t["token"].as_str().unwrap())).unwrap();
    file
}

/// `crown bot` for the server at `url` with the token in `token_file` and `crown engine`.
fn start_bot(url: &str, token_file: &Path) -> Killed {
    start_bot_with(url, token_file, &[])
}

/// [`start_bot`] with more arguments.
fn start_bot_with(url: &str, token_file: &Path, more: &[&str]) -> Killed {
    let mut cmd = common::crown_command();
    cmd.args(["bot", "--server", url, "--token-file"])
        .arg(token_file)
        .args(["--hash", "8"])
        .args(more)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    Killed(cmd.spawn().expect("start crown bot"))
}

/// Alice challenges robot (she plays Black, a fast rated clock); the game id once the bot
/// accepted it (within 60 s), and her seat token.
fn challenge_accepted(http: &Http, alice: &str) -> (String, String) {
    let body = json!({"color": "black", "rated": true,
                      "time_control": {"initial_ms": 20_000, "increment_ms": 200}});
    let c = http.with_cookie("POST", "/api/challenge/robot", alice, Some(body));
    let id = c["id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let c = http.with_cookie("GET", &format!("/api/challenge/{id}"), alice, None);
        if c["status"] == "accepted" {
            break;
        }
        assert_eq!(c["status"], "pending", "{c}");
        assert!(
            Instant::now() < deadline,
            "the bot did not accept within 60 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let seat = http.with_cookie("POST", &format!("/api/challenge/{id}/seat"), alice, None);
    (id, seat["token"].as_str().unwrap().to_string())
}

/// Alice challenges robot to a game of `variant` (she plays Black, a fast rated clock); the
/// challenge's id and the challenge once answered (within 60 s).
fn answered(http: &Http, alice: &str, variant: &str) -> (String, Value) {
    let body = json!({"variant": variant, "color": "black", "rated": true,
                      "time_control": {"initial_ms": 20_000, "increment_ms": 200}});
    answered_to(http, alice, body)
}

/// Alice's challenge `body` to robot: its id and the challenge once answered (within 60 s).
fn answered_to(http: &Http, alice: &str, body: Value) -> (String, Value) {
    let c = http.with_cookie("POST", "/api/challenge/robot", alice, Some(body));
    let id = c["id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let c = http.with_cookie("GET", &format!("/api/challenge/{id}"), alice, None);
        if c["status"] != "pending" {
            return (id, c);
        }
        assert!(
            Instant::now() < deadline,
            "the bot did not answer within 60 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Alice plays her first legal move on each of her turns, waiting for the bot's answer, until
/// the game ends or `stop_at` plies were played; the last view.
fn play(http: &Http, id: &str, seat: &str, stop_at: u64) -> Value {
    let mut waited = Instant::now();
    let mut last_ply = u64::MAX;
    loop {
        let g = http.game(id);
        let ply = g["ply"].as_u64().unwrap();
        if g["status"] != "ongoing" || ply >= stop_at {
            return g;
        }
        if ply != last_ply {
            last_ply = ply;
            waited = Instant::now();
        }
        if g["side_to_move"] == "black" {
            let mv = g["legal_moves"][0]["text"].as_str().unwrap().to_string();
            let (s, _, v) = http.call(
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(("Authorization", format!("Bearer {seat}"))),
                Some(json!({"move": mv, "ply": ply})),
            );
            assert_eq!(s, 200, "{v}");
        } else {
            assert!(
                waited.elapsed() < Duration::from_secs(60),
                "the bot did not move within 60 s at ply {ply}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Alice resigns a game still going on after the plies played.
fn finish(http: &Http, id: &str, seat: &str, g: Value) -> Value {
    if g["status"] != "ongoing" {
        return g;
    }
    let (s, _, v) = http.call(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(("Authorization", format!("Bearer {seat}"))),
        None,
    );
    assert_eq!(s, 200, "{v}");
    http.game(id)
}

/// A server with the bot account `robot` and the person `alice`.
struct Test {
    dir: tempfile::TempDir,
    _server: Killed,
    url: String,
    http: Http,
    token_file: PathBuf,
    alice: String,
}

impl Test {
    /// Start it; `None` (skipped, saying so) without the `crown-server` binary.
    fn start() -> Option<Test> {
        let bin = server_bin()?;
        let dir = tempfile::tempdir().unwrap();
        let (server, url) = start_server(&bin, dir.path());
        let http = Http::new(&url);
        let token_file = bot_account(&http, dir.path());
        let alice = http.sign_up("alice");
        Some(Test {
            dir,
            _server: server,
            url,
            http,
            token_file,
            alice,
        })
    }
}

#[test]
fn crown_bot_accepts_a_challenge_and_plays_it_to_the_end_with_crown_engine() {
    let Some(t) = Test::start() else { return };
    let (url, http, token_file, alice) = (&t.url, &t.http, &t.token_file, &t.alice);
    let _bot = start_bot(url, token_file);

    let (id, seat) = challenge_accepted(http, alice);
    let g = play(http, &id, &seat, 60);
    let end = finish(http, &id, &seat, g);
    assert_eq!(end["status"], "finished", "{end}");
    assert!(end["ply"].as_u64().unwrap() >= 10, "{end}");
    assert_eq!(end["accounts"]["white"]["title"], "BOT");
    assert_eq!(end["rated"], true);
}

#[test]
fn a_killed_crown_bot_started_again_finishes_its_game() {
    let Some(t) = Test::start() else { return };
    let (url, http, token_file, alice) = (&t.url, &t.http, &t.token_file, &t.alice);
    let bot = start_bot(url, token_file);
    let (id, seat) = challenge_accepted(http, alice);
    let g = play(http, &id, &seat, 6);
    assert_eq!((&g["status"], &g["ply"]), (&json!("ongoing"), &json!(6)));
    drop(bot); // killed
               // Alice moves while no bot runs; the bot's turn waits for the new process.
    let g = play(http, &id, &seat, 7);
    assert_eq!(g["side_to_move"], "white");
    let _bot = start_bot(url, token_file);
    let g = play(http, &id, &seat, 40);
    assert!(g["ply"].as_u64().unwrap() > 7, "the new bot moved: {g}");
    let end = finish(http, &id, &seat, g);
    assert_eq!(end["status"], "finished", "{end}");
}

#[test]
fn crown_bot_runs_any_hub_engine_command_and_declines_the_variants_it_does_not_offer() {
    let Some(t) = Test::start() else { return };
    let (url, http, token_file, alice) = (&t.url, &t.http, &t.token_file, &t.alice);
    // Another Hub engine: `crown engine` behind a shell pipe that offers American checkers only.
    let script = t.dir.path().join("american-only.sh");
    std::fs::write(
        &script,
        format!(
            "exec '{}' engine | sed -u 's/values=\"american english pool impasse\"/values=\"american english\"/'\n",
            env!("CARGO_BIN_EXE_crown")
        ),
    )
    .unwrap();
    let engine = format!("sh {}", script.display());
    let _bot = start_bot_with(url, token_file, &["--engine", &engine]);

    let (_, c) = answered(http, alice, "pool");
    assert_eq!(
        (&c["status"], &c["decline_reason_key"]),
        (&json!("declined"), &json!("generic")),
        "{c}"
    );
    // Alice may not challenge robot again for a minute after its decline: Bob does.
    let bob = http.sign_up("bob");
    let (id, seat) = challenge_accepted(http, &bob);
    let g = play(http, &id, &seat, 10);
    assert!(
        g["ply"].as_u64().unwrap() >= 10 || g["status"] == "finished",
        "{g}"
    );
    let end = finish(http, &id, &seat, g);
    assert_eq!(end["status"], "finished", "{end}");
}

/// A correspondence challenge is declined (`too_slow`) unless the bot runs with
/// `--correspondence`: a challenger who never moves would hold one of its `--max-games` places
/// for all the game's days (issue 41, the fifth attack review).
#[test]
fn crown_bot_declines_correspondence_unless_told_to_play_it() {
    let Some(t) = Test::start() else { return };
    let (url, http, token_file, alice) = (&t.url, &t.http, &t.token_file, &t.alice);
    let correspondence = json!({"variant": "american", "color": "black", "days": 14});
    let bot = start_bot(url, token_file);
    let (_, c) = answered_to(http, alice, correspondence.clone());
    assert_eq!(
        (&c["status"], &c["decline_reason_key"]),
        (&json!("declined"), &json!("too_slow")),
        "{c}"
    );
    drop(bot); // killed
    let _bot = start_bot_with(url, token_file, &["--correspondence"]);
    let bob = http.sign_up("bob");
    let (_, c) = answered_to(http, &bob, correspondence);
    assert_eq!(c["status"], "accepted", "{c}");
}

#[test]
fn crown_bot_opens_its_event_stream_again_when_no_keep_alive_comes() {
    // A server that answers the event stream's request with its head and then stays silent,
    // the connection open (a proxy or a peer that went away without closing it).
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut open = Vec::new();
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { return };
            let mut reader = BufReader::new(conn.try_clone().unwrap());
            let mut first = String::new();
            let _ = reader.read_line(&mut first);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let _ = conn.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n",
            );
            let _ = conn.flush();
            open.push(conn); // never closed, never written to again
            if tx.send(first.trim().to_string()).is_err() {
                return;
            }
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(
        &token_file,
        "crown_0123456789abcdef0123456789abcdef01234567",
    )
    .unwrap();
    let _bot = start_bot_with(&url, &token_file, &["--idle-timeout", "1"]);
    // The first request, then, after a second of silence and the 1 s back-off, a second one
    // while the first connection is still open.
    for n in 1..=2 {
        let request = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("request {n} of the event stream never came"));
        assert_eq!(request, "GET /api/stream/event HTTP/1.1");
    }
}

//! Helpers shared by the server's test files (each file uses some of them).
#![allow(dead_code)]

pub mod accounts;
pub mod bots;
pub mod challenges;
pub mod cluster;
pub mod imports;
pub mod pg;
pub mod puzzles;
pub mod ratings;
pub mod tournaments;
pub mod watch;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use crown_server::engine::MovePicker;
use crown_server::store::{SqliteStore, Store};
use crown_server::{App, Config};
use serde_json::Value;
use std::sync::Arc;
use tower::ServiceExt;

/// A test server being set up: its [`Config`] (from [`Config::default`], with no per-client
/// rate limit unless [`Server::with`] sets one), its store (a private in-memory SQLite unless
/// [`Server::store`] gives one) and its engine (none unless [`Server::engine`] gives one).
pub struct Server {
    config: Config,
    store: Option<Arc<dyn Store>>,
    engine: Option<Arc<dyn MovePicker>>,
}

/// A test server with the defaults of [`Server`].
pub fn server() -> Server {
    Server {
        config: Config {
            rate_per_sec: 0,
            ..Config::default()
        },
        store: None,
        engine: None,
    }
}

impl Server {
    /// Change settings of the config, e.g. `.with(|c| c.max_open_games = 1)`.
    pub fn with(mut self, change: impl FnOnce(&mut Config)) -> Server {
        change(&mut self.config);
        self
    }

    /// Store games in `store`.
    pub fn store(mut self, store: Arc<dyn Store>) -> Server {
        self.store = Some(store);
        self
    }

    /// Let `engine` play the engine seats.
    pub fn engine(mut self, engine: Arc<dyn MovePicker>) -> Server {
        self.engine = Some(engine);
        self
    }

    /// The config as set up so far.
    pub fn config(&self) -> Config {
        self.config.clone()
    }

    /// Start the app ([`App::start`]).
    ///
    /// # Panics
    /// If the store cannot be opened or read (a test failure).
    pub async fn start(self) -> App {
        let store = match self.store {
            Some(s) => s,
            None => Arc::new(SqliteStore::open_in_memory().unwrap()),
        };
        App::start(store, self.config, self.engine).await.unwrap()
    }
}

/// Send one request to `app`'s router: `token` as a Bearer header, `body` as JSON (`None`: no
/// body); returns the status and the JSON answer (`Null` when the answer is not JSON).
pub async fn send(
    app: &App,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(b.to_string()))
            .unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    raw(app, req).await
}

/// Send one built request to `app`'s router; returns the status and the answer as JSON, or as a JSON
/// string holding the text when it is not JSON.
pub async fn raw(app: &App, req: Request<Body>) -> (StatusCode, Value) {
    let resp = app.router().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, v)
}

/// `GET /api/games/{id}/pdn` of `app`: the PDN text.
///
/// # Panics
/// If the answer is not `200` with text (a test failure).
pub async fn pdn(app: &App, id: &str) -> String {
    let (s, v) = send(
        app,
        Method::GET,
        &format!("/api/games/{id}/pdn"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v.as_str().expect("PDN text").to_string()
}

/// Start the built `crown-server` binary with `args` (on port 0, stdout piped) and read its URL
/// (`http://127.0.0.1:PORT`, without a trailing slash) from the first line it prints.
///
/// # Panics
/// If the server cannot start or prints no URL (a test failure).
pub fn spawn_server(args: &[&std::ffi::OsStr]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_crown-server"))
        .args(args)
        // Never a background database build into the per-user directory from a test.
        .env("CROWN_EGDB_BUILD", "0")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
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
    (child, url)
}

/// Check [`Store::purge_unstarted`] on `store` (empty): of the games over before the cut-off or
/// not, only those that ended before both sides moved (no ply or one) with no result, and the
/// unlisted games (not public, not rated) shorter than the minimum whatever their result and
/// seats, before the cut-off and outside any tournament, are deleted, with their chat and their
/// rows in the accounts' archives, whose counts go down by as many.
pub fn check_purge_unstarted(store: &dyn Store) {
    use crown_server::store::fixture::GameRecordBuilder;
    use crown_server::store::{ChatRecord, GameRecord, SeatAccount, Side};
    let game = |id: &str, status: &str, result: Option<&str>, moves: &[&str], updated_ms: u64| {
        let mut rec = GameRecordBuilder::new(id).moves(moves, 500).build();
        rec.status = status.into();
        rec.result = result.map(str::to_string);
        rec.updated_ms = updated_ms;
        rec
    };
    let create = |rec: GameRecord| store.create(&rec).unwrap();
    create(game("00000000000000a1", "finished", None, &[], 1_000)); // cancelled: purged
    create(game("00000000000000a2", "aborted", None, &[], 1_500)); // aborted at ply 0: purged
    create(game("00000000000000a3", "aborted", None, &["11-15"], 1_500)); // aborted at ply 1
                                                                          // Guest games shorter than the minimum (10 plies here), whatever their result: purged.
    let one_move = &["11-15"];
    create(game(
        "00000000000000a5",
        "finished",
        Some("1-0"),
        one_move,
        1_000,
    )); // resigned
    create(game(
        "00000000000000a6",
        "finished",
        Some("0-1"),
        &[],
        1_000,
    )); // resigned at once
    let nine: Vec<&str> = [
        "11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14", "15x24",
    ]
    .to_vec();
    create(game(
        "00000000000000a7",
        "finished",
        None,
        &nine[..2],
        1_000,
    )); // abandoned
    create(game(
        "00000000000000a8",
        "finished",
        Some("1/2-1/2"),
        &nine,
        1_000,
    )); // 9 plies
        // Kept:
    create(game("00000000000000b1", "finished", None, &[], 3_000)); // ended after the cut-off
    let mut ten = nine.clone();
    ten.push("27-20");
    create(game(
        "00000000000000b2",
        "finished",
        Some("0-1"),
        &ten,
        1_000,
    )); // long enough
    let mut public = game("00000000000000b3", "finished", Some("1-0"), one_move, 1_000);
    public.meta.public = true;
    create(public); // public, one ply: purged all the same (a public game is no archive of value)
    let mut with_account = game("00000000000000a9", "finished", Some("1-0"), one_move, 1_000);
    with_account.meta.accounts.white = Some(SeatAccount {
        user_id: "u1".into(),
        name: "Una".into(),
        bot: false,
    });
    create(with_account); // a seat is an account's: purged all the same
                          // Two accounts' casual games recorded in their archives (finishing saves): the one resigned
                          // after one move is purged with its archive rows (issue 41, fourth review, 3), the one of
                          // ten plies kept. u1 (black) wins the short one, loses the long one.
    let account = |u: &str| {
        Some(SeatAccount {
            user_id: u.into(),
            name: u.into(),
            bot: false,
        })
    };
    for (id, moves, result) in [
        ("00000000000000aa", &one_move[..], "1-0"),
        ("00000000000000b5", &ten[..], "0-1"),
    ] {
        let mut rec = game(id, "ongoing", None, moves, 1_000);
        rec.meta.accounts.black = account("u1");
        rec.meta.accounts.white = account("u2");
        store.create(&rec).unwrap();
        rec.status = "finished".into();
        rec.result = Some(result.into());
        store.save(&mut rec, moves.len()).unwrap();
    }
    let ratings = store.ratings().unwrap();
    let counts = |user: &str| {
        let mut c = ratings.outcome_counts(user).unwrap();
        c.sort();
        c
    };
    let archive = |user: &str| -> Vec<String> {
        let filter = crown_server::store::GameFilter {
            include_private: true,
            limit: 10,
            ..Default::default()
        };
        let mut ids: Vec<String> = ratings
            .player_games(user, &filter)
            .unwrap()
            .into_iter()
            .map(|g| g.game_id)
            .collect();
        ids.sort();
        ids
    };
    let casual = |outcome: &str, n: u64| (false, outcome.to_string(), n);
    assert_eq!(counts("u1"), [casual("loss", 1), casual("win", 1)]);
    assert_eq!(archive("u2"), ["00000000000000aa", "00000000000000b5"]);
    create(game("abcdef01r1b1g1", "aborted", None, &[], 1_000)); // a tournament game
    create(game("00000000000000b4", "open", None, &[], 1_000)); // still open
    let msg = ChatRecord {
        n: 0,
        color: Side::Black,
        name: None,
        text: "anyone?".into(),
        at_ms: 900,
    };
    let purged = [
        "00000000000000a1",
        "00000000000000a2",
        "00000000000000a3",
        "00000000000000a5",
        "00000000000000a6",
        "00000000000000a7",
        "00000000000000a8",
        "00000000000000a9",
        "00000000000000aa",
        "00000000000000b3",
    ];
    for id in ["00000000000000a1", "00000000000000a3", "00000000000000a5"] {
        store.chat().unwrap().add_chat(id, &msg).unwrap();
    }
    assert_eq!(
        store.purge_unstarted(2_000, 10, 1).unwrap(),
        1,
        "one a batch"
    );
    assert_eq!(
        store.purge_unstarted(2_000, 10, 10).unwrap(),
        purged.len() - 1
    );
    assert_eq!(store.purge_unstarted(2_000, 10, 10).unwrap(), 0);
    for id in purged {
        assert!(store.load(id).unwrap().is_none(), "{id} kept");
        let chat = store.chat().unwrap().load_chat(id, 0, 10).unwrap();
        assert!(chat.is_empty(), "{id}: {chat:?}");
    }
    for id in [
        "00000000000000b1",
        "00000000000000b2",
        "00000000000000b5",
        "abcdef01r1b1g1",
        "00000000000000b4",
    ] {
        assert!(store.load(id).unwrap().is_some(), "{id} deleted");
    }
    assert_eq!(counts("u1"), [casual("loss", 1)]);
    assert_eq!(counts("u2"), [casual("win", 1)]);
    for user in ["u1", "u2"] {
        assert_eq!(archive(user), ["00000000000000b5"], "{user}");
    }
}

/// A `tracing` writer into a shared buffer (the log tests read what was logged).
#[derive(Clone, Default)]
pub struct Captured(pub Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

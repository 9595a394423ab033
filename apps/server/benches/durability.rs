//! Durability under `kill -9` (issue 23; not a timed test): the real `crown-server` binary (release,
//! as `cargo bench` builds it) on a SQLite file in a temporary directory (`synchronous=FULL`, the
//! default) or, with `--temp-pg`, on a throw-away PostgreSQL (`fsync=on`, as `load --temp-pg`),
//! killed with SIGKILL at a random moment every 1–3 s (`--kill-every`) and restarted on the same
//! database, `--restarts` times, while `--games` clients play.
//!
//! ```text
//! cargo bench -p crown-server --bench durability -- --restarts 60
//! cargo bench -p crown-server --bench durability -- --restarts 100 --temp-pg
//! ```
//!
//! Each client plays human-vs-human American checkers games (both seat tokens), each move picked
//! at random from the view's `legal_moves` and sent with `ply`; a new game replaces a finished
//! one. Every move answered `200` is recorded as acknowledged, with the text sent and the reply's
//! `moves[ply]`. A move whose reply was lost (connection refused or reset, `408`, `5xx`) is sent
//! again with the same text and `ply` until the server answers: `200` (first try or the retry
//! committed it; the server answers a retry of a committed move like the first time) counts as
//! acknowledged, anything else is an unexpected refusal. Every unexpected refusal is printed with
//! its status, code, game id, ply and move text (and the client then reads the game again and goes
//! on).
//!
//! At the end the server is killed once more and restarted, and every game is read from it
//! (`GET /api/games/{id}`, loaded from the database) and checked by [`verify::verify`]: each
//! acknowledged move's sent text must be the stored game's move at its ply (else it is lost; a
//! game not read back loses all its moves) and the reply's echoed `moves[ply]` (else it is
//! mismatched: the bench sends `legal_moves` texts, which are canonical). Prints restarts,
//! acknowledged, lost and mismatched moves and the refusals; exits 1 if any acknowledged move was
//! lost or mismatched. `tests/durability_verify.rs` shows that check reporting each kind of loss.

#[allow(dead_code)]
#[path = "../tests/common/pg.rs"]
mod pg;

#[path = "durability/verify.rs"]
mod verify;

use crown_core::rng::Rng;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use verify::{Ack, Acked, Finding};

struct Opts {
    restarts: usize,
    games: usize,
    kill_every: (u64, u64),
    temp_pg: bool,
    seed: u64,
}

fn parse_args() -> Result<Opts, String> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    let mut o = Opts {
        restarts: 60,
        games: 16,
        kill_every: (1000, 3000),
        temp_pg: false,
        seed,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--restarts" => {
                o.restarts = value()?.parse().map_err(|e| format!("--restarts: {e}"))?
            }
            "--games" => {
                o.games = value()?.parse().map_err(|e| format!("--games: {e}"))?;
                if o.games == 0 {
                    return Err("--games must be at least 1".into());
                }
            }
            "--kill-every" => {
                let v = value()?;
                let (a, b) = v
                    .split_once('-')
                    .ok_or(format!("--kill-every MIN-MAX in ms, not {v}"))?;
                o.kill_every = (
                    a.parse().map_err(|e| format!("--kill-every {a}: {e}"))?,
                    b.parse().map_err(|e| format!("--kill-every {b}: {e}"))?,
                );
                if o.kill_every.1 < o.kill_every.0 {
                    return Err(format!("--kill-every {v}: need MIN <= MAX"));
                }
            }
            "--seed" => o.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--temp-pg" => o.temp_pg = true,
            "--bench" => {}
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(o)
}

/// How to start the server on the database; the same port every time.
struct Server {
    args: Vec<String>,
    base: String,
    log: std::path::PathBuf,
}

impl Server {
    fn spawn(&self) -> Child {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("server log file");
        Command::new(env!("CARGO_BIN_EXE_crown-server"))
            .args(&self.args)
            .env("CROWN_EGDB_BUILD", "0")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start crown-server")
    }
}

/// Wait until the server answers `/health` (at most 120 s).
async fn wait_up(http: &reqwest::Client, base: &str) -> Result<(), String> {
    let end = Instant::now() + Duration::from_secs(120);
    while Instant::now() < end {
        if http
            .get(format!("{base}/health"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Err("the server did not answer /health within 120 s".into())
}

/// The reply to a request: a status and its JSON body, or `None` if no reply came.
async fn send(req: reqwest::RequestBuilder) -> Option<(u16, Value)> {
    let resp = req.send().await.ok()?;
    let status = resp.status().as_u16();
    let v = resp.json::<Value>().await.ok()?;
    Some((status, v))
}

/// Whether a status means the reply was lost or the server is starting or stopping: retry.
fn retryable(status: u16) -> bool {
    status == 408 || status >= 500
}

/// Send a request until a reply comes that is not [`retryable`] (or `stop` and no reply).
async fn until_answered(
    stop: &AtomicBool,
    make: impl Fn() -> reqwest::RequestBuilder,
) -> Option<(u16, Value)> {
    loop {
        match send(make()).await {
            Some((s, v)) if !retryable(s) => return Some((s, v)),
            _ if stop.load(Ordering::Relaxed) => return None,
            _ => tokio::time::sleep(Duration::from_millis(30)).await,
        }
    }
}

#[derive(Default)]
struct Tally {
    /// Moves answered `200`.
    acked: AtomicU64,
    /// Moves sent more than once (a reply lost or the server down).
    retried: AtomicU64,
    /// Unexpected refusals, also printed to stderr as they come (see [`Tally::refuse`]).
    refusals: Mutex<Vec<String>>,
    /// Every game played: its id and acknowledged moves.
    games: Mutex<Vec<(String, Acked)>>,
}

impl Tally {
    fn refuse(&self, r: String) {
        eprintln!("refused: {r}");
        self.refusals.lock().unwrap().push(r);
    }
}

/// A game with both seats taken: (id, black token, white token, view), or `None` at `stop`.
async fn new_game(
    http: &reqwest::Client,
    base: &str,
    stop: &AtomicBool,
    tally: &Tally,
) -> Option<(String, String, String, Value)> {
    loop {
        let (s, created) = until_answered(stop, || {
            http.post(format!("{base}/api/games"))
                .json(&json!({"variant": "american"}))
        })
        .await?;
        if !(200..300).contains(&s) {
            tally.refuse(format!("create: {s} {}", created["error"]["code"]));
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let black = created["token"].as_str().unwrap_or_default().to_string();
        // A join whose reply was lost but was committed leaves the seat taken: start over.
        let (s, joined) =
            until_answered(stop, || http.post(format!("{base}/api/games/{id}/join"))).await?;
        if !(200..300).contains(&s) {
            tally.refuse(format!(
                "join of game {id}: {s} {} (a lost reply of a committed join, if seat_taken)",
                joined["error"]["code"]
            ));
            continue;
        }
        let white = joined["token"].as_str().unwrap_or_default().to_string();
        return Some((id, black, white, joined["game"].clone()));
    }
}

/// Play games until `stop`; each finished game's record goes to `tally.games`.
async fn client(
    http: reqwest::Client,
    base: String,
    number: u64,
    seed: u64,
    stop: Arc<AtomicBool>,
    tally: Arc<Tally>,
) {
    let mut rng = Rng::stream(seed, number);
    'games: while !stop.load(Ordering::Relaxed) {
        let Some((id, black, white, mut game)) = new_game(&http, &base, &stop, &tally).await else {
            break;
        };
        let mut acked = Acked::new();
        loop {
            if stop.load(Ordering::Relaxed) {
                tally.games.lock().unwrap().push((id, acked));
                break 'games;
            }
            let legal = game["legal_moves"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() || game["status"] != "ongoing" {
                break;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize]["text"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let token = if game["side_to_move"] == "black" {
                &black
            } else {
                &white
            };
            let ply = game["ply"].as_u64().unwrap_or(0) as usize;
            let url = format!("{base}/api/games/{id}/moves");
            let mut tries = 0u64;
            let reply = loop {
                tries += 1;
                let r = send(
                    http.post(&url)
                        .bearer_auth(token)
                        .json(&json!({"move": mv, "ply": ply})),
                )
                .await;
                match r {
                    Some((s, v)) if !retryable(s) => break Some((s, v)),
                    // Keep retrying after `stop` too: the answer decides whether it counts.
                    _ if stop.load(Ordering::Relaxed) && tries > 3000 => break None,
                    _ => tokio::time::sleep(Duration::from_millis(30)).await,
                }
            };
            if tries > 1 {
                tally.retried.fetch_add(1, Ordering::Relaxed);
            }
            match reply {
                Some((200, v)) => {
                    let echoed = v["moves"][ply].as_str().map(str::to_string);
                    acked.insert(ply, Ack { sent: mv, echoed });
                    tally.acked.fetch_add(1, Ordering::Relaxed);
                    game = v;
                }
                Some((s, v)) => {
                    tally.refuse(format!(
                        "game {id} ply {ply} move {mv} (try {tries}): {s} {} {}",
                        v["error"]["code"], v["error"]["message"]
                    ));
                    let Some((200, g)) = until_answered(&stop, || {
                        http.get(format!("{base}/api/games/{id}"))
                            .bearer_auth(token)
                    })
                    .await
                    else {
                        tally.games.lock().unwrap().push((id, acked));
                        continue 'games;
                    };
                    game = g;
                }
                None => {}
            }
            // Human-ish pace, short so that many moves are in flight at each kill.
            tokio::time::sleep(Duration::from_millis(20 + rng.below(180))).await;
        }
        tally.games.lock().unwrap().push((id, acked));
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("durability: {e}");
            std::process::exit(2);
        }
    };
    let dir = tempfile::tempdir().expect("temporary directory");
    let pg = if o.temp_pg {
        let Some(pg) = pg::Pg::start_with(true) else {
            eprintln!("durability: PostgreSQL is not installed (apt-get install postgresql)");
            std::process::exit(2);
        };
        Some(pg)
    } else {
        None
    };
    let port = free_port();
    let mut args: Vec<String> = [
        "--port",
        &port.to_string(),
        "--no-egdb",
        "--no-egdb-build",
        "--rate-limit",
        "0",
        "--max-conns-per-ip",
        "100000",
        "--max-unjoined-per-ip",
        "100000",
        "--max-games-per-ip",
        "100000",
        "--log",
        "warn",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let store = match &pg {
        Some(pg) => {
            args.extend(["--database".into(), pg.url()]);
            "PostgreSQL (fsync=on)".to_string()
        }
        None => {
            let db = dir.path().join("crown.db");
            args.extend(["--db".into(), db.display().to_string()]);
            "SQLite (synchronous=FULL)".to_string()
        }
    };
    let server = Server {
        args,
        base: format!("http://127.0.0.1:{port}"),
        log: dir.path().join("server.log"),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let bad = rt.block_on(run(&o, &server, &store));
    if let Ok(log) = std::fs::read_to_string(&server.log) {
        let errors: Vec<&str> = log.lines().filter(|l| l.contains("ERROR")).collect();
        println!("server log: {} ERROR lines", errors.len());
        for l in errors.iter().take(20) {
            println!("  {l}");
        }
    }
    drop(pg);
    if bad > 0 {
        std::process::exit(1);
    }
}

/// Returns the number of acknowledged moves lost or mismatched.
async fn run(o: &Opts, server: &Server, store: &str) -> usize {
    println!(
        "crown-server durability: {store}, {} restarts, {} clients, kill every {}-{} ms, seed {}",
        o.restarts, o.games, o.kill_every.0, o.kill_every.1, o.seed
    );
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("HTTP client");
    let mut child = server.spawn();
    if let Err(e) = wait_up(&http, &server.base).await {
        eprintln!("durability: {e}");
        let _ = child.kill();
        std::process::exit(2);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let clients: Vec<_> = (0..o.games as u64)
        .map(|i| {
            tokio::spawn(client(
                http.clone(),
                server.base.clone(),
                i,
                o.seed,
                stop.clone(),
                tally.clone(),
            ))
        })
        .collect();
    let mut rng = Rng::stream(o.seed, u64::MAX);
    let started = Instant::now();
    for r in 1..=o.restarts {
        let wait = o.kill_every.0 + rng.below(o.kill_every.1 - o.kill_every.0 + 1);
        tokio::time::sleep(Duration::from_millis(wait)).await;
        // `Child::kill` is SIGKILL on Unix.
        child.kill().expect("SIGKILL the server");
        let _ = child.wait();
        child = server.spawn();
        if let Err(e) = wait_up(&http, &server.base).await {
            eprintln!("durability: restart {r}: {e}");
            let _ = child.kill();
            std::process::exit(2);
        }
        if r % 10 == 0 {
            println!(
                "  {r} restarts, {} moves acknowledged, {:.0} s",
                tally.acked.load(Ordering::Relaxed),
                started.elapsed().as_secs_f64()
            );
        }
    }
    // Let the last restart see some moves, then stop the clients (each finishes its move).
    tokio::time::sleep(Duration::from_millis(o.kill_every.0)).await;
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.await.expect("client task");
    }
    // One more kill, so that every game is read back from the database.
    child.kill().expect("SIGKILL the server");
    let _ = child.wait();
    let mut child = server.spawn();
    if let Err(e) = wait_up(&http, &server.base).await {
        eprintln!("durability: final restart: {e}");
        let _ = child.kill();
        std::process::exit(2);
    }
    let games = std::mem::take(&mut *tally.games.lock().unwrap());
    let never = AtomicBool::new(false);
    let mut stored = BTreeMap::new();
    for (id, _) in &games {
        let reply = until_answered(&never, || {
            http.get(format!("{}/api/games/{id}", server.base))
        })
        .await;
        match reply {
            Some((200, v)) => {
                let moves: Vec<String> = v["moves"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|m| m.as_str().unwrap_or_default().to_string())
                            .collect()
                    })
                    .unwrap_or_default();
                stored.insert(id.clone(), moves);
            }
            // Not stored: every acknowledged move of it is lost.
            other => println!("  game {id} not read back: {other:?}"),
        }
    }
    let findings = verify::verify(&games, &stored);
    let lost = findings
        .iter()
        .filter(|f| matches!(f, Finding::Lost { .. }))
        .count();
    let mismatched = findings.len() - lost;
    let _ = child.kill();
    let _ = child.wait();
    let refusals = tally.refusals.lock().unwrap();
    println!(
        "restarts: {}, games: {}, acknowledged moves: {}, moves retried after a lost reply: {}, \
         lost: {}, mismatched: {}, unexpected refusals: {} ({:.0} s)",
        o.restarts,
        games.len(),
        tally.acked.load(Ordering::Relaxed),
        tally.retried.load(Ordering::Relaxed),
        lost,
        mismatched,
        refusals.len(),
        started.elapsed().as_secs_f64()
    );
    for r in refusals.iter() {
        println!("  refused: {r}");
    }
    for f in &findings {
        println!("  {f}");
    }
    findings.len()
}

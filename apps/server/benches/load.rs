//! Open-loop load benchmark (not a timed test): N two-player games moving at human pace, each
//! watched by W WebSockets, against an in-process server on 127.0.0.1 with a temporary SQLite
//! database (or a server started separately with `--url`). With PostgreSQL (`--database
//! postgres://…`, or `--temp-pg` to start a throw-away server with `fsync=on` from Debian's
//! `postgresql` package) it can run `--instances N` in-process servers on the same database, each
//! with its own `PgStore`: Black moves through one instance, White through the next, and the
//! watchers are spread over all, so every push to a watcher on another instance crosses
//! LISTEN/NOTIFY.
//!
//! Each game's next move is *scheduled* a uniformly random 1–3 s (`--pace`) after the previous
//! one was scheduled, whatever the server's latency (open loop): the offered rate is about
//! N / 2 moves per second, and a move's latency is measured from its scheduled instant to its
//! reply, so queueing delay is counted (no coordinated omission). The reply of `POST /moves`
//! comes only after the commit. Reports offered and achieved moves/s, p50/p99/max latency,
//! errors and `408 timeout`s, WebSocket messages received, the resident memory (VmRSS) of the
//! process, which holds the server *and* the load generator when in process, and the machine's
//! 1-minute load average at the end of the row.
//!
//! ```text
//! cargo bench -p crown-server --bench load -- --games 100,1000,5000 --secs 30 --watchers 2
//! cargo bench -p crown-server --bench load -- --games 1000 --sync normal
//! cargo bench -p crown-server --bench load -- --games 100,1000 --temp-pg --instances 2
//! cargo bench -p crown-server --bench load -- --games 100 --engine-games 8 --engine-level 10
//! cargo bench -p crown-server --bench load -- --games 100 --engine-games 8 --engine-in-process
//! ```
//!
//! `--engine-games N` runs N games against the in-process server's engine at `--engine-level`
//! (10) beside the measured human games, for the whole row: their human side answers each engine
//! move at once with its first legal move (a new game replaces a finished one), so the engine
//! searches all the time. Only the human games' moves are measured. The engine searches in a
//! worker process, as `crown-server` runs it (`WorkerPicker`: the server binary with
//! `--engine-worker`, in a session of its own at nice 19); `--engine-in-process` searches on
//! threads of the benchmark's own process instead (at nice +10, the server's way before issue 23).
//!
//! `--login-flood ADDRS` floods `POST /api/login` beside the human games, for the whole row, from
//! ADDRS loopback addresses at `--flood-rate` (2) log-ins per second each: right and wrong
//! passwords of `--flood-accounts` (50) accounts signed up first, and unknown usernames (see
//! `load/flood.rs`). The server keeps its log-in limits and its password-hashing pool
//! (`--password-workers`, default half the cores, at most 2). The row then also reports the
//! flood's answers by status. A human-pace row of 1,000 games, about 1.5 minutes:
//!
//! ```text
//! cargo bench -p crown-server --bench load -- --games 1000 --secs 90 --pace 2000-6000 --login-flood 200
//! ```
//!
//! `peak MiB` is the process's peak resident memory (`VmHWM`); in process it is the server's and
//! the load generator's together. With `--url` and `--server-pid PID` both memory columns are the
//! separate server's (`/proc/PID/status`). With `--login-flood` against a separate server, start
//! it with the per-address caps lifted as the in-process server has them (`--rate-limit 0
//! --max-unjoined-per-ip`, `--max-games-per-ip`, `--max-conns-per-ip`, `--max-ws-per-ip` large,
//! `--max-spectators-per-network 0`)
//! and its log-in limits as they are.

#[allow(dead_code)]
#[path = "../tests/common/pg.rs"]
mod pg;

#[path = "load/flood.rs"]
mod flood;

use crown_core::rng::Rng;
use crown_server::store::pg::PgStore;
use crown_server::store::{Durability, SqliteStore};
use crown_server::{App, Config};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

struct Opts {
    games: Vec<usize>,
    secs: u64,
    watchers: usize,
    pace: (u64, u64),
    sync: Durability,
    url: Option<String>,
    database: Option<String>,
    temp_pg: bool,
    instances: usize,
    engine_games: usize,
    engine_level: u8,
    engine_in_process: bool,
    login_flood: usize,
    flood_rate: f64,
    flood_accounts: usize,
    password_workers: Option<usize>,
    server_pid: Option<u32>,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        games: vec![100, 1000],
        secs: 30,
        watchers: 2,
        pace: (1000, 3000),
        sync: Durability::Full,
        url: None,
        database: None,
        temp_pg: false,
        instances: 1,
        engine_games: 0,
        engine_level: 10,
        engine_in_process: false,
        login_flood: 0,
        flood_rate: 2.0,
        flood_accounts: 50,
        password_workers: None,
        server_pid: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--games" => {
                o.games = value()?
                    .split(',')
                    .map(|n| n.parse().map_err(|e| format!("--games {n}: {e}")))
                    .collect::<Result<_, _>>()?
            }
            "--secs" => o.secs = value()?.parse().map_err(|e| format!("--secs: {e}"))?,
            "--watchers" => {
                o.watchers = value()?.parse().map_err(|e| format!("--watchers: {e}"))?
            }
            "--pace" => {
                let v = value()?;
                let (a, b) = v
                    .split_once('-')
                    .ok_or(format!("--pace MIN-MAX in ms, not {v}"))?;
                o.pace = (
                    a.parse().map_err(|e| format!("--pace {a}: {e}"))?,
                    b.parse().map_err(|e| format!("--pace {b}: {e}"))?,
                );
                if o.pace.0 == 0 || o.pace.1 < o.pace.0 {
                    return Err(format!("--pace {v}: need 0 < MIN <= MAX"));
                }
            }
            "--sync" => {
                o.sync = match value()?.as_str() {
                    "full" => Durability::Full,
                    "normal" => Durability::Normal,
                    s => return Err(format!("--sync full|normal, not {s}")),
                }
            }
            "--url" => o.url = Some(value()?),
            "--server-pid" => {
                o.server_pid = Some(value()?.parse().map_err(|e| format!("--server-pid: {e}"))?)
            }
            "--database" => o.database = Some(value()?),
            "--temp-pg" => o.temp_pg = true,
            "--instances" => {
                o.instances = value()?.parse().map_err(|e| format!("--instances: {e}"))?;
                if o.instances == 0 {
                    return Err("--instances must be at least 1".into());
                }
            }
            "--engine-games" => {
                o.engine_games = value()?
                    .parse()
                    .map_err(|e| format!("--engine-games: {e}"))?
            }
            "--engine-level" => {
                o.engine_level = value()?
                    .parse()
                    .map_err(|e| format!("--engine-level: {e}"))?;
                if !crown_ai::level::LEVELS.contains(&o.engine_level) {
                    return Err("--engine-level must be 1..=10".into());
                }
            }
            "--engine-in-process" => o.engine_in_process = true,
            "--login-flood" => {
                o.login_flood = value()?
                    .parse()
                    .map_err(|e| format!("--login-flood: {e}"))?;
                if o.login_flood > 250 * 256 {
                    return Err("--login-flood: at most 64000 addresses".into());
                }
            }
            "--flood-rate" => {
                o.flood_rate = value()?.parse().map_err(|e| format!("--flood-rate: {e}"))?;
                if !(o.flood_rate > 0.0 && o.flood_rate.is_finite()) {
                    return Err("--flood-rate must be a positive number of log-ins a second".into());
                }
            }
            "--flood-accounts" => {
                o.flood_accounts = value()?
                    .parse()
                    .map_err(|e| format!("--flood-accounts: {e}"))?;
                if o.flood_accounts == 0 {
                    return Err("--flood-accounts must be at least 1".into());
                }
            }
            "--password-workers" => {
                let n: usize = value()?
                    .parse()
                    .map_err(|e| format!("--password-workers: {e}"))?;
                if n == 0 {
                    return Err("--password-workers must be at least 1".into());
                }
                o.password_workers = Some(n);
            }
            "--bench" => {}
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if o.server_pid.is_some() && o.url.is_none() {
        return Err("--server-pid is for a server started separately (--url)".into());
    }
    if o.instances > 1 && o.database.is_none() && !o.temp_pg {
        return Err("--instances needs PostgreSQL (--database or --temp-pg)".into());
    }
    Ok(o)
}

async fn post(
    http: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> Result<Value, String> {
    let mut req = http.post(url);
    if let Some(b) = body {
        req = req.json(&b);
    }
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.map_err(|e| {
        // Name the cause (connection refused, closed, out of file descriptors...), not the URL.
        let e = e.without_url();
        let mut msg = format!("request: {e}");
        let mut src = std::error::Error::source(&e);
        while let Some(s) = src {
            msg.push_str(&format!(": {s}"));
            src = s.source();
        }
        msg
    })?;
    let status = resp.status();
    let v: Value = resp.json().await.map_err(|e| format!("{status}: {e}"))?;
    if status.is_success() {
        Ok(v)
    } else {
        Err(format!("{status} {}", v["error"]["code"]))
    }
}

/// A game with both seats taken: (id, black token, white token, view).
async fn setup_game(
    http: &reqwest::Client,
    base: &str,
) -> Result<(String, String, String, Value), String> {
    let created = post(
        http,
        format!("{base}/api/games"),
        None,
        Some(json!({"variant": "american"})),
    )
    .await?;
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let black = created["token"].as_str().unwrap_or_default().to_string();
    let joined = post(http, format!("{base}/api/games/{id}/join"), None, None).await?;
    let white = joined["token"].as_str().unwrap_or_default().to_string();
    Ok((id, black, white, joined["game"].clone()))
}

/// The seed of the move pace; game `i` draws from stream `i` of it (`crown_core::rng`).
const PACE_SEED: u64 = 0x5eed_c20a_0001;

/// Plays game number `number` at the scheduled pace until `end`; returns each move's latency (from its
/// scheduled instant) and the errors met.
#[allow(clippy::too_many_arguments)]
async fn play(
    http: reqwest::Client,
    (base_black, base_white): (String, String),
    (id, black, white, mut game): (String, String, String, Value),
    pace: (u64, u64),
    number: u64,
    start: Instant,
    end: Instant,
) -> (Vec<Duration>, Vec<String>) {
    let mut rng = Rng::stream(PACE_SEED, number);
    let mut times = Vec::new();
    let mut errors = Vec::new();
    // Spread the first moves over one pace interval.
    let mut next = start + Duration::from_millis(rng.below(pace.1));
    loop {
        if next >= end {
            break;
        }
        tokio::time::sleep_until(next).await;
        let Some(mv) = game["legal_moves"][0]["text"].as_str().map(str::to_string) else {
            break; // game over
        };
        let (base, token) = if game["side_to_move"] == "black" {
            (&base_black, &black)
        } else {
            (&base_white, &white)
        };
        let ply = game["ply"].as_u64().unwrap_or(0);
        match post(
            &http,
            format!("{base}/api/games/{id}/moves"),
            Some(token),
            Some(json!({"move": mv, "ply": ply})),
        )
        .await
        {
            Ok(v) => {
                times.push(next.elapsed());
                game = v;
            }
            Err(e) => {
                errors.push(e);
                break;
            }
        }
        next += Duration::from_millis(pace.0 + rng.below(pace.1 - pace.0 + 1));
    }
    (times, errors)
}

/// Keep one game against the engine going until `end` (a new one when it finishes): the human
/// side (Black) answers each engine move at once. Returns the engine moves seen.
async fn engine_game(http: reqwest::Client, base: String, level: u8, end: Instant) -> u64 {
    let mut engine_moves = 0;
    while Instant::now() < end {
        let Ok(created) = post(
            &http,
            format!("{base}/api/games"),
            None,
            Some(json!({"variant": "american", "opponent": "engine", "level": level, "color": "black"})),
        )
        .await
        else {
            return engine_moves;
        };
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let token = created["token"].as_str().unwrap_or_default().to_string();
        let ws_url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
        let Ok((mut ws, _)) = tokio_tungstenite::connect_async(ws_url).await else {
            return engine_moves;
        };
        let mut posted = None;
        loop {
            let msg = match tokio::time::timeout_at(end, ws.next()).await {
                Ok(Some(Ok(m))) => m,
                _ => return engine_moves,
            };
            let Ok(text) = msg.to_text() else { continue };
            let Ok(v) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            let game = &v["game"];
            if game["status"] == "finished" {
                break;
            }
            let ply = game["ply"].as_u64().unwrap_or(0);
            if game["side_to_move"] != "black" || posted == Some(ply) {
                continue;
            }
            if ply > 0 {
                engine_moves += 1;
            }
            let Some(mv) = game["legal_moves"][0]["text"].as_str() else {
                break;
            };
            posted = Some(ply);
            if post(
                &http,
                format!("{base}/api/games/{id}/moves"),
                Some(&token),
                Some(json!({"move": mv, "ply": ply})),
            )
            .await
            .is_err()
            {
                break;
            }
        }
    }
    engine_moves
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// A memory figure in MiB of process `pid` (`None`: this one) from Linux `/proc/PID/status`
/// (`VmRSS`: resident now; `VmHWM`: the peak resident), if known.
fn status_mib(pid: Option<u32>, field: &str) -> Option<f64> {
    let path = pid.map_or("/proc/self/status".to_string(), |p| {
        format!("/proc/{p}/status")
    });
    let s = std::fs::read_to_string(path).ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The machine's 1-minute load average at the end of a row (`/proc/loadavg`), `?` elsewhere: the
/// machine may be shared, and a loaded machine's numbers are lower bounds.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

fn main() {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let dir = tempfile::tempdir().unwrap();
        let max_games = opts.games.iter().sum::<usize>() + opts.engine_games + 10;
        let temp_pg = if opts.temp_pg {
            match pg::Pg::start_with(true) {
                Some(p) => Some(p),
                None => {
                    eprintln!("load: --temp-pg: PostgreSQL is not installed (apt-get install postgresql)");
                    std::process::exit(2);
                }
            }
        } else {
            None
        };
        let database = temp_pg.as_ref().map(pg::Pg::url).or(opts.database.clone());
        let mut bases = Vec::new();
        match &opts.url {
            Some(u) => bases.push(u.trim_end_matches('/').to_string()),
            None => for _ in 0..opts.instances {
                let store: Arc<dyn crown_server::store::Store> = match &database {
                    Some(url) => {
                        let url = url.clone();
                        Arc::new(tokio::task::spawn_blocking(move || PgStore::connect(&url)).await.unwrap().unwrap())
                    }
                    None => Arc::new(SqliteStore::open(&dir.path().join("load.db"), opts.sync).unwrap()),
                };
                // Every simulated player comes from 127.0.0.1: lift the per-address caps (not the
                // log-in and sign-up limits, which the flood meets from addresses of its own).
                let defaults = Config::default();
                let config = Config {
                    password_workers: opts.password_workers.unwrap_or(defaults.password_workers),
                    rate_per_sec: 0,
                    max_open_games: max_games,
                    max_unjoined_per_ip: usize::MAX,
                    max_games_per_ip: usize::MAX,
                    max_games_per_net: usize::MAX,
                    max_seeks_per_net: usize::MAX,
                    max_conns_per_ip: usize::MAX,
                    max_ws_per_ip: usize::MAX,
                    max_spectators_per_network: 0,
                    max_engine_games_per_ip: usize::MAX,
                    ..defaults
                };
                let engine: Option<Arc<dyn crown_server::engine::MovePicker>> = if opts.engine_games == 0 {
                    None
                } else if opts.engine_in_process {
                    crown_server::engine::default_picker(1, 16, None, true)
                } else {
                    // As the server binary runs it: a worker process (its own session, nice 19).
                    let args = ["--engine-worker", "--engine-threads", "1", "--hash-mib", "16", "--no-egdb"];
                    Some(Arc::new(crown_server::engine::WorkerPicker::new(
                        env!("CARGO_BIN_EXE_crown-server"),
                        args.iter().map(Into::into).collect(),
                    )))
                };
                let app = App::start(store, config, engine).await.unwrap();
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let addr = listener.local_addr().unwrap();
                tokio::spawn(crown_server::serve(app, listener, std::future::pending()));
                bases.push(format!("http://{addr}"));
            },
        }
        let base = bases[0].clone();
        let store_name = match (&database, &opts.url) {
            (_, Some(_)) => "external".to_string(),
            (Some(_), None) => format!("PostgreSQL, {} instance(s)", bases.len()),
            (None, None) => format!("SQLite sync={:?}", opts.sync),
        };
        println!(
            "crown-server open-loop load: {} s per row, a move every {}-{} ms per game, {} watchers per game, store {store_name}, server {}",
            opts.secs,
            opts.pace.0,
            opts.pace.1,
            opts.watchers,
            if opts.url.is_some() { "external" } else { "in process (RSS counts server and load generator)" }
        );
        if opts.login_flood > 0 {
            if let Err(e) = flood::sign_up(&base, opts.flood_accounts).await {
                eprintln!("load: --login-flood: {e}");
                std::process::exit(1);
            }
            println!(
                "log-in flood beside every row: {} addresses, {} log-ins a second each, over {} accounts",
                opts.login_flood, opts.flood_rate, opts.flood_accounts
            );
        }
        println!("| games | watchers | offered moves/s | done moves/s | p50 ms | p99 ms | max ms | errors | timeouts | pushes received | RSS MiB | peak MiB | load avg |");
        println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for &n in &opts.games {
            // Idle pooled connections are dropped before the server's keep-alive limit (10 s), as
            // a well-behaved client does, so no request races the server closing its connection.
            let http = reqwest::Client::builder()
                .pool_max_idle_per_host(256)
                .pool_idle_timeout(Duration::from_secs(5))
                .build()
                .unwrap();
            // Set up the games (not measured), a few at a time.
            let mut games = Vec::with_capacity(n);
            let mut setup_errors = 0;
            for chunk in (0..n).collect::<Vec<_>>().chunks(64) {
                let tasks: Vec<_> = chunk
                    .iter()
                    .map(|_| {
                        let (http, base) = (http.clone(), base.clone());
                        tokio::spawn(async move { setup_game(&http, &base).await })
                    })
                    .collect();
                for t in tasks {
                    match t.await.unwrap() {
                        Ok(g) => games.push(g),
                        Err(_) => setup_errors += 1,
                    }
                }
            }
            // Watchers: W WebSockets per game, counting the pushes they receive.
            let pushes = Arc::new(AtomicU64::new(0));
            let mut watchers = Vec::new();
            let mut ws_failed = 0;
            for (g, (id, ..)) in games.iter().enumerate() {
                for w in 0..opts.watchers {
                    let ws_base = &bases[(g + w) % bases.len()].replace("http://", "ws://");
                    match tokio_tungstenite::connect_async(format!("{ws_base}/api/games/{id}/ws")).await {
                        Ok((mut ws, _)) => {
                            let pushes = pushes.clone();
                            watchers.push(tokio::spawn(async move {
                                while let Some(Ok(_)) = ws.next().await {
                                    pushes.fetch_add(1, Ordering::Relaxed);
                                }
                            }));
                        }
                        Err(_) => ws_failed += 1,
                    }
                }
            }
            let connected = games.len() * opts.watchers - ws_failed;
            let before = pushes.load(Ordering::Relaxed);
            let start = Instant::now() + Duration::from_millis(200);
            let end = start + Duration::from_secs(opts.secs);
            let (floods, answers) = if opts.login_flood > 0 {
                let (tasks, answers) = flood::start(&base, opts.login_flood, opts.flood_rate, opts.flood_accounts, end);
                (tasks, Some(answers))
            } else {
                (Vec::new(), None)
            };
            let engines: Vec<_> = (0..opts.engine_games)
                .map(|_| tokio::spawn(engine_game(http.clone(), base.clone(), opts.engine_level, end)))
                .collect();
            let tasks: Vec<_> = games
                .into_iter()
                .enumerate()
                .map(|(i, g)| {
                    tokio::spawn(play(
                        http.clone(),
                        (bases[i % bases.len()].clone(), bases[(i + 1) % bases.len()].clone()),
                        g,
                        opts.pace,
                        i as u64,
                        start,
                        end,
                    ))
                })
                .collect();
            let mut all = Vec::new();
            let mut errors = std::collections::BTreeMap::<String, usize>::new();
            for t in tasks {
                let (times, errs) = t.await.unwrap();
                all.extend(times);
                for e in errs {
                    *errors.entry(e).or_default() += 1;
                }
            }
            let mut engine_moves = 0;
            for e in engines {
                engine_moves += e.await.unwrap_or(0);
            }
            if opts.engine_games > 0 {
                eprintln!(
                    "      {} engine games at level {} beside: {engine_moves} engine moves",
                    opts.engine_games, opts.engine_level
                );
            }
            for f in floods {
                let _ = f.await;
            }
            if let Some(answers) = &answers {
                eprintln!("      log-in flood: {}", answers.summary());
            }
            let rss = status_mib(opts.server_pid, "VmRSS:").map_or("?".to_string(), |m| format!("{m:.0}"));
            let peak = status_mib(opts.server_pid, "VmHWM:").map_or("?".to_string(), |m| format!("{m:.0}"));
            let wall = start.elapsed().as_secs_f64();
            let received = pushes.load(Ordering::Relaxed) - before;
            for w in watchers {
                w.abort();
            }
            all.sort();
            let timeouts = errors
                .iter()
                .filter(|(e, _)| e.contains("408"))
                .map(|(_, c)| c)
                .sum::<usize>();
            let offered = n as f64 * 2000.0 / (opts.pace.0 + opts.pace.1) as f64;
            println!(
                "| {n} | {connected} | {offered:.0} | {:.0} | {:.1} | {:.1} | {:.1} | {} | {timeouts} | {received} | {rss} | {peak} | {} |",
                all.len() as f64 / wall,
                percentile(&all, 0.50).as_secs_f64() * 1e3,
                percentile(&all, 0.99).as_secs_f64() * 1e3,
                all.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
                errors.values().sum::<usize>() + setup_errors + ws_failed,
                load_average(),
            );
            for (e, count) in &errors {
                eprintln!("      {count} games stopped on error: {e}");
            }
            if setup_errors + ws_failed > 0 {
                eprintln!("      {setup_errors} games could not be set up, {ws_failed} watchers could not connect");
            }
        }
    });
}

//! Load benchmark (not a timed test): N concurrent two-player games making moves over loopback.
//!
//! Starts the server in process on 127.0.0.1 with a temporary SQLite database (or uses `--url` for
//! a server started separately), creates N games with both seats taken, then every game plays
//! `--plies` moves at once (each player posting the first legal move as soon as the previous
//! move's reply arrived). Reports p50/p99/max latency of `POST /moves` (which returns only after
//! the commit) and moves per second.
//!
//! ```text
//! cargo bench -p crown-server --bench load -- --games 100,1000 --plies 20
//! cargo bench -p crown-server --bench load -- --games 1000 --sync normal
//! ```

use crown_server::store::{Durability, SqliteStore};
use crown_server::{App, Config};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Opts {
    games: Vec<usize>,
    plies: usize,
    sync: Durability,
    url: Option<String>,
}

fn parse_args() -> Result<Opts, String> {
    let mut o = Opts {
        games: vec![100, 1000],
        plies: 20,
        sync: Durability::Full,
        url: None,
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
            "--plies" => o.plies = value()?.parse().map_err(|e| format!("--plies: {e}"))?,
            "--sync" => {
                o.sync = match value()?.as_str() {
                    "full" => Durability::Full,
                    "normal" => Durability::Normal,
                    s => return Err(format!("--sync full|normal, not {s}")),
                }
            }
            "--url" => o.url = Some(value()?),
            "--bench" => {}
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(o)
}

async fn post(
    http: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> Result<Value, String> {
    let mut req = http.post(url).json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.map_err(|e| format!("request: {e}"))?;
    let status = resp.status();
    let v: Value = resp.json().await.map_err(|e| format!("{status}: {e}"))?;
    if status.is_success() {
        Ok(v)
    } else {
        Err(format!("{status} {}", v["error"]["code"]))
    }
}

/// Plays `plies` moves of one game; returns the latency of each move, or the first error.
async fn play_game(
    http: reqwest::Client,
    base: String,
    plies: usize,
) -> (Vec<Duration>, Option<String>) {
    let mut times = Vec::with_capacity(plies);
    let r: Result<(), String> = async {
        let created = post(
            &http,
            format!("{base}/api/games"),
            None,
            json!({"variant": "american"}),
        )
        .await?;
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let black = created["token"].as_str().unwrap_or_default().to_string();
        let joined = post(
            &http,
            format!("{base}/api/games/{id}/join"),
            None,
            json!({}),
        )
        .await?;
        let white = joined["token"].as_str().unwrap_or_default().to_string();
        let mut game = joined["game"].clone();
        for ply in 0..plies {
            let Some(mv) = game["legal_moves"][0]["text"].as_str().map(str::to_string) else {
                break;
            };
            let token = if game["side_to_move"] == "black" {
                &black
            } else {
                &white
            };
            let t = Instant::now();
            game = post(
                &http,
                format!("{base}/api/games/{id}/moves"),
                Some(token),
                json!({"move": mv, "ply": ply}),
            )
            .await?;
            times.push(t.elapsed());
        }
        Ok(())
    }
    .await;
    (times, r.err())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
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
        let max_games = opts.games.iter().sum::<usize>() + 10;
        let base = match &opts.url {
            Some(u) => u.trim_end_matches('/').to_string(),
            None => {
                let store = SqliteStore::open(&dir.path().join("load.db"), opts.sync).unwrap();
                let config = Config {
                    rate_per_sec: 0,
                    max_open_games: max_games,
                    ..Config::default()
                };
                let app = App::start(Arc::new(store), config, None).await.unwrap();
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let addr = listener.local_addr().unwrap();
                tokio::spawn(crown_server::serve(app, listener, std::future::pending()));
                format!("http://{addr}")
            }
        };
        println!(
            "crown-server load: {} plies per game, sync={:?}, server {}",
            opts.plies,
            opts.sync,
            if opts.url.is_some() { "external" } else { "in process" }
        );
        for &n in &opts.games {
            let http = reqwest::Client::builder()
                .pool_max_idle_per_host(n)
                .build()
                .unwrap();
            let start = Instant::now();
            let tasks: Vec<_> = (0..n)
                .map(|_| tokio::spawn(play_game(http.clone(), base.clone(), opts.plies)))
                .collect();
            let mut all = Vec::new();
            let mut errors = std::collections::BTreeMap::<String, usize>::new();
            for t in tasks {
                let (times, err) = t.await.unwrap();
                all.extend(times);
                if let Some(e) = err {
                    *errors.entry(e).or_default() += 1;
                }
            }
            let wall = start.elapsed();
            all.sort();
            println!(
                "{n:>5} concurrent games: {} moves in {:.2} s = {:.0} moves/s; move latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                all.len(),
                wall.as_secs_f64(),
                all.len() as f64 / wall.as_secs_f64(),
                percentile(&all, 0.50).as_secs_f64() * 1e3,
                percentile(&all, 0.99).as_secs_f64() * 1e3,
                all.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
            );
            for (e, count) in &errors {
                println!("      {count} games stopped on error: {e}");
            }
        }
    });
}

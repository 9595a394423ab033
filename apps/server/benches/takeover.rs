//! Restart and takeover at scale on PostgreSQL (issue 23; not a timed test): N unfinished timed
//! games whose leases a dead instance held, on a throw-away PostgreSQL (`fsync=on`, as
//! `load --temp-pg`), with the default lease of 10 s (`--lease-ms`).
//!
//! ```text
//! cargo bench -p crown-server --bench takeover -- --games 3000,10000
//! ```
//!
//! Each game is American checkers at 60 s + 0, two moves played, Black to move, its turn started
//! one second before the owner died; the dead owner's leases expire one lease time after its death
//! (its last renewal just before it, the worst case). Two scenarios per game count:
//!
//! - **restart** (every instance was down; the dead instance's last heartbeat at its death): a new
//!   instance starts once the leases have expired; reported: the time from its start (connecting
//!   to the database included) until it answers `GET /api/games/{id}`, and until it holds every
//!   lease and has credited every clock.
//! - **kill** (another instance is running): the dead instance's games are created while a live
//!   instance runs; reported: the time from the death until the live instance holds every lease
//!   (documented bound: lease + a third of it, 13.3 s, plus the takeover's own time).
//!
//! For both: how many games were credited more than once (each credit saves the game, so the
//! version counts them), and the most a clock was charged for time in which no instance answered
//! (from the death until the new instance answered for restart; none for kill), and the most a
//! clock was credited beyond that time (docs/scaling.md, "Clocks": exactly the outage, from the
//! last heartbeat until an instance answers, is credited; a takeover credits nothing).

#[allow(dead_code)]
#[path = "../tests/common/pg.rs"]
mod pg;

use crown_server::live::now_ms;
use crown_server::store::fixture::GameRecordBuilder;
use crown_server::store::pg::PgStore;
use crown_server::store::{GameRecord, Store};
use crown_server::{App, Config};
use std::sync::Arc;
use std::time::Duration;

/// The lease time (the server's default).
const LEASE: u64 = 10_000;
/// Black's time left when the turn started.
const CLOCK: u64 = 60_000;
/// How long Black had been thinking when the owner died.
const THINKING: u64 = 1_000;

/// A game at 60 s + 0 with two moves played, Black's turn started at `turn_started`.
fn record(id: &str, turn_started: u64) -> GameRecord {
    GameRecordBuilder::new(id)
        .time_control(CLOCK, 0)
        .turn_started_ms(turn_started)
        .moves(&["11-15", "23-19"], turn_started)
        // Now: a game younger than a lease without one is left to its creator, so no live
        // instance claims it between its creation and the dead owner's lease.
        .created_ms(now_ms())
        .build()
}

async fn connect(url: &str) -> Arc<dyn Store> {
    let url = url.to_string();
    Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    )
}

/// Create `n` games held by instance `dead-instance` (leases until a day from now, see [`die`]),
/// Black's turn started [`THINKING`] ago; returns their ids and that instant.
async fn create_games(store: &Arc<dyn Store>, prefix: &str, n: usize) -> (Vec<String>, u64) {
    let ids: Vec<String> = (0..n).map(|i| format!("{prefix}{i:05}")).collect();
    let turn_started = now_ms() - THINKING;
    let tasks: Vec<_> = ids
        .chunks(n.div_ceil(8).max(1))
        .map(|chunk| {
            let (store, chunk) = (store.clone(), chunk.to_vec());
            tokio::task::spawn_blocking(move || {
                for id in &chunk {
                    store.create(&record(id, turn_started)).unwrap();
                    let until = now_ms() + 86_400_000;
                    assert!(store
                        .leases()
                        .unwrap()
                        .claim_lease(id, "dead-instance", until)
                        .unwrap());
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    (ids, turn_started)
}

/// `dead-instance` dies now, its last renewal and its last heartbeat just before: its leases
/// expire one lease time on. Returns the instant of its death.
async fn die(url: &str) -> u64 {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let death = now_ms();
        c.execute(
            "UPDATE leases SET expires_ms = $1 WHERE owner = 'dead-instance'",
            &[&((death + LEASE) as i64)],
        )
        .unwrap();
        beat(&mut c, death);
        death
    })
    .await
    .unwrap()
}

/// Write the shared heartbeat at `at` (as the dead instance did every second while it lived).
fn beat(c: &mut postgres::Client, at: u64) {
    c.execute(
        "INSERT INTO server_meta (key, value) VALUES ('heartbeat_ms', $1)
         ON CONFLICT (key) DO UPDATE SET value = GREATEST(server_meta.value, EXCLUDED.value)",
        &[&(at as i64)],
    )
    .unwrap();
}

/// The dead instance is still alive now: its heartbeat, so that an instance starting beside it
/// does not take it for an outage of every instance (however long making the games took).
async fn alive(url: &str) {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        beat(&mut c, now_ms());
    })
    .await
    .unwrap();
}

/// Remove every game and lease (between scenarios).
async fn clear(url: &str) {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.batch_execute("DELETE FROM leases; DELETE FROM moves; DELETE FROM games;")
            .unwrap();
    })
    .await
    .unwrap();
}

/// The records of `ids` (one by one, as any store reads them).
async fn records(store: &Arc<dyn Store>, ids: &[String]) -> Vec<GameRecord> {
    let (store, ids) = (store.clone(), ids.to_vec());
    tokio::task::spawn_blocking(move || {
        ids.iter()
            .filter_map(|id| store.load(id).unwrap())
            .collect()
    })
    .await
    .unwrap()
}

/// Wait until no game of the scenario (ids starting with `prefix`) has its lease held by the
/// dead instance and, with `credited`, none is left at version 0 (its clock credited); returns
/// that instant.
async fn wait_taken_over(url: &str, prefix: &str, credited: bool) -> u64 {
    let (url, pattern) = (url.to_string(), format!("{prefix}%"));
    tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        loop {
            let left: i64 = c
                .query_one(
                    "SELECT count(*) FROM games g WHERE id LIKE $1
                       AND (($2 AND version = 0) OR EXISTS (SELECT 1 FROM leases l
                            WHERE l.game_id = g.id AND l.owner = 'dead-instance'))",
                    &[&pattern, &credited],
                )
                .unwrap()
                .get(0);
            if left == 0 {
                return now_ms();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    })
    .await
    .unwrap()
}

/// (games credited more than once, the most charged for time no instance answered in ms, the
/// most credited beyond it in ms) once every game is taken over and two lease times more passed;
/// Black's turn started at `turn_started`, the outage ran from `down` until `answered` (equal
/// when an instance answered throughout).
async fn check(
    store: &Arc<dyn Store>,
    ids: &[String],
    turn_started: u64,
    down: u64,
    answered: u64,
) -> (usize, u64, u64) {
    tokio::time::sleep(Duration::from_millis(2 * LEASE)).await;
    let recs = records(store, ids).await;
    let twice = recs.iter().filter(|r| r.version > 1).count();
    let outage = answered - down;
    let credits = recs
        .iter()
        .map(|r| r.meta.turn_started_ms.saturating_sub(turn_started));
    let charged = credits.clone().map(|c| outage.saturating_sub(c)).max();
    let beyond = credits.map(|c| c.saturating_sub(outage)).max();
    (twice, charged.unwrap_or(0), beyond.unwrap_or(0))
}

async fn serve(app: App) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(crown_server::serve(app, listener, std::future::pending()));
    format!("http://{addr}")
}

fn config() -> Config {
    Config {
        lease_ms: LEASE,
        max_open_games: 100_000,
        ..Config::default()
    }
}

async fn restart(url: &str, n: usize) {
    let store = connect(url).await;
    let prefix = format!("r{n}-");
    let (ids, turn_started) = create_games(&store, &prefix, n).await;
    let death = die(url).await;
    // Every instance is down until the dead leases have expired (a longer outage only makes the
    // credits larger).
    while now_ms() <= death + LEASE + 100 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let started = now_ms();
    let app = App::start(connect(url).await, config(), None)
        .await
        .unwrap();
    let base = serve(app.clone()).await;
    let http = reqwest::Client::new();
    let probe = format!("{base}/api/games/{}", ids[n - 1]);
    while !http
        .get(&probe)
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let answered = now_ms();
    let all = wait_taken_over(url, &prefix, true).await;
    let (twice, charged, beyond) = check(&store, &ids, turn_started, death, answered).await;
    println!(
        "| restart | {n} | {:.2} | {:.2} | {twice} | {:.2} | {:.2} | {:.2} | {} |",
        (answered - started) as f64 / 1e3,
        (all - started) as f64 / 1e3,
        (answered - death) as f64 / 1e3,
        charged as f64 / 1e3,
        beyond as f64 / 1e3,
        load_average()
    );
    app.shutdown();
    clear(url).await;
}

async fn kill(url: &str, n: usize) {
    let store = connect(url).await;
    let prefix = format!("k{n}-");
    let (ids, turn_started) = create_games(&store, &prefix, n).await;
    alive(url).await;
    let live = App::start(connect(url).await, config(), None)
        .await
        .unwrap();
    let _base = serve(live.clone()).await;
    let death = die(url).await;
    let all = wait_taken_over(url, &prefix, false).await;
    // The live instance answered all along: no outage.
    let (twice, charged, beyond) = check(&store, &ids, turn_started, death, death).await;
    println!(
        "| kill | {n} | – | {:.2} | {twice} | 0.00 | {:.2} | {:.2} | {} |",
        (all - death) as f64 / 1e3,
        charged as f64 / 1e3,
        beyond as f64 / 1e3,
        load_average()
    );
    live.shutdown();
    clear(url).await;
}

/// The machine's 1-minute load average at the end of a row (`/proc/loadavg`), `?` elsewhere.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

fn main() {
    let mut games = vec![3000, 10_000];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--games" => {
                let Some(v) = args.next() else {
                    eprintln!("takeover: --games needs a value");
                    std::process::exit(2);
                };
                match v
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<Vec<usize>, _>>()
                {
                    Ok(g) if g.iter().all(|&n| n > 0) => games = g,
                    _ => {
                        eprintln!("takeover: --games N[,N...] (each at least 1), not {v}");
                        std::process::exit(2);
                    }
                }
            }
            "--bench" => {}
            other => {
                eprintln!("takeover: unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let Some(pg) = pg::Pg::start_with(true) else {
        eprintln!("takeover: PostgreSQL is not installed (apt-get install postgresql)");
        std::process::exit(2);
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        println!("crown-server restart and takeover on PostgreSQL, lease {LEASE} ms");
        println!("| scenario | games | answers after s | all taken over after s | credited twice | outage s | charged of the outage, max s | credited beyond the outage, max s | load avg |");
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for &n in &games {
            restart(&pg.url(), n).await;
            kill(&pg.url(), n).await;
        }
    });
}

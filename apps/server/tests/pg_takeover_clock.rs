//! A takeover charges the side to move exactly the time that passed (docs/scaling.md,
//! "Clocks"): two `crown-server` processes on one real PostgreSQL; instance A, which holds a
//! timed game's lease, is killed with SIGKILL while Black's clock runs, and instance B, which
//! answered all along, takes the lease over. Black could move on B at every moment of the outage,
//! so none of it is credited: Black's clock, read on B after the takeover, is what it was before
//! the kill less the real time that passed, measured by this test's own clock.
//! Skipped, saying so, when PostgreSQL is not installed.

mod common;
use common::cluster::{get, post, start_instance_with_lease};
use common::pg::Pg;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The lease length: long enough that a credit of the unowned gap (up to a third of it, the
/// lease round's period) is far above the timing slack below.
const LEASE_MS: u64 = 6_000;

/// Slack for the server's millisecond clock reading and rounding, in ms.
const SLACK_MS: u64 = 100;

fn black_ms(v: &Value) -> u64 {
    v["clock"]["black_ms"].as_u64().unwrap()
}

/// The instance holding game `id`'s lease, read from the database.
async fn lease_owner(url: &str, id: &str) -> Option<String> {
    let (url, id) = (url.to_string(), id.to_string());
    tokio::task::spawn_blocking(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.query_opt("SELECT owner FROM leases WHERE game_id = $1", &[&id])
            .unwrap()
            .map(|r| r.get::<_, String>(0))
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeover_while_another_instance_answers_credits_no_clock_time() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let mut a = start_instance_with_lease(&url, LEASE_MS);
    let b = start_instance_with_lease(&url, LEASE_MS);

    // A timed game created on A (A takes its lease), joined on B; one move each, so that
    // Black's clock runs.
    let tc = json!({"initial_ms": 600_000, "increment_ms": 0});
    let (s, created) = post(
        &a.base,
        "/api/games",
        None,
        Some(json!({"variant": "american", "color": "black", "time_control": tc})),
    )
    .await;
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let black = created["token"].as_str().unwrap().to_string();
    let (s, joined) = post(&b.base, &format!("/api/games/{id}/join"), None, None).await;
    assert_eq!(s, 200, "{joined}");
    let white = joined["token"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/moves");
    let mv = |v: &Value| v["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let (s, v) = post(
        &a.base,
        &path,
        Some(&black),
        Some(json!({"move": mv(&joined["game"]), "ply": 0})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(
        &b.base,
        &path,
        Some(&white),
        Some(json!({"move": mv(&v), "ply": 1})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let owner_a = lease_owner(&url, &id).await.expect("the game has a lease");

    // Black's clock as B reads it, bracketed by this test's clock.
    let before_read = Instant::now();
    let view = get(&b.base, &format!("/api/games/{id}")).await;
    let after_read = Instant::now();
    let black_before = black_ms(&view);

    // A dies; B answers throughout and takes the lease over once it expires.
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let owner = lease_owner(&url, &id).await;
        if owner.as_ref().is_some_and(|o| *o != owner_a) {
            break;
        }
        assert!(Instant::now() < deadline, "B never took the lease over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The takeover is committed; the copy B answers from has caught up with it once a read
    // shows B's version of the game (a takeover only changes the clock).
    let view = get(&b.base, &format!("/api/games/{id}")).await;

    // Black moves on B: charged the whole time since the read, as the clock rule says.
    let before_move = Instant::now();
    let (s, after) = post(
        &b.base,
        &path,
        Some(&black),
        Some(json!({"move": mv(&view), "ply": 2})),
    )
    .await;
    let after_move = Instant::now();
    assert_eq!(s, 200, "{after}");
    let charged = black_before - black_ms(&after);
    let least = before_move.duration_since(after_read).as_millis() as u64;
    let most = after_move.duration_since(before_read).as_millis() as u64;
    assert!(
        charged + SLACK_MS >= least,
        "Black was charged {charged} ms for at least {least} ms of real time: {} ms credited \
         although B answered throughout",
        least - charged
    );
    assert!(
        charged <= most + SLACK_MS,
        "Black was charged {charged} ms for at most {most} ms of real time"
    );
    drop(b);
    drop(pg);
}

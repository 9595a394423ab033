//! Two `crown-server` processes on one real PostgreSQL (docs/scaling.md): a timed game with one
//! player on each instance and a watcher on each, moves alternating between the instances; the
//! same move sent to both at once; then instance A, which holds every game's lease, is killed with
//! SIGKILL mid-game and instance B takes over: the timed game is finished on B with nothing lost,
//! an engine game's reply is played by B, and a running clock's flag is declared by B.
//! Skipped, saying so, when PostgreSQL is not installed.

mod common;
use common::cluster::{get, post, start_instance, watch, Ws, LEASE_MS};
use common::pg::Pg;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// The bound on waiting for a state message: generous, since a starved machine (CI beside other
/// jobs) may take seconds for what takes milliseconds on a quiet one; a passing run never waits
/// it out.
const WAIT_S: u64 = 60;

/// Read state messages until `done` holds for one; returns that game view.
async fn wait_for(ws: &mut Ws, what: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no state with {what} within {secs} s"))
            .expect("socket closed")
            .expect("socket error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == "state" && done(&v["game"]) {
                return v["game"].clone();
            }
        }
    }
}

async fn wait_ply(ws: &mut Ws, ply: usize) -> Value {
    wait_for(ws, &format!("ply {ply}"), WAIT_S, |g| g["ply"] == ply).await
}

/// Play `mv` (or the first legal move) for `token` on `base`; returns the game after it.
async fn play(base: &str, id: &str, token: &str, ply: usize, view: &Value) -> Value {
    let mv = view["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let (s, v) = post(
        base,
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(json!({"move": mv, "ply": ply})),
    )
    .await;
    assert_eq!(s, 200, "move {mv} at ply {ply} on {base}: {v}");
    v
}

fn running_ms(v: &Value, color: &str) -> u64 {
    v["clock"][format!("{color}_ms")].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_games_and_take_over_from_a_killed_one() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let mut a = start_instance(&url);
    let b = start_instance(&url);

    // Game 1: Black creates a timed game on A, White joins on B; a watcher on each instance.
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
    let mut watch_a = watch(&a.base, &id).await;
    let mut watch_b = watch(&b.base, &id).await;
    let (s, joined) = post(&b.base, &format!("/api/games/{id}/join"), None, None).await;
    assert_eq!(s, 200, "{joined}");
    let white = joined["token"].as_str().unwrap().to_string();
    // The join on B reaches the watcher on A.
    wait_for(&mut watch_a, "status ongoing", WAIT_S, |g| {
        g["status"] == "ongoing"
    })
    .await;

    // The same first move sent to both instances at once: one plays it, the other is answered
    // as a retry or refused as stale; never a server error, never two moves.
    let first = joined["game"]["legal_moves"][0]["text"].as_str().unwrap();
    let body = json!({"move": first, "ply": 0});
    let path = format!("/api/games/{id}/moves");
    let (ra, rb) = tokio::join!(
        post(&a.base, &path, Some(&black), Some(body.clone())),
        post(&b.base, &path, Some(&black), Some(body)),
    );
    for (s, v) in [&ra, &rb] {
        assert!(*s == 200 || *s == 409, "{s} {v}");
    }
    assert!(ra.0 == 200 || rb.0 == 200);
    let mut played = vec![first.to_string()];
    let mut view = wait_ply(&mut watch_a, 1).await;
    assert_eq!(view["moves"], json!(played));
    assert_eq!(wait_ply(&mut watch_b, 1).await["moves"], json!(played));

    // Moves alternate between the instances (White on B, Black on A); both watchers see each.
    for ply in 1..8 {
        let (base, token) = if ply % 2 == 1 {
            (&b.base, &white)
        } else {
            (&a.base, &black)
        };
        view = play(base, &id, token, ply, &view).await;
        played.push(view["moves"][ply].as_str().unwrap().to_string());
        assert_eq!(
            wait_ply(&mut watch_a, ply + 1).await["moves"],
            json!(played)
        );
        assert_eq!(
            wait_ply(&mut watch_b, ply + 1).await["moves"],
            json!(played)
        );
    }
    // Black (on A) to move at ply 8.

    // Game 2: an engine game created on A; the engine (run by A, the lease holder) replies.
    let (s, eg) = post(
        &a.base,
        "/api/games",
        None,
        Some(json!({"variant": "american", "opponent": "engine", "level": 1, "color": "black"})),
    )
    .await;
    assert_eq!(s, 201, "{eg}");
    let eid = eg["id"].as_str().unwrap().to_string();
    let eblack = eg["token"].as_str().unwrap().to_string();
    let mut watch_e = watch(&b.base, &eid).await;
    play(&a.base, &eid, &eblack, 0, &eg["game"]).await;
    let mut eview = wait_ply(&mut watch_e, 2).await;

    // Game 3: a 4-second clock, one move each, so Black's clock runs on A's lease.
    let short = json!({"initial_ms": 4_000, "increment_ms": 0});
    let (_, fg) = post(
        &a.base,
        "/api/games",
        None,
        Some(json!({"variant": "american", "color": "black", "time_control": short})),
    )
    .await;
    let fid = fg["id"].as_str().unwrap().to_string();
    let fblack = fg["token"].as_str().unwrap().to_string();
    let (_, fj) = post(&b.base, &format!("/api/games/{fid}/join"), None, None).await;
    let fwhite = fj["token"].as_str().unwrap().to_string();
    let fv = play(&a.base, &fid, &fblack, 0, &fj["game"]).await;
    // Black's turn starts after this instant (on the server, while White's move is played).
    let before_black_turn = Instant::now();
    let fv = play(&b.base, &fid, &fwhite, 1, &fv).await;
    let black_left = running_ms(&fv, "black");
    let mut watch_f = watch(&b.base, &fid).await;

    // Kill A, which holds all three leases (it created the games).
    // Taken before the read, so that the time charged from the read's clock on is within the
    // time the test measures, however slowly the machine answers.
    let black_turn_started = Instant::now();
    let black_turn_view = get(&b.base, &format!("/api/games/{id}")).await;
    let black_ms_before = running_ms(&black_turn_view, "black");
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = Instant::now();

    // Game 3: B takes the lease over and lets Black's flag fall; not before Black's time is up.
    let ended = wait_for(&mut watch_f, "a flag fall", WAIT_S, |g| {
        g["status"] == "finished"
    })
    .await;
    assert!(
        before_black_turn.elapsed() >= Duration::from_millis(black_left.saturating_sub(300)),
        "flag declared {:?} after Black's turn began, with {black_left} ms left",
        before_black_turn.elapsed()
    );
    assert_eq!(ended["outcome"]["winner"], "white", "{ended}");
    assert_eq!(ended["outcome"]["result"], "0-1", "{ended}");

    // Game 2: Black moves on B; the engine's reply comes from B once it holds the lease.
    eview = play(&b.base, &eid, &eblack, 2, &eview).await;
    let after = wait_ply(&mut watch_e, 4).await;
    assert_eq!(
        after["moves"].as_array().unwrap()[..3],
        eview["moves"].as_array().unwrap()[..3]
    );
    assert_eq!(after["status"], "ongoing");

    // Game 1: Black, whose instance died, plays on B; nothing was lost and the clock kept the
    // time: charged at most the real time since Black's turn started, and credited at most the
    // time nobody held the lease (one renewal interval after the expiry).
    tokio::time::sleep(Duration::from_millis(LEASE_MS + 500).saturating_sub(killed.elapsed()))
        .await;
    let real = black_turn_started.elapsed().as_millis() as u64;
    view = get(&b.base, &format!("/api/games/{id}")).await;
    assert_eq!(view["moves"], json!(played), "moves lost or changed");
    view = play(&b.base, &id, &black, 8, &view).await;
    let real_after = black_turn_started.elapsed().as_millis() as u64;
    played.push(view["moves"][8].as_str().unwrap().to_string());
    let charged = black_ms_before - running_ms(&view, "black");
    assert!(
        charged <= real_after + 50,
        "charged {charged} ms in {real_after} ms"
    );
    assert!(
        charged + LEASE_MS / 3 + 1000 >= real,
        "charged {charged} ms of {real} ms: more credited than the unowned gap"
    );
    // The game goes on on B to its end (White resigns): every move is kept.
    view = play(&b.base, &id, &white, 9, &view).await;
    played.push(view["moves"][9].as_str().unwrap().to_string());
    let (s, fin) = post(
        &b.base,
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(s, 200, "{fin}");
    let last = wait_for(&mut watch_b, "the resignation", WAIT_S, |g| {
        g["status"] == "finished"
    })
    .await;
    assert_eq!(last["moves"], json!(played));
    assert_eq!(last["outcome"]["winner"], "black");
    drop(b);
    drop(pg);
}

//! The engine's worker process (`crown-server --engine-worker`, `WorkerPicker`): it answers
//! searches, and one killed during a search is started again and the search answered, so the
//! game goes on.

mod common;

use axum::http::{Method, StatusCode};
use common::{send, server};
use crown_core::{Game, Position, Variant};
use crown_server::engine::{MovePicker, WorkerPicker};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A picker running this package's server binary as its worker, without databases or book (so
/// every move is searched).
fn picker() -> Arc<WorkerPicker> {
    let args = [
        "--engine-worker",
        "--no-egdb",
        "--no-book",
        "--hash-mib",
        "1",
        "--log",
        "warn",
    ];
    Arc::new(WorkerPicker::new(
        env!("CARGO_BIN_EXE_crown-server"),
        args.iter().map(Into::into).collect(),
    ))
}

/// Wait (at most 60 s) until the picker has a running worker; its process id.
fn running_worker(p: &WorkerPicker) -> u32 {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(pid) = p.worker_pid() {
            return pid;
        }
        assert!(Instant::now() < end, "no engine worker started within 60 s");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn kill(pid: u32) {
    let status = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -9 {pid}");
}

#[test]
fn the_worker_answers_a_legal_move_of_the_position_it_is_sent() {
    let p = picker();
    let mut game = Game::new(Variant::Pool);
    for _ in 0..2 {
        let mv = game.legal_moves()[0];
        game.play(&mv).unwrap();
    }
    let stop = AtomicBool::new(false);
    let mv = p.pick(&game, 1, Some((60_000, 0)), &stop).expect("a move");
    // A legal move of the position after the two moves (the worker replayed them).
    assert!(game.position().parse_move(&mv).is_ok(), "{mv}");
    assert_eq!(p.worker_starts(), 1);
    // The same worker answers the next search.
    let again = p.pick(&game, 1, None, &stop).expect("a move");
    assert!(game.position().parse_move(&again).is_ok(), "{again}");
    assert_eq!(p.worker_starts(), 1);
}

#[test]
fn a_worker_killed_during_a_search_is_started_again_and_the_search_answered() {
    let p = picker();
    let searcher = {
        let p = p.clone();
        // Level 10 without a book searches for up to 3 s: the kill below lands during it (or
        // before the search reached the worker; either way the worker is gone mid-search).
        std::thread::spawn(move || {
            p.pick(
                &Game::new(Variant::American),
                10,
                None,
                &AtomicBool::new(false),
            )
        })
    };
    let first = running_worker(&p);
    kill(first);
    let mv = searcher.join().unwrap().expect("a move after the restart");
    assert!(
        Position::new(Variant::American).parse_move(&mv).is_ok(),
        "{mv}"
    );
    assert_eq!(p.worker_starts(), 2, "one restart");
    assert_ne!(p.worker_pid(), Some(first));
}

#[test]
fn a_stopped_search_is_answered_at_once_without_a_move() {
    let p = picker();
    let stop = Arc::new(AtomicBool::new(false));
    let searcher = {
        let (p, stop) = (p.clone(), stop.clone());
        std::thread::spawn(move || {
            let t = Instant::now();
            (p.pick(&Game::new(Variant::American), 10, None, &stop), t)
        })
    };
    running_worker(&p);
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let (mv, started) = searcher.join().unwrap();
    // Stopped: either no move, or the best move found so far; never the whole 3 s search and more.
    if let Some(mv) = mv {
        assert!(Position::new(Variant::American).parse_move(&mv).is_ok());
    }
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// Issue 23, "engine games slow other players": the worker that runs every search is, as the
/// scheduler sees it (`/proc`), the leader of a session of its own — so that with autogroup
/// scheduling it is a group apart from the server's request threads, which would otherwise share
/// one group's CPU with it whatever its nice value — at nice 19 ([`WORKER_NICE`]), and so is its
/// autogroup. (Fields of `/proc/PID/stat` after the command: state is the 3rd field, the session
/// the 6th, the nice value the 19th; proc(5).)
#[cfg(target_os = "linux")]
#[test]
fn the_worker_runs_in_a_session_of_its_own_at_the_lowest_priority() {
    use crown_server::engine::WORKER_NICE;
    let p = picker();
    // A search answered: the worker is running and has lowered its priority (it does so first).
    let mv = p.pick(
        &Game::new(Variant::American),
        1,
        None,
        &AtomicBool::new(false),
    );
    assert!(mv.is_some(), "the worker answers a search");
    let pid = running_worker(&p);
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .expect("a stat line")
        .1
        .split_whitespace()
        .collect();
    let session: u32 = fields[6 - 3].parse().unwrap();
    let nice: i32 = fields[19 - 3].parse().unwrap();
    let own = std::fs::read_to_string("/proc/self/stat").unwrap();
    let own_session: u32 = own
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .nth(6 - 3)
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(session, pid, "the worker leads a session of its own");
    assert_ne!(session, own_session, "not the server's session");
    assert_eq!(nice, WORKER_NICE, "the worker's nice value");
    let autogroups = std::fs::read_to_string("/proc/sys/kernel/sched_autogroup_enabled")
        .is_ok_and(|s| s.trim() == "1");
    if autogroups {
        let group = std::fs::read_to_string(format!("/proc/{pid}/autogroup")).unwrap();
        assert!(
            group.trim_end().ends_with(&format!("nice {WORKER_NICE}")),
            "the worker's autogroup: {group}"
        );
    }
}

/// Through the server: the engine (Black) is thinking about its first move when its worker is
/// killed; the move still comes, from the restarted worker, and the engine's clock was charged
/// only the time it took (never more than it had).
#[tokio::test]
async fn an_engine_game_goes_on_when_its_worker_is_killed() {
    let p = picker();
    let app = server()
        .engine(p.clone() as Arc<dyn MovePicker>)
        .start()
        .await;
    let initial = 120_000u64;
    let created_at = Instant::now();
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(
            json!({"variant": "american", "opponent": "engine", "level": 10, "color": "white",
                    "time_control": {"initial_ms": initial, "increment_ms": 0}}),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let first = {
        let p = p.clone();
        tokio::task::spawn_blocking(move || running_worker(&p))
            .await
            .unwrap()
    };
    kill(first);
    let mut g = Value::Null;
    let end = Instant::now() + Duration::from_secs(120);
    while Instant::now() < end {
        g = send(&app, Method::GET, &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if g["ply"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        g["ply"], 1,
        "the engine moved after its worker was killed: {g}"
    );
    let played = g["moves"][0].as_str().unwrap();
    assert!(
        Position::new(Variant::American).parse_move(played).is_ok(),
        "{played}"
    );
    assert_eq!(p.worker_starts(), 2, "one restart");
    // The engine's clock ran (search, kill, restart, search), but never longer than the game.
    let black_ms = g["clock"]["black_ms"].as_u64().unwrap();
    let game_ms = created_at.elapsed().as_millis() as u64;
    assert!(black_ms < initial, "{black_ms}");
    assert!(
        initial - black_ms <= game_ms,
        "charged {} ms in {game_ms} ms",
        initial - black_ms
    );
    assert_eq!(g["clock"]["running"], "white");
}

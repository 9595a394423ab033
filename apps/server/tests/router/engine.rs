//! Games against the server's engine: replies off the runtime and within the clock, stale searches,
//! and the engine's clock while it waits for a worker.

use crate::common::{send, server};
use crate::{mv, FirstMove};
use axum::http::{Method, StatusCode};
use crown_core::{Game, Position, Variant};
use crown_server::engine::MovePicker;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[tokio::test]
async fn engine_replies_off_the_runtime() {
    let app = server().engine(Arc::new(FirstMove)).start().await;
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "opponent": "engine", "level": 2})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    assert_eq!(created["game"]["white"]["kind"], "engine");
    assert_eq!(created["game"]["status"], "ongoing");
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let (s, _) = mv(&app, id, Some(token), "11-15").await;
    assert_eq!(s, StatusCode::OK);
    let mut g = Value::Null;
    for _ in 0..200 {
        g = send(&app, Method::GET, &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if g["ply"] == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(g["ply"], 2, "{g}");
    // The test engine plays White's first legal move, as crown-core lists it.
    let mut game = Game::from_position(Position::new(Variant::American));
    game.play_text("11-15").unwrap();
    let expected = game.position().move_text(&game.legal_moves()[0]);
    assert_eq!(g["moves"][1], expected.as_str());
    // Takebacks against the engine are granted at once: Black is to move, so two plies go.
    let (s, g) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/request"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["ply"], 0);
}

#[tokio::test]
async fn crown_engine_replies_within_the_clock() {
    let picker: Arc<dyn MovePicker> = Arc::new(crown_server::engine::CrownEngine::new(1, 1));
    let app = server().engine(picker).start().await;
    // The creator takes White in pool checkers, so the engine (Black) moves first.
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(
            json!({"variant": "pool", "opponent": "engine", "level": 1, "color": "white",
                    "time_control": {"initial_ms": 5000, "increment_ms": 0}}),
        ),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_str().unwrap();
    let mut g = Value::Null;
    for _ in 0..500 {
        g = send(&app, Method::GET, &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if g["ply"] == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(g["ply"], 1, "{g}");
    let played = g["moves"][0].as_str().unwrap();
    let start = Position::new(Variant::Pool);
    assert!(start.parse_move(played).is_ok(), "{played}");
    let black_ms = g["clock"]["black_ms"].as_u64().unwrap();
    assert!(black_ms > 0 && black_ms <= 5000, "{black_ms}");
    assert_eq!(g["clock"]["running"], "white");
    assert_eq!(g["black"]["kind"], "engine");
    // The human may not play the engine's side, and a move from the human is answered.
    let token = created["token"].as_str().unwrap();
    let reply = g["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let (s, _) = mv(&app, id, Some(token), &reply).await;
    assert_eq!(s, StatusCode::OK);
}

/// Test engine whose first search waits for the test's go-ahead and then answers the last legal
/// move; later searches answer the first legal move. Logs (FEN searched, answer).
struct Gated {
    gate: std::sync::Mutex<Option<std::sync::mpsc::Receiver<()>>>,
    log: std::sync::Mutex<Vec<(String, String)>>,
}

impl MovePicker for Gated {
    fn pick(&self, game: &Game, _: u8, _: Option<(u64, u64)>, _: &AtomicBool) -> Option<String> {
        let gate = self.gate.lock().unwrap().take();
        let legal = game.legal_moves();
        let mv = match gate {
            Some(rx) => {
                let _ = rx.recv_timeout(std::time::Duration::from_secs(20));
                *legal.last()?
            }
            None => *legal.first()?,
        };
        let text = game.position().move_text(&mv);
        self.log
            .lock()
            .unwrap()
            .push((game.position().to_fen(), text.clone()));
        Some(text)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_never_plays_a_move_searched_for_an_older_position() {
    // Precondition from the rules: the stale answer (White's last legal move after 11-15) is also
    // legal after 11-16, and differs from White's first legal move there, so playing it would
    // go unnoticed by a check of the ply alone.
    let mut after_15 = Game::from_position(Position::new(Variant::American));
    after_15.play_text("11-15").unwrap();
    let stale = after_15
        .position()
        .move_text(after_15.legal_moves().last().unwrap());
    let mut after_16 = Game::from_position(Position::new(Variant::American));
    after_16.play_text("11-16").unwrap();
    let fresh = after_16
        .position()
        .move_text(after_16.legal_moves().first().unwrap());
    assert!(after_16.position().parse_move(&stale).is_ok());
    assert_ne!(stale, fresh);

    let (go, rx) = std::sync::mpsc::channel();
    let picker = Arc::new(Gated {
        gate: std::sync::Mutex::new(Some(rx)),
        log: std::sync::Mutex::new(Vec::new()),
    });
    let app = server()
        .engine(picker.clone() as Arc<dyn MovePicker>)
        .start()
        .await;
    let (s, g) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "opponent": "engine", "level": 1, "color": "black"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let token = g["token"].as_str().unwrap().to_string();
    let (s, v) = mv(&app, &id, Some(&token), "11-15").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The engine is now searching (held at the gate). Take back and play another move.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/takeback/request"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 0);
    let (s, v) = mv(&app, &id, Some(&token), "11-16").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    go.send(()).unwrap();
    let mut game = Value::Null;
    for _ in 0..1000 {
        let (_, v) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        if v["ply"] == 2 {
            game = v;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(game["moves"], json!(["11-16", fresh]), "{game}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_clock_stops_while_its_search_waits_for_a_worker() {
    let (go, rx) = std::sync::mpsc::channel();
    let picker = Arc::new(Gated {
        gate: std::sync::Mutex::new(Some(rx)),
        log: std::sync::Mutex::new(Vec::new()),
    });
    let app = server()
        .engine(picker.clone() as Arc<dyn MovePicker>)
        .with(|c| c.engine_workers = 1)
        .start()
        .await;
    // Game A: the engine (Black) moves first and its search holds the only worker.
    let engine_black = json!({"variant": "american", "opponent": "engine", "level": 1, "color": "white",
        "time_control": {"initial_ms": 60000, "increment_ms": 0}});
    let (s, _) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(engine_black.clone()),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    // Bounds on waiting are generous (a starved machine may take seconds); a passing run never
    // waits them out.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !app_engine_busy(&picker) {
        assert!(
            std::time::Instant::now() < deadline,
            "game A's search never started"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // Game B: its engine waits for the worker for at least `WAIT_MS`.
    const WAIT_MS: u64 = 3000;
    let (s, b) = send(&app, Method::POST, "/api/games", None, Some(engine_black)).await;
    assert_eq!(s, StatusCode::CREATED);
    let id = b["id"].as_str().unwrap().to_string();
    tokio::time::sleep(std::time::Duration::from_millis(WAIT_MS)).await;
    go.send(()).unwrap();
    let mut game = Value::Null;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        let (_, v) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        if v["ply"] == 1 {
            game = v;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(game["ply"], 1, "{game}");
    let used = 60_000 - game["clock"]["black_ms"].as_u64().unwrap();
    // Only the search itself is charged (the test engine answers at once), never the wait: on a
    // starved machine the search may take long, but charging the wait is at least `WAIT_MS`.
    assert!(
        used < WAIT_MS,
        "the engine was charged {used} ms for a {WAIT_MS} ms wait"
    );
}

/// Whether the gated engine's first search has started (its gate was taken).
fn app_engine_busy(p: &Gated) -> bool {
    p.gate.lock().unwrap().is_none()
}

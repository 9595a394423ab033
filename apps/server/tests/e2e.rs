//! End to end: the real `crown-server` binary on a free loopback port with a temporary database.
//! Two players play a whole game over HTTP, each waiting for its turn on its WebSocket, while a
//! spectator watches; the server is killed with SIGKILL mid-game, restarted on the same database,
//! and the game is finished. Every position is checked against crown-core replaying the same moves.

mod common;

use crown_core::{Color, Game, ImpasseSetup};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Start the server; returns the child and its base URL (`http://127.0.0.1:PORT`).
fn start_server(db: &Path) -> (Child, String) {
    let mut args: Vec<&std::ffi::OsStr> = [
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--rate-limit",
        "0",
        "--log",
        "warn",
        "--db",
    ]
    .iter()
    .map(std::ffi::OsStr::new)
    .collect();
    args.push(db.as_os_str());
    common::spawn_server(&args)
}

async fn ws_connect(base: &str, id: &str, token: Option<&str>) -> Ws {
    let mut url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    if let Some(t) = token {
        url.push_str(&format!("?token={t}"));
    }
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// Read state messages until one shows `ply` plies played; returns that game view.
async fn wait_ply(ws: &mut Ws, ply: usize) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no state with ply {ply} within 10 s"))
            .expect("socket closed")
            .expect("socket error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            assert_eq!(v["type"], "state");
            if v["game"]["ply"] == ply {
                return v["game"].clone();
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_and_a_spectator_survive_a_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crown.db");
    let http = reqwest::Client::new();
    let (mut server, base) = start_server(&db);

    // White creates a public Impasse game with a clock (public: listed once finished); Black
    // joins by the link's id.
    let created: Value = http
        .post(format!("{base}/api/games"))
        .json(
            &json!({"variant": "impasse", "color": "white", "public": true,
                      "time_control": {"initial_ms": 600000, "increment_ms": 0}}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["token"].as_str().unwrap().to_string();
    let joined: Value = http
        .post(format!("{base}/api/games/{id}/join"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(joined["color"], "black");
    let black = joined["token"].as_str().unwrap().to_string();
    let tokens = [black.clone(), white.clone()];

    // The reference: crown-core replaying the same moves.
    let mut reference = Game::impasse(ImpasseSetup::Seed);
    let mut sockets = [
        ws_connect(&base, &id, Some(&black)).await,
        ws_connect(&base, &id, Some(&white)).await,
    ];
    let mut spectator = ws_connect(&base, &id, None).await;
    let kill_at = 6;
    let mut restarted = false;

    while reference.outcome().is_none() {
        let ply = reference.ply_count();
        assert!(ply < 400, "the game should have ended");
        if ply == kill_at && !restarted {
            // The clock of the side not to move is stopped: remember it exactly.
            let g: Value = http
                .get(format!("{base}/api/games/{id}"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let idle = reference.position().side_to_move().opposite().name();
            let frozen_ms = g["clock"][format!("{idle}_ms")].as_u64().unwrap();
            server.kill().unwrap(); // SIGKILL
            server.wait().unwrap();
            let (s, b) = start_server(&db);
            server = s;
            restarted = true;
            // Everybody reconnects to the new address; the first message is the current state.
            for (i, c) in [Color::Black, Color::White].into_iter().enumerate() {
                sockets[i] = ws_connect(&b, &id, Some(&tokens[c.index()])).await;
            }
            spectator = ws_connect(&b, &id, None).await;
            let snap = wait_ply(&mut spectator, ply).await;
            assert_eq!(
                snap["fen"],
                reference.position().to_fen(),
                "no acknowledged move lost"
            );
            assert_eq!(
                snap["clock"][format!("{idle}_ms")].as_u64().unwrap(),
                frozen_ms
            );
            // The running clock resumed with the time it had (downtime is not charged), not reset.
            let mover = reference.position().side_to_move().name();
            let left = snap["clock"][format!("{mover}_ms")].as_u64().unwrap();
            assert!(left < 600_000 && left > 590_000, "{left}");
            assert_eq!(
                snap["clock"]["running"],
                reference.position().side_to_move().name()
            );
            run_rest(
                &http,
                &b,
                &id,
                &mut reference,
                &mut sockets,
                &mut spectator,
                &tokens,
            )
            .await;
            break;
        }
        play_one(
            &http,
            &base,
            &id,
            &mut reference,
            &mut sockets,
            &mut spectator,
            &tokens,
        )
        .await;
    }
    assert!(
        restarted,
        "the game ended before the kill; pick a longer game"
    );
    eprintln!("game finished after {} plies", reference.ply_count());
    // Graceful shutdown on SIGTERM: the open WebSockets are closed and the process exits 0.
    let status = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match spectator.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .expect("the spectator's socket was not closed at shutdown");
    // 1012: service restart.
    assert_eq!(closed, Some(1012));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = server.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no exit after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn run_rest(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    reference: &mut Game,
    sockets: &mut [Ws; 2],
    spectator: &mut Ws,
    tokens: &[String; 2],
) {
    while reference.outcome().is_none() {
        assert!(reference.ply_count() < 400, "the game should have ended");
        play_one(http, base, id, reference, sockets, spectator, tokens).await;
    }
    let g: Value = http
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let outcome = reference.outcome().unwrap();
    assert_eq!(g["status"], "finished");
    assert_eq!(
        g["outcome"]["result"],
        outcome.pdn_result(reference.variant())
    );
    assert_eq!(
        g["outcome"]["winner"],
        json!(outcome.winner().map(|c| c.name()))
    );
    assert_eq!(g["ply"], reference.ply_count());
    let list: Value = http
        .get(format!("{base}/api/games?status=finished"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["games"][0]["id"], id);
}

/// The side to move waits for its turn on its WebSocket, plays the first legal move over HTTP;
/// the spectator sees it.
async fn play_one(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    reference: &mut Game,
    sockets: &mut [Ws; 2],
    spectator: &mut Ws,
    tokens: &[String; 2],
) {
    let ply = reference.ply_count();
    let mover = reference.position().side_to_move();
    let seen = wait_ply(&mut sockets[mover.index()], ply).await;
    assert_eq!(seen["side_to_move"], mover.name());
    assert_eq!(seen["fen"], reference.position().to_fen());
    let text = seen["legal_moves"][0]["text"].as_str().unwrap().to_string();
    // The other seat's token is refused, and changes nothing.
    let refused = http
        .post(format!("{base}/api/games/{id}/moves"))
        .bearer_auth(&tokens[mover.opposite().index()])
        .json(&json!({ "move": text }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 409);
    let resp = http
        .post(format!("{base}/api/games/{id}/moves"))
        .bearer_auth(&tokens[mover.index()])
        .json(&json!({ "move": text, "ply": ply }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200, "{text}");
    let after: Value = resp.json().await.unwrap();
    reference.play_text(&text).unwrap();
    assert_eq!(after["fen"], reference.position().to_fen());
    let watched = wait_ply(spectator, ply + 1).await;
    assert_eq!(watched["fen"], reference.position().to_fen());
    assert_eq!(watched["moves"][ply], text.as_str());
}

//! Limits: body and request-head size, open games, request rate, what one address may hold, and
//! what one network (an IPv4 /24, an IPv6 /48) may hold: open games, public seeks, its share of the
//! lobby and of the engine's workers.

use crate::common::{raw, send, server};
use crate::{app, code, FirstMove};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use crown_server::{App, Config};
use serde_json::{json, Value};
use std::sync::Arc;

#[tokio::test]
async fn body_larger_than_the_limit_is_refused() {
    let app = server().with(|c| c.max_body_bytes = 256).start().await;
    let big = json!({"variant": "american", "fen": "x".repeat(1000)});
    let (s, v) = send(&app, Method::POST, "/api/games", None, Some(big)).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large")
    );
}

#[tokio::test]
async fn open_game_limit_is_enforced() {
    let app = server().with(|c| c.max_open_games = 1).start().await;
    let body = json!({"variant": "pool"});
    let (s, _) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, v) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "too_many_games")
    );
}

#[tokio::test]
async fn rate_limit_refuses_bursts() {
    let app = server()
        .with(|c| {
            c.rate_per_sec = 1;
            c.rate_burst = 2;
        })
        .start()
        .await;
    for _ in 0..2 {
        let (s, _) = send(&app, Method::GET, "/api/games", None, None).await;
        assert_eq!(s, StatusCode::OK);
    }
    let (s, v) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
    // /health is not limited.
    let (s, _) = send(&app, Method::GET, "/health", None, None).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn large_request_head_is_a_json_431() {
    let app = app().await;
    let req = Request::builder()
        .uri("/api/games")
        .header("x-big", "a".repeat(20 * 1024))
        .body(Body::empty())
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!(s, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, "{v}");
    assert_eq!(code(&v), "headers_too_large");
}

/// A request from `ip` (what `crown_server::serve` records for each connection).
/// POST `body` (`null`: no body) to `uri` as the client address `ip`.
async fn send_from(app: &App, ip: [u8; 4], uri: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder().method(Method::POST).uri(uri);
    let mut req = if body.is_null() {
        req.body(Body::empty()).unwrap()
    } else {
        req.header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
            ip, 40000,
        ))));
    raw(app, req).await
}

#[tokio::test]
async fn one_address_cannot_lock_everyone_out_with_unjoined_games() {
    // Issue 12: "minutes, not a day".
    assert!(Config::default().open_game_ttl_ms <= 15 * 60 * 1000);
    let app = server().with(|c| c.max_unjoined_per_ip = 3).start().await;
    let a = [10, 0, 0, 1];
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_unjoined"),
        "{v}"
    );
    // Another address is not affected.
    let (s, _) = send_from(
        &app,
        [10, 0, 0, 2],
        "/api/games",
        json!({"variant": "pool"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    // Once one is joined, the first address may create another.
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{}/join", ids[0]),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn one_address_cannot_lock_everyone_out_with_games_it_joins_itself() {
    // Issue 23: creating *and joining* its own games, one address filled the server-wide limit.
    let app = server()
        .with(|c| {
            c.max_games_per_ip = 3;
            c.max_open_games = 5;
        })
        .start()
        .await;
    let a = [10, 0, 0, 1];
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        let (s, j) = send_from(&app, a, &format!("/api/games/{id}/join"), json!(null)).await;
        assert_eq!(s, StatusCode::OK, "{j}");
        tokens.push((id, v["token"].as_str().unwrap().to_string()));
    }
    // A fourth game, created or joined, is refused to that address only.
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_active_games"),
        "{v}"
    );
    let (s, other) = send_from(
        &app,
        [10, 0, 0, 2],
        "/api/games",
        json!({"variant": "pool"}),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{other}");
    let other_id = other["id"].as_str().unwrap();
    let (s, v) = send_from(&app, a, &format!("/api/games/{other_id}/join"), json!(null)).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_active_games"),
        "{v}"
    );
    // The refused join took no seat: a third address still can.
    let (s, v) = send_from(
        &app,
        [10, 0, 0, 3],
        &format!("/api/games/{other_id}/join"),
        json!(null),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A game it finishes frees its place.
    let (id, token) = &tokens[0];
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send_from(&app, a, "/api/games", json!({"variant": "american"})).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn engine_games_are_capped_per_address() {
    let app = server()
        .engine(Arc::new(FirstMove))
        .with(|c| c.max_engine_games_per_ip = 2)
        .start()
        .await;
    let body = json!({"variant": "american", "opponent": "engine", "level": 10});
    let a = [10, 0, 0, 9];
    let mut first = None;
    for _ in 0..2 {
        let (s, v) = send_from(&app, a, "/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        first.get_or_insert((
            v["id"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
        ));
    }
    let (s, v) = send_from(&app, a, "/api/games", body.clone()).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_engine_games"),
        "{v}"
    );
    let (s, _) = send_from(&app, [10, 0, 0, 10], "/api/games", body.clone()).await;
    assert_eq!(s, StatusCode::CREATED);
    // Resigning one frees its place.
    let (id, token) = first.unwrap();
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send_from(&app, a, "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

/// `POST uri` with the JSON `body` (`null`: none) from the client address `ip` (IPv4 or IPv6).
async fn post_from(app: &App, ip: &str, uri: &str, body: Value) -> (StatusCode, Value) {
    let mut c = crate::common::accounts::post(uri, body.clone());
    if body.is_null() {
        c.body = None;
    }
    c.from = Some(ip.parse().unwrap());
    let (s, _, v) = c.send(app).await;
    (s, v)
}

/// `POST /api/games` of a private, untimed American game from the client address `ip`.
async fn create_from(app: &App, ip: &str) -> (StatusCode, Value) {
    post_from(app, ip, "/api/games", json!({"variant": "american"})).await
}

#[tokio::test]
async fn one_ipv6_48_cannot_fill_the_servers_open_games() {
    // The attack review's M1: the /64s of one /48, each within its own limits, filled
    // --max-open-games and every other client got 503 too_many_games.
    let per_net = Config::default().max_games_per_net;
    assert!(
        per_net < Config::default().max_open_games / 100,
        "{per_net}"
    );
    let app = server().with(|c| c.max_open_games = 200).start().await;
    let (mut created, mut refused) = (0, 0);
    for i in 0..40 {
        let ip = format!("2001:db8:77:{i:x}::1");
        for _ in 0..5 {
            let (s, v) = create_from(&app, &ip).await;
            match s {
                StatusCode::CREATED => created += 1,
                _ => {
                    assert_eq!(
                        (s, code(&v)),
                        (StatusCode::TOO_MANY_REQUESTS, "too_many_network_games"),
                        "{v}"
                    );
                    refused += 1;
                }
            }
        }
    }
    assert_eq!((created, refused), (per_net, 200 - per_net));
    // Another /48 still creates games.
    let (s, v) = create_from(&app, "2001:db8:78::1").await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn an_ipv4_24_shares_one_count_of_open_games_and_a_finished_game_frees_its_place() {
    let app = server().with(|c| c.max_games_per_net = 3).start().await;
    let body = json!({"variant": "pool"});
    let mut first = None;
    for ip in ["10.1.1.1", "10.1.1.1", "10.1.1.2"] {
        let (s, v) = post_from(&app, ip, "/api/games", body.clone()).await;
        assert_eq!(s, StatusCode::CREATED, "{ip}: {v}");
        first.get_or_insert((
            v["id"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
        ));
    }
    let (s, v) = post_from(&app, "10.1.1.3", "/api/games", body.clone()).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::TOO_MANY_REQUESTS, "too_many_network_games"),
        "{v}"
    );
    // Another /24 is another network.
    let (s, v) = post_from(&app, "10.1.2.1", "/api/games", body.clone()).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    // Cancelling one gives the /24 its place back.
    let (id, token) = first.unwrap();
    let cancel = format!("/api/games/{id}/cancel");
    let (s, v) = send(&app, Method::POST, &cancel, Some(&token), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = post_from(&app, "10.1.1.3", "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

/// Test engine: the first search waits for the test's go-ahead; every search sends the variant
/// it searched (in the order searched) and answers the first legal move.
struct Recorder {
    gate: std::sync::Mutex<Option<std::sync::mpsc::Receiver<()>>>,
    searched: std::sync::Mutex<std::sync::mpsc::Sender<crown_core::Variant>>,
}

impl crown_server::engine::MovePicker for Recorder {
    fn pick(
        &self,
        game: &crown_core::Game,
        _: u8,
        _: Option<(u64, u64)>,
        _: &std::sync::atomic::AtomicBool,
    ) -> Option<String> {
        let gate = self.gate.lock().unwrap().take();
        if let Some(rx) = gate {
            let _ = rx.recv_timeout(std::time::Duration::from_secs(30));
        }
        let _ = self
            .searched
            .lock()
            .unwrap()
            .send(game.position().variant());
        let mv = *game.legal_moves().first()?;
        Some(game.position().move_text(&mv))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_queue_takes_turns_between_networks() {
    // The attack review's M2: four addresses of one /24 with their sixteen engine games pushed
    // another player's engine reply back by sixteen searches (first come, first served).
    let (go, gate) = std::sync::mpsc::channel();
    let (searched_tx, searched) = std::sync::mpsc::channel();
    let picker = Arc::new(Recorder {
        gate: std::sync::Mutex::new(Some(gate)),
        searched: std::sync::Mutex::new(searched_tx),
    });
    let app = server()
        .engine(picker)
        .with(|c| c.engine_workers = 1)
        .start()
        .await;
    // The engine plays Black, which moves first: each game asks for a search at once.
    let flood = json!({"variant": "american", "opponent": "engine", "level": 10, "color": "white"});
    for a in 1..=4 {
        for _ in 0..4 {
            let ip = format!("10.9.9.{a}");
            let (s, v) = post_from(&app, &ip, "/api/games", flood.clone()).await;
            assert_eq!(s, StatusCode::CREATED, "{v}");
        }
    }
    // One search runs (held at the gate), fifteen wait.
    while app.games().engine_waiting() < 15 {
        tokio::task::yield_now().await;
    }
    let victim = json!({"variant": "pool", "opponent": "engine", "level": 1, "color": "white"});
    let (s, v) = post_from(&app, "10.77.7.7", "/api/games", victim).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    while app.games().engine_waiting() < 16 {
        tokio::task::yield_now().await;
    }
    go.send(()).unwrap();
    let order: Vec<crown_core::Variant> = tokio::task::spawn_blocking(move || {
        (0..17)
            .map(|_| {
                searched
                    .recv_timeout(std::time::Duration::from_secs(60))
                    .unwrap()
            })
            .collect()
    })
    .await
    .unwrap();
    // The victim's search is the next after the one running when it asked.
    let at = order
        .iter()
        .position(|v| *v == crown_core::Variant::Pool)
        .unwrap();
    assert_eq!(at, 1, "{order:?}");
}

/// Wait until the clock's millisecond has moved on, so that what is created next is strictly
/// newer than what was created before.
async fn next_millisecond() {
    let ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis()
    };
    let start = ms();
    while ms() <= start {
        tokio::task::yield_now().await;
    }
}

/// The ids of the seeks `GET /api/lobby` lists.
async fn lobby_ids(app: &App) -> Vec<String> {
    let (s, lobby) = send(app, Method::GET, "/api/lobby", None, None).await;
    assert_eq!(s, StatusCode::OK, "{lobby}");
    lobby["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

/// Six /64s of one /48 each post twenty public seeks (the attack review's M4); the answers.
async fn seek_flood(app: &App) -> Vec<(StatusCode, Value)> {
    let mut answers = Vec::new();
    for i in 0..6 {
        let ip = format!("2001:db8:90:{i:x}::1");
        for _ in 0..20 {
            let body = json!({"variant": "american", "public": true, "name": "SPAM"});
            answers.push(post_from(app, &ip, "/api/games", body).await);
        }
    }
    answers
}

#[tokio::test]
async fn one_network_posts_a_few_public_seeks_and_cannot_push_another_out_of_the_lobby() {
    let per_net = Config::default().max_seeks_per_net;
    assert!((1..=3).contains(&per_net), "{per_net}");
    let app = server().start().await;
    let body = json!({"variant": "american", "public": true, "name": "real"});
    let (s, v) = post_from(&app, "2001:db8:91::1", "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let real = v["id"].as_str().unwrap().to_string();
    next_millisecond().await;
    let answers = seek_flood(&app).await;
    let created = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    assert_eq!(created, per_net);
    for (s, v) in answers.iter().filter(|(s, _)| *s != StatusCode::CREATED) {
        assert_eq!(
            (*s, code(v)),
            (StatusCode::TOO_MANY_REQUESTS, "too_many_seeks"),
            "{v}"
        );
    }
    let listed = lobby_ids(&app).await;
    assert!(listed.contains(&real), "{listed:?}");
    assert_eq!(listed.len(), per_net + 1);
    // A private game is no seek: the network still creates those.
    let (s, v) = create_from(&app, "2001:db8:90:9::1").await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn the_lobby_lists_every_networks_newest_seek_before_a_second_of_any() {
    // With the per-network caps lifted, one network's 120 newer seeks still leave an older
    // seek of another network its place among the 100 listed.
    let app = server()
        .with(|c| {
            c.max_seeks_per_net = usize::MAX;
            c.max_games_per_net = usize::MAX;
        })
        .start()
        .await;
    let body = json!({"variant": "american", "public": true, "name": "real"});
    let (s, v) = post_from(&app, "2001:db8:91::1", "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let real = v["id"].as_str().unwrap().to_string();
    next_millisecond().await;
    let answers = seek_flood(&app).await;
    assert!(answers.iter().all(|(s, _)| *s == StatusCode::CREATED));
    let listed = lobby_ids(&app).await;
    assert_eq!(listed.len(), crown_server::lobby::MAX_SEEKS);
    assert!(listed.contains(&real), "{listed:?}");
}

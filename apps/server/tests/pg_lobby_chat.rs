//! Two `crown-server` processes on one real PostgreSQL (docs/scaling.md): the lobby lists the
//! public seeks created on either instance and a seek created on A is accepted on B; a chat
//! message sent on one instance reaches a watcher on the other (stored, announced on
//! `crown_chat`, re-read) and is read back on both; a rematch asked for on A reaches a spectator
//! watching on B. Skipped, saying so, when PostgreSQL is not installed.

mod common;
use common::cluster::{get, post, start_instance, watch, Ws};
use common::pg::Pg;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// Read messages until one satisfies `done`; returns it.
async fn wait_msg(ws: &mut Ws, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no message with {what} within 10 s"))
            .expect("socket closed")
            .expect("socket error");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if done(&v) {
                return v;
            }
        }
    }
}

/// The ids of the seeks listed by `base`'s lobby.
async fn seek_ids(base: &str) -> Vec<String> {
    get(base, "/api/lobby").await["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

fn texts(log: &Value) -> Vec<&str> {
    log["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_chat_and_rematch_reach_every_instance() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let a = start_instance(&url);
    let b = start_instance(&url);

    // A public seek on A and one on B, a private game on A: both lobbies list both seeks, newest
    // first, and never the private game.
    let (s, seek) = post(
        &a.base,
        "/api/games",
        None,
        Some(
            json!({"variant": "american", "color": "black", "public": true, "name": "Ann",
                    "time_control": {"initial_ms": 300_000, "increment_ms": 2_000}}),
        ),
    )
    .await;
    assert_eq!(s, 201, "{seek}");
    let id = seek["id"].as_str().unwrap().to_string();
    let black = seek["token"].as_str().unwrap().to_string();
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (s, seek_b) = post(
        &b.base,
        "/api/games",
        None,
        Some(json!({"variant": "pool", "public": true})),
    )
    .await;
    assert_eq!(s, 201, "{seek_b}");
    let id_b = seek_b["id"].as_str().unwrap().to_string();
    let (s, private) = post(
        &a.base,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    assert_eq!(s, 201, "{private}");
    for base in [&a.base, &b.base] {
        assert_eq!(
            seek_ids(base).await,
            vec![id_b.clone(), id.clone()],
            "lobby of {base}"
        );
    }
    let listed = get(&b.base, "/api/lobby").await;
    let on_b = &listed["seeks"][1];
    assert_eq!(on_b["name"], "Ann");
    assert_eq!(on_b["color"], "white", "the joiner gets the free seat");
    assert_eq!(on_b["time_control"]["increment_ms"], 2_000);

    // A watcher on A; the seek made on A is accepted on B: it leaves both lobbies and the
    // creator's instance sees the join.
    let mut watch_a = watch(&a.base, &id).await;
    let (s, joined) = post(&b.base, &format!("/api/games/{id}/join"), None, None).await;
    assert_eq!(s, 200, "{joined}");
    assert_eq!(joined["color"], "white");
    let white = joined["token"].as_str().unwrap().to_string();
    wait_msg(&mut watch_a, "status ongoing", |v| {
        v["type"] == "state" && v["game"]["status"] == "ongoing"
    })
    .await;
    for base in [&a.base, &b.base] {
        assert_eq!(seek_ids(base).await, vec![id_b.clone()], "lobby of {base}");
    }

    // Chat: Black writes on A, a watcher on B gets it over its socket; White answers on B, the
    // watcher on A gets it; both instances read the same log.
    let mut watch_b = watch(&b.base, &id).await;
    let chat = format!("/api/games/{id}/chat");
    let (s, m) = post(
        &a.base,
        &chat,
        Some(&black),
        Some(json!({"text": "good luck"})),
    )
    .await;
    assert_eq!((s, m["n"].as_u64()), (201, Some(1)), "{m}");
    let got = wait_msg(&mut watch_b, "Black's chat", |v| v["type"] == "chat").await;
    assert_eq!(got["message"]["text"], "good luck");
    assert_eq!(got["message"]["name"], "Ann");
    assert_eq!(got["message"]["n"], 1);
    let (s, m) = post(
        &b.base,
        &chat,
        Some(&white),
        Some(json!({"text": "you too"})),
    )
    .await;
    assert_eq!((s, m["n"].as_u64()), (201, Some(2)), "{m}");
    let got = wait_msg(&mut watch_a, "White's chat", |v| {
        v["type"] == "chat" && v["message"]["n"] == 2
    })
    .await;
    assert_eq!(got["message"]["text"], "you too");
    for base in [&a.base, &b.base] {
        assert_eq!(
            texts(&get(base, &chat).await),
            ["good luck", "you too"],
            "{base}"
        );
    }

    // White resigns on B; Black asks for a rematch on A: the spectator on B gets its id.
    let (s, v) = post(
        &b.base,
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, r) = post(
        &a.base,
        &format!("/api/games/{id}/rematch"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(s, 201, "{r}");
    let new_id = r["id"].as_str().unwrap();
    let pushed = wait_msg(&mut watch_b, "the rematch", |v| {
        v["type"] == "state" && !v["game"]["rematch"].is_null()
    })
    .await;
    assert_eq!(pushed["game"]["rematch"]["id"], new_id);
    assert_eq!(pushed["game"]["rematch"]["by"], "black");
    drop((a, b));
    drop(pg);
}

/// Chat message numbers pushed to `ws` until `quiet` passes without one (or 10 s in all).
async fn pushed_chat_numbers(ws: &mut Ws, quiet: Duration) -> Vec<u64> {
    let mut got = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while tokio::time::Instant::now() < deadline {
        match tokio::time::timeout(quiet, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "chat" {
                    got.push(v["message"]["n"].as_u64().unwrap());
                }
            }
            Ok(Some(Ok(_))) => {}
            _ => break,
        }
    }
    got
}

/// Races between instances (found by a reviewer's probes): a move retried with its `ply` on the
/// other instance before that one has applied the first move's notification is answered 200 like
/// the first time (docs/api.md, "Retries are safe with `ply`"), never `stale_ply`; chat messages
/// posted at once on both instances reach every watcher on each instance exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_and_chat_are_exact_across_instances() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let url = pg.url();
    let a = start_instance(&url);
    let b = start_instance(&url);

    for round in 0..10 {
        let (s, g) = post(
            &b.base,
            "/api/games",
            None,
            Some(json!({"variant": "american"})),
        )
        .await;
        assert_eq!(s, 201, "{g}");
        let (id, black) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
        let (s, j) = post(&a.base, &format!("/api/games/{id}/join"), None, None).await;
        assert_eq!(s, 200, "{j}");
        let mv = j["game"]["legal_moves"][0]["text"].as_str().unwrap();
        let moves = format!("/api/games/{id}/moves");
        let body = json!({"move": mv, "ply": 0});
        let (s1, v1) = post(&a.base, &moves, Some(black), Some(body.clone())).await;
        let (s2, v2) = post(&b.base, &moves, Some(black), Some(body)).await;
        assert_eq!((s1, s2), (200, 200), "round {round}: {v1} / {v2}");
        assert_eq!((v1["ply"].as_u64(), v2["ply"].as_u64()), (Some(1), Some(1)));
    }

    for round in 0..4 {
        let (s, g) = post(
            &a.base,
            "/api/games",
            None,
            Some(json!({"variant": "american"})),
        )
        .await;
        assert_eq!(s, 201, "{g}");
        let (id, black) = (
            g["id"].as_str().unwrap().to_string(),
            g["token"].as_str().unwrap(),
        );
        let (s, j) = post(&b.base, &format!("/api/games/{id}/join"), None, None).await;
        assert_eq!(s, 200, "{j}");
        let white = j["token"].as_str().unwrap();
        let mut watch_a = watch(&a.base, &id).await;
        let mut watch_b = watch(&b.base, &id).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let chat = format!("/api/games/{id}/chat");
        let posts = (0..5).flat_map(|i| {
            [
                post(
                    &a.base,
                    &chat,
                    Some(black),
                    Some(json!({"text": format!("b{i}")})),
                ),
                post(
                    &b.base,
                    &chat,
                    Some(white),
                    Some(json!({"text": format!("w{i}")})),
                ),
            ]
        });
        for (s, m) in futures_util::future::join_all(posts).await {
            assert_eq!(s, 201, "round {round}: {m}");
        }
        for (name, ws) in [("A", &mut watch_a), ("B", &mut watch_b)] {
            let mut got = pushed_chat_numbers(ws, Duration::from_millis(1500)).await;
            got.sort_unstable();
            assert_eq!(
                got,
                (1..=10).collect::<Vec<u64>>(),
                "round {round}, watcher on {name}"
            );
        }
    }
}

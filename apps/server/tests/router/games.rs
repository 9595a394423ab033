//! Creating, listing, getting, joining and cancelling games; open games that expire and games
//! nobody moves in; which games the list shows.

use crate::common::{raw, send, server};
use crate::{app, code, two_player};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use crown_server::Config;
use serde_json::{json, Value};

#[tokio::test]
async fn create_game_gives_creator_a_secret_token() {
    let app = app().await;
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    // American rule 3: Black moves first, so the creator gets Black by default.
    assert_eq!(v["color"], "black");
    let token = v["token"].as_str().unwrap();
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(v["game"]["status"], "open");
    assert_eq!(
        v["game"]["fen"],
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(v["game"]["legal_moves"].as_array().unwrap().len(), 7);
    // The token never appears in the game view.
    assert!(!v["game"].to_string().contains(token));
    // Impasse: White moves first; the Steere setup is accepted.
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "impasse", "setup": "steere", "color": "black"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["color"], "black");
    assert_eq!(v["game"]["side_to_move"], "white");
    assert_eq!(
        v["game"]["fen"],
        "W:WK1,K3,K6,K8,26,28,29,31:B2,4,5,7,K25,K27,K30,K32"
    );
}

#[tokio::test]
async fn a_repaired_fen_comes_back_with_its_warnings() {
    let app = app().await;
    // An archive FEN: `?` as the side to move (Black, the first player in American, is taken) and
    // a White man on square 1, White's king row, which can only be a king (docs/notation.md).
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "fen": "?:W1:B14"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["game"]["fen"], "B:WK1:B14");
    let w: Vec<&str> = v["warnings"]
        .as_array()
        .expect("a warnings list")
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].contains("side to move unknown"), "{}", w[0]);
    assert!(w[1].contains("White man on 1"), "{}", w[1]);
    // A clean FEN has no warnings field.
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "fen": "B:WK1:B14"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert!(v.get("warnings").is_none(), "{v}");
}

#[tokio::test]
async fn create_game_errors_name_the_problem() {
    let app = app().await;
    let cases = [
        (
            json!({"variant": "chess"}),
            StatusCode::BAD_REQUEST,
            "bad_variant",
        ),
        (
            json!({"variant": "american", "fen": "B:W99:B1"}),
            StatusCode::BAD_REQUEST,
            "bad_fen",
        ),
        (
            json!({"variant": "american", "setup": "seed"}),
            StatusCode::BAD_REQUEST,
            "bad_setup",
        ),
        (
            json!({"variant": "impasse", "setup": "nope"}),
            StatusCode::BAD_REQUEST,
            "bad_setup",
        ),
        (
            json!({"variant": "impasse", "setup": "seed", "fen": "W:W1:B2"}),
            StatusCode::BAD_REQUEST,
            "bad_setup",
        ),
        (
            json!({"variant": "american", "opponent": "cat"}),
            StatusCode::BAD_REQUEST,
            "bad_opponent",
        ),
        (
            json!({"variant": "american", "level": 3}),
            StatusCode::BAD_REQUEST,
            "bad_level",
        ),
        (
            json!({"variant": "american", "opponent": "engine", "level": 11}),
            StatusCode::BAD_REQUEST,
            "bad_level",
        ),
        (
            json!({"variant": "american", "opponent": "engine", "level": 3}),
            StatusCode::NOT_IMPLEMENTED,
            "engine_unavailable",
        ),
        (
            json!({"variant": "american", "color": "red"}),
            StatusCode::BAD_REQUEST,
            "bad_color",
        ),
        (
            json!({"variant": "american", "time_control": {"initial_ms": 0, "increment_ms": 0}}),
            StatusCode::BAD_REQUEST,
            "bad_time_control",
        ),
        // Black to move with no pieces: the game is over before it starts.
        (
            json!({"variant": "american", "fen": "B:W18:B"}),
            StatusCode::BAD_REQUEST,
            "game_already_over",
        ),
        (
            json!({"variant": "american", "colour": "black"}),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
        (
            json!({"fen": "B:W18:B14"}),
            StatusCode::BAD_REQUEST,
            "bad_json",
        ),
    ];
    for (body, status, want) in cases {
        let (s, v) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
        assert_eq!((s, code(&v)), (status, want), "{body} -> {v}");
        assert!(!v["error"]["message"].as_str().unwrap().is_empty());
    }
    // Not JSON at all, and no content type.
    let req = Request::post("/api/games")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{not json"))
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_json"));
    let req = Request::post("/api/games")
        .body(Body::from(r#"{"variant":"american"}"#))
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "bad_content_type")
    );
    // Nothing was stored by any of these.
    let (_, list) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn list_games_filters_and_validates() {
    let app = app().await;
    // Public: only public and rated games are listed.
    let (id, black, _) = two_player(&app, json!({"variant": "american", "public": true})).await;
    let (s, _) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool", "public": true})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = send(&app, Method::GET, "/api/games", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    let (_, v) = send(&app, Method::GET, "/api/games?status=finished", None, None).await;
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["id"], id.as_str());
    // White won by resignation; White moves second in American checkers, so 0-1.
    assert_eq!(games[0]["result"], "0-1");
    let (_, v) = send(
        &app,
        Method::GET,
        "/api/games?status=open&limit=1",
        None,
        None,
    )
    .await;
    assert_eq!(v["games"][0]["variant"], "pool");
    let (s, v) = send(&app, Method::GET, "/api/games?status=lost", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_status"));
    let (s, v) = send(&app, Method::GET, "/api/games?limit=0", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_limit"));
    let (s, _) = send(&app, Method::GET, "/api/games?limit=x", None, None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn get_game_and_not_found() {
    let app = app().await;
    let (id, black, white) = two_player(&app, json!({"variant": "american"})).await;
    let (s, v) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "ongoing");
    assert!(v.get("you").is_none());
    let (_, v) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!(v["you"], "white");
    let (_, v) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}"),
        Some(&black),
        None,
    )
    .await;
    assert_eq!(v["you"], "black");
    for bad in ["0000000000000000", "a-b", "x%20y"] {
        let (s, v) = send(&app, Method::GET, &format!("/api/games/{bad}"), None, None).await;
        assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"), "{bad}");
    }
    let (s, v) = send(&app, Method::GET, "/api/nothing", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "no_route"));
}

#[tokio::test]
async fn join_takes_the_open_seat_once() {
    let app = app().await;
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "color": "white"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["color"], "black");
    assert_ne!(v["token"], created["token"]);
    assert_eq!(v["game"]["status"], "ongoing");
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "seat_taken"));
    let (s, v) = send(&app, Method::POST, "/api/games/ffff/join", None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::NOT_FOUND, "not_found"));
}

/// The creator can withdraw a game nobody joined: it ends as cancelled and frees its place under
/// `max_open_games`; nobody can join or act on it afterwards.
#[tokio::test]
async fn creator_cancels_an_unjoined_game() {
    let app = server().with(|c| c.max_open_games = 1).start().await;
    // Public: listed once cancelled (only public and rated games are).
    let body = json!({"variant": "american", "public": true});
    let (s, c) = send(&app, Method::POST, "/api/games", None, Some(body.clone())).await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let token = c["token"].as_str().unwrap().to_string();
    let cancel = format!("/api/games/{id}/cancel");
    // Without the creator's token: refused.
    let (s, v) = send(&app, Method::POST, &cancel, None, None).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let (s, v) = send(&app, Method::POST, &cancel, Some("00"), None).await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "bad_token"));
    let (s, v) = send(&app, Method::POST, &cancel, Some(&token), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "finished");
    assert_eq!(v["outcome"]["result"], "*");
    assert_eq!(v["outcome"]["winner"], Value::Null);
    assert_eq!(app.open_games(), 0);
    // The place is free again, the cancelled game cannot be joined or cancelled twice.
    let (s, v) = send(&app, Method::POST, "/api/games", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "cancelled"));
    let (s, v) = send(&app, Method::POST, &cancel, Some(&token), None).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "cancelled"));
    let (_, v) = send(&app, Method::GET, "/api/games?status=finished", None, None).await;
    assert_eq!(v["games"][0]["id"], id.as_str());
    // A started game cannot be cancelled (resign instead).
    let app2 = server().start().await;
    let (id2, b, _) = two_player(&app2, json!({"variant": "american"})).await;
    let (s, v) = send(
        &app2,
        Method::POST,
        &format!("/api/games/{id2}/cancel"),
        Some(&b),
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_open"));
}

/// An open game nobody joins expires after `open_game_ttl_ms` and stops counting as open.
#[tokio::test]
async fn unjoined_games_expire() {
    let app = server()
        .with(|c| {
            c.max_open_games = 1;
            c.open_game_ttl_ms = 200;
        })
        .start()
        .await;
    let (s, c) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let mut g = Value::Null;
    for _ in 0..100 {
        g = send(&app, Method::GET, &format!("/api/games/{id}"), None, None)
            .await
            .1;
        if g["status"] == "finished" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(g["status"], "finished", "{g}");
    assert_eq!(g["outcome"]["result"], "*");
    assert_eq!(app.open_games(), 0);
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "cancelled"));
}

#[tokio::test]
async fn private_games_stay_out_of_the_lobby() {
    let app = app().await;
    let (_, private) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    let (_, public) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american", "public": true})),
    )
    .await;
    let (s, v) = send(&app, Method::GET, "/api/games?status=open", None, None).await;
    assert_eq!(s, StatusCode::OK);
    let ids: Vec<&str> = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![public["id"].as_str().unwrap()], "{v}");
    let (_, v) = send(&app, Method::GET, "/api/games", None, None).await;
    assert!(
        !v.to_string().contains(private["id"].as_str().unwrap()),
        "{v}"
    );
    // Once joined through its link, the private game stays out of the list (docs/api.md: only
    // public and rated games are listed) and is watched through its link.
    let pid = private["id"].as_str().unwrap();
    let (s, _) = send(
        &app,
        Method::POST,
        &format!("/api/games/{pid}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = send(&app, Method::GET, "/api/games?status=ongoing", None, None).await;
    assert_eq!(v["games"], json!([]), "{v}");
    let (s, v) = send(&app, Method::GET, &format!("/api/games/{pid}"), None, None).await;
    assert_eq!(
        (s, &v["status"]),
        (StatusCode::OK, &json!("ongoing")),
        "{v}"
    );
}

/// `GET /api/games` lists only public and rated games, in every status (docs/api.md): a private
/// casual game, finished or ongoing, is reachable only through its link, as the player archive
/// ("Players") keeps it to its own player.
#[tokio::test]
async fn private_games_stay_out_of_the_list_in_every_status() {
    let app = app().await;
    let (private, pb, _) = two_player(&app, json!({"variant": "american"})).await;
    let (public, ub, _) = two_player(&app, json!({"variant": "american", "public": true})).await;
    let (ongoing, _, _) = two_player(&app, json!({"variant": "pool"})).await;
    for (id, black) in [(&private, &pb), (&public, &ub)] {
        let (s, v) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/resign"),
            Some(black),
            None,
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let listed = |v: &Value| -> Vec<String> {
        let games = v["games"].as_array().unwrap();
        games
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    for (query, want) in [
        ("", vec![public.clone()]),
        ("?status=finished", vec![public.clone()]),
        ("?status=ongoing", vec![]),
        ("?status=open", vec![]),
        ("?status=aborted", vec![]),
    ] {
        let (s, v) = send(&app, Method::GET, &format!("/api/games{query}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(listed(&v), want, "{query}: {v}");
    }
    // Still reachable by their links.
    for (id, status) in [(&private, "finished"), (&ongoing, "ongoing")] {
        let (s, v) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
        assert_eq!((s, &v["status"]), (StatusCode::OK, &json!(status)), "{v}");
    }
}

#[tokio::test]
async fn an_untimed_game_nobody_moves_in_ends_abandoned_and_frees_its_place() {
    // Issue 23: joined games never expired, so the server-wide limit stayed full for good.
    assert!(Config::default().abandon_after_ms >= 3600 * 1000);
    let app = server()
        .with(|c| {
            c.abandon_after_ms = 300;
            c.max_open_games = 1;
        })
        .start()
        .await;
    let (id, black, _) = two_player(&app, json!({"variant": "american"})).await;
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool"})),
    )
    .await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::SERVICE_UNAVAILABLE, "too_many_games"),
        "{v}"
    );
    let h = app.games().handle(&id).await.unwrap();
    let mut rx = crown_server::games::Games::subscribe(&h);
    // Ended by the server within a generous bound (checked about once a second).
    let pushed = tokio::time::timeout(std::time::Duration::from_secs(60), async {
        loop {
            let msg = rx.recv().await.unwrap();
            let v: Value = serde_json::from_str(&msg).unwrap();
            if v["event"] == "abandoned" {
                break v;
            }
        }
    })
    .await
    .expect("an abandoned event within 60 s");
    assert_eq!(pushed["game"]["status"], "finished");
    let outcome = &pushed["game"]["outcome"];
    assert_eq!(outcome["result"], "*", "{outcome}");
    assert_eq!(outcome["winner"], Value::Null);
    assert!(
        outcome["reason"].as_str().unwrap().starts_with("abandoned"),
        "{outcome}"
    );
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"move": "11-15"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
    // Its place is free.
    let (s, v) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

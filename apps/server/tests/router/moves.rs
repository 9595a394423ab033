//! Playing moves: whose token, which moves, when, and retried moves.

use crate::common::{raw, send};
use crate::{app, code, mv, two_player};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::json;

#[tokio::test]
async fn move_with_other_seats_token_or_no_token_is_refused() {
    let app = app().await;
    let (id, black, white) = two_player(&app, json!({"variant": "american"})).await;
    let (other_game, other_black, _) = two_player(&app, json!({"variant": "american"})).await;
    assert_ne!(id, other_game);
    // Black is to move: White's token may not play Black's move.
    let (s, v) = mv(&app, &id, Some(&white), "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_your_turn"));
    // No token, a garbage token, and a seat token of another game.
    let (s, v) = mv(&app, &id, None, "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let req = Request::post(format!("/api/games/{id}/moves"))
        .header(header::AUTHORIZATION, "Basic abc")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"move":"11-15"}"#))
        .unwrap();
    let (s, v) = raw(&app, req).await;
    assert_eq!((s, code(&v)), (StatusCode::UNAUTHORIZED, "missing_token"));
    let (s, v) = mv(&app, &id, Some("deadbeef"), "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "bad_token"));
    let (s, v) = mv(&app, &id, Some(&other_black), "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::FORBIDDEN, "bad_token"));
    // Nothing changed.
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 0);
    // The right token plays.
    let (s, g) = mv(&app, &id, Some(&black), "11-15").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"], json!(["11-15"]));
    assert_eq!(g["side_to_move"], "white");
    // Now Black's token is the one out of turn.
    let (s, v) = mv(&app, &id, Some(&black), "15-19").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_your_turn"));
}

#[tokio::test]
async fn bad_moves_are_refused_and_change_nothing() {
    let app = app().await;
    let (id, black, white) = two_player(
        &app,
        json!({"variant": "american", "fen": "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13"}),
    )
    .await;
    // Black must capture: a plain move is illegal, and the error lists the legal moves.
    let (s, v) = mv(&app, &id, Some(&black), "12-16").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move")
    );
    let legal: Vec<&str> = v["error"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        legal.contains(&"10x17x26") && legal.contains(&"10x19x26"),
        "{legal:?}"
    );
    // 10x26 fits two capture paths.
    let (s, v) = mv(&app, &id, Some(&black), "10x26").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "ambiguous_move")
    );
    assert_eq!(v["error"]["candidates"].as_array().unwrap().len(), 2);
    let (s, v) = mv(&app, &id, Some(&black), "hello").await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNPROCESSABLE_ENTITY, "bad_move_syntax")
    );
    // A stale ply number.
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"move": "10x17x26", "ply": 3})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "stale_ply"));
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"mv": "10x17x26"})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::BAD_REQUEST, "bad_json"));
    let (_, g) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(g["ply"], 0);
    assert_eq!(g["fen"], "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13");
    // The full path plays, with ply given.
    let (s, g) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/moves"),
        Some(&black),
        Some(json!({"move": "10x17x26", "ply": 0})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"], json!(["10x17x26"]));
    // White must recapture 30x23? No: White's men on 21, 22, 23 ... whatever core says is legal.
    let first = g["legal_moves"][0]["text"].as_str().unwrap().to_string();
    let (s, _) = mv(&app, &id, Some(&white), &first).await;
    assert_eq!(s, StatusCode::OK);
}

#[tokio::test]
async fn moves_before_join_and_after_the_end_are_refused() {
    let app = app().await;
    let (_, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "american"})),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let (s, v) = mv(&app, id, Some(token), "11-15").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "seat_open"));
    // A position where Black wins with one jump: Black 14 takes 18 and White has nothing left.
    let (id, black, white) =
        two_player(&app, json!({"variant": "american", "fen": "B:W18:B14"})).await;
    let (s, g) = mv(&app, &id, Some(&black), "14x23").await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["status"], "finished");
    assert_eq!(g["outcome"]["winner"], "black");
    assert_eq!(g["outcome"]["result"], "1-0");
    assert_eq!(g["legal_moves"], json!([]));
    let (s, v) = mv(&app, &id, Some(&white), "23-19").await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"));
    let (s, v) = send(
        &app,
        Method::POST,
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"));
}

#[tokio::test]
async fn a_retried_move_is_answered_like_the_first_time() {
    let app = app().await;
    let (id, black, white) = two_player(&app, json!({"variant": "american"})).await;
    let uri = format!("/api/games/{id}/moves");
    let first = json!({"move": "11-15", "ply": 0});
    let (s, v) = send(&app, Method::POST, &uri, Some(&black), Some(first.clone())).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // The same request again (its reply was lost): 200, and the move is not played twice.
    let (s, v) = send(&app, Method::POST, &uri, Some(&black), Some(first.clone())).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 1);
    assert_eq!(v["moves"], json!(["11-15"]));
    // Another move for the same ply is stale, not a retry.
    let (s, v) = send(
        &app,
        Method::POST,
        &uri,
        Some(&black),
        Some(json!({"move": "9-13", "ply": 0})),
    )
    .await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "stale_ply"), "{v}");
    // The other seat cannot claim Black's move.
    let (s, v) = send(&app, Method::POST, &uri, Some(&white), Some(first.clone())).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    // Still recognised after the opponent replied.
    let (s, _) = send(
        &app,
        Method::POST,
        &uri,
        Some(&white),
        Some(json!({"move": "23-19", "ply": 1})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = send(&app, Method::POST, &uri, Some(&black), Some(first)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["11-15", "23-19"]));
}

/// A game-ending move sent twice at once (a retry racing its first try): both are answered
/// 200 with the same finished game, never `409 game_over` for the retry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_ending_move_sent_twice_at_once_is_answered_200_both_times() {
    let app = app().await;
    for round in 0..40 {
        // Black's 14x23 takes White's last piece.
        let (id, black, _) =
            two_player(&app, json!({"variant": "american", "fen": "B:W18:B14"})).await;
        let uri = format!("/api/games/{id}/moves");
        let body = json!({"move": "14x23", "ply": 0});
        let (a, b) = tokio::join!(
            send(&app, Method::POST, &uri, Some(&black), Some(body.clone())),
            send(&app, Method::POST, &uri, Some(&black), Some(body.clone())),
        );
        for (s, v) in [&a, &b] {
            assert_eq!(*s, StatusCode::OK, "round {round}: {v}");
            assert_eq!(v["status"], "finished", "round {round}: {v}");
            assert_eq!(v["moves"], json!(["14x23"]), "round {round}: {v}");
        }
    }
}

/// Issue 23, "unexplained `ambiguous_move`": the server refused move texts it had itself listed as
/// legal. Cause: a king's single jump and a longer capture can share start and end; both are then
/// listed with their whole path, and the single jump's whole path is just `19x12`, which the move
/// reader (before crown-core c8a6149, 2026-12-01, after the review's 6765126) took as "any capture
/// from 19 to 12" and refused as ambiguous. Every listed text must be accepted and play the listed
/// move. The position is worked out by hand (American numbering, Black to move): the black king on
/// 19 jumps 16 and lands on 12, where it has no further jump (12 is on the board's edge, 8 is
/// Black's own man and 16 was just taken), or goes round 23, 22, 14 and 15 back through 19 (its own start square, empty while
/// it moves) and then takes 16 to 12: five pieces.
#[tokio::test]
async fn every_listed_move_is_accepted_when_a_single_jump_and_a_loop_share_their_ends() {
    let app = app().await;
    let body = json!({"variant": "american", "fen": "B:W14,15,16,21,22,23,30:B6,7,8,K19,11,13"});
    let (id, _, _) = two_player(&app, body.clone()).await;
    let (s, view) = send(&app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{view}");
    let listed: Vec<(String, Vec<u64>)> = view["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let caps = m["captures"].as_array().unwrap();
            let mut caps: Vec<u64> = caps.iter().map(|c| c.as_u64().unwrap()).collect();
            caps.sort_unstable();
            (m["text"].as_str().unwrap().to_string(), caps)
        })
        .collect();
    let from_19_to_12: Vec<&(String, Vec<u64>)> = listed
        .iter()
        .filter(|(t, _)| t.starts_with("19x") && t.ends_with("x12"))
        .collect();
    assert_eq!(from_19_to_12.len(), 2, "{listed:?}");
    assert!(
        listed.contains(&("19x12".to_string(), vec![16])),
        "{listed:?}"
    );
    let ring = from_19_to_12.iter().find(|(t, _)| t != "19x12").unwrap();
    assert_eq!(ring.1, vec![14, 15, 16, 22, 23], "{listed:?}");
    assert!(
        ["19x26x17x10x19x12", "19x10x17x26x19x12"].contains(&ring.0.as_str()),
        "{listed:?}"
    );
    for (text, captures) in &listed {
        let (id, black, _) = two_player(&app, body.clone()).await;
        let (s, v) = send(
            &app,
            Method::POST,
            &format!("/api/games/{id}/moves"),
            Some(&black),
            Some(json!({"move": text, "ply": 0})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "the listed {text}: {v}");
        assert_eq!(v["moves"], json!([text]), "{v}");
        // The pieces the listed move takes are gone.
        let fen = v["fen"].as_str().unwrap();
        let white = fen
            .split(':')
            .find(|p| p.starts_with('W') && p.len() > 1)
            .unwrap();
        let left: Vec<u64> = white[1..]
            .split(',')
            .map(|s| s.trim_start_matches('K').parse().unwrap())
            .collect();
        for c in captures {
            assert!(!left.contains(c), "{text} took {c}: {fen}");
        }
        assert_eq!(left.len(), 7 - captures.len(), "{text}: {fen}");
    }
}

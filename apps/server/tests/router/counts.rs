//! The APCA counts of online pool games (rules 27 and 28, `POST /api/games/{id}/count`): who may
//! claim, the count's moves, the draw when it completes, the refusals, a restart and a takeback.

use crate::common::{send, server};
use crate::{app, code, mv, two_player};
use axum::http::{Method, StatusCode};
use crown_core::{Color, Game, Position, Variant};
use crown_server::store::SqliteStore;
use crown_server::App;
use serde_json::{json, Value};
use std::sync::Arc;

/// Three White kings against Black's lone king, Black to move: rule 28's ending.
const LONE_KING: &str = "B:WK5,K13,K21:BK32";
/// Black's king (2 points) against White's king and two men (4 points), Black to move: rule 27.
const WEAKER: &str = "B:WK5,21,22:BK32";

async fn claim(app: &App, id: &str, token: Option<&str>) -> (StatusCode, Value) {
    send(
        app,
        Method::POST,
        &format!("/api/games/{id}/count"),
        token,
        None,
    )
    .await
}

async fn view(app: &App, id: &str) -> Value {
    let (s, v) = send(app, Method::GET, &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// The moves of the side to move of `game` that are not captures and leave the other side no
/// capture, so that the material (and with it the count) stays as it is.
fn quiet_moves(game: &Game) -> Vec<(String, Game)> {
    let pos = game.position();
    game.legal_moves()
        .iter()
        .filter(|m| !m.is_capture())
        .map(|m| {
            let text = pos.move_text(m);
            let mut after = game.clone();
            after.play_text(&text).unwrap();
            (text, after)
        })
        .filter(|(_, after)| after.legal_moves().iter().all(|r| !r.is_capture()))
        .collect()
}

/// A quiet move ([`quiet_moves`]) after which the other side has one too (so that neither
/// side is ever forced to capture or be captured).
fn quiet_move(game: &Game) -> String {
    quiet_moves(game)
        .into_iter()
        .find(|(_, after)| !quiet_moves(after).is_empty())
        .map(|(text, _)| text)
        .unwrap_or_else(|| panic!("no quiet move in {}", game.position().to_fen()))
}

/// Play a quiet move ([`quiet_move`]) for the side to move on the server and on `game`.
async fn play_quiet(app: &App, id: &str, game: &mut Game, black: &str, white: &str) -> Value {
    let text = quiet_move(game);
    let token = match game.position().side_to_move() {
        Color::Black => black,
        Color::White => white,
    };
    let (s, v) = mv(app, id, Some(token), &text).await;
    assert_eq!(s, StatusCode::OK, "{text}: {v}");
    game.play_text(&text).unwrap();
    v
}

fn local(fen: &str) -> Game {
    Game::from_position(Position::from_fen(Variant::Pool, fen).unwrap())
}

#[tokio::test]
async fn a_lone_king_claims_the_13_count_and_draws_when_it_completes_13_moves() {
    let app = app().await;
    let (id, black, white) = two_player(&app, json!({"variant": "pool", "fen": LONE_KING})).await;
    let v = view(&app, &id).await;
    // Rule 28: only the lone king's side may claim; no count runs yet.
    assert_eq!(v["count_claimable"], json!({"black": 28}), "{v}");
    assert!(v.get("count").is_none(), "{v}");
    let (s, v) = claim(&app, &id, Some(&white)).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_entitled"), "{v}");
    let (s, v) = claim(&app, &id, Some(&black)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["count"],
        json!({"rule": 28, "by": "black", "moves": 0, "limit": 13})
    );
    assert!(v.get("count_claimable").is_none(), "{v}");
    let (s, v) = claim(&app, &id, Some(&black)).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::CONFLICT, "already_counting"),
        "{v}"
    );
    // Each of Black's moves counts one; White's count none. The 13th draws.
    let mut game = local(LONE_KING);
    for n in 1..=13u32 {
        let v = play_quiet(&app, &id, &mut game, &black, &white).await;
        assert_eq!(v["count"]["moves"], n, "{v}");
        if n < 13 {
            assert_eq!(v["status"], "ongoing", "{v}");
            let v = play_quiet(&app, &id, &mut game, &black, &white).await;
            assert_eq!(v["count"]["moves"], n, "{v}");
        } else {
            assert_eq!(v["status"], "finished", "{v}");
            assert_eq!(v["outcome"]["result"], "1/2-1/2", "{v}");
            assert_eq!(v["outcome"]["winner"], Value::Null, "{v}");
            let reason = v["outcome"]["reason"].as_str().unwrap();
            assert!(reason.contains("APCA rule 28"), "{reason}");
        }
    }
    // Over: no more claims or moves.
    let (s, v) = claim(&app, &id, Some(&black)).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "game_over"), "{v}");
}

#[tokio::test]
async fn count_claims_outside_their_rules_are_refused() {
    let app = app().await;
    // American checkers has no counts, whatever the material.
    let (id, black, _) = two_player(&app, json!({"variant": "american", "fen": LONE_KING})).await;
    assert!(view(&app, &id).await.get("count_claimable").is_none());
    let (s, v) = claim(&app, &id, Some(&black)).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_pool"), "{v}");
    // The pool start: equal points, nobody may claim.
    let (id, black, white) = two_player(&app, json!({"variant": "pool"})).await;
    for token in [&black, &white] {
        let (s, v) = claim(&app, &id, Some(token)).await;
        assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_entitled"), "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("12 points against 12"),
            "{v}"
        );
    }
    // Rule 27: the weaker side by points claims the 38 count; the stronger may not, nor a
    // spectator.
    let (id, black, white) = two_player(&app, json!({"variant": "pool", "fen": WEAKER})).await;
    assert_eq!(
        view(&app, &id).await["count_claimable"],
        json!({"black": 27})
    );
    let (s, v) = claim(&app, &id, None).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::UNAUTHORIZED, "missing_token"),
        "{v}"
    );
    let (s, v) = claim(&app, &id, Some(&white)).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "not_entitled"), "{v}");
    let (s, v) = claim(&app, &id, Some(&black)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["count"],
        json!({"rule": 27, "by": "black", "moves": 0, "limit": 38})
    );
    let (s, v) = claim(&app, &id, Some(&white)).await;
    assert_eq!(
        (s, code(&v)),
        (StatusCode::CONFLICT, "already_counting"),
        "{v}"
    );
    // A game whose seat is still open cannot be counted in.
    let (s, open) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool", "fen": LONE_KING})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{open}");
    let (s, v) = claim(&app, open["id"].as_str().unwrap(), open["token"].as_str()).await;
    assert_eq!((s, code(&v)), (StatusCode::CONFLICT, "seat_open"), "{v}");
}

#[tokio::test]
async fn a_running_count_survives_a_restart_and_goes_back_with_a_takeback() {
    let store = Arc::new(SqliteStore::open_in_memory().unwrap());
    let app = server().store(store.clone()).start().await;
    let (id, black, white) = two_player(&app, json!({"variant": "pool", "fen": LONE_KING})).await;
    assert_eq!(claim(&app, &id, Some(&black)).await.0, StatusCode::OK);
    let mut game = local(LONE_KING);
    play_quiet(&app, &id, &mut game, &black, &white).await;
    let v = play_quiet(&app, &id, &mut game, &black, &white).await;
    assert_eq!(v["count"]["moves"], 1, "{v}");
    app.shutdown();
    drop(app);
    // Loaded again from the store: the claim is made again at its ply and the count goes on.
    let app = server().store(store).start().await;
    let v = view(&app, &id).await;
    assert_eq!(
        v["count"],
        json!({"rule": 28, "by": "black", "moves": 1, "limit": 13}),
        "{v}"
    );
    let v = play_quiet(&app, &id, &mut game, &black, &white).await;
    assert_eq!(v["count"]["moves"], 2, "{v}");
    // Black takes back its move (White to move: one ply): the count goes back to 1, still running.
    let url = |a: &str| format!("/api/games/{id}/takeback/{a}");
    let (s, v) = send(&app, Method::POST, &url("request"), Some(&black), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send(&app, Method::POST, &url("accept"), Some(&white), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["ply"].as_u64(), &v["count"]["moves"]),
        (Some(2), &json!(1)),
        "{v}"
    );
    // Back to the claim's ply (Black to move: two plies): the claim made there stays, at 0.
    let (s, v) = send(&app, Method::POST, &url("request"), Some(&black), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = send(&app, Method::POST, &url("accept"), Some(&white), None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["ply"].as_u64(), &v["count"]["moves"]),
        (Some(0), &json!(0)),
        "{v}"
    );
}

//! Arenas through the router on SQLite (docs/api.md, "Arenas"): four players paired as their
//! games end, nobody paired after the end, a game still running at the end not counted, and the
//! standings equal to values computed by hand from lichess's scoring
//! (tests/common/tournaments.rs, `play_arena`); a restart pairs nobody twice. This file moves the
//! process's clock (`advance_clock`), so its tests run alone in their process under nextest and
//! nothing else here depends on the time.

mod common;
use axum::http::{Method, StatusCode};
use common::server;
use common::tournaments::*;

#[tokio::test]
async fn a_four_player_arena_pairs_as_games_end_and_its_standings_are_lichess_scoring() {
    let app = server().start().await;
    let sessions = players(&app).await;
    let id = create_arena(&app, &sessions["alice"], 5).await;
    join_all(&app, &id, &sessions).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&app, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(t["phase"], "running", "{t}");
    let ends = t["ends_ms"].as_u64().unwrap();
    let now = crown_server::live::now_ms();
    assert!(ends > now + 299_000 && ends <= now + 300_000, "{t}");
    play_arena(std::slice::from_ref(&app), &id, 5, &sessions).await;
}

//! Arenas through the router on SQLite (docs/api.md, "Arenas"): four players paired as their
//! games end, nobody paired after the end, a game still running at the end not counted, and the
//! standings equal to values computed by hand from lichess's scoring
//! (tests/common/tournaments.rs, `play_arena`); a restart pairs nobody twice. This file moves the
//! process's clock (`advance_clock`), so its tests run alone in their process under nextest and
//! nothing else here depends on the time.

mod common;
use axum::http::{Method, StatusCode};
use common::tournaments::*;

#[tokio::test]
async fn a_four_player_arena_pairs_as_games_end_and_its_standings_are_lichess_scoring() {
    let app = arena_server().start().await;
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

/// A game resigned at ply 0 counts for nothing and its loser waits before the next pairing,
/// while its winner is paired at once (tests/common/tournaments.rs, `play_short_arena_game`).
#[tokio::test]
async fn a_short_arena_game_scores_nothing_and_holds_back_its_loser_only() {
    let app = arena_server().start().await;
    let sessions = players(&app).await;
    play_short_arena_game(std::slice::from_ref(&app), &sessions).await;
}

/// Two players alone in a 45-minute arena meet again and again, but each is paired at most
/// 2 × 45 + 20 = 110 times; they stay in the standings, and the view lists the latest 100 of the
/// 110 games (numbers 11 to 110) with the total.
#[tokio::test]
async fn an_arena_pairs_a_player_at_most_twice_a_minute_plus_twenty_and_lists_the_latest_games() {
    let app = arena_server().start().await;
    let sessions = players(&app).await;
    let id = create_arena(&app, &sessions["alice"], 45).await;
    join(&app, &id, &sessions, &["alice", "bob"]).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&app, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let cap = 2 * 45 + 20;
    for n in 1..=cap {
        assert_eq!(
            end_arena_game(&app, &id, n, None, &sessions).await,
            StatusCode::OK,
            "game {n}"
        );
        race_advance(std::slice::from_ref(&app), &id).await;
        let total = (n + 1).min(cap);
        wait_for(&app, &id, "the next pairing", |t| {
            t["games_total"] == total
                && t["games"][t["games"].as_array().unwrap().len() - 1]["number"] == total
                && (n < cap || t["games"][99]["result"] == "1/2-1/2")
        })
        .await;
    }
    race_advance(std::slice::from_ref(&app), &id).await;
    let (_, t) = get(&app, &format!("/api/tournaments/{id}")).await;
    assert_eq!(t["games_total"], cap, "paired beyond the cap: {t}");
    let numbers: Vec<u64> = t["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (11..=cap as u64).collect::<Vec<_>>());
    // Both stay in the standings with every game: 110 draws, 110 points each.
    let lines = arena_standings(&t);
    assert_eq!(lines.len(), 2, "{t}");
    assert!(
        lines.iter().all(|l| l.1 == cap as u64 && l.2.len() == cap),
        "{t}"
    );
    assert_eq!(t["phase"], "running", "{t}");
}

//! Arenas on PostgreSQL with two instances on one database: the 4-player arena of
//! tests/common/tournaments.rs (`play_arena`) played through both instances in turn, every game's
//! end advanced by both many times at once — each free player paired once (a pairing made twice
//! would be a game too many), nobody paired after the end, the hand-computed standings seen from
//! both. Starts its own PostgreSQL (tests/common/pg.rs); skipped, saying so, when PostgreSQL is not
//! installed. Moves the process's clock (`advance_clock`): its one test runs alone in its process.

mod common;
use axum::http::{Method, StatusCode};
use common::pg::Pg;
use common::tournaments::*;
use crown_server::store::pg::PgStore;
use crown_server::store::Store;
use std::sync::Arc;

/// A new [`PgStore`] on `url` (connected on a blocking thread).
async fn store(url: &str) -> Arc<dyn Store> {
    let url = url.to_string();
    Arc::new(
        tokio::task::spawn_blocking(move || PgStore::connect(&url))
            .await
            .unwrap()
            .unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_racing_pair_each_arena_game_once_and_agree_on_the_standings() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = arena_server().store(store(&pg.url()).await).start().await;
    let b = arena_server().store(store(&pg.url()).await).start().await;
    let sessions = players(&a).await;
    let id = create_arena(&a, &sessions["alice"], 5).await;
    // Joined and started through the other instance.
    join_all(&b, &id, &sessions).await;
    let uri = format!("/api/tournaments/{id}/start");
    let (s, t) = call(&b, Method::POST, &uri, Some(&sessions["alice"]), None).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    play_arena(&[a.clone(), b.clone()], &id, 5, &sessions).await;
}

/// On PostgreSQL through two instances: a game resigned at ply 0 counts for nothing and its loser
/// waits before the next pairing, while its winner is paired at once
/// (tests/common/tournaments.rs, `play_short_arena_game`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_arena_game_scores_nothing_and_holds_back_its_loser_only_on_postgres() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = arena_server().store(store(&pg.url()).await).start().await;
    let b = arena_server().store(store(&pg.url()).await).start().await;
    let sessions = players(&a).await;
    play_short_arena_game(&[a, b], &sessions).await;
}

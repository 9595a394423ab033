//! The Watch page's games (`GET /api/tv`, docs/api.md) on SQLite: the scenario of
//! tests/common/watch.rs through one server.

mod common;
use common::server;

#[tokio::test]
async fn the_watch_list_ranks_ongoing_games_by_rating_with_the_game_of_the_day() {
    let app = server().start().await;
    common::watch::the_watch_list_ranks_the_ongoing_games(&app, &app).await;
}

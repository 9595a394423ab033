//! The Watch page's games (`GET /api/tv`, docs/api.md) on PostgreSQL with two instances on one
//! database: the games are played on one, listed by the other (the scenario of
//! tests/common/watch.rs). Starts its own PostgreSQL (tests/common/pg.rs); skipped, saying so,
//! when PostgreSQL is not installed.

mod common;
use common::pg::{store, Pg};
use common::server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watch_list_ranks_ongoing_games_by_rating_across_two_instances() {
    let Some(pg) = Pg::start_or_skip_async().await else {
        return;
    };
    let a = server().store(store(&pg.url()).await).start().await;
    let b = server().store(store(&pg.url()).await).start().await;
    common::watch::the_watch_list_ranks_the_ongoing_games(&a, &b).await;
}

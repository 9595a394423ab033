//! `GET /api/tv`: the Watch page's games (docs/api.md; the ranking is [`crate::watch`]'s).

use super::error::ApiError;
use crate::app::App;
use crate::games::live::now_ms;
use crate::watch::{self, Tv};
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

/// The route of the Watch page.
pub fn routes() -> Router<App> {
    Router::new().route("/tv", get(tv).layer(nb!()))
}

/// `GET /api/tv` (no body, no query): the ongoing public and rated games, highest rated first,
/// and the game of the day ([`watch::tv`]), read at most once per [`watch::TV_CACHE_MS`] for
/// all requests ([`watch::TvCache`]).
///
/// Errors: `storage`.
async fn tv(State(app): State<App>) -> Result<Json<Tv>, ApiError> {
    let now = now_ms();
    Ok(Json(app.tv.get(now, watch::tv(app.games(), now)).await?))
}

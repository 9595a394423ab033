//! `GET /health`, and the page served at `/` and `/g/{id}` when the web UI has not been built.

use crate::app::App;
use crate::games::live::now_ms;
use axum::extract::State;
use axum::response::Html;
use axum::routing::get;
use axum::{Json, Router};

/// `/health`.
pub fn routes() -> Router<App> {
    Router::new().route("/health", get(health))
}

/// The built-in page at `/` and `/g/{id}` (no web UI directory).
pub fn builtin_pages() -> Router<App> {
    Router::new()
        .route("/", get(builtin_index))
        .route("/g/{id}", get(builtin_index))
}

async fn health(State(app): State<App>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "status": "ok",
        "open_games": app.open_games(),
        "engine": app.games().has_engine(),
        "egdb": app.games().engine().and_then(|e| e.egdb_status()),
        "pdn": crate::games::pdn::AVAILABLE,
        "time_ms": now_ms(),
    }))
}

/// The page served at `/` when the web UI has not been built.
pub const INDEX_HTML: &str = include_str!("../index.html");

async fn builtin_index() -> Html<&'static str> {
    Html(INDEX_HTML)
}

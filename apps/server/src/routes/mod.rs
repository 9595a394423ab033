//! The HTTP layer (docs/api.md), in the shape of axum's examples: one module per feature with its
//! `routes()`, the extractors in [`extract`], the layers (limits, JSON `405`, time-outs) in
//! `layers`, and the one mapping of the domain's errors to HTTP in [`error`]. Handlers read the
//! request, call the domain ([`crate::App`], [`crate::games`], [`crate::chat`], [`crate::lobby`],
//! [`crate::accounts`], [`crate::ratings`], [`crate::puzzles`], [`crate::tournaments`], [`crate::imports`], [`crate::challenges`]) and write the answer; no domain module depends on this
//! one.

/// The no-body guard (`400 unexpected_body`) as a layer for one route.
macro_rules! nb {
    () => {
        axum::middleware::from_fn($crate::routes::layers::refuse_body)
    };
}

pub mod accounts;
pub mod bots;
pub mod challenges;
pub mod chat;
pub mod egdb_files;
pub mod error;
pub mod extract;
pub mod games;
pub mod health;
pub mod imports;
mod layers;
pub mod lobby;
pub mod metrics;
pub mod moves;
pub mod puzzles;
pub mod ratings;
pub mod static_files;
pub mod tournaments;
pub mod watch;
pub mod ws;

use crate::app::App;
use axum::middleware;
use axum::Router;

/// The full router: API, WebSocket, `/health`, static files, and every limit and layer.
pub fn router(app: App) -> Router {
    let cfg = app.config.clone();
    // The recorder that `/metrics` renders, installed before the first request is counted.
    let _ = crate::telemetry::handle();
    let api = Router::new()
        .merge(games::routes())
        .merge(moves::routes())
        .merge(lobby::routes())
        .merge(chat::routes())
        .merge(accounts::routes())
        .merge(ratings::routes())
        .merge(puzzles::routes())
        .merge(tournaments::routes())
        .merge(imports::routes())
        .merge(challenges::routes())
        .merge(bots::routes())
        .merge(watch::routes())
        .fallback(layers::api_not_found)
        .layer(middleware::from_fn(layers::origin_guard))
        .layer(middleware::from_fn_with_state(
            app.clone(),
            layers::request_timeout,
        ))
        .merge(ws::routes())
        .layer(middleware::from_fn_with_state(
            app.clone(),
            layers::rate_limit,
        ))
        .layer(axum::extract::DefaultBodyLimit::max(cfg.max_body_bytes))
        .layer(middleware::from_fn_with_state(
            app.clone(),
            layers::limit_declared_body,
        ));
    // Endgame files count against the client's request budget like the API, so that one address
    // cannot download them without end. The web app's own files have a budget of bytes of their
    // own (`layers::static_budget`): a page load asks for dozens of them (several tabs, or
    // players behind one NAT, would run out of requests), and the cost is in the bytes sent.
    let per_client = || middleware::from_fn_with_state(app.clone(), layers::rate_limit);
    let mut router = health::routes()
        .merge(egdb_files::routes(cfg.egdb_dir.clone(), cfg.egdb_serve_pieces).layer(per_client()))
        .merge(metrics::routes())
        .nest("/api", api)
        .route_layer(middleware::from_fn(metrics::mark_route));
    match cfg.static_dir.as_ref().filter(|d| d.is_dir()) {
        Some(dir) => {
            let files = static_files::router(dir).layer(middleware::from_fn_with_state(
                app.clone(),
                layers::static_budget,
            ));
            router = router.fallback_service(files);
        }
        None => router = router.merge(health::builtin_pages()),
    }
    router
        .layer(middleware::from_fn(layers::json_method_not_allowed))
        .layer(middleware::from_fn_with_state(
            app.clone(),
            layers::limit_head,
        ))
        .layer(
            tower_http::trace::TraceLayer::new_for_http()
                .make_span_with(layers::request_span)
                .on_failure(layers::log_failure),
        )
        .layer(middleware::from_fn(metrics::track))
        .layer(middleware::from_fn_with_state(
            app.clone(),
            crate::proxy::resolve_client,
        ))
        .with_state(app)
}

impl App {
    /// The axum router with every route and layer.
    pub fn router(&self) -> axum::Router {
        router(self.clone())
    }
}

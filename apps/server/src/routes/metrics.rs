//! `GET /metrics` (Prometheus text format, [`crate::telemetry`]) and the layers that count every
//! request by route and status.

use super::error::ApiError;
use super::extract::RealClientIp;
use crate::app::App;
use crate::proxy::is_trusted;
use crate::telemetry;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::time::Instant;

/// `/metrics`.
pub fn routes() -> Router<App> {
    Router::new().route("/metrics", get(scrape).layer(nb!()))
}

/// The metrics, to loopback and the networks of the trusted proxies (by the client's address,
/// resolved behind them), or to anyone with `Authorization: Bearer <--metrics-token>`; others get
/// `403 metrics_forbidden`.
async fn scrape(
    State(app): State<App>,
    RealClientIp(client): RealClientIp,
    headers: HeaderMap,
) -> Response {
    let near = client.is_some_and(|ip| {
        ip.is_loopback()
            || ip.to_canonical().is_loopback()
            || is_trusted(&app.config.trusted_proxies, ip)
    });
    let token_ok = app.config.metrics_token.as_deref().is_some_and(|want| {
        super::extract::bearer(&headers).is_ok_and(|got| same_secret(&got, want))
    });
    if !near && !token_ok {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "metrics_forbidden",
            "/metrics answers loopback, the trusted proxies' networks, or the --metrics-token",
        )
        .into_response();
    }
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        telemetry::render(&app),
    )
        .into_response()
}

/// Whether two secrets are equal, in a time that does not depend on where they differ (their
/// SHA-256 digests are compared).
fn same_secret(a: &str, b: &str) -> bool {
    use sha2::{Digest, Sha256};
    let (x, y) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    x.iter()
        .zip(y.iter())
        .fold(0u8, |acc, (p, q)| acc | (p ^ q))
        == 0
}

/// The route a request matched, passed from [`mark_route`] to [`track`] in the response.
#[derive(Clone)]
struct RouteLabel(String);

/// A route layer: note the matched route's pattern in the response for [`track`].
pub(super) async fn mark_route(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string());
    let mut resp = next.run(req).await;
    if let Some(route) = route {
        resp.extensions_mut().insert(RouteLabel(route));
    }
    resp
}

/// The route of `POST` moves, whose answer time is also [`telemetry::MOVE_SECONDS`].
const MOVES_ROUTE: &str = "/api/games/{id}/moves";

/// Count every request ([`telemetry::HTTP_REQUESTS`]) and time it
/// ([`telemetry::HTTP_SECONDS`]; moves also [`telemetry::MOVE_SECONDS`]).
pub(super) async fn track(req: Request, next: Next) -> Response {
    let started = Instant::now();
    // Only the methods of HTTP as labels: any other would be a new series each.
    let method = match req.method().as_str() {
        m @ ("GET" | "HEAD" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS") => m,
        _ => "other",
    }
    .to_string();
    let resp = next.run(req).await;
    let seconds = started.elapsed().as_secs_f64();
    let route = resp
        .extensions()
        .get::<RouteLabel>()
        .map_or_else(|| "unmatched".to_string(), |r| r.0.clone());
    let status = resp.status().as_u16().to_string();
    if route == MOVES_ROUTE && method == "POST" {
        metrics::histogram!(telemetry::MOVE_SECONDS, "status" => status.clone()).record(seconds);
    }
    metrics::histogram!(telemetry::HTTP_SECONDS, "route" => route.clone(), "method" => method.clone())
        .record(seconds);
    metrics::counter!(telemetry::HTTP_REQUESTS, "route" => route, "method" => method, "status" => status)
        .increment(1);
    resp
}

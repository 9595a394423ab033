//! The layers around the routes: the body, head, rate and time limits, the JSON `405` and
//! fallback, and the request's tracing span.

use super::error::ApiError;
use crate::app::App;
use crate::config::STATIC_REQUEST_BYTES;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::time::Duration;

/// Refuse a request that declares a body (`Content-Length` above 0 or any `Transfer-Encoding`)
/// on an endpoint that takes none: `400 unexpected_body`.
pub(super) async fn refuse_body(req: Request, next: Next) -> Response {
    use axum::body::HttpBody;
    let h = req.headers();
    let declared = h.contains_key(header::TRANSFER_ENCODING)
        || req.body().size_hint().exact() != Some(0)
        || h.get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0");
    if declared {
        return ApiError::bad_request(
            "unexpected_body",
            format!("{} {} takes no body", req.method(), req.uri().path()),
        )
        .into_response();
    }
    next.run(req).await
}

/// Refuse at once, with `413 payload_too_large`, a request whose `Content-Length` declares more
/// than `Config::max_body_bytes` (a shared PDN, `POST /api/imports`: more than
/// [`crate::imports::MAX_PDN_BYTES`]): its body would be refused anyway once read, and waiting for
/// bytes that may never come would only end in `408 timeout`. A body without a declared length
/// (chunked) is still cut off at the limit as it is read.
pub(super) async fn limit_declared_body(
    State(app): State<App>,
    req: Request,
    next: Next,
) -> Response {
    // The path inside `/api` or whole, as the router hands it to this layer.
    let import = req.method() == axum::http::Method::POST
        && matches!(req.uri().path(), "/imports" | "/api/imports");
    let max = if import {
        crate::imports::MAX_PDN_BYTES
    } else {
        app.config.max_body_bytes
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared.filter(|&n| n > max as u64) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("the request body declares {n} bytes; at most {max} are accepted"),
        )
        .into_response();
    }
    next.run(req).await
}

/// Most header fields in a request answered normally: more get the JSON error
/// `431 headers_too_large` (up to [`crate::serve::MAX_HEADER_FIELDS`], beyond which hyper answers
/// a bare 431 before the router sees the request).
pub const MAX_HEADERS: usize = 100;

/// Refuse a request head (request target and headers) larger than `Config::max_header_bytes / 4`,
/// or with more than [`MAX_HEADERS`] header fields, with the JSON error `431 headers_too_large`.
/// Heads beyond `max_header_bytes` (or [`crate::serve::MAX_HEADER_FIELDS`] fields) never reach
/// the router: the connection layer answers a bare 431 and closes.
pub(super) async fn limit_head(State(app): State<App>, req: Request, next: Next) -> Response {
    let count = req.headers().len();
    if count > MAX_HEADERS {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!("the request has {count} header fields; at most {MAX_HEADERS} are accepted"),
        )
        .into_response();
    }
    let limit = (app.config.max_header_bytes / 4).max(4096);
    let size = req.uri().to_string().len()
        + req
            .headers()
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 4)
            .sum::<usize>();
    if size > limit {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!("the request head is {size} bytes; at most {limit} are accepted"),
        )
        .into_response();
    }
    next.run(req).await
}

/// Turn axum's empty `405 Method Not Allowed` into the JSON error `method_not_allowed` (keeping
/// the `Allow` header).
pub(super) async fn json_method_not_allowed(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let resp = next.run(req).await;
    if resp.status() != StatusCode::METHOD_NOT_ALLOWED
        || resp.headers().contains_key(header::CONTENT_TYPE)
    {
        return resp;
    }
    let allow = resp.headers().get(header::ALLOW).cloned();
    let allowed = allow
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let mut e = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{method} is not allowed on {path}; allowed: {allowed}"),
    );
    e.details = Some(serde_json::json!({ "allow": allowed }));
    let mut out = e.into_response();
    if let Some(v) = allow {
        out.headers_mut().insert(header::ALLOW, v);
    }
    out
}

/// What one of the public reads of players' archives costs of the per-address request budget
/// (docs/api.md, limits): a player's page, its archive and PDN export, the leaderboard and a
/// tournament's PDN read (and replay) many rows each, so an address gets a fifth as many of them
/// as of other requests.
pub const HEAVY_READ_COST: u32 = 5;

/// Whether `path` (inside `/api` or whole) is one of the heavy public reads of
/// [`HEAVY_READ_COST`]: `/leaderboard`, `/users/{name}`, `/users/{name}/games`,
/// `/users/{name}/games.pdn` and `/tournaments/{id}/pdn`.
fn heavy_read(path: &str) -> bool {
    let path = path.strip_prefix("/api").unwrap_or(path);
    path == "/leaderboard"
        || path
            .strip_prefix("/tournaments/")
            .and_then(|rest| rest.strip_suffix("/pdn"))
            .is_some_and(|id| !id.is_empty() && !id.contains('/'))
        || path.strip_prefix("/users/").is_some_and(|rest| {
            let mut parts = rest.split('/');
            let name = parts.next().unwrap_or_default();
            !name.is_empty()
                && matches!(
                    (parts.next(), parts.next()),
                    (None, _) | (Some("games" | "games.pdn"), None)
                )
        })
}

/// The key of the request's client in the per-address budgets (its address as
/// `crate::proxy::resolve_client` found it).
fn client_of(req: &Request) -> Option<std::net::IpAddr> {
    req.extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| crate::proxy::client_key(c.0.ip()))
}

/// `429 rate_limited` with `Retry-After: wait` (and `retry_after_s`): `what` from this address.
fn rate_limited(what: &str, wait: u64) -> Response {
    let mut e = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        format!("too many {what} from this address; retry in {wait} s"),
    );
    e.details = Some(serde_json::json!({ "retry_after_s": wait }));
    e.retry_after_s = Some(wait);
    e.into_response()
}

/// Take the request's cost ([`HEAVY_READ_COST`] for a heavy read, else 1) from its client
/// address's budget, or answer `429 rate_limited` with `Retry-After`.
pub(super) async fn rate_limit(State(app): State<App>, req: Request, next: Next) -> Response {
    let ip = client_of(&req);
    let cost = if req.method() == axum::http::Method::GET && heavy_read(req.uri().path()) {
        HEAVY_READ_COST
    } else {
        1
    };
    if let Err(wait) = app.limiter.check_cost(ip, cost) {
        return rate_limited("requests", wait);
    }
    next.run(req).await
}

/// The web app's own files under their client address's byte budget
/// ([`crate::config::Config::static_bytes_per_sec`], a budget of its own: a page load asks for
/// dozens of files): while the budget is overdrawn, `429 rate_limited` with `Retry-After`;
/// else the file is served and its response charged, its body's bytes (compressed as sent, none
/// for a `304`) plus [`STATIC_REQUEST_BYTES`].
pub(super) async fn static_budget(State(app): State<App>, req: Request, next: Next) -> Response {
    use axum::body::HttpBody;
    let ip = client_of(&req);
    if let Err(wait) = app.static_limiter.check(ip) {
        return rate_limited("bytes of the web app's files", wait);
    }
    let res = next.run(req).await;
    let sent = res
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
        .unwrap_or_else(|| res.body().size_hint().lower());
    app.static_limiter
        .charge(ip, sent.saturating_add(STATIC_REQUEST_BYTES));
    res
}

/// Answer `408 timeout` (JSON) when a request takes longer than the configured limit. Changes run
/// in their own task (see `Games::mutate`), so a timed-out change is either fully made or not at all.
pub(super) async fn request_timeout(State(app): State<App>, req: Request, next: Next) -> Response {
    let limit = Duration::from_millis(app.config.request_timeout_ms);
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(resp) => resp,
        Err(_) => ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            format!(
                "the request took longer than {} ms; a move may still have been made, check the game",
                limit.as_millis()
            ),
        )
        .into_response(),
    }
}

pub(super) async fn api_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_route",
        "no such API endpoint (see docs/api.md)",
    )
}

/// The tracing span of a request: method and path only. The query string is never logged, so a
/// seat token sent as `?token=` (WebSocket) cannot reach the logs at any level.
pub(super) fn request_span(req: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    tracing::debug_span!("request", method = %req.method(), path = %req.uri().path(), version = ?req.version())
}

/// Log a response that failed (tower-http's server-error classification): `503`, the server's
/// answer to load it refuses on purpose (`password_busy`, a full engine queue), at `debug`, so
/// that a flood does not write a line per refused request; every other failure at `error`.
pub(super) fn log_failure(
    class: tower_http::classify::ServerErrorsFailureClass,
    latency: std::time::Duration,
    _span: &tracing::Span,
) {
    use tower_http::classify::ServerErrorsFailureClass::StatusCode;
    match class {
        StatusCode(s) if s == axum::http::StatusCode::SERVICE_UNAVAILABLE => {
            tracing::debug!(status = %s, latency_ms = latency.as_millis() as u64, "request refused under load");
        }
        other => {
            tracing::error!(classification = %other, latency_ms = latency.as_millis() as u64, "response failed");
        }
    }
}

/// Against cross-site request forgery (OWASP's "verifying origin with standard headers"): refuse
/// a request that changes state (any method but `GET`, `HEAD` and `OPTIONS`) whose `Origin`
/// header is present and names another host than the request's `Host`, is not an `http` or
/// `https` origin (`null` included), or is given more than once: `403 bad_origin`, before
/// anything else of the request is read. A request without `Origin` (not from a browser) passes.
/// The session cookie is read by the account routes and by the game routes that seat an
/// account (create, join), so every one of them is covered; `SameSite=Lax` is the second line.
pub(super) async fn origin_guard(req: Request, next: Next) -> Response {
    let safe = matches!(
        *req.method(),
        axum::http::Method::GET | axum::http::Method::HEAD | axum::http::Method::OPTIONS
    );
    if safe {
        return next.run(req).await;
    }
    match check_origin(req.headers()) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

/// Refuse `Origin` headers that are given more than once, or present and not the request's own
/// host.
///
/// # Errors
/// `403 bad_origin`.
fn check_origin(headers: &axum::http::HeaderMap) -> Result<(), ApiError> {
    let mut origins = headers.get_all(header::ORIGIN).iter();
    let (Some(origin), None) = (origins.next(), origins.next()) else {
        return if headers.contains_key(header::ORIGIN) {
            Err(bad_origin("the request has more than one Origin header"))
        } else {
            Ok(())
        };
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let authority = origin
        .to_str()
        .ok()
        .and_then(|o| {
            o.strip_prefix("http://")
                .or_else(|| o.strip_prefix("https://"))
        })
        .map(|a| a.trim_end_matches('/'));
    match (authority, host) {
        (Some(a), Some(h)) if !a.is_empty() && a.eq_ignore_ascii_case(h.trim()) => Ok(()),
        _ => Err(bad_origin(
            "the request's Origin is not this server (cross-site requests are refused)",
        )),
    }
}

/// `403 bad_origin` saying `why`.
fn bad_origin(why: &str) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, "bad_origin", why)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_heavy_reads_are_the_players_pages_archives_the_leaderboard_and_tournament_pdns() {
        for path in [
            "/api/tournaments/ab12cd34/pdn",
            "/leaderboard",
            "/api/leaderboard",
            "/users/alice",
            "/api/users/alice/games",
            "/users/alice/games.pdn",
        ] {
            assert!(super::heavy_read(path), "{path}");
        }
        for path in [
            "/games",
            "/users/",
            "/users/alice/other",
            "/users/alice/games/x",
            "/api/leaderboards",
            "/lobby",
            "/api/tournaments/ab12cd34",
            "/api/tournaments//pdn",
            "/api/tournaments/a/b/pdn",
        ] {
            assert!(!super::heavy_read(path), "{path}");
        }
    }
}

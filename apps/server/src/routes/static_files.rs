//! The web UI's static files: served from a directory (tower-http `ServeDir`, unknown paths get
//! `index.html` for the client-side routes such as `/g/<id>`), compressed with brotli or gzip as the
//! client accepts (`Accept-Encoding`, tower-http `CompressionLayer`), with a weak `ETag` and
//! `Cache-Control: no-cache`: browsers keep the files and revalidate them on each load, getting
//! `304 Not Modified` (no body) while a file is unchanged. The asset names carry no hash, so a
//! longer `max-age` would serve a stale app after an upgrade.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::Router;
use sha2::{Digest, Sha256};
use std::path::Path;
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

/// The `Cache-Control` of every static file: store, but revalidate before use (see the module doc).
pub const CACHE_CONTROL: &str = "no-cache";

/// The router serving `dir`: files, `index.html` for unknown paths, compression, ETag and
/// `Cache-Control` (see the module documentation).
pub fn router(dir: &Path) -> Router {
    let index = dir.join("index.html");
    Router::new()
        .fallback_service(
            ServeDir::new(dir)
                .append_index_html_on_directories(true)
                .fallback(ServeFile::new(index)),
        )
        .layer(middleware::from_fn(etag))
        .layer(CompressionLayer::new())
        .layer(middleware::from_fn(one_leading_slash))
}

/// The path `p` with its leading slashes (two or more) collapsed to one: `//css` is `/css`.
fn collapse_leading_slashes(p: &str) -> String {
    format!("/{}", p.trim_start_matches('/'))
}

/// Middleware: serve a path with several leading slashes as the path with one (`//css` as
/// `/css`), so that a directory's redirect (`/css` to `/css/`) is a path on this server, never
/// the protocol-relative `//css/` a browser reads as the host `css`; and never let a
/// `Location` starting with `//` out.
async fn one_leading_slash(mut req: Request, next: Next) -> Response {
    if req.uri().path().starts_with("//") {
        let path = collapse_leading_slashes(req.uri().path());
        let pq = match req.uri().query() {
            Some(q) => format!("{path}?{q}"),
            None => path,
        };
        let mut parts = req.uri().clone().into_parts();
        match pq.parse() {
            Ok(pq) => parts.path_and_query = Some(pq),
            Err(_) => return plain(StatusCode::BAD_REQUEST),
        }
        match axum::http::Uri::from_parts(parts) {
            Ok(uri) => *req.uri_mut() = uri,
            Err(_) => return plain(StatusCode::BAD_REQUEST),
        }
    }
    let mut res = next.run(req).await;
    let relative = res
        .headers()
        .get(header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .filter(|l| l.starts_with("//") || l.starts_with("/\\"))
        .map(|l| collapse_leading_slashes(&l.replace('\\', "/")));
    if let Some(l) = relative {
        match HeaderValue::from_str(&l) {
            Ok(v) => {
                res.headers_mut().insert(header::LOCATION, v);
            }
            Err(_) => return plain(StatusCode::NOT_FOUND),
        }
    }
    res
}

/// An empty response with `status`.
fn plain(status: StatusCode) -> Response {
    let mut res = Response::new(Body::empty());
    *res.status_mut() = status;
    res
}

/// A weak entity tag of a file response from its `Last-Modified` date and length (the same file
/// gives the same tag; any change of its time or size gives another). `None` without those headers.
pub fn entity_tag(last_modified: &[u8], length: &[u8]) -> Option<String> {
    if last_modified.is_empty() || length.is_empty() {
        return None;
    }
    let mut h = Sha256::new();
    h.update(last_modified);
    h.update(b"\0");
    h.update(length);
    let d = h.finalize();
    let hex: String = d[..8].iter().map(|b| format!("{b:02x}")).collect();
    Some(format!("W/\"{hex}\""))
}

/// True when an `If-None-Match` value lists `tag` (weak comparison, RFC 9110 §13.1.2) or is `*`.
fn none_match(if_none_match: &str, tag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    if_none_match.trim() == "*" || if_none_match.split(',').any(|t| bare(t) == bare(tag))
}

/// Middleware: add the ETag and Cache-Control to file responses; answer a GET or HEAD whose
/// `If-None-Match` names the current tag with `304 Not Modified` (RFC 9110 §13.1.2).
pub(crate) async fn etag(req: Request, next: Next) -> Response {
    let conditional = matches!(*req.method(), Method::GET | Method::HEAD);
    let inm = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let mut res = next.run(req).await;
    if !(res.status() == StatusCode::OK || res.status() == StatusCode::NOT_MODIFIED) {
        return res;
    }
    let tag = {
        let h = res.headers();
        let get = |n| {
            h.get(n)
                .map(|v: &HeaderValue| v.as_bytes())
                .unwrap_or_default()
        };
        entity_tag(get(header::LAST_MODIFIED), get(header::CONTENT_LENGTH))
    };
    let cache = HeaderValue::from_static(CACHE_CONTROL);
    if let Some(tag) = tag {
        let value = HeaderValue::from_str(&tag).expect("an entity tag is ASCII");
        if conditional
            && res.status() == StatusCode::OK
            && inm.is_some_and(|v| none_match(&v, &tag))
        {
            let mut not_modified = Response::new(Body::empty());
            *not_modified.status_mut() = StatusCode::NOT_MODIFIED;
            for name in [header::LAST_MODIFIED, header::CONTENT_TYPE] {
                if let Some(v) = res.headers().get(&name) {
                    not_modified.headers_mut().insert(name, v.clone());
                }
            }
            not_modified.headers_mut().insert(header::ETAG, value);
            not_modified
                .headers_mut()
                .insert(header::CACHE_CONTROL, cache);
            return not_modified;
        }
        res.headers_mut().insert(header::ETAG, value);
    }
    res.headers_mut().insert(header::CACHE_CONTROL, cache);
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_tags_follow_the_file() {
        let a = entity_tag(b"Tue, 01 Dec 2026 02:00:00 GMT", b"1234").unwrap();
        assert!(a.starts_with("W/\"") && a.ends_with('"'));
        assert_eq!(
            Some(a.clone()),
            entity_tag(b"Tue, 01 Dec 2026 02:00:00 GMT", b"1234")
        );
        assert_ne!(
            Some(a.clone()),
            entity_tag(b"Tue, 01 Dec 2026 02:00:01 GMT", b"1234")
        );
        assert_ne!(
            Some(a),
            entity_tag(b"Tue, 01 Dec 2026 02:00:00 GMT", b"1235")
        );
        assert_eq!(entity_tag(b"", b"1"), None);
    }

    #[test]
    fn if_none_match_compares_weakly_and_lists() {
        assert!(none_match("W/\"ab\"", "W/\"ab\""));
        assert!(none_match("\"ab\"", "W/\"ab\""));
        assert!(none_match("\"x\", W/\"ab\"", "W/\"ab\""));
        assert!(none_match("*", "W/\"ab\""));
        assert!(!none_match("W/\"ac\"", "W/\"ab\""));
    }
}

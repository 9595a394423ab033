//! Router tests of the web UI's static files (`crown_server::routes::static_files`): brotli and gzip as the
//! client accepts, the body decompressing to the file, a weak ETag with `Cache-Control: no-cache`,
//! `304 Not Modified` for a matching `If-None-Match`, and the API left uncompressed by this layer.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use crown_server::store::SqliteStore;
use crown_server::{App, Config};
use std::io::Read;
use std::sync::Arc;
use tower::ServiceExt;

/// A repetitive script of 20 000 bytes (compresses well) and an index page, in a temporary directory.
async fn app() -> (App, tempfile::TempDir, Vec<u8>) {
    app_with(|_| {}).await
}

/// [`app`] with its configuration changed by `change` (after `rate_per_sec: 0`).
async fn app_with(change: impl FnOnce(&mut Config)) -> (App, tempfile::TempDir, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let js: Vec<u8> = "export const squares = [1, 2, 3, 4, 5, 6, 7, 8];\n"
        .repeat(400)
        .into_bytes();
    std::fs::write(dir.path().join("app.js"), &js).unwrap();
    std::fs::write(
        dir.path().join("index.html"),
        "<!doctype html><p>crown web</p>",
    )
    .unwrap();
    let mut config = Config {
        static_dir: Some(dir.path().to_path_buf()),
        rate_per_sec: 0,
        ..Config::default()
    };
    change(&mut config);
    let app = App::start(
        Arc::new(SqliteStore::open_in_memory().unwrap()),
        config,
        None,
    )
    .await
    .unwrap();
    (app, dir, js)
}

async fn get(
    app: &App,
    uri: &str,
    headers: &[(header::HeaderName, &str)],
) -> (StatusCode, header::HeaderMap, Vec<u8>) {
    let mut req = Request::builder().uri(uri);
    for (k, v) in headers {
        req = req.header(k, *v);
    }
    let res = app
        .router()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let h = res.headers().clone();
    let body = axum::body::to_bytes(res.into_body(), 1 << 22)
        .await
        .unwrap()
        .to_vec();
    (status, h, body)
}

#[tokio::test]
async fn brotli_when_accepted_and_the_body_is_the_file() {
    let (app, _dir, js) = app().await;
    let (s, h, body) = get(
        &app,
        "/app.js",
        &[(header::ACCEPT_ENCODING, "gzip, deflate, br, zstd")],
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(h[header::CONTENT_ENCODING], "br");
    assert!(
        body.len() < js.len() / 10,
        "{} bytes for {}",
        body.len(),
        js.len()
    );
    let mut out = Vec::new();
    brotli::Decompressor::new(&body[..], 4096)
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, js);
    assert_eq!(h[header::CACHE_CONTROL], "no-cache");
    assert!(h[header::ETAG].to_str().unwrap().starts_with("W/\""));
}

#[tokio::test]
async fn gzip_when_only_gzip_is_accepted_and_plain_otherwise() {
    let (app, _dir, js) = app().await;
    let (s, h, body) = get(&app, "/app.js", &[(header::ACCEPT_ENCODING, "gzip")]).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(h[header::CONTENT_ENCODING], "gzip");
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&body[..])
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, js);
    let (s, h, body) = get(&app, "/app.js", &[]).await;
    assert_eq!(s, StatusCode::OK);
    assert!(h.get(header::CONTENT_ENCODING).is_none());
    assert_eq!(body, js);
}

#[tokio::test]
async fn a_matching_etag_gets_304_without_a_body() {
    let (app, _dir, _js) = app().await;
    let (_, h, _) = get(&app, "/app.js", &[]).await;
    let tag = h[header::ETAG].to_str().unwrap().to_string();
    // the same tag whatever the encoding asked for
    let (_, hb, _) = get(&app, "/app.js", &[(header::ACCEPT_ENCODING, "br")]).await;
    assert_eq!(hb[header::ETAG].to_str().unwrap(), tag);
    let (s, h2, body) = get(
        &app,
        "/app.js",
        &[
            (header::IF_NONE_MATCH, tag.as_str()),
            (header::ACCEPT_ENCODING, "br"),
        ],
    )
    .await;
    assert_eq!(s, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    assert_eq!(h2[header::ETAG].to_str().unwrap(), tag);
    assert_eq!(h2[header::CACHE_CONTROL], "no-cache");
    // another tag: the file again
    let (s, _, body) = get(&app, "/app.js", &[(header::IF_NONE_MATCH, "W/\"0000\"")]).await;
    assert_eq!(s, StatusCode::OK);
    assert!(!body.is_empty());
    // the index page of a client-side route is served and tagged too
    let (s, h, body) = get(&app, "/g/abc", &[]).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(body, b"<!doctype html><p>crown web</p>");
    assert_eq!(h[header::CACHE_CONTROL], "no-cache");
}

#[tokio::test]
async fn the_api_is_not_given_file_cache_headers() {
    let (app, _dir, _js) = app().await;
    let (s, h, _) = get(&app, "/api/games", &[(header::ACCEPT_ENCODING, "br")]).await;
    assert_eq!(s, StatusCode::OK);
    assert!(h.get(header::ETAG).is_none());
    assert_ne!(
        h.get(header::CACHE_CONTROL).map(|v| v.to_str().unwrap()),
        Some("no-cache")
    );
}

/// A directory asked for without its slash is redirected to a path on this server, never to a
/// protocol-relative `//host/...` (which a browser reads as another host).
#[tokio::test]
async fn a_directory_redirect_is_a_path_never_protocol_relative() {
    let (app, dir, _js) = app().await;
    std::fs::create_dir(dir.path().join("css")).unwrap();
    std::fs::write(dir.path().join("css").join("index.html"), "css").unwrap();
    let (s, h, _) = get(&app, "/css", &[]).await;
    assert_eq!(s, StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(h[header::LOCATION], "/css/");
    for (uri, to) in [
        ("//css", "/css/"),
        ("///css", "/css/"),
        ("//css?x=1", "/css/?x=1"),
    ] {
        let (s, h, _) = get(&app, uri, &[]).await;
        let location = h.get(header::LOCATION).map(|v| v.to_str().unwrap());
        assert!(s.is_redirection(), "{uri}: {s}");
        assert_eq!(location, Some(to), "{uri}");
    }
    // A file asked for with extra leading slashes is the file.
    let (s, _, body) = get(&app, "//css/index.html", &[]).await;
    assert_eq!((s, body), (StatusCode::OK, b"css".to_vec()));
}

#[tokio::test]
async fn endgame_files_count_against_the_client_request_budget_and_the_web_app_does_not() {
    let (app, _dir, _) = app_with(|c| {
        c.rate_per_sec = 1;
        c.rate_burst = 3;
    })
    .await;
    for _ in 0..3 {
        let (s, _, _) = get(&app, "/egdb/american/x.egdb", &[]).await;
        assert_ne!(s, StatusCode::TOO_MANY_REQUESTS);
    }
    let (s, h, _) = get(&app, "/egdb/american/x.egdb", &[]).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    assert!(h.contains_key(header::RETRY_AFTER));
    // A page load asks for dozens of the web app's files: they stay outside the budget.
    for _ in 0..20 {
        let (s, _, _) = get(&app, "/index.html", &[]).await;
        assert_eq!(s, StatusCode::OK);
    }
}

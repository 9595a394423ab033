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

/// `GET uri` from the client address `ip` (as the server's listener gives it), with `headers`.
async fn get_from(
    app: &App,
    uri: &str,
    ip: [u8; 4],
    headers: &[(header::HeaderName, &str)],
) -> (StatusCode, header::HeaderMap, Vec<u8>) {
    let mut req = Request::builder().uri(uri);
    for (k, v) in headers {
        req = req.header(k, *v);
    }
    let mut req = req.body(Body::empty()).unwrap();
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
            ip, 40000,
        ))));
    let res = app.router().oneshot(req).await.unwrap();
    let (status, h) = (res.status(), res.headers().clone());
    let body = axum::body::to_bytes(res.into_body(), 1 << 23)
        .await
        .unwrap()
        .to_vec();
    (status, h, body)
}

#[tokio::test]
async fn the_web_apps_files_are_under_a_byte_budget_per_address() {
    // 50 000 bytes of burst, refilled at 1 byte a second: app.js is 19 600 bytes sent plain, so
    // each fetch costs 20 624 (its 1 KiB of headers counted) and the check before it 1. Two fit;
    // the third overdraws the budget (it was not empty yet); the fourth is refused until the
    // budget is back to 1 byte.
    let (app, _dir, js) = app_with(|c| {
        c.static_bytes_per_sec = 1;
        c.static_burst_bytes = 50_000;
    })
    .await;
    assert_eq!(js.len(), 19_600);
    let one = [198, 51, 100, 7];
    for _ in 0..3 {
        let (s, _, body) = get_from(&app, "/app.js", one, &[]).await;
        assert_eq!((s, body.len()), (StatusCode::OK, 19_600));
    }
    let (s, h, body) = get_from(&app, "/app.js", one, &[]).await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    // (1 - (50 000 - 3 - 3 × 20 624)) / 1 = 11 876 s, less the refill meanwhile (a second or so).
    let wait: u64 = h[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!((11_870..=11_876).contains(&wait), "{wait}");
    let e: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(e["error"]["code"], "rate_limited", "{e}");
    // Every file counts, the client-side routes' index.html too; another address has its own
    // budget; the API keeps its request budget (rate_per_sec 0 here: unlimited).
    assert_eq!(
        get_from(&app, "/g/abc", one, &[]).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    let (s, _, body) = get_from(&app, "/app.js", [198, 51, 100, 8], &[]).await;
    assert_eq!((s, body), (StatusCode::OK, js));
    assert_eq!(
        get_from(&app, "/api/lobby", one, &[]).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_first_load_and_reloads_fit_the_default_budget_and_a_download_loop_does_not() {
    // A web app of the real one's size: a 4 MB engine (`.wasm`, incompressible), 40 scripts and
    // the index page, under the default budget (128 MiB of burst, 2 MiB a second).
    let (app, dir, _) = app().await;
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let wasm: Vec<u8> = (0..4_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::create_dir(dir.path().join("pkg")).unwrap();
    std::fs::write(dir.path().join("pkg/crown_wasm_bg.wasm"), &wasm).unwrap();
    let mut files = vec!["/".to_string(), "/pkg/crown_wasm_bg.wasm".to_string()];
    for i in 0..40 {
        let name = format!("m{i}.js");
        std::fs::write(
            dir.path().join(&name),
            format!("export const m{i} = {i};\n").repeat(200),
        )
        .unwrap();
        files.push(format!("/{name}"));
    }
    let ip = [203, 0, 113, 9];
    // Three first loads (no cache, nothing compressed: the most bytes), then two reloads that
    // revalidate each file (304s).
    let mut etags = Vec::new();
    for _ in 0..3 {
        etags.clear();
        for f in &files {
            let (s, h, _) = get_from(&app, f, ip, &[]).await;
            assert_eq!(s, StatusCode::OK, "{f}");
            etags.push(h[header::ETAG].to_str().unwrap().to_string());
        }
    }
    for _ in 0..2 {
        for (f, etag) in files.iter().zip(&etags) {
            let (s, _, _) = get_from(&app, f, ip, &[(header::IF_NONE_MATCH, etag)]).await;
            assert_eq!(s, StatusCode::NOT_MODIFIED, "{f}");
        }
    }
    // A loop downloading the engine is refused once its 128 MiB are spent: 3 loads of about
    // 4.2 MB were, so (128 MiB - 3 × 4.2 MB) / 4 MB + 1 = 31 more get through, and one more per
    // 4 MB refilled meanwhile (2 MiB a second).
    let (mut fetched, started) = (0, std::time::Instant::now());
    loop {
        let (s, h, _) = get_from(&app, "/pkg/crown_wasm_bg.wasm", ip, &[]).await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            assert!(h.contains_key(header::RETRY_AFTER));
            break;
        }
        assert_eq!(s, StatusCode::OK);
        fetched += 1;
        let refilled = started.elapsed().as_secs_f64() * f64::from(2u32 << 20) / 4e6;
        assert!(
            f64::from(fetched) <= 31.0 + refilled.ceil(),
            "still served after {fetched} downloads"
        );
    }
    assert!(fetched >= 30, "refused after {fetched} downloads");
}

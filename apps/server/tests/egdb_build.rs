//! The background build of the endgame databases as `/health` reports it: nothing asked before a
//! game; the first engine move of a pool game starts the pool build; `ready` when it is done, the
//! engine's tables reloaded. A tiny set (≤3 pieces) in a temporary directory, so it is quick.

mod common;
use axum::http::{Method, StatusCode};
use common::{send, server};
use crown_ai::tables::auto::{AutoBuild, Status};
use crown_server::engine::CrownEngine;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_reports_the_background_build() {
    let dir = tempfile::tempdir().unwrap();
    let auto = AutoBuild::start(dir.path().to_path_buf(), 3, None, None).unwrap();
    let engine = CrownEngine::new(1, 1).with_auto_build(Some(auto.clone()));
    let app = server().engine(Arc::new(engine)).start().await;

    let (s, v) = send(&app, Method::GET, "/health", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["egdb"]["build"]["state"], "idle", "{v}");
    assert_eq!(v["egdb"]["build"]["pieces"], 3, "{v}");
    assert_eq!(v["egdb"]["loaded"], "no endgame databases", "{v}");

    // The engine (Black) moves first: its first move asks for the pool set.
    let (s, created) = send(
        &app,
        Method::POST,
        "/api/games",
        None,
        Some(json!({"variant": "pool", "opponent": "engine", "level": 1, "color": "white"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let waiter = auto.clone();
    let (status, done) = tokio::task::spawn_blocking(move || {
        waiter.wait_until(
            |s| matches!(s, Status::Ready { .. } | Status::Failed { .. }),
            Duration::from_secs(300),
        )
    })
    .await
    .unwrap();
    assert!(done, "{status:?}");
    let (_, v) = send(&app, Method::GET, "/health", None, None).await;
    let build = &v["egdb"]["build"];
    assert_eq!(build["state"], "ready", "{v}");
    assert_eq!(build["variant"], "pool", "{v}");
    assert_eq!(build["line"], "databases ready (pool ≤3)", "{v}");
    assert_eq!(v["egdb"]["loaded"], "pool ≤3 pieces", "{v}");
}

/// `/egdb/index.json` lists the complete sets up to the served piece count with sizes and SHA-256;
/// each listed file is served (gzip when asked, with an ETag and a 304 on revalidation) and
/// nothing else is.
#[tokio::test]
async fn the_database_files_are_served_to_the_browser() {
    use axum::body::Body;
    use axum::http::{header, Request};
    use tower::ServiceExt;
    let dir = tempfile::tempdir().unwrap();
    for (variant, pieces) in [
        (crown_core::Variant::American, 3),
        (crown_core::Variant::Impasse, 2),
    ] {
        let opts = crown_egdb::BuildOptions {
            variant,
            pieces,
            dir: dir.path().to_path_buf(),
            threads: Some(1),
        };
        crown_egdb::build(&opts, &()).unwrap();
    }
    let app = server()
        .with(|c| {
            c.egdb_dir = Some(dir.path().to_path_buf());
            c.egdb_serve_pieces = 2;
        })
        .start()
        .await;
    let (s, index) = send(&app, Method::GET, "/egdb/index.json", None, None).await;
    assert_eq!(s, StatusCode::OK, "{index}");
    assert_eq!(index["pieces"], 2);
    let american = &index["variants"]["american"];
    assert_eq!(american["pieces"], 2, "{index}");
    let files = american["files"].as_array().unwrap();
    assert!(!files.is_empty());
    assert!(index["variants"]["impasse"]["files"].as_array().is_some());
    assert!(index["variants"].get("pool").is_none(), "{index}");
    let f = &files[0];
    let url = f["url"].as_str().unwrap().to_string();
    let name = f["name"].as_str().unwrap();
    let on_disk = std::fs::read(dir.path().join(name)).unwrap();
    assert_eq!(f["bytes"], on_disk.len() as u64);
    let sha: String = {
        use sha2::Digest;
        sha2::Sha256::digest(&on_disk)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    assert_eq!(f["sha256"], sha.as_str());

    let router = app.router();
    let res = router
        .clone()
        .oneshot(
            Request::get(&url)
                .header(header::ACCEPT_ENCODING, "gzip")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()[header::CONTENT_ENCODING], "gzip");
    let etag = res.headers()[header::ETAG].clone();
    let body = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut plain).unwrap();
    assert_eq!(plain, on_disk);
    let res = router
        .clone()
        .oneshot(
            Request::get(&url)
                .header(header::IF_NONE_MATCH, etag)
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    // A 3-piece file (not listed at ≤2), the lock file, a path outside: not served.
    let listed: Vec<&str> = files.iter().map(|f| f["name"].as_str().unwrap()).collect();
    let three = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .find(|n| {
            n.starts_with("american-") && n.ends_with(".egdb") && !listed.contains(&n.as_str())
        })
        .expect("a 3-piece file");
    for bad in [
        format!("/egdb/american/{three}"),
        "/egdb/american/build.lock".to_string(),
        "/egdb/american/..%2F..%2Fetc%2Fpasswd".to_string(),
        format!("/egdb/pool/{name}"),
    ] {
        let res = router
            .clone()
            .oneshot(Request::get(&bad).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{bad}");
    }
}

//! The endgame database files for the browser's engine: `GET /egdb/index.json` lists, per game,
//! the files of the complete set the server has up to [`crate::Config::egdb_serve_pieces`] pieces
//! (name, bytes, SHA-256), and `GET /egdb/{variant}/{file}` serves each listed file, gzip-compressed
//! when the client accepts it, with a weak `ETag` and `Cache-Control: no-cache` like the other
//! static files (a browser keeps them and gets `304 Not Modified` while they are unchanged). Only
//! listed files are served: no other file of the directory, no path outside it. Each file is
//! compressed once per version and then served from memory (static_files `Precompressed`).
//!
//! The list is computed from the directory's files (headers only, then a checksum of each listed
//! file) and kept until a listed file changes size or time or the set grows (the background build
//! finishing), so the index costs a directory listing per request.

use crate::app::App;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use crown_core::Variant;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use tower::ServiceExt;
use tower_http::services::ServeFile;

/// One listed file.
#[derive(Clone, Debug, PartialEq)]
struct Listed {
    variant: Variant,
    name: String,
    path: PathBuf,
    bytes: u64,
    sha256: String,
}

/// What the list was computed from: each file with its size and time.
type Key = Vec<(PathBuf, u64, Option<SystemTime>)>;

struct Files {
    dir: Option<PathBuf>,
    pieces: u32,
    cache: Mutex<Option<(Key, Arc<Vec<Listed>>)>>,
}

impl Files {
    /// The files to list now (from the cache while the directory's files are unchanged).
    fn listed(&self) -> Arc<Vec<Listed>> {
        let Some(dir) = &self.dir else {
            return Arc::new(Vec::new());
        };
        let Ok(tb) = crown_egdb::Tablebase::open(dir) else {
            return Arc::new(Vec::new());
        };
        let mut wanted = Vec::new();
        for v in [Variant::American, Variant::Pool, Variant::Impasse] {
            let k = tb.max_pieces(v).min(self.pieces);
            if k < 2 {
                continue;
            }
            for c in tb.classes() {
                if c.variant == v && c.material.pieces(v) <= k {
                    wanted.push((v, c.path.clone()));
                }
            }
        }
        let key: Key = wanted
            .iter()
            .map(|(_, p)| {
                let m = std::fs::metadata(p).ok();
                (
                    p.clone(),
                    m.as_ref().map_or(0, |m| m.len()),
                    m.and_then(|m| m.modified().ok()),
                )
            })
            .collect();
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, list)) = cache.as_ref() {
            if *k == key {
                return Arc::clone(list);
            }
        }
        let list: Vec<Listed> = wanted
            .iter()
            .zip(&key)
            .filter_map(|((v, p), (_, bytes, _))| {
                let data = std::fs::read(p).ok()?;
                let sha: String = Sha256::digest(&data)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                Some(Listed {
                    variant: *v,
                    name: p.file_name()?.to_str()?.to_string(),
                    path: p.clone(),
                    bytes: *bytes,
                    sha256: sha,
                })
            })
            .collect();
        let list = Arc::new(list);
        *cache = Some((key, Arc::clone(&list)));
        list
    }
}

/// The routes `/egdb/index.json` and `/egdb/{variant}/{file}` for the databases in `dir` (`None`:
/// an empty index), listing complete sets up to `pieces` pieces.
pub fn routes(dir: Option<PathBuf>, pieces: u32) -> Router<App> {
    let files = Arc::new(Files {
        dir,
        pieces,
        cache: Mutex::new(None),
    });
    let served = Router::new()
        .route("/egdb/{variant}/{file}", get(file))
        .layer(axum::middleware::from_fn(super::static_files::etag))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(super::static_files::Precompressed::gzip_only()),
            super::static_files::compress_once,
        ));
    Router::new()
        .route("/egdb/index.json", get(index))
        .merge(served)
        .with_state(files)
}

/// The index: `{"pieces": N, "variants": {"american": {"pieces": k, "bytes": total, "files":
/// [{"name", "url", "bytes", "sha256"}]}}}` (a game without a complete set of at least 2 pieces is
/// left out).
async fn index(State(files): State<Arc<Files>>) -> Response {
    let f = Arc::clone(&files);
    let Ok(list) = tokio::task::spawn_blocking(move || f.listed()).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let mut variants = serde_json::Map::new();
    for v in [Variant::American, Variant::Pool, Variant::Impasse] {
        let of: Vec<&Listed> = list.iter().filter(|l| l.variant == v).collect();
        if of.is_empty() {
            continue;
        }
        let pieces = files.pieces.min(
            crown_egdb::Tablebase::open(files.dir.as_deref().unwrap_or(Path::new("")))
                .map_or(0, |tb| tb.max_pieces(v)),
        );
        let entries: Vec<serde_json::Value> = of
            .iter()
            .map(|l| {
                serde_json::json!({
                    "name": l.name,
                    "url": format!("/egdb/{}/{}", v.id(), l.name),
                    "bytes": l.bytes,
                    "sha256": l.sha256,
                })
            })
            .collect();
        variants.insert(
            v.id().to_string(),
            serde_json::json!({
                "pieces": pieces,
                "bytes": of.iter().map(|l| l.bytes).sum::<u64>(),
                "files": entries,
            }),
        );
    }
    let body = serde_json::json!({ "pieces": files.pieces, "variants": variants });
    (
        [(axum::http::header::CACHE_CONTROL, "no-cache")],
        Json(body),
    )
        .into_response()
}

async fn file(
    State(files): State<Arc<Files>>,
    UrlPath((variant, name)): UrlPath<(String, String)>,
    req: Request,
) -> Response {
    let f = Arc::clone(&files);
    let Ok(list) = tokio::task::spawn_blocking(move || f.listed()).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let Some(hit) = list
        .iter()
        .find(|l| l.variant.id() == variant && l.name == name)
    else {
        return (StatusCode::NOT_FOUND, "no such database file").into_response();
    };
    match ServeFile::new(&hit.path).oneshot(req).await {
        Ok(res) => {
            let mut res = res.into_response();
            // The compression cache's key: the listed file, whatever the URL's spelling.
            let len = res
                .headers()
                .get(axum::http::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            if let (StatusCode::OK, Some(len)) = (res.status(), len) {
                if let Some(served) = super::static_files::ServedFile::of(&hit.path, len) {
                    res.extensions_mut().insert(served);
                }
            }
            res
        }
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

//! The web UI's static files: served from a directory (tower-http `ServeDir`, unknown paths get
//! `index.html` for the client-side routes such as `/g/<id>`), compressed with brotli or gzip as the
//! client accepts (`Accept-Encoding`), with a weak `ETag` and
//! `Cache-Control: no-cache`: browsers keep the files and revalidate them on each load, getting
//! `304 Not Modified` (no body) while a file is unchanged. The asset names carry no hash, so a
//! longer `max-age` would serve a stale app after an upgrade.
//!
//! Compression is done once per file version ([`Precompressed`]): the first request of a file in
//! an encoding compresses it on a blocking thread and keeps the result (keyed by the file served,
//! [`ServedFile`]: its canonical path whatever the spelling of the URL — `/%61pp.js`, `//app.js`
//! and `/./app.js` are `/app.js`, every client-side route is `index.html` — with the encoding,
//! `Last-Modified` and length); later requests are served from memory, so downloads cost no CPU
//! on the runtime's threads. A file that does not shrink is remembered as such and sent as it is.
//! Concurrent misses of one file wait for one compression (single flight), at most
//! [`MAX_COMPRESSING`] files are compressed at once (a miss past that waits for a place: the files
//! are few, each is compressed once, and a page's first load gets every file compressed), and
//! the kept bytes are bounded ([`PRECOMPRESSED_MAX_BYTES`]).

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::Router;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use tower_http::services::{ServeDir, ServeFile};

/// The `Cache-Control` of every static file: store, but revalidate before use (see the module doc).
pub const CACHE_CONTROL: &str = "no-cache";

/// The router serving `dir`: files, `index.html` for unknown paths, compression, ETag and
/// `Cache-Control` (see the module documentation).
pub fn router(dir: &Path) -> Router {
    router_with(dir, Arc::new(Precompressed::default()))
}

/// [`router`] with the given compression cache.
fn router_with(dir: &Path, cache: Arc<Precompressed>) -> Router {
    let index = dir.join("index.html");
    Router::new()
        .fallback_service(
            ServeDir::new(dir)
                .append_index_html_on_directories(true)
                .fallback(ServeFile::new(index)),
        )
        .layer(middleware::from_fn_with_state(
            Arc::new(dir.to_path_buf()),
            served_file,
        ))
        .layer(middleware::from_fn(etag))
        .layer(middleware::from_fn_with_state(cache, compress_once))
        .layer(middleware::from_fn(one_leading_slash))
}

/// The file a `200` response sends, in its extensions: the cache key of [`compress_once`] (a
/// response without one is sent uncompressed). Canonical: one file has one, whatever the
/// spelling of the URL that reached it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ServedFile(pub PathBuf);

impl ServedFile {
    /// The canonical path of `path` when it is a file of `len` bytes (the length of the response
    /// that sends it: a file changed in between, or a path that is not the one sent, gives none).
    pub(crate) fn of(path: &Path, len: u64) -> Option<ServedFile> {
        let path = std::fs::canonicalize(path).ok()?;
        let meta = std::fs::metadata(&path).ok()?;
        (meta.is_file() && meta.len() == len).then_some(ServedFile(path))
    }
}

/// `s` percent-decoded, `None` when that is not UTF-8 (ServeDir's reading of a URL path).
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The file the static router sends for URL path `path` under `dir`: the named file, a
/// directory's `index.html`, or for a path naming nothing the root's `index.html` (the
/// client-side routes). `None` for a path ServeDir refuses (`..`).
fn file_for(dir: &Path, path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(path)?;
    let mut full = dir.to_path_buf();
    for c in Path::new(decoded.trim_start_matches('/')).components() {
        match c {
            Component::Normal(s) => full.push(s),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if full.is_dir() {
        full.push("index.html");
    }
    if !full.is_file() {
        full = dir.join("index.html");
    }
    Some(full)
}

/// Middleware: name the file of a `200` response ([`ServedFile`]).
async fn served_file(
    axum::extract::State(dir): axum::extract::State<Arc<PathBuf>>,
    req: Request,
    next: Next,
) -> Response {
    let file = file_for(&dir, req.uri().path());
    let mut res = next.run(req).await;
    let len = res
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if let (StatusCode::OK, Some(file), Some(len)) = (res.status(), file, len) {
        if let Some(served) = ServedFile::of(&file, len) {
            res.extensions_mut().insert(served);
        }
    }
    res
}

/// The most bytes of compressed files one [`Precompressed`] keeps; past it a file not yet kept is
/// sent uncompressed (no CPU per request either way).
pub const PRECOMPRESSED_MAX_BYTES: usize = 64 << 20;

/// The most files one [`Precompressed`] compresses at once; a miss past it waits for a place
/// (the set of files is fixed and each is compressed once per version, so the waits are bounded).
pub const MAX_COMPRESSING: usize = 2;

/// The largest file compressed (bigger ones are sent as they are).
const COMPRESS_MAX_FILE: u64 = 32 << 20;

/// A content encoding the server produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Encoding {
    Br,
    Gzip,
}

impl Encoding {
    fn name(self) -> &'static str {
        match self {
            Encoding::Br => "br",
            Encoding::Gzip => "gzip",
        }
    }

    /// `data` compressed (best ratio: done once per file version).
    fn compress(self, data: &[u8]) -> std::io::Result<Vec<u8>> {
        match self {
            Encoding::Gzip => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                e.write_all(data)?;
                e.finish()
            }
            Encoding::Br => {
                let mut out = Vec::new();
                {
                    let mut w = brotli::CompressorWriter::new(&mut out, 4096, 9, 22);
                    w.write_all(data)?;
                }
                Ok(out)
            }
        }
    }
}

/// The encoding to send for an `Accept-Encoding` value: brotli, else gzip, else none (a coding
/// listed with `q=0` is refused).
fn choose_encoding(accept: &str, gzip_only: bool) -> Option<Encoding> {
    let accepted = |name: &str| {
        accept.split(',').any(|item| {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            coding.eq_ignore_ascii_case(name) && !refused
        })
    };
    if accepted("br") && !gzip_only {
        Some(Encoding::Br)
    } else if accepted("gzip") {
        Some(Encoding::Gzip)
    } else {
        None
    }
}

/// What the cache keeps of one file version in one encoding: the compressed bytes, or `None`
/// when compression did not make it smaller.
type Kept = Option<axum::body::Bytes>;

/// One file version in one encoding: (file, encoding) to (`Last-Modified`, length, what was
/// kept).
type Versions = HashMap<(ServedFile, Encoding), (Vec<u8>, u64, Kept)>;

/// A compression under way: the file, the encoding, `Last-Modified` and length.
type Flight = (ServedFile, Encoding, Vec<u8>, u64);

/// Compressed files, each made once per version (see the module documentation); shared by the
/// static files and `/egdb/` (crate::routes::egdb_files).
pub struct Precompressed {
    /// What was kept of each file version.
    map: Mutex<Versions>,
    /// Bytes of compressed data kept.
    kept_bytes: Mutex<usize>,
    /// The most bytes kept ([`PRECOMPRESSED_MAX_BYTES`]).
    max_bytes: usize,
    /// The compressions under way: later misses of the same version wait for its result.
    flights: Mutex<HashMap<Flight, Arc<tokio::sync::OnceCell<Kept>>>>,
    /// The places of [`MAX_COMPRESSING`].
    compressing: tokio::sync::Semaphore,
    /// Files compressed so far (tests).
    compressions: std::sync::atomic::AtomicU64,
    /// Only gzip is produced (the endgame files: brotli gains little there).
    gzip_only: bool,
}

impl Default for Precompressed {
    fn default() -> Precompressed {
        Precompressed {
            map: Mutex::default(),
            kept_bytes: Mutex::default(),
            max_bytes: PRECOMPRESSED_MAX_BYTES,
            flights: Mutex::default(),
            compressing: tokio::sync::Semaphore::new(MAX_COMPRESSING),
            compressions: std::sync::atomic::AtomicU64::new(0),
            gzip_only: false,
        }
    }
}

impl Precompressed {
    /// A cache that produces gzip only.
    pub fn gzip_only() -> Precompressed {
        Precompressed {
            gzip_only: true,
            ..Precompressed::default()
        }
    }

    /// Bytes of compressed data kept now.
    pub fn kept_bytes(&self) -> usize {
        *self.kept_bytes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Compress `body` (the file `file` of version `modified`, `len` bytes) in `enc` once: the
    /// first miss compresses (once one of the [`MAX_COMPRESSING`] places is free) and keeps the
    /// result, the misses of the same version meanwhile wait for it. `Err(body)` when nothing
    /// was compressed for this request (kept bytes full): send `body` as it is;
    /// `Err(None)` when reading the file failed.
    async fn compress_file(
        self: &Arc<Self>,
        (file, enc, modified, len): Flight,
        body: Body,
    ) -> Result<(Body, Kept), Option<Body>> {
        let flight = (file.clone(), enc, modified.clone(), len);
        let cell = Arc::clone(
            self.flights
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(flight.clone())
                .or_default(),
        );
        let mut body = Some(body);
        let mut data = None;
        let result = cell
            .get_or_try_init(|| async {
                if self.kept_bytes() >= self.max_bytes {
                    return Err(());
                }
                let _permit = self.compressing.acquire().await.map_err(|_| ())?;
                let Some(b) = body.take() else {
                    return Err(());
                };
                let raw = axum::body::to_bytes(b, COMPRESS_MAX_FILE as usize)
                    .await
                    .map_err(|_| ())?;
                data = Some(raw.clone());
                let c = Arc::clone(self);
                let compressed = tokio::task::spawn_blocking(move || {
                    c.compressions
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    enc.compress(&raw).ok().filter(|z| z.len() < raw.len())
                })
                .await
                .ok()
                .flatten()
                .map(axum::body::Bytes::from);
                let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
                let mut kept = self.kept_bytes.lock().unwrap_or_else(|e| e.into_inner());
                if let Some((_, _, Some(old))) = map.get(&(file.clone(), enc)) {
                    *kept = kept.saturating_sub(old.len());
                }
                *kept += compressed.as_ref().map_or(0, |z| z.len());
                map.insert(
                    (file.clone(), enc),
                    (modified.clone(), len, compressed.clone()),
                );
                Ok(compressed)
            })
            .await
            .cloned();
        {
            let mut flights = self.flights.lock().unwrap_or_else(|e| e.into_inner());
            if result.is_ok() && flights.get(&flight).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                flights.remove(&flight);
            }
        }
        let body = match (body, data) {
            (Some(b), _) => b,
            (None, Some(d)) => Body::from(d),
            // The body was read and failed: nothing to send.
            (None, None) => return Err(None),
        };
        match result {
            Ok(kept) => Ok((body, kept)),
            Err(()) => Err(Some(body)),
        }
    }
}

/// True for a response worth compressing (tower-http's default rule: not images other than SVG,
/// not event streams, not tiny bodies).
fn compressible(res: &Response, len: u64) -> bool {
    let ct = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let image = ct.starts_with("image/") && !ct.starts_with("image/svg+xml");
    (32..=COMPRESS_MAX_FILE).contains(&len)
        && !image
        && !ct.starts_with("text/event-stream")
        && !ct.starts_with("application/grpc")
}

/// Middleware: send a `200` file response compressed as the client accepts, compressing each file
/// version once (on a blocking thread) and serving it from [`Precompressed`] after that.
pub(crate) async fn compress_once(
    axum::extract::State(cache): axum::extract::State<Arc<Precompressed>>,
    req: Request,
    next: Next,
) -> Response {
    let enc = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .and_then(|a| choose_encoding(a, cache.gzip_only));
    let Some(enc) = enc.filter(|_| req.method() == Method::GET) else {
        return next.run(req).await;
    };
    let mut res = next.run(req).await;
    let Some(file) = res.extensions().get::<ServedFile>().cloned() else {
        return res;
    };
    let h = res.headers();
    let len = h
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let modified = h.get(header::LAST_MODIFIED).map(|v| v.as_bytes().to_vec());
    let (Some(len), Some(modified)) = (len, modified) else {
        return res;
    };
    if res.status() != StatusCode::OK
        || h.contains_key(header::CONTENT_ENCODING)
        || h.contains_key(header::CONTENT_RANGE)
        || !compressible(&res, len)
    {
        return res;
    }
    res.headers_mut()
        .append(header::VARY, HeaderValue::from_static("accept-encoding"));
    let key = (file, enc);
    let hit = {
        let map = cache.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&key)
            .filter(|(m, l, _)| *m == modified && *l == len)
            .map(|(_, _, kept)| kept.clone())
    };
    let (mut parts, body) = res.into_parts();
    let (body, compressed) = match hit {
        Some(Some(z)) => (Body::empty(), Some(z)),
        Some(None) => (body, None),
        None => match cache.compress_file((key.0, enc, modified, len), body).await {
            Ok(done) => done,
            Err(Some(body)) => return Response::from_parts(parts, body),
            Err(None) => return plain(StatusCode::INTERNAL_SERVER_ERROR),
        },
    };
    match compressed {
        Some(z) => {
            parts.headers.insert(
                header::CONTENT_ENCODING,
                HeaderValue::from_static(enc.name()),
            );
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(z.len()));
            parts.headers.remove(header::ACCEPT_RANGES);
            Response::from_parts(parts, Body::from(z))
        }
        None => Response::from_parts(parts, body),
    }
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
    fn the_accepted_encoding_is_chosen_and_q0_refuses() {
        assert_eq!(
            choose_encoding("gzip, deflate, br", false),
            Some(Encoding::Br)
        );
        assert_eq!(
            choose_encoding("gzip, deflate, br", true),
            Some(Encoding::Gzip)
        );
        assert_eq!(choose_encoding("br;q=0, gzip", false), Some(Encoding::Gzip));
        assert_eq!(choose_encoding("GZIP;q=0.5", false), Some(Encoding::Gzip));
        assert_eq!(choose_encoding("identity", false), None);
        assert_eq!(choose_encoding("gzip;q=0", false), None);
    }

    #[tokio::test]
    async fn a_file_is_compressed_once_per_version_and_served_from_memory() {
        use tower::ServiceExt;
        let dir = tempfile::tempdir().unwrap();
        let js = "export const a = [1, 2, 3];\n".repeat(500);
        std::fs::write(dir.path().join("app.js"), &js).unwrap();
        std::fs::write(dir.path().join("index.html"), "<p>x</p>").unwrap();
        let cache = Arc::new(Precompressed::default());
        let router = router_with(dir.path(), Arc::clone(&cache));
        let fetch = |enc: &'static str| {
            let router = router.clone();
            async move {
                let req = Request::builder()
                    .uri("/app.js")
                    .header(header::ACCEPT_ENCODING, enc)
                    .body(Body::empty())
                    .unwrap();
                let res = router.oneshot(req).await.unwrap();
                let ce = res.headers().get(header::CONTENT_ENCODING).cloned();
                let body = axum::body::to_bytes(res.into_body(), 1 << 20)
                    .await
                    .unwrap();
                (ce, body)
            }
        };
        let count = || {
            cache
                .compressions
                .load(std::sync::atomic::Ordering::Relaxed)
        };
        let (ce, first) = fetch("gzip").await;
        assert_eq!(ce.unwrap(), "gzip");
        let mut plain_js = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&first[..]), &mut plain_js)
            .unwrap();
        assert_eq!(plain_js, js);
        for _ in 0..10 {
            let (ce, again) = fetch("gzip").await;
            assert_eq!(ce.unwrap(), "gzip");
            assert_eq!(again, first);
        }
        assert_eq!(count(), 1, "ten more downloads compressed nothing");
        let (ce, _) = fetch("br").await;
        assert_eq!(ce.unwrap(), "br");
        assert_eq!(count(), 2, "another encoding is compressed once");
        // A new version (another length) is compressed anew.
        std::fs::write(dir.path().join("app.js"), format!("{js}// v2\n")).unwrap();
        let (_, second) = fetch("gzip").await;
        assert_ne!(second, first);
        assert_eq!(count(), 3);
        // Data that does not shrink is sent as it is.
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 32) as u8
            })
            .collect();
        std::fs::write(dir.path().join("noise.bin"), &noise).unwrap();
        let req = Request::builder()
            .uri("/noise.bin")
            .header(header::ACCEPT_ENCODING, "gzip")
            .body(Body::empty())
            .unwrap();
        let res = router.clone().oneshot(req).await.unwrap();
        assert!(res.headers().get(header::CONTENT_ENCODING).is_none());
        let body = axum::body::to_bytes(res.into_body(), 1 << 20)
            .await
            .unwrap();
        assert_eq!(&body[..], &noise[..]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_misses_of_one_file_under_any_spelling_compress_it_once() {
        // Issue 41 (third review, B): the cache was keyed by the URL as sent and every
        // concurrent miss compressed the file again.
        use tower::ServiceExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("pkg")).unwrap();
        let js = "export const a = [1, 2, 3];\n".repeat(20_000);
        std::fs::write(dir.path().join("pkg/app.js"), &js).unwrap();
        let page = "<p>the app</p>\n".repeat(10);
        std::fs::write(dir.path().join("index.html"), &page).unwrap();
        let cache = Arc::new(Precompressed::default());
        let router = router_with(dir.path(), Arc::clone(&cache));
        let fetch = |uri: String| {
            let router = router.clone();
            async move {
                let req = Request::builder()
                    .uri(&uri)
                    .header(header::ACCEPT_ENCODING, "gzip")
                    .body(Body::empty())
                    .unwrap();
                let res = router.oneshot(req).await.unwrap();
                assert_eq!(res.status(), StatusCode::OK, "{uri}");
                let gz = res.headers().get(header::CONTENT_ENCODING).is_some();
                let body = axum::body::to_bytes(res.into_body(), 1 << 24)
                    .await
                    .unwrap();
                let mut text = String::new();
                if gz {
                    std::io::Read::read_to_string(
                        &mut flate2::read::GzDecoder::new(&body[..]),
                        &mut text,
                    )
                    .unwrap();
                } else {
                    text = String::from_utf8(body.to_vec()).unwrap();
                }
                (gz, text)
            }
        };
        let spellings = [
            "/pkg/app.js",
            "/pkg/%61pp.js",
            "/pkg/a%70p.js",
            "//pkg/app.js",
            "/pkg//app.js",
            "/./pkg/app.js",
            "/%70kg/app.js",
            "/pkg/./app.js",
        ];
        let tasks: Vec<_> = (0..32)
            .map(|i| tokio::spawn(fetch(spellings[i % spellings.len()].to_string())))
            .collect();
        for t in tasks {
            let (_, text) = t.await.unwrap();
            assert_eq!(text, js, "every answer is the file");
        }
        let count = || {
            cache
                .compressions
                .load(std::sync::atomic::Ordering::Relaxed)
        };
        assert_eq!(count(), 1, "32 concurrent misses compressed the file once");
        let kept = cache.kept_bytes();
        for uri in spellings {
            let (gz, text) = fetch(uri.to_string()).await;
            assert!(gz, "{uri} is served from the cache");
            assert_eq!(text, js);
        }
        assert_eq!(count(), 1);
        assert_eq!(cache.kept_bytes(), kept, "no spelling kept another copy");
        // Every client-side route is index.html: compressed once too.
        for i in 0..20 {
            let (_, text) = fetch(format!("/g/{i:016x}")).await;
            assert_eq!(text, page);
        }
        assert_eq!(count(), 2);
    }

    #[tokio::test]
    async fn a_file_that_does_not_shrink_is_compressed_once_and_remembered() {
        use tower::ServiceExt;
        let dir = tempfile::tempdir().unwrap();
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let noise: Vec<u8> = (0..8192)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 32) as u8
            })
            .collect();
        std::fs::write(dir.path().join("noise.bin"), &noise).unwrap();
        std::fs::write(dir.path().join("index.html"), "<p>x</p>").unwrap();
        let cache = Arc::new(Precompressed::default());
        let router = router_with(dir.path(), Arc::clone(&cache));
        for uri in ["/noise.bin", "/%6eoise.bin", "/noise.bin", "//noise.bin"] {
            let req = Request::builder()
                .uri(uri)
                .header(header::ACCEPT_ENCODING, "gzip")
                .body(Body::empty())
                .unwrap();
            let res = router.clone().oneshot(req).await.unwrap();
            assert!(res.headers().get(header::CONTENT_ENCODING).is_none());
            let body = axum::body::to_bytes(res.into_body(), 1 << 20)
                .await
                .unwrap();
            assert_eq!(&body[..], &noise[..], "{uri}");
        }
        assert_eq!(
            cache
                .compressions
                .load(std::sync::atomic::Ordering::Relaxed),
            1
        );
        assert_eq!(cache.kept_bytes(), 0);
    }

    #[tokio::test]
    async fn past_the_kept_bytes_bound_files_are_sent_uncompressed_and_nothing_more_is_kept() {
        use tower::ServiceExt;
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.js", "b.js", "c.js"] {
            std::fs::write(dir.path().join(name), format!("// {name}\n").repeat(4000)).unwrap();
        }
        std::fs::write(dir.path().join("index.html"), "<p>x</p>").unwrap();
        let cache = Arc::new(Precompressed {
            max_bytes: 1,
            ..Precompressed::default()
        });
        let router = router_with(dir.path(), Arc::clone(&cache));
        let mut encoded = Vec::new();
        for uri in ["/a.js", "/b.js", "/c.js", "/a.js"] {
            let req = Request::builder()
                .uri(uri)
                .header(header::ACCEPT_ENCODING, "gzip")
                .body(Body::empty())
                .unwrap();
            let res = router.clone().oneshot(req).await.unwrap();
            encoded.push(res.headers().get(header::CONTENT_ENCODING).is_some());
        }
        // The first fills the bound; the others go out as they are; the first stays served.
        assert_eq!(encoded, [true, false, false, true]);
        let kept = cache.kept_bytes();
        assert!(kept > 0 && kept < 4000, "{kept}");
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

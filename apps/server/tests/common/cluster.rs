//! Helpers for tests that run `crown-server` processes on one shared PostgreSQL: start an
//! instance (killed when dropped), HTTP `post`/`get` against it, a WebSocket watcher.

use serde_json::Value;
use std::process::Child;

/// A WebSocket to an instance.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Lease length given to every instance, in ms (`--lease-ms`).
pub const LEASE_MS: u64 = 1500;

/// Kills the instance if the test fails before it does.
pub struct Instance {
    /// The server process.
    pub child: Child,
    /// Its base URL, e.g. `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start a `crown-server` process on the PostgreSQL at `url` (no rate limit, one engine
/// worker, no databases, [`LEASE_MS`]).
pub fn start_instance(url: &str) -> Instance {
    start_instance_with_lease(url, LEASE_MS)
}

/// [`start_instance`] with a lease of `lease_ms` (`--lease-ms`).
#[allow(dead_code)]
pub fn start_instance_with_lease(url: &str, lease_ms: u64) -> Instance {
    let lease = lease_ms.to_string();
    let args = [
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--rate-limit",
        "0",
        "--log",
        "warn",
        "--no-egdb",
        "--engine-workers",
        "1",
        "--lease-ms",
        &lease,
        "--database",
        url,
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let (child, base) = super::spawn_server(&args);
    Instance { child, base }
}

/// POST `body` (JSON, or no body) to `base` + `path` with `token` as Bearer; the status and the
/// JSON answer (`Null` when it is not JSON).
pub async fn post(
    base: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let http = reqwest::Client::new();
    let mut req = http.post(format!("{base}{path}"));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

/// GET `base` + `path` as JSON.
pub async fn get(base: &str, path: &str) -> Value {
    reqwest::get(format!("{base}{path}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Open a WebSocket watching game `id` on `base`.
pub async fn watch(base: &str, id: &str) -> Ws {
    let url = format!("{}/api/games/{id}/ws", base.replace("http://", "ws://"));
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

//! The connection layer: hyper's HTTP/1.1 server per connection with a header-read timeout, a
//! bounded request head, a per-address connection cap and graceful shutdown.

use crate::app::App;
use std::sync::Arc;
use std::time::Duration;

/// Most header fields hyper parses in a request; more get hyper's bare 431 (fewer, but more than
/// the router's limit of 100, its JSON `431 headers_too_large`).
pub const MAX_HEADER_FIELDS: usize = 1000;

/// Serve `app` on `listener` until `shutdown` resolves, then stop WebSockets and background tasks
/// and wait for requests in flight.
///
/// Each connection is served by hyper's HTTP/1.1 server with a header-read timeout
/// ([`crate::Config::header_read_timeout_ms`]: a client that does not send a whole request head within
/// it, including an idle keep-alive connection, is disconnected) and request heads of at most
/// [`crate::Config::max_header_bytes`]; a client address may hold at most [`crate::Config::max_conns_per_ip`]
/// connections (more are closed at once; upgraded WebSockets are counted separately, see
/// [`crate::Config::max_ws_per_ip`]), except a trusted proxy ([`crate::Config::trusted_proxies`]),
/// whose clients are told apart by the request layer instead.
///
/// # Errors
/// I/O errors from the listener.
pub async fn serve(
    app: App,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let router = app.router();
    let mut stop = app.shutdown_signal();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_millis(
            app.config.header_read_timeout_ms.max(1),
        ))
        .max_buf_size(app.config.max_header_bytes.max(8192))
        // Above hyper's default of 100, so that the router answers a request with too many
        // header fields with its JSON 431 (`routes::layers::MAX_HEADERS`) instead of hyper's bare
        // one.
        .max_headers(MAX_HEADER_FIELDS)
        .keep_alive(true);
    let builder = Arc::new(builder);
    // Every connection task holds a sender; when all are dropped, every connection has ended.
    let (alive_tx, mut alive_rx) = tokio::sync::mpsc::channel::<()>(1);
    let app2 = app.clone();
    tokio::spawn(async move {
        shutdown.await;
        tracing::info!("shutting down: closing WebSockets, finishing requests");
        app2.shutdown();
    });
    loop {
        let (stream, addr) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors and the like: wait a little instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stop.changed() => break,
        };
        let app = app.clone();
        // A trusted proxy carries many clients' connections: the per-address cap would shut
        // them all out at once, so it does not apply to it (the proxy limits its clients).
        let max_conns = if crate::proxy::is_trusted(&app.config.trusted_proxies, addr.ip()) {
            usize::MAX
        } else {
            app.config.max_conns_per_ip
        };
        if app.conns.count(crate::proxy::client_key(addr.ip())) >= max_conns {
            tracing::debug!(%addr, "connection refused: too many from this address");
            drop(stream);
            continue;
        }
        let router = router.clone();
        let builder = builder.clone();
        let alive = alive_tx.clone();
        tokio::spawn(async move {
            let _alive = alive;
            let Some(_guard) = app
                .conns
                .try_add(crate::proxy::client_key(addr.ip()), max_conns)
            else {
                return;
            };
            let _ = stream.set_nodelay(true);
            let svc = tower::ServiceExt::map_request(
                router,
                move |mut req: axum::http::Request<hyper::body::Incoming>| {
                    req.extensions_mut()
                        .insert(axum::extract::ConnectInfo(addr));
                    req
                },
            );
            let svc = hyper_util::service::TowerToHyperService::new(svc);
            let conn = builder
                .serve_connection(TokioIo::new(stream), svc)
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            let mut stop = app.shutdown_signal();
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!(%addr, error = %e, "connection ended");
                    }
                    return;
                }
                _ = stop.changed() => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    drop(alive_tx);
    let _ = alive_rx.recv().await;
    app.final_heartbeat().await;
    Ok(())
}

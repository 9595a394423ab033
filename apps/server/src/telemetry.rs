//! The server's metrics (`GET /metrics`, Prometheus text format): their names, and the one
//! process-wide recorder of the `metrics` crate that `metrics-exporter-prometheus` renders.
//!
//! Counters and histograms are recorded where things happen (the request layer, the engine
//! scheduler, the stores' writers, the log-in limits); the gauges of what is open now are set from
//! the [`crate::App`] being scraped, at each scrape ([`render`]).

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;

/// Counter: HTTP requests answered, by `route` (the route's pattern, e.g.
/// `/api/games/{id}/moves`; `unmatched` for a path no route has, static files included),
/// `method` and `status`.
pub const HTTP_REQUESTS: &str = "crown_http_requests_total";
/// Histogram: the time to answer a request, in seconds, by `route` and `method`.
pub const HTTP_SECONDS: &str = "crown_http_request_duration_seconds";
/// Histogram: the time to answer `POST /api/games/{id}/moves` (the move committed), in seconds,
/// by `status`.
pub const MOVE_SECONDS: &str = "crown_move_duration_seconds";
/// Gauge: unfinished games (open and ongoing).
pub const OPEN_GAMES: &str = "crown_open_games";
/// Gauge: WebSockets open.
pub const WEBSOCKETS: &str = "crown_websockets_open";
/// Gauge: HTTP connections open (WebSockets not included).
pub const CONNECTIONS: &str = "crown_http_connections_open";
/// Gauge: engine searches waiting for a free worker.
pub const ENGINE_QUEUE: &str = "crown_engine_queue";
/// Gauge: engine searches running.
pub const ENGINE_RUNNING: &str = "crown_engine_searches_running";
/// Histogram: the time of one engine search, in seconds.
pub const ENGINE_SEARCH_SECONDS: &str = "crown_engine_search_duration_seconds";
/// Histogram: the time of one store transaction (a group commit of writes), in seconds, by
/// `store` (`sqlite`, `postgres`).
pub const STORE_COMMIT_SECONDS: &str = "crown_store_commit_duration_seconds";
/// Counter: log-in, sign-up and change-of-password attempts refused by the log-in limits
/// (`429 login_rate_limited`).
pub const LOGIN_THROTTLED: &str = "crown_login_throttled_total";

/// The buckets of every histogram, in seconds: 0.5 ms to 30 s.
const BUCKETS: [f64; 15] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's Prometheus recorder, installed as the global recorder of the `metrics` crate at
/// the first call (by [`crate::routes::router`]). When another global recorder was installed first
/// (an embedder's), this one stays empty but for the gauges set at each scrape, and a warning is
/// logged.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .expect("the bucket list is not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed: /metrics shows the gauges only");
        }
        describe();
        // Histograms keep their samples until drained: drain them now and then, scraped or not.
        let upkeep = handle.clone();
        let _ = std::thread::Builder::new()
            .name("metrics-upkeep".into())
            .spawn(move || loop {
                std::thread::sleep(Duration::from_secs(5));
                upkeep.run_upkeep();
            });
        handle
    })
}

/// The help lines of the metrics.
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests answered, by route, method and status"
    );
    describe_histogram!(
        HTTP_SECONDS,
        Unit::Seconds,
        "time to answer an HTTP request"
    );
    describe_histogram!(
        MOVE_SECONDS,
        Unit::Seconds,
        "time to answer a move (committed)"
    );
    describe_gauge!(OPEN_GAMES, "unfinished games");
    describe_gauge!(WEBSOCKETS, "WebSockets open");
    describe_gauge!(
        CONNECTIONS,
        "HTTP connections open (WebSockets not included)"
    );
    describe_gauge!(ENGINE_QUEUE, "engine searches waiting for a worker");
    describe_gauge!(ENGINE_RUNNING, "engine searches running");
    describe_histogram!(
        ENGINE_SEARCH_SECONDS,
        Unit::Seconds,
        "time of one engine search"
    );
    describe_histogram!(
        STORE_COMMIT_SECONDS,
        Unit::Seconds,
        "time of one store transaction (a group commit)"
    );
    describe_counter!(LOGIN_THROTTLED, "attempts refused by the log-in limits");
}

/// The metrics in the Prometheus text format, with the gauges of `app` set first.
pub fn render(app: &crate::App) -> String {
    let handle = handle();
    metrics::gauge!(OPEN_GAMES).set(app.open_games() as f64);
    metrics::gauge!(WEBSOCKETS).set(app.ws_per_ip.total() as f64);
    metrics::gauge!(CONNECTIONS).set(app.conns.total() as f64);
    metrics::gauge!(ENGINE_RUNNING).set(app.games().engine_searches() as f64);
    handle.render()
}

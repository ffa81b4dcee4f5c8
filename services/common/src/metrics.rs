//! Prometheus metrics: one recorder per process (the `metrics` facade with the Prometheus
//! exporter), rendered at `GET /metrics` on the process's metrics port (`PORTAL_METRICS_PORT`).
//!
//! | metric | labels | from |
//! |---|---|---|
//! | `http_requests_total`, `http_request_duration_seconds` | `method`, `route`, `status` | the gateway, per matched route |
//! | `grpc_server_requests_total`, `grpc_server_request_duration_seconds` | `rpc`, `code` | every gRPC service, per method |
//! | `grpc_client_requests_total` | `rpc`, `code` | every caller of a service, per method |
//! | `kv_operations_total`, `kv_operation_duration_seconds` | `op`, `outcome` | the KV store (in-process or Redis) |
//! | `db_pool_connections`, `db_pool_idle_connections`, `db_pool_max_connections` | `service` | each service's SQL pool, read at scrape |
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::{Mutex, OnceLock};

/// Upper bounds in seconds: fine below 10 ms, where a healthy call lands, coarse above.
const DURATION_BUCKETS: &[f64] = &[0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
static POOLS: Mutex<Vec<(String, sqlx::AnyPool)>> = Mutex::new(Vec::new());
/// Set once the process serves `/metrics`: pools are held for reporting only then (a held pool
/// stays open, which a test process starting hundreds of services must not do).
static SERVING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The process's recorder, installed on first use. Every process calls this before serving, so
/// no figure recorded while starting is lost.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), DURATION_BUCKETS)
            .expect("bucket bounds are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was installed already; /metrics shows only its own");
        }
        describe();
        handle
    })
}

fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!("http_requests_total", "HTTP requests answered by the gateway");
    describe_histogram!("http_request_duration_seconds", Unit::Seconds, "Time to answer an HTTP request");
    describe_counter!("grpc_server_requests_total", "gRPC calls answered, by method and status code");
    describe_histogram!("grpc_server_request_duration_seconds", Unit::Seconds, "Time to answer a gRPC call");
    describe_counter!("grpc_client_requests_total", "gRPC calls made to other services, by method and status code");
    describe_counter!("kv_operations_total", "KV store operations, by operation and outcome");
    describe_histogram!("kv_operation_duration_seconds", Unit::Seconds, "Time of a KV store operation");
    describe_gauge!("db_pool_connections", "Open connections in the service's SQL pool");
    describe_gauge!("db_pool_idle_connections", "Idle connections in the service's SQL pool");
    describe_gauge!("db_pool_max_connections", "The SQL pool's limit");
}

/// Whether this process records metrics (it serves `/metrics`, or a test asked for the
/// recorder): callers skip building labels when not.
pub fn enabled() -> bool {
    HANDLE.get().is_some()
}

/// Reports `pool`'s size under `service` on every scrape.
pub fn register_pool(service: &str, pool: &sqlx::AnyPool) {
    if !SERVING.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let mut pools = POOLS.lock().unwrap();
    pools.retain(|(_, p)| !p.is_closed());
    pools.push((service.to_string(), pool.clone()));
}

/// The Prometheus text exposition of everything recorded in this process.
pub fn render() -> String {
    let handle = handle();
    for (service, pool) in POOLS.lock().unwrap().iter().filter(|(_, p)| !p.is_closed()) {
        let labels = [("service", service.clone())];
        metrics::gauge!("db_pool_connections", &labels).set(pool.size() as f64);
        metrics::gauge!("db_pool_idle_connections", &labels).set(pool.num_idle() as f64);
        metrics::gauge!("db_pool_max_connections", &labels).set(pool.options().get_max_connections() as f64);
    }
    handle.run_upkeep();
    handle.render()
}

/// Serves `GET /metrics` on `host:port` until the process ends; returns the bound address.
/// Port 0 picks a free one.
pub async fn serve(host: &str, port: u16) -> anyhow::Result<std::net::SocketAddr> {
    use axum::routing::get;
    handle();
    let listener = tokio::net::TcpListener::bind((host, port)).await?;
    SERVING.store(true, std::sync::atomic::Ordering::Relaxed);
    let addr = listener.local_addr()?;
    let app =
        axum::Router::new().route("/metrics", get(|| async { ([(http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], render()) }));
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "metrics listener stopped");
        }
    });
    tracing::info!(%addr, "metrics on /metrics");
    Ok(addr)
}

/// Serves `/metrics` when `PORTAL_METRICS_PORT` is set; returns where.
pub async fn serve_configured(settings: &crate::config::Settings) -> anyhow::Result<Option<std::net::SocketAddr>> {
    match settings.metrics_port {
        Some(port) => Ok(Some(serve(&settings.metrics_host, port).await?)),
        None => Ok(None),
    }
}

/// The gRPC status code of a response: from its headers when the call failed at once (a
/// "trailers-only" answer, which is how tonic sends an error), else OK; a stream that fails
/// after its first message is counted as OK here.
pub fn grpc_code<B>(res: &http::Response<B>) -> &str {
    res.headers().get("grpc-status").and_then(|v| v.to_str().ok()).map_or("OK", code_name_or_raw)
}

fn code_name_or_raw(raw: &str) -> &str {
    match raw {
        "0" => "OK",
        "1" => "CANCELLED",
        "2" => "UNKNOWN",
        "3" => "INVALID_ARGUMENT",
        "4" => "DEADLINE_EXCEEDED",
        "5" => "NOT_FOUND",
        "6" => "ALREADY_EXISTS",
        "7" => "PERMISSION_DENIED",
        "8" => "RESOURCE_EXHAUSTED",
        "9" => "FAILED_PRECONDITION",
        "10" => "ABORTED",
        "11" => "OUT_OF_RANGE",
        "12" => "UNIMPLEMENTED",
        "13" => "INTERNAL",
        "14" => "UNAVAILABLE",
        "15" => "DATA_LOSS",
        "16" => "UNAUTHENTICATED",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders_recorded_figures_and_pool_sizes() {
        super::handle();
        metrics::counter!("grpc_server_requests_total", "rpc" => "/test.v1.T/Call", "code" => "OK").increment(3);
        metrics::histogram!("grpc_server_request_duration_seconds", "rpc" => "/test.v1.T/Call").record(0.003);
        let text = super::render();
        assert!(text.contains(r#"grpc_server_requests_total{rpc="/test.v1.T/Call",code="OK"} 3"#), "{text}");
        assert!(text.contains(r#"grpc_server_request_duration_seconds_bucket{rpc="/test.v1.T/Call",le="0.005"} 1"#), "{text}");
        assert!(text.contains(r#"grpc_server_request_duration_seconds_bucket{rpc="/test.v1.T/Call",le="0.002"} 0"#), "{text}");
    }

    #[test]
    fn names_grpc_codes() {
        let res = |code: Option<&str>| {
            let mut r = http::Response::new(());
            if let Some(c) = code {
                r.headers_mut().insert("grpc-status", c.parse().unwrap());
            }
            r
        };
        assert_eq!(super::grpc_code(&res(None)), "OK");
        assert_eq!(super::grpc_code(&res(Some("14"))), "UNAVAILABLE");
        assert_eq!(super::grpc_code(&res(Some("99"))), "99");
    }
}

//! Every HTTP request at the gateway: a span that starts the trace (or continues the caller's,
//! from `traceparent`), one deadline shared by every gRPC call made to answer it, and the
//! request counted and timed per route for `/metrics`.
use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;

pub async fn observe(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let deadline = start + portal_common::grpc::CALL_DEADLINE;
    let metered = portal_common::metrics::enabled();
    let traced = portal_common::telemetry::traces_enabled();
    if !metered && !traced {
        return portal_common::grpc::with_deadline(deadline, next.run(req)).await;
    }
    let method = req.method().clone();
    // Routes by their pattern (`/api/profile/claims/{id}`), never the raw path, so the labels
    // stay few; the front end's files and unknown paths are one label.
    let route = req.extensions().get::<MatchedPath>().map_or("fallback", |m| m.as_str()).to_string();
    let span = if traced {
        let span = tracing::info_span!(
            "http",
            otel.name = %format_args!("{method} {route}"),
            otel.kind = "server",
            http.request.method = %method,
            http.route = %route,
            http.response.status_code = tracing::field::Empty,
        );
        let _ = span.set_parent(portal_common::grpc::extract_context(req.headers()));
        span
    } else {
        tracing::Span::none()
    };
    let res = portal_common::grpc::with_deadline(deadline, next.run(req)).instrument(span.clone()).await;
    let status = res.status().as_u16();
    span.record("http.response.status_code", status);
    if metered {
        let labels = [("method", method.to_string()), ("route", route), ("status", status.to_string())];
        metrics::histogram!("http_request_duration_seconds", &labels).record(start.elapsed().as_secs_f64());
        metrics::counter!("http_requests_total", &labels).increment(1);
    }
    res
}

//! Logs and traces through `tracing`.
//!
//! Logs: filter with `RUST_LOG`; never log tokens, codes or personal data. Production mode
//! (`PORTAL_MODE=production`) writes one JSON object per line; `PORTAL_LOG_FORMAT=json` or
//! `text` chooses either way.
//!
//! Traces: when an OTLP endpoint is configured (the standard `OTEL_EXPORTER_OTLP_ENDPOINT` or
//! `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, gRPC), the portal's spans (one per HTTP request at the
//! gateway, one per gRPC call in each service) are exported over OTLP with the W3C trace
//! context carried across every gRPC hop (see [`crate::grpc`]), so a member's request is one
//! trace across processes. `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES` and
//! `OTEL_TRACES_SAMPLER(_ARG)` are honoured; `OTEL_SDK_DISABLED=true` turns tracing off.
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::trace::SdkTracerProvider;
use std::sync::OnceLock;
use tracing_subscriber::filter::{EnvFilter, LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

static PROVIDER: OnceLock<SdkTracerProvider> = OnceLock::new();

/// Whether logs are JSON: asked for, or production mode.
fn json_logs() -> bool {
    match std::env::var("PORTAL_LOG_FORMAT").as_deref() {
        Ok("json") => true,
        Ok("text") => false,
        _ => std::env::var("PORTAL_MODE").as_deref() == Ok("production"),
    }
}

fn env_set(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.trim().is_empty())
}

/// Whether traces go anywhere: an OTLP endpoint is set and the SDK is not disabled.
pub fn otlp_configured() -> bool {
    (env_set("OTEL_EXPORTER_OTLP_ENDPOINT") || env_set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
        && !std::env::var("OTEL_SDK_DISABLED").is_ok_and(|v| v.eq_ignore_ascii_case("true"))
}

/// The OTLP exporting provider for `service` (batching, on its own thread), when configured.
fn otlp_provider(service: &str) -> Option<SdkTracerProvider> {
    if !otlp_configured() {
        return None;
    }
    use opentelemetry_otlp::WithExportConfig as _;
    let exporter = match opentelemetry_otlp::SpanExporter::builder().with_tonic().with_timeout(std::time::Duration::from_secs(5)).build() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("traces off: the OTLP exporter could not be built: {e}");
            return None;
        }
    };
    Some(SdkTracerProvider::builder().with_resource(resource(service)).with_batch_exporter(exporter).build())
}

/// The process's resource: `OTEL_SERVICE_NAME` (and `OTEL_RESOURCE_ATTRIBUTES`) when set, else
/// `portal-<service>`, or `portal` for the embedded launcher's one process.
pub fn resource(service: &str) -> opentelemetry_sdk::Resource {
    let b = opentelemetry_sdk::Resource::builder();
    if env_set("OTEL_SERVICE_NAME") {
        b.build()
    } else if service == "portal" {
        b.with_service_name("portal").build()
    } else {
        b.with_service_name(format!("portal-{service}")).build()
    }
}

/// Logs, plus OTLP traces when configured, for a process running `service` (`gateway`, `auth`,
/// ..., or `portal` for the embedded launcher). Safe to call more than once; the first wins.
pub fn init(service: &str) {
    install(otlp_provider(service));
}

/// Installs the log layer and, given a provider, the trace layer feeding it (tests pass one
/// with an in-memory exporter).
pub fn install(provider: Option<SdkTracerProvider>) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let fmt = if json_logs() {
        tracing_subscriber::fmt::layer().json().flatten_event(true).with_target(false).boxed()
    } else {
        tracing_subscriber::fmt::layer().with_target(false).boxed()
    };
    let traces = provider.map(|p| {
        opentelemetry::global::set_text_map_propagator(opentelemetry_sdk::propagation::TraceContextPropagator::new());
        let tracer = p.tracer("portal");
        let _ = PROVIDER.set(p);
        // Only the portal's own spans (info and above): a span per request and per call, not
        // the libraries' internals.
        tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_filter(Targets::new().with_default(LevelFilter::OFF).with_targets(PORTAL_TARGETS.iter().map(|t| (*t, LevelFilter::INFO))))
    });
    let _ = tracing_subscriber::registry().with(fmt.with_filter(filter)).with(traces).try_init();
}

/// Whether spans are exported (a trace pipeline is installed): callers skip building spans and
/// carrying trace context when not.
pub fn traces_enabled() -> bool {
    PROVIDER.get().is_some()
}

/// The crates whose spans are traced.
const PORTAL_TARGETS: &[&str] =
    &["portal_common", "portal_gateway", "portal_auth", "portal_profile", "portal_connections", "portal_qff", "portal_refdata"];

/// Sends the spans still buffered; call before the process exits.
pub fn shutdown() {
    if let Some(p) = PROVIDER.get() {
        if let Err(e) = p.shutdown() {
            eprintln!("flushing traces: {e}");
        }
    }
}

//! Traces and metrics across the real portal. Its own test binary: it installs the process's
//! global trace pipeline (an in-memory exporter), which no other test should share.
#[path = "api/helpers.rs"]
#[allow(dead_code)]
mod helpers;

use helpers::{spawn_app, Options};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};

fn attr(span: &SpanData, key: &str) -> Option<String> {
    span.attributes.iter().find(|kv| kv.key.as_str() == key).map(|kv| kv.value.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_trace_spans_the_gateway_and_the_services_it_calls_and_metrics_count_them() {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_resource(portal_common::telemetry::resource("test"))
        .with_simple_exporter(exporter.clone())
        .build();
    portal_common::telemetry::install(Some(provider.clone()));
    let metrics = portal_common::metrics::serve("127.0.0.1", 0).await.unwrap();

    let app = spawn_app(Options::default()).await.unwrap();
    let token = app.sign_in("demo@example.com").await;
    exporter.reset();
    // A caller's own trace (e.g. from the ingress) is continued, not replaced.
    let caller_trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let res = app
        .http
        .get(format!("{}/api/profile", app.base))
        .bearer_auth(&token)
        .header("traceparent", format!("00-{caller_trace}-00f067aa0ba902b7-01"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    provider.force_flush().unwrap();

    let spans = exporter.get_finished_spans().unwrap();
    let http = spans
        .iter()
        .find(|s| s.name == "GET /api/profile")
        .unwrap_or_else(|| panic!("no gateway span among {:?}", spans.iter().map(|s| &s.name).collect::<Vec<_>>()));
    let rpc = spans
        .iter()
        .find(|s| s.name == "/portal.profile.v1.ProfileService/GetProfile")
        .unwrap_or_else(|| panic!("no profile service span among {:?}", spans.iter().map(|s| &s.name).collect::<Vec<_>>()));
    assert_eq!(http.span_context.trace_id().to_string(), caller_trace, "the gateway continues the caller's trace");
    assert_eq!(rpc.span_context.trace_id(), http.span_context.trace_id(), "one trace id on both sides of the gRPC call");
    assert_eq!(rpc.parent_span_id, http.span_context.span_id(), "the service's span is a child of the gateway's");
    assert_eq!(attr(http, "http.route").as_deref(), Some("/api/profile"));
    assert_eq!(attr(http, "http.response.status_code").as_deref(), Some("200"));
    assert!(!spans.iter().any(|s| s.attributes.iter().any(|kv| kv.value.to_string().contains(&token))), "no token in any span");

    // The same request, counted: per route at the gateway, per method at the service.
    let text = reqwest::get(format!("http://{metrics}/metrics")).await.unwrap().text().await.unwrap();
    let count = |prefix: &str| -> f64 {
        text.lines().filter(|l| l.starts_with(prefix)).filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok()).sum()
    };
    assert!(count(r#"http_requests_total{method="GET",route="/api/profile",status="200"}"#) >= 1.0, "{text}");
    assert!(count(r#"grpc_server_requests_total{rpc="/portal.profile.v1.ProfileService/GetProfile",code="OK"}"#) >= 1.0, "{text}");
    assert!(count(r#"grpc_client_requests_total{rpc="/portal.profile.v1.ProfileService/GetProfile",code="OK"}"#) >= 1.0, "{text}");
    assert!(text.contains("http_request_duration_seconds_bucket{"), "{text}");
    assert!(text.contains(r#"db_pool_connections{service="profile"}"#), "SQL pool figures: {text}");

    // The airline: a link and a conversion call the partner (counted per call and outcome, the
    // breaker closed); a reconciler pass measures what it left pending.
    let linked = app.post("/api/qff/link", Some(&token), serde_json::json!({"qff_number": "1900123456"})).await;
    assert_eq!(linked.status, 200, "{:?}", linked.body);
    let converted = app
        .http
        .post(app.url("/api/qff/redeem"))
        .bearer_auth(&token)
        .header("Idempotency-Key", "observability-1")
        .json(&serde_json::json!({"points": 1000}))
        .send()
        .await
        .unwrap();
    assert!(converted.status().is_success(), "{}", converted.status());
    app.qff().reconcile(portal_proto::qff::v1::ReconcileRequest {}).await.unwrap();
    let text = reqwest::get(format!("http://{metrics}/metrics")).await.unwrap().text().await.unwrap();
    let count = |prefix: &str| -> f64 {
        text.lines().filter(|l| l.starts_with(prefix)).filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok()).sum()
    };
    let member_calls = text
        .lines()
        .filter(|l| l.starts_with(r#"qff_partner_calls_total{call=""#) && l.contains("members") && l.contains(r#"outcome="ok""#));
    assert!(member_calls.count() >= 1, "the link asked the airline about the member: {text}");
    assert!(count(r#"qff_partner_calls_total{call="POST credits",outcome="ok"}"#) >= 1.0, "{text}");
    assert!(text.contains(r#"qff_partner_call_duration_seconds_bucket{call="POST credits""#), "{text}");
    assert!(text.lines().any(|l| l == "qff_partner_breaker_open 0"), "the breaker closed: {text}");
    assert!(text.lines().any(|l| l == "qff_pending_oldest_age_seconds 0"), "nothing left pending: {text}");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_made_while_answering_one_gets_what_is_left_of_the_callers_deadline() {
    use std::time::{Duration, Instant};
    // A service that records the grpc-timeout it was called with, behind the same Channel the
    // services use.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Option<Duration>>();
    let probe = tower::service_fn(move |req: http::Request<tonic::body::Body>| {
        let got = req.headers().get("grpc-timeout").and_then(portal_common::grpc::parse_timeout);
        let tx = tx.clone();
        async move {
            let _ = tx.send(got);
            Ok::<_, std::convert::Infallible>(tonic::Status::unimplemented("probe").into_http::<tonic::body::Body>())
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_routes(tonic::service::Routes::default().add_service(NamedProbe(probe)))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let channel = portal_common::grpc::channel(&format!("http://{addr}")).unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);

    // Without a deadline of its own, the call carries none beyond what its caller set.
    let _ = health.check(tonic_health::pb::HealthCheckRequest::default()).await;
    assert_eq!(rx.recv().await.unwrap(), None);

    // Answering a call due in 2 s, 500 ms in: the next hop is told about 1.5 s, not 10.
    let started = Instant::now();
    portal_common::grpc::with_deadline(started + Duration::from_secs(2), async {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut req = tonic::Request::new(tonic_health::pb::HealthCheckRequest::default());
        req.set_timeout(portal_common::grpc::CALL_DEADLINE);
        let _ = health.check(req).await;
    })
    .await;
    let got = rx.recv().await.unwrap().expect("a deadline was passed on");
    assert!(got <= Duration::from_millis(1500) && got >= Duration::from_millis(1300), "{got:?}");

    // Past the deadline, no call goes out at all.
    let status = portal_common::grpc::with_deadline(Instant::now(), health.check(tonic_health::pb::HealthCheckRequest::default()))
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::DeadlineExceeded);
    assert!(rx.try_recv().is_err(), "the service was not called");
}

/// Serves the probe under the health service's name, so a health client reaches it.
#[derive(Clone)]
struct NamedProbe<S>(S);
impl<S> tonic::server::NamedService for NamedProbe<S> {
    const NAME: &'static str = "grpc.health.v1.Health";
}
impl<S, B> tower::Service<http::Request<B>> for NamedProbe<S>
where
    S: tower::Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;
    fn poll_ready(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }
    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        self.0.call(req)
    }
}

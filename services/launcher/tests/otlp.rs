//! Traces leave the real `portal` binary over OTLP when an endpoint is configured: a collector
//! of the test's own (the OTLP/gRPC trace service) receives the gateway's span of a request and
//! the profile service's span of the call it made, under one trace id.
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{TraceService, TraceServiceServer};
use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use std::time::{Duration, Instant};
use tokio::io::AsyncBufReadExt;

struct Collector(tokio::sync::mpsc::UnboundedSender<ExportTraceServiceRequest>);

#[tonic::async_trait]
impl TraceService for Collector {
    async fn export(
        &self,
        req: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let _ = self.0.send(req.into_inner());
        Ok(tonic::Response::new(ExportTraceServiceResponse { partial_success: None }))
    }
}

/// (service.name, span name, trace id, span id, parent span id) of every span received so far.
type Seen = Vec<(String, String, Vec<u8>, Vec<u8>, Vec<u8>)>;

fn collect(into: &mut Seen, req: ExportTraceServiceRequest) {
    for rs in req.resource_spans {
        let service = rs
            .resource
            .iter()
            .flat_map(|r| r.attributes.iter())
            .find(|kv| kv.key == "service.name")
            .and_then(|kv| match kv.value.as_ref()?.value.as_ref()? {
                Value::StringValue(s) => Some(s.clone()),
                _ => None,
            })
            .unwrap_or_default();
        for ss in rs.scope_spans {
            for s in ss.spans {
                into.push((service.clone(), s.name, s.trace_id, s.span_id, s.parent_span_id));
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_portal_exports_one_trace_per_request_over_otlp() {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let collector = listener.local_addr().unwrap();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(Collector(tx)))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );

    let data = tempfile::tempdir().unwrap();
    let mut portal = tokio::process::Command::new(env!("CARGO_BIN_EXE_portal"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env_remove("DATABASE_URL")
        .env_remove("REDIS_URL")
        .env("PORT", "0")
        .env("PORTAL_DATA_DIR", data.path())
        .env("RUST_LOG", "warn")
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", format!("http://{collector}"))
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(portal.stdout.take().unwrap()).lines();
    let base = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(rest) = line.strip_prefix("portal ready on ") {
                return rest.split_whitespace().next().unwrap().to_string();
            }
        }
        panic!("the portal stopped before it was ready");
    })
    .await
    .expect("the portal starts within 60 s");
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

    let http = reqwest::Client::new();
    let ok = |r: reqwest::Response| {
        assert!(r.status().is_success(), "{}", r.status());
        r
    };
    ok(http.post(format!("{base}/api/auth")).json(&serde_json::json!({"email": "demo@example.com"})).send().await.unwrap());
    let outbox: serde_json::Value = ok(http.get(format!("{base}/_dev/outbox.json")).send().await.unwrap()).json().await.unwrap();
    let link = url::Url::parse(outbox[0]["link"].as_str().unwrap()).unwrap();
    let link_token = link.query_pairs().find(|(k, _)| k == "token").unwrap().1.to_string();
    let session: serde_json::Value =
        ok(http.post(format!("{base}/api/auth/exchange")).json(&serde_json::json!({"token": link_token})).send().await.unwrap())
            .json()
            .await
            .unwrap();
    ok(http.get(format!("{base}/api/profile")).bearer_auth(session["token"].as_str().unwrap()).send().await.unwrap());

    let mut seen: Seen = vec![];
    let deadline = Instant::now() + Duration::from_secs(20);
    let (http_span, rpc_span) = loop {
        let http_span = seen.iter().find(|s| s.1 == "GET /api/profile").cloned();
        let rpc_span = seen.iter().find(|s| s.1 == "/portal.profile.v1.ProfileService/GetProfile").cloned();
        if let (Some(h), Some(r)) = (http_span, rpc_span) {
            break (h, r);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, rx.recv()).await {
            Ok(Some(req)) => collect(&mut seen, req),
            _ => panic!("no spans of GET /api/profile within 20 s; got {:?}", seen.iter().map(|s| &s.1).collect::<Vec<_>>()),
        }
    };
    assert_eq!(http_span.0, "portal", "the process names itself");
    assert_eq!(http_span.2.len(), 16);
    assert_eq!(rpc_span.2, http_span.2, "one trace id on both sides of the gRPC call");
    assert_eq!(rpc_span.4, http_span.3, "the service's span is a child of the gateway's");
    let _ = portal.kill().await;
}

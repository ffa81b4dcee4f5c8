//! Services in one process called directly (`inproc:` URLs, no HTTP/2): a registered service
//! answers through the ordinary channel with its health service, its name can't be served
//! twice, a stopped one is UNAVAILABLE, and a call outliving its deadline ends as CANCELLED.
use portal_common::grpc::{channel, local, with_deadline, IN_PROCESS};
use std::convert::Infallible;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tonic::body::Body;
use tonic::server::NamedService;
use tonic::service::Routes;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;
use tower::ServiceExt;

/// A service that never answers.
#[derive(Clone)]
struct Stall;

impl NamedService for Stall {
    const NAME: &'static str = "test.Stall";
}

impl tower::Service<http::Request<Body>> for Stall {
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = futures::future::BoxFuture<'static, Result<Self::Response, Infallible>>;
    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }
    fn call(&mut self, _: http::Request<Body>) -> Self::Future {
        Box::pin(futures::future::pending())
    }
}

fn grpc_status(res: &http::Response<Body>) -> Option<&str> {
    res.headers().get("grpc-status").and_then(|v| v.to_str().ok())
}

#[tokio::test]
async fn a_registered_service_answers_until_it_stops() {
    let name = format!("local-test-{}", std::process::id());
    let registration = local::register(name.clone(), Routes::new(Stall), "test.Stall").await.unwrap();
    let again = local::register(name.clone(), Routes::new(Stall), "test.Stall").await;
    assert_eq!(again.unwrap_err().kind(), std::io::ErrorKind::AddrInUse);

    let ch = channel(&format!("{IN_PROCESS}{name}")).unwrap();
    let mut health = HealthClient::new(ch.clone());
    let r = health.check(HealthCheckRequest { service: "test.Stall".into() }).await.unwrap().into_inner();
    assert_eq!(r.status(), tonic_health::pb::health_check_response::ServingStatus::Serving);

    // The caller's deadline is enforced: a call that outlives it is CANCELLED, in time.
    let started = Instant::now();
    let req = http::Request::builder().uri("/test.Stall/Call").header("content-type", "application/grpc").body(Body::empty()).unwrap();
    let res = with_deadline(Instant::now() + Duration::from_millis(100), ch.clone().oneshot(req)).await.unwrap();
    assert_eq!(grpc_status(&res), Some("1"), "CANCELLED");
    assert!(started.elapsed() < Duration::from_secs(2), "ended at the deadline: {:?}", started.elapsed());
    // A deadline already past: not called at all.
    let req = http::Request::builder().uri("/test.Stall/Call").body(Body::empty()).unwrap();
    let res = with_deadline(Instant::now(), ch.clone().oneshot(req)).await.unwrap();
    assert_eq!(grpc_status(&res), Some("4"), "DEADLINE_EXCEEDED");

    drop(registration);
    let e = health.check(HealthCheckRequest { service: String::new() }).await.unwrap_err();
    assert_eq!(e.code(), tonic::Code::Unavailable);
    // The name is free again: a service started again under it answers.
    let _registration = local::register(name, Routes::new(Stall), "test.Stall").await.unwrap();
    health.check(HealthCheckRequest { service: String::new() }).await.unwrap();
}

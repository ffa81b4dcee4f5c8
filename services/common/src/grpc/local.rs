//! gRPC between services that share one process (the embedded launcher), without HTTP/2: a
//! caller's tonic client calls the service's tonic server as a tower service, so a call is the
//! protobuf encoded into a body, the server's layers and the handler, run in the caller's task.
//! No framing, no pipe, no connection task. What the network path does around a call is kept:
//! the server's [`ObserveLayer`](super::ObserveLayer) (span, deadline, metrics) and the
//! standard health service, the client's deadline and trace context (in [`super::Channel`]),
//! and the deadline enforced on both ends (the shorter of `grpc-timeout` and
//! [`CALL_DEADLINE`](super::CALL_DEADLINE), ending the call as `CANCELLED`, as tonic does).
//!
//! A service registers under a name unique in the process when it binds and is gone when it
//! stops; a call to a name nothing serves is `UNAVAILABLE`, as a refused connection would be.
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::RwLock;
use tonic::body::Body;
use tonic::service::Routes;
use tower::util::BoxCloneSyncService;
use tower::ServiceExt;

type Service = BoxCloneSyncService<http::Request<Body>, http::Response<Body>, Infallible>;

static SERVICES: RwLock<Option<HashMap<String, (u64, Service)>>> = RwLock::new(None);

/// A service registered under a name; unregistered when dropped (when the service stops).
#[derive(Debug)]
pub struct Registration {
    name: String,
    id: u64,
}

impl Registration {
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut all = SERVICES.write().unwrap_or_else(|e| e.into_inner());
        if let Some(all) = all.as_mut() {
            if all.get(&self.name).is_some_and(|(id, _)| *id == self.id) {
                all.remove(&self.name);
            }
        }
    }
}

/// Makes `routes` (with the health service and the server's layers) callable as `inproc:name`.
pub async fn register(name: String, routes: Routes, service_name: &str) -> std::io::Result<Registration> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let routes = super::routes_with_health(routes, service_name).await;
    let service = Service::new(tower::Layer::layer(&super::ObserveLayer, routes));
    let mut all = SERVICES.write().unwrap_or_else(|e| e.into_inner());
    let all = all.get_or_insert_with(HashMap::new);
    if all.contains_key(&name) {
        return Err(std::io::Error::new(std::io::ErrorKind::AddrInUse, format!("{name} is served already")));
    }
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    all.insert(name.clone(), (id, service));
    Ok(Registration { name, id })
}

fn lookup(name: &str) -> Option<Service> {
    let all = SERVICES.read().unwrap_or_else(|e| e.into_inner());
    all.as_ref()?.get(name).map(|(_, s)| s.clone())
}

/// Calls the service registered as `name`: its answer, `UNAVAILABLE` when nothing serves the
/// name, `CANCELLED` when the call outlives its deadline.
pub async fn call(name: &str, req: http::Request<Body>) -> http::Response<Body> {
    let Some(service) = lookup(name) else {
        return tonic::Status::unavailable(format!("nothing serves {name}")).into_http();
    };
    let header = req.headers().get("grpc-timeout").and_then(super::parse_timeout);
    let limit = header.map_or(super::CALL_DEADLINE, |d| d.min(super::CALL_DEADLINE));
    match tokio::time::timeout(limit, service.oneshot(req)).await {
        Ok(Ok(res)) => res,
        Ok(Err(never)) => match never {},
        Err(_) => tonic::Status::cancelled(tonic::TimeoutExpired(()).to_string()).into_http(),
    }
}

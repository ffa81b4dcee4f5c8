//! Serving and calling tonic services the same way everywhere. A service serves on a listener
//! the caller bound (TCP, port 0 in tests, or a Unix socket), with the standard gRPC health
//! service; a caller reaches it through [`Channel`]. Services in one process (the embedded
//! launcher) call each other directly, without HTTP/2 ([`local`]).
//!
//! Every call carries two things across the hop, in gRPC metadata: the caller's deadline
//! (`grpc-timeout`, shortened to what is left of the deadline the caller itself was given, so a
//! call chain never outlives the member's request) and the W3C trace context (`traceparent`),
//! so one trace spans the gateway and every service it reached. Both sides count calls and time
//! them for `/metrics`.
use futures::future::BoxFuture;
use opentelemetry::propagation::{Extractor, Injector};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tokio_stream::StreamExt;
use tonic::service::Routes;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;

pub mod balance;
pub mod local;
mod startup;
pub use startup::{run_process, run_standalone, shutdown_signal, Running};

/// Binds `host:port`; port 0 picks a free one.
pub async fn bind(host: &str, port: u16) -> anyhow::Result<(TcpListener, SocketAddr)> {
    let l = TcpListener::bind((host, port)).await?;
    let a = l.local_addr()?;
    Ok((l, a))
}

/// Where a service listens.
pub enum Listener {
    Tcp(TcpListener, SocketAddr),
    /// A Unix domain socket at this path (removed when the service stops).
    Unix(tokio::net::UnixListener, PathBuf),
    /// Called directly by callers in the same process (see [`local`]), under this name.
    InProcess(local::Registration),
}

impl Listener {
    /// The URL callers use: `http://host:port`, or `unix:/path/to.sock`.
    pub fn url(&self) -> String {
        match self {
            Listener::Tcp(_, a) => format!("http://{a}"),
            Listener::Unix(_, p) => format!("unix:{}", p.display()),
            Listener::InProcess(r) => format!("{IN_PROCESS}{}", r.name()),
        }
    }
}

async fn routes_with_health(routes: Routes, service_name: &str) -> Routes {
    let (reporter, health) = tonic_health::server::health_reporter();
    reporter.set_service_status(service_name, tonic_health::ServingStatus::Serving).await;
    reporter.set_service_status("", tonic_health::ServingStatus::Serving).await;
    routes.add_service(health)
}

/// Serves `routes` plus `grpc.health.v1.Health` until `shutdown` resolves.
pub async fn serve<F>(listener: Listener, routes: Routes, service_name: &str, shutdown: F) -> anyhow::Result<()>
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let routes = routes_with_health(routes, service_name).await;
    let mut server = tonic::transport::Server::builder().layer(ObserveLayer);
    match listener {
        Listener::Tcp(listener, _) => {
            // `Server::tcp_nodelay` only reaches sockets tonic accepts itself; these come from
            // our own listener, so each one is set here. Without it the trailers of a response
            // wait for the peer's delayed ACK (about 40 ms) behind Nagle's algorithm.
            let incoming = TcpListenerStream::new(listener).map(|conn| {
                let conn = conn?;
                conn.set_nodelay(true)?;
                Ok::<_, std::io::Error>(conn)
            });
            server.add_routes(routes).serve_with_incoming_shutdown(incoming, shutdown).await?;
        }
        Listener::Unix(listener, path) => {
            let incoming = tokio_stream::wrappers::UnixListenerStream::new(listener);
            let served = server.add_routes(routes).serve_with_incoming_shutdown(incoming, shutdown).await;
            let _ = std::fs::remove_file(&path);
            served?;
        }
        Listener::InProcess(registration) => {
            // Registered with these routes when bound: callable until shutdown.
            drop(routes);
            shutdown.await;
            drop(registration);
        }
    }
    Ok(())
}

/// The longest any call to a service may take; callers may set a shorter deadline
/// (`grpc-timeout`), which the called service sees and passes on to the services it calls.
pub const CALL_DEADLINE: Duration = Duration::from_secs(10);

/// The URL scheme of a service in the same process: `inproc:<name>`.
pub const IN_PROCESS: &str = "inproc:";

/// A lazily connecting channel to a service URL: `http://host:port`, `unix:/path` (one
/// endpoint), `inproc:name` (a service in this process, called directly), or balanced over replicas: `dns:///name:port` (every address of the name,
/// followed as it changes) or `http://a:1,http://b:2` (see [`balance`]). It reconnects on its
/// own when the service comes back; no call on it waits longer than [`CALL_DEADLINE`].
pub fn channel(url: &str) -> anyhow::Result<Channel> {
    if let Some(name) = url.strip_prefix(IN_PROCESS) {
        return Ok(Channel { inner: Inner::Local(name.into()) });
    }
    if let Some(target) = balance::Target::parse(url)? {
        return Ok(Channel { inner: Inner::Balanced(balance::Balanced::new(target, one_endpoint)?) });
    }
    Ok(Channel { inner: Inner::One(one_endpoint(url)?) })
}

/// tonic's channel to one endpoint: one HTTP/2 connection.
fn one_endpoint(url: &str) -> anyhow::Result<tonic::transport::Channel> {
    let inner = match url.strip_prefix("unix:") {
        Some(path) => {
            let path = PathBuf::from(path);
            // The URI is only a placeholder for the HTTP/2 `:authority`; the connector dials
            // the socket.
            tonic::transport::Endpoint::from_static("http://localhost")
                .connect_timeout(Duration::from_secs(3))
                .timeout(CALL_DEADLINE)
                .connect_with_connector_lazy(tower::service_fn(move |_: http::Uri| {
                    let path = path.clone();
                    async move { Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(tokio::net::UnixStream::connect(path).await?)) }
                }))
        }
        None => tonic::transport::Endpoint::from_shared(url.to_string())?
            .tcp_nodelay(true)
            .connect_timeout(Duration::from_secs(3))
            .timeout(CALL_DEADLINE)
            .connect_lazy(),
    };
    Ok(inner)
}

tokio::task_local! {
    /// The deadline of the call being answered, when its caller gave one.
    static DEADLINE: Option<Instant>;
}

/// Runs `fut` with `deadline` as the deadline every gRPC call it makes passes on.
pub async fn with_deadline<F: std::future::Future>(deadline: Instant, fut: F) -> F::Output {
    DEADLINE.scope(Some(deadline), fut).await
}

/// A `grpc-timeout` value (`<digits><unit>`, units H M S m u n) as a duration.
pub fn parse_timeout(v: &http::HeaderValue) -> Option<Duration> {
    let s = v.to_str().ok()?;
    let (digits, unit) = s.split_at(s.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n * 3600),
        "M" => Duration::from_secs(n * 60),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

/// `d` as a `grpc-timeout` value, in whole milliseconds (at least 1), rounded up.
pub fn format_timeout(d: Duration) -> http::HeaderValue {
    let ms = d.as_micros().div_ceil(1000).clamp(1, 99_999_999);
    http::HeaderValue::from_str(&format!("{ms}m")).expect("digits and a unit")
}

struct HeaderExtract<'a>(&'a http::HeaderMap);
impl Extractor for HeaderExtract<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(|k| k.as_str()).collect()
    }
}

struct HeaderInject<'a>(&'a mut http::HeaderMap);
impl Injector for HeaderInject<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(k), Ok(v)) = (http::HeaderName::from_bytes(key.as_bytes()), http::HeaderValue::from_str(&value)) {
            self.0.insert(k, v);
        }
    }
}

/// The trace context of an incoming request's headers (empty without one).
pub fn extract_context(headers: &http::HeaderMap) -> opentelemetry::Context {
    opentelemetry::global::get_text_map_propagator(|p| p.extract(&HeaderExtract(headers)))
}

/// Writes the current span's trace context into outgoing headers.
pub fn inject_context(headers: &mut http::HeaderMap) {
    let cx = tracing::Span::current().context();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&cx, &mut HeaderInject(headers)));
}

/// The server side of every service: a span per call continuing the caller's trace, the
/// caller's deadline kept for the calls this one makes, and the call counted and timed.
#[derive(Clone, Copy, Debug, Default)]
pub struct ObserveLayer;

impl<S> tower::Layer<S> for ObserveLayer {
    type Service = Observed<S>;
    fn layer(&self, inner: S) -> Observed<S> {
        Observed { inner }
    }
}

#[derive(Clone, Debug)]
pub struct Observed<S> {
    inner: S,
}

impl<S, B, R> tower::Service<http::Request<B>> for Observed<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>> + Send,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<S::Response, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        let start = Instant::now();
        let deadline = req.headers().get("grpc-timeout").and_then(parse_timeout).map(|d| start + d);
        // Labels and spans cost allocations: built only when metrics or traces are on.
        let rpc = (crate::metrics::enabled() || crate::telemetry::traces_enabled()).then(|| req.uri().path().to_string());
        let span = match &rpc {
            Some(rpc) if crate::telemetry::traces_enabled() => {
                let span = tracing::info_span!("rpc", otel.name = %rpc, otel.kind = "server", rpc.system = "grpc");
                let _ = span.set_parent(extract_context(req.headers()));
                span
            }
            _ => tracing::Span::none(),
        };
        let fut = self.inner.call(req);
        Box::pin(async move {
            let res = DEADLINE.scope(deadline, fut.instrument(span)).await;
            if let Some(rpc) = rpc.filter(|_| crate::metrics::enabled()) {
                let code = match &res {
                    Ok(r) => crate::metrics::grpc_code(r),
                    Err(_) => "UNKNOWN",
                };
                // A method that does not exist is one label, whatever its name.
                let rpc = if code == "UNIMPLEMENTED" { "unknown".to_string() } else { rpc };
                metrics::histogram!("grpc_server_request_duration_seconds", "rpc" => rpc.clone()).record(start.elapsed().as_secs_f64());
                metrics::counter!("grpc_server_requests_total", "rpc" => rpc, "code" => code.to_string()).increment(1);
            }
            res
        })
    }
}

/// A channel to one service, as every client in the portal holds it: tonic's channel, plus the
/// deadline and trace context of the call being answered passed on to each call made on it.
#[derive(Clone, Debug)]
pub struct Channel {
    inner: Inner,
}

#[derive(Clone, Debug)]
enum Inner {
    One(tonic::transport::Channel),
    Balanced(balance::Balanced),
    /// A service in this process, by its name ([`local`]).
    Local(std::sync::Arc<str>),
}

impl Channel {
    /// The endpoints of a balanced channel (URL, calls in flight, ejected); empty for one.
    pub fn endpoints(&self) -> Vec<(String, usize, bool)> {
        match &self.inner {
            Inner::One(_) | Inner::Local(_) => vec![],
            Inner::Balanced(b) => b.endpoints(),
        }
    }
}

impl tower::Service<http::Request<tonic::body::Body>> for Channel {
    type Response = http::Response<tonic::body::Body>;
    type Error = tonic::transport::Error;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        match &mut self.inner {
            Inner::One(c) => c.poll_ready(cx),
            // Each endpoint's own channel is made ready when a call is sent on it.
            Inner::Balanced(_) | Inner::Local(_) => Poll::Ready(Ok(())),
        }
    }

    fn call(&mut self, mut req: http::Request<tonic::body::Body>) -> Self::Future {
        let rpc = crate::metrics::enabled().then(|| req.uri().path().to_string());
        if let Ok(Some(deadline)) = DEADLINE.try_with(|d| *d) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                if let Some(rpc) = rpc {
                    metrics::counter!("grpc_client_requests_total", "rpc" => rpc, "code" => "DEADLINE_EXCEEDED").increment(1);
                }
                let status = tonic::Status::deadline_exceeded("the caller's deadline passed before this call");
                return Box::pin(std::future::ready(Ok(status.into_http())));
            }
            let own = req.headers().get("grpc-timeout").and_then(parse_timeout);
            if own.is_none_or(|own| left < own) {
                req.headers_mut().insert("grpc-timeout", format_timeout(left));
            }
        }
        if crate::telemetry::traces_enabled() {
            inject_context(req.headers_mut());
        }
        let fut: Self::Future = match &mut self.inner {
            Inner::One(c) => Box::pin(c.call(req)),
            Inner::Balanced(b) => b.call(req),
            Inner::Local(name) => {
                let name = name.clone();
                Box::pin(async move { Ok(local::call(&name, req).await) })
            }
        };
        match rpc {
            None => fut,
            Some(rpc) => Box::pin(async move {
                let res = fut.await;
                let code = match &res {
                    Ok(r) => crate::metrics::grpc_code(r),
                    Err(_) => "UNAVAILABLE",
                };
                metrics::counter!("grpc_client_requests_total", "rpc" => rpc, "code" => code.to_string()).increment(1);
                res
            }),
        }
    }
}

/// Work a service does besides answering calls (e.g. a periodic job), run while it serves.
pub type Background = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'static>>;

/// A built gRPC service, bound but not yet serving: tests and the launcher read its address
/// before running it.
pub struct GrpcApp {
    pub name: &'static str,
    listener: Listener,
    routes: Routes,
    background: Vec<Background>,
}

impl GrpcApp {
    /// Binds the service's listener: registered for direct calls when `settings.grpc_in_process`
    /// names this process's services (the embedded launcher), a Unix socket in
    /// `settings.grpc_socket_dir` when that is set, else `grpc_host:grpc_port`.
    pub async fn bind(settings: &crate::config::Settings, name: &'static str, routes: Routes) -> anyhow::Result<Self> {
        if let Some(ns) = &settings.grpc_in_process {
            let registration = local::register(format!("{ns}/{name}"), routes.clone(), name).await?;
            return Ok(Self { name, listener: Listener::InProcess(registration), routes, background: vec![] });
        }
        let listener = match &settings.grpc_socket_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                let path = dir.join(format!("{name}.sock"));
                // A socket file left by a process that is gone would refuse the bind.
                let _ = std::fs::remove_file(&path);
                Listener::Unix(tokio::net::UnixListener::bind(&path)?, path)
            }
            None => {
                let (l, a) = bind(&settings.grpc_host, settings.grpc_port).await?;
                Listener::Tcp(l, a)
            }
        };
        Ok(Self { name, listener, routes, background: vec![] })
    }
    /// Runs `work` from the moment the service starts serving until it stops.
    pub fn with_background(mut self, work: impl std::future::Future<Output = ()> + Send + 'static) -> Self {
        self.background.push(Box::pin(work));
        self
    }
    /// The TCP port, or 0 on a Unix socket.
    pub fn port(&self) -> u16 {
        match &self.listener {
            Listener::Tcp(_, a) => a.port(),
            Listener::Unix(..) | Listener::InProcess(..) => 0,
        }
    }
    pub fn url(&self) -> String {
        self.listener.url()
    }
    pub async fn run<F>(self, shutdown: F) -> anyhow::Result<()>
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        tracing::info!(service = self.name, url = %self.listener.url(), "gRPC service listening");
        let work: Vec<_> = self.background.into_iter().map(tokio::spawn).collect();
        let served = serve(self.listener, self.routes, self.name, shutdown).await;
        for w in work {
            w.abort();
        }
        served
    }
}

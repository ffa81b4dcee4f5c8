//! Serving a tonic service the same way everywhere: on a listener the caller bound (port 0 in
//! tests), with the standard gRPC health service reporting it as serving.
use std::net::SocketAddr;
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tokio_stream::StreamExt;
use tonic::service::Routes;

/// Binds `host:port`; port 0 picks a free one.
pub async fn bind(host: &str, port: u16) -> anyhow::Result<(TcpListener, SocketAddr)> {
    let l = TcpListener::bind((host, port)).await?;
    let a = l.local_addr()?;
    Ok((l, a))
}

/// Serves `routes` plus `grpc.health.v1.Health` until `shutdown` resolves.
pub async fn serve<F>(listener: TcpListener, routes: Routes, service_name: &str, shutdown: F) -> anyhow::Result<()>
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let (reporter, health) = tonic_health::server::health_reporter();
    reporter.set_service_status(service_name, tonic_health::ServingStatus::Serving).await;
    reporter.set_service_status("", tonic_health::ServingStatus::Serving).await;
    let routes = routes.add_service(health);
    // `Server::tcp_nodelay` only reaches sockets tonic accepts itself; these come from our own
    // listener, so each one is set here. Without it the trailers of a response wait for the
    // peer's delayed ACK (about 40 ms) behind Nagle's algorithm.
    let incoming = TcpListenerStream::new(listener).map(|conn| {
        let conn = conn?;
        conn.set_nodelay(true)?;
        Ok::<_, std::io::Error>(conn)
    });
    tonic::transport::Server::builder()
        .add_routes(routes)
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await?;
    Ok(())
}

/// The longest any call to a service may take; callers may set a shorter deadline
/// (`grpc-timeout`), which the called service sees too.
pub const CALL_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// A lazily connecting channel to a service URL. It reconnects on its own when the service
/// comes back; no call on it waits longer than [`CALL_DEADLINE`].
pub fn channel(url: &str) -> anyhow::Result<tonic::transport::Channel> {
    Ok(tonic::transport::Endpoint::from_shared(url.to_string())?
        .tcp_nodelay(true)
        .connect_timeout(std::time::Duration::from_secs(3))
        .timeout(CALL_DEADLINE)
        .connect_lazy())
}

/// Work a service does besides answering calls (e.g. a periodic job), run while it serves.
pub type Background = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'static>>;

/// A built gRPC service, bound but not yet serving: tests and the launcher read its address
/// before running it.
pub struct GrpcApp {
    pub name: &'static str,
    listener: TcpListener,
    addr: SocketAddr,
    routes: Routes,
    background: Vec<Background>,
}

impl GrpcApp {
    pub async fn bind(settings: &crate::config::Settings, name: &'static str, routes: Routes) -> anyhow::Result<Self> {
        let (listener, addr) = bind(&settings.grpc_host, settings.grpc_port).await?;
        Ok(Self { name, listener, addr, routes, background: vec![] })
    }
    /// Runs `work` from the moment the service starts serving until it stops.
    pub fn with_background(mut self, work: impl std::future::Future<Output = ()> + Send + 'static) -> Self {
        self.background.push(Box::pin(work));
        self
    }
    pub fn port(&self) -> u16 {
        self.addr.port()
    }
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
    pub async fn run<F>(self, shutdown: F) -> anyhow::Result<()>
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        tracing::info!(service = self.name, addr = %self.addr, "gRPC service listening");
        let work: Vec<_> = self.background.into_iter().map(tokio::spawn).collect();
        let served = serve(self.listener, self.routes, self.name, shutdown).await;
        for w in work {
            w.abort();
        }
        served
    }
}

/// A thin `main` for a standalone service binary.
pub async fn run_standalone<F, Fut>(build: F) -> anyhow::Result<()>
where
    F: FnOnce(crate::config::Settings) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<GrpcApp>>,
{
    crate::telemetry::init();
    let settings = crate::config::Settings::load()?;
    let app = build(settings).await?;
    app.run(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

//! The gateway: the portal's only public surface. REST routes of the spec under `/api` call the
//! gRPC services with the caller's identity in metadata; everything else is the front end.
pub mod caches;
pub mod error;
pub mod extract;
pub mod limits;
pub mod mfe;
pub mod observe;
pub mod routes;
pub mod security;
pub mod server;
pub mod state;
pub mod verify;
pub mod web;

use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::routing::get;
use axum::Router;
use portal_common::config::Settings;
use state::{AppState, Clients};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

/// The OpenAPI document of the REST side.
pub fn openapi() -> utoipa::openapi::OpenApi {
    routes::api().split_for_parts().1
}

pub fn router(state: AppState) -> Router {
    let (api, doc) = routes::api().split_for_parts();
    let doc = Arc::new(doc);
    let mut app = api
        .route("/api/openapi.json", get(move || async move { axum::Json(doc.as_ref().clone()) }))
        .route("/manifest.webmanifest", get(web::web_manifest))
        .route("/healthz", get(web::healthz));
    if state.settings.is_dev() {
        app = app.route("/_dev/outbox", get(web::outbox_html)).route("/_dev/outbox.json", get(web::outbox_json));
    }
    app.method_not_allowed_fallback(|| async { error::ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed") })
        .fallback(web::fallback)
        .layer(axum::middleware::from_fn_with_state(state.clone(), extract::identify))
        // Before the token is even looked at: a body that is slow, huge or has too many fields
        // is refused without a service call.
        .layer(axum::middleware::from_fn_with_state(state.clone(), limits::request_body))
        .layer(axum::middleware::from_fn_with_state(state.clone(), security::html_headers))
        // JSON answers above 1 KB (the country list is ~400 KB) gzipped for browsers that accept
        // it; the built front end comes precompressed from disk (web::fallback), never here.
        .layer(
            CompressionLayer::new().no_br().no_deflate().no_zstd().compress_when(
                SizeAbove::new(1024).and(NotForContentType::GRPC).and(NotForContentType::IMAGES).and(NotForContentType::SSE),
            ),
        )
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(tower::util::option_layer(
            security::hsts(&state.settings.public_url).map(|v| SetResponseHeaderLayer::overriding(header::STRICT_TRANSPORT_SECURITY, v)),
        ))
        .layer(SetResponseHeaderLayer::overriding(HeaderName::from_static("referrer-policy"), HeaderValue::from_static("no-referrer")))
        // The span names the path, never the query string: it can carry a device's position
        // (`/api/geolocation?latitude=`) or a sign-in token, which must not reach the logs.
        .layer(TraceLayer::new_for_http().make_span_with(
            |req: &axum::http::Request<_>| tracing::debug_span!("request", method = %req.method(), path = %req.uri().path()),
        ))
        .layer(axum::middleware::from_fn(observe::observe))
        .with_state(state)
}

pub struct Application {
    listener: TcpListener,
    addr: SocketAddr,
    router: Router,
    limits: server::Limits,
    trusted_proxies: Arc<Vec<ipnet::IpNet>>,
}

impl Application {
    /// Connects to the services (waiting for the auth service's keys) and binds the listener.
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        let clients = Clients::connect(&settings)?;
        let kv = portal_common::kv::Kv::connect(&settings).await?;
        let live = kv.scoped("auth");
        let verifier = Arc::new(verify::Verifier::connect(clients.auth.clone(), live).await?);
        let listener = TcpListener::bind((settings.host.as_str(), settings.port)).await?;
        let addr = listener.local_addr()?;
        let trusted_proxies = Arc::new(extract::parse_proxies(&settings.trusted_proxies)?);
        let static_origin = settings.static_url.as_deref().map(web::StaticOrigin::new).transpose()?.map(Arc::new);
        let state = AppState {
            settings: Arc::new(settings),
            clients: Arc::new(clients),
            verifier,
            countries: Arc::default(),
            html_policy: Arc::default(),
            tenant: Arc::default(),
            static_origin,
            trusted_proxies,
            canaries: mfe::Canaries::new(kv.scoped("mfe")),
        };
        let limits = server::Limits::from_settings(&state.settings.server);
        tracing::info!(max_connections = limits.max_connections, max_per_ip = limits.max_per_ip, "gateway connection caps");
        let trusted_proxies = state.trusted_proxies.clone();
        Ok(Application { listener, addr, router: router(state), limits, trusted_proxies })
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    pub async fn run<F>(self, shutdown: F) -> anyhow::Result<()>
    where
        F: std::future::Future<Output = ()> + Send + 'static,
    {
        tracing::info!(addr = %self.addr, "gateway listening");
        server::serve(self.listener, self.router, self.limits, self.trusted_proxies, shutdown).await?;
        Ok(())
    }
}

//! Shared state of the gateway: settings, one gRPC client per service, the token verifier.
use crate::verify::Verifier;
use portal_common::config::Settings;
use portal_common::grpc::Channel;
use portal_proto::auth::v1::auth_service_client::AuthServiceClient;
use portal_proto::connections::v1::connections_service_client::ConnectionsServiceClient;
use portal_proto::profile::v1::loyalty_service_client::LoyaltyServiceClient;
use portal_proto::profile::v1::profile_service_client::ProfileServiceClient;
use portal_proto::qff::v1::qff_service_client::QffServiceClient;
use portal_proto::refdata::v1::refdata_service_client::RefdataServiceClient;
use std::sync::Arc;

#[derive(Clone)]
pub struct Clients {
    pub auth: AuthServiceClient<Channel>,
    pub profile: ProfileServiceClient<Channel>,
    /// The profile service's loyalty part (same channel).
    pub loyalty: LoyaltyServiceClient<Channel>,
    pub connections: ConnectionsServiceClient<Channel>,
    pub qff: QffServiceClient<Channel>,
    pub refdata: RefdataServiceClient<Channel>,
    /// Raw channels by service name, for health checks.
    pub channels: Vec<(&'static str, Channel)>,
}

impl Clients {
    pub fn connect(s: &Settings) -> anyhow::Result<Clients> {
        let ch = |name: &str| -> anyhow::Result<Channel> { portal_common::grpc::channel(&s.service_url(name)?) };
        let (a, p, c, q, r) = (ch("auth")?, ch("profile")?, ch("connections")?, ch("qff")?, ch("refdata")?);
        Ok(Clients {
            auth: AuthServiceClient::new(a.clone()),
            profile: ProfileServiceClient::new(p.clone()),
            loyalty: LoyaltyServiceClient::new(p.clone()),
            connections: ConnectionsServiceClient::new(c.clone()),
            qff: QffServiceClient::new(q.clone()),
            refdata: RefdataServiceClient::new(r.clone()),
            channels: vec![("auth", a), ("profile", p), ("connections", c), ("qff", q), ("refdata", r)],
        })
    }
}

/// Cloned for every request by axum's `State`: every field is behind an `Arc`, so a clone is
/// three reference-count increments (cloning `Clients` would clone ten tonic handles).
#[derive(Clone)]
pub struct AppState {
    pub settings: Arc<Settings>,
    pub clients: Arc<Clients>,
    pub verifier: Arc<Verifier>,
    /// Proxies whose `X-Forwarded-For` is believed (`Settings::trusted_proxies`).
    pub trusted_proxies: Arc<Vec<ipnet::IpNet>>,
    /// The serialised country list, rebuilt only when the data changes.
    pub countries: Arc<crate::caches::CountriesCache>,
    /// The HTML answers' Content-Security-Policy (with `frame-ancestors` from the tenant's allow-list).
    pub html_policy: Arc<crate::security::HtmlPolicy>,
    /// The tenant config from refdata, typed and as `/api/config`'s body, once per version.
    pub tenant: Arc<crate::caches::TenantCache>,
    /// Where `index.html` comes from when the front end is served elsewhere (`static_url`).
    pub static_origin: Option<Arc<crate::web::StaticOrigin>>,
    /// The tabs' canaries: counts and rollbacks in the KV store, shared by every replica.
    pub canaries: crate::mfe::Canaries,
}

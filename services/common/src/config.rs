//! Settings come in layers: built-in defaults (the embedded default: SQLite under `./data`,
//! in-process KV, dev mode with demo data), then `config/portal.toml`, then
//! `config/<mode>.toml`, then `PORTAL_*` environment variables (`__` separates levels), then the
//! conventional `DATABASE_URL`, `REDIS_URL` and `PORT`. Secrets are wrapped so they never print.
use figment::providers::{Env, Format, Serialized, Toml};
use figment::Figment;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Local development: the outbox replaces email and SMS and is readable at `/_dev/outbox`.
    #[default]
    Dev,
    /// Real delivery only; no dev routes.
    Production,
}

/// See [`Settings::embedded_transport`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum EmbeddedTransport {
    #[default]
    Memory,
    Unix,
    Tcp,
}

/// gRPC addresses of the services, e.g. `http://127.0.0.1:50051`.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct ServiceUrls {
    pub auth: Option<String>,
    pub profile: Option<String>,
    pub connections: Option<String>,
    pub qff: Option<String>,
    pub refdata: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Settings {
    pub mode: Mode,
    /// Address the gateway listens on.
    pub host: String,
    /// Port the gateway listens on (`PORT`).
    pub port: u16,
    /// Address the gRPC services listen on (loopback in the embedded default).
    pub grpc_host: String,
    /// Port of a standalone service binary (`PORTAL_GRPC_PORT`); 0 picks a free one.
    pub grpc_port: u16,
    /// The gRPC services listen on Unix sockets in this directory instead of TCP (one process
    /// on one machine: the embedded launcher's default, a private directory per run).
    pub grpc_socket_dir: Option<PathBuf>,
    /// How the embedded launcher's services, all in one process, reach each other:
    /// `memory` (direct calls: the tonic client calls the tonic server as a function, protobuf
    /// without HTTP/2), `unix` (gRPC over Unix sockets in a private directory) or `tcp` (gRPC
    /// over loopback ports).
    pub embedded_transport: EmbeddedTransport,
    /// Set by the embedded launcher: its services call each other directly under this name
    /// (`portal_common::grpc::local`).
    #[serde(skip)]
    pub grpc_in_process: Option<String>,
    /// Port of the process's Prometheus `/metrics` listener (`PORTAL_METRICS_PORT`); none when
    /// unset. 0 picks a free one.
    pub metrics_port: Option<u16>,
    /// Address of the `/metrics` listener (all interfaces in a container).
    pub metrics_host: String,
    /// The portal's public origin, used in emailed links.
    pub public_url: String,
    /// Where SQLite files live in the embedded default.
    pub data_dir: PathBuf,
    /// PostgreSQL when set; SQLite files under `data_dir` otherwise.
    #[serde(skip_serializing)]
    pub database_url: Option<SecretString>,
    /// Connections each service's SQL pool opens at most (`PORTAL_DB_POOL_SIZE`); 0: the
    /// default, 8 on PostgreSQL and 4 on SQLite. In Kubernetes every Deployment sets it, and
    /// `deploy/check.sh` proves that pool size times the most pods a rollout can run, summed
    /// over the services, fits the database's `max_connections` (the connection budget).
    pub db_pool_size: u32,
    /// Redis when set; the in-process store otherwise.
    #[serde(skip_serializing)]
    pub redis_url: Option<SecretString>,
    /// Prepended to each service's PostgreSQL schema name (tests use a unique one).
    pub schema_prefix: String,
    /// Prepended to every KV key (tests use a unique one).
    pub kv_prefix: String,
    /// Seed the demo tenant's data at start.
    pub demo_data: bool,
    /// Built front end served by the gateway.
    pub static_dir: PathBuf,
    /// Micro-frontend manifest served as `/mfe-manifest.json`; defaults to `<static_dir>/mfe-manifest.json`.
    pub mfe_manifest: Option<PathBuf>,
    /// Where the built front end is served when it is not on this machine (Kubernetes: the `web`
    /// service's nginx). The gateway then fetches the shell's `index.html` from there for `/` and
    /// deep links, so every HTML answer still passes through it and carries its security headers.
    pub static_url: Option<String>,
    /// Tenant configuration file served (without secrets) as `/api/config`.
    pub tenant_config: PathBuf,
    pub tenant: String,
    pub services: ServiceUrls,
    /// Absolute lifetime of a session: counted from the real sign-in (`auth_time`), never
    /// extended by a renewal.
    pub session_ttl_secs: i64,
    /// A session unused for this long is over (the member signs in again).
    pub session_idle_secs: i64,
    /// Lifetime of a one-time sign-in link or code (at most 600).
    pub link_ttl_secs: i64,
    /// Lifetime of a staff impersonation token (at most 3600).
    pub impersonation_ttl_secs: i64,
    pub rate_limit: RateLimits,
    /// The gateway's connection limits and timeouts (`PORTAL_SERVER__*`).
    pub server: ServerLimits,
    /// Proxies (IPs or CIDR blocks, e.g. `10.0.0.0/8`) whose `X-Forwarded-For` is believed when
    /// telling the client's IP for rate limits. Empty: the TCP peer is the client.
    pub trusted_proxies: Vec<String>,
    /// SMTP server for outgoing email, e.g. `smtp://user:pass@mail.example.com:587`; the dev
    /// outbox when unset.
    #[serde(skip_serializing)]
    pub smtp_url: Option<SecretString>,
    /// Sender of outgoing email.
    pub mail_from: String,
    /// HTTP SMS provider: a POST of `{"to", "text"}` JSON; the dev outbox when unset.
    #[serde(skip_serializing)]
    pub sms_url: Option<SecretString>,
    /// The airline partner API (`QFF_API_URL`, `QFF_API_KEY`, `PORTAL_QFF__*`).
    pub qff: QffSettings,
    /// MaxMind DB city files (`PORTAL_GEOIP_DB`, comma-separated: DB-IP ships IPv4 and IPv6 apart;
    /// GeoLite2/GeoIP2 City or DB-IP City Lite) that tell the approximate place and position of an
    /// IP address: a session's place, and `/api/geolocation/me`. Without them, no place is
    /// recorded and the position is the tenant's default.
    pub geoip_db: Option<String>,
    /// The credit the database's licence asks for wherever an IP position is used
    /// (`PORTAL_GEOIP_CREDIT`, e.g. `IP Geolocation by DB-IP`), with its link
    /// (`PORTAL_GEOIP_CREDIT_URL`); shown next to a position taken from the address.
    pub geoip_credit: Option<String>,
    pub geoip_credit_url: Option<String>,
}

/// How the qff service reaches the airline's partner API.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QffSettings {
    /// The partner API's base URL (`QFF_API_URL`); unset in the embedded default, where the
    /// launcher starts the bundled partner sandbox and fills this in.
    pub api_url: Option<String>,
    /// The partner API key (`QFF_API_KEY`); the sandbox's own when unset.
    #[serde(skip_serializing)]
    pub api_key: Option<SecretString>,
    /// Time allowed for one partner call.
    pub timeout_ms: u64,
    /// Extra attempts for calls that are safe to repeat (reads and checks; never a credit).
    pub retries: usize,
    /// Failed calls in a row that open the circuit breaker.
    pub breaker_failures: u32,
    /// How long an open breaker refuses calls before letting one through to test the partner.
    pub breaker_open_secs: u64,
    /// How often the reconciler settles conversions the partner did not answer.
    pub reconcile_secs: u64,
    /// A pending conversion is left this long before the reconciler asks about it.
    pub reconcile_after_secs: i64,
    /// Port of the partner sandbox the launcher starts (0 picks a free one).
    pub sandbox_port: u16,
}

impl Default for QffSettings {
    fn default() -> Self {
        Self {
            api_url: None,
            api_key: None,
            timeout_ms: 3000,
            retries: 2,
            breaker_failures: 5,
            breaker_open_secs: 30,
            reconcile_secs: 30,
            reconcile_after_secs: 10,
            sandbox_port: 0,
        }
    }
}

/// What one client may hold of the gateway (`PORTAL_SERVER__*`): every connection is served or
/// closed at once, none waits unanswered, and none is held open for nothing.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerLimits {
    /// Time a client has to send a request's headers: from the connection's first byte, or from
    /// the end of the previous answer on a kept-alive HTTP/1.1 connection (the time a direct
    /// client may keep one idle). A connection that sends nothing at all is closed after it too.
    pub header_read_timeout_ms: u64,
    /// A connection on which nothing moves either way for this long is closed: an idle HTTP/2
    /// connection, a stalled answer, a trusted proxy's idle kept-alive connection.
    pub idle_timeout_ms: u64,
    /// Time a client has to send a whole request body, once its headers are in (408 after it).
    pub body_timeout_ms: u64,
    /// Open connections at most; over it a new one is closed at once. 0: the open-files limit
    /// (raised to its hard limit at start) less a reserve for the process's own files and sockets.
    pub max_connections: usize,
    /// Open connections from one client address (IPv6: one /64) at most. The TCP peer counts, and
    /// the `trusted_proxies` are exempt: a proxy carries many members.
    pub max_connections_per_ip: usize,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            header_read_timeout_ms: 10_000,
            idle_timeout_ms: 60_000,
            body_timeout_ms: 30_000,
            max_connections: 0,
            max_connections_per_ip: 256,
        }
    }
}

/// Attempts allowed per window on sign-in and code routes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RateLimits {
    pub window_secs: u64,
    /// Per email address (or phone) per window.
    pub per_address: i64,
    /// Per client IP per window.
    pub per_ip: i64,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits { window_secs: 600, per_address: 5, per_ip: 60 }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            mode: Mode::Dev,
            host: "127.0.0.1".into(),
            port: 8080,
            grpc_host: "127.0.0.1".into(),
            grpc_port: 0,
            grpc_socket_dir: None,
            embedded_transport: EmbeddedTransport::Memory,
            grpc_in_process: None,
            metrics_port: None,
            metrics_host: "127.0.0.1".into(),
            public_url: "http://localhost:8080".into(),
            data_dir: "data".into(),
            database_url: None,
            db_pool_size: 0,
            redis_url: None,
            schema_prefix: String::new(),
            kv_prefix: "portal:".into(),
            demo_data: true,
            static_dir: "public".into(),
            mfe_manifest: None,
            static_url: None,
            tenant_config: "config/tenant.json".into(),
            tenant: "demo".into(),
            services: ServiceUrls::default(),
            session_ttl_secs: 3600 * 8,
            session_idle_secs: 3600 * 2,
            link_ttl_secs: 600,
            impersonation_ttl_secs: 3600,
            rate_limit: RateLimits::default(),
            server: ServerLimits::default(),
            trusted_proxies: Vec::new(),
            smtp_url: None,
            mail_from: "My account <no-reply@localhost>".into(),
            sms_url: None,
            qff: QffSettings::default(),
            geoip_db: None,
            geoip_credit: None,
            geoip_credit_url: None,
        }
    }
}

impl Settings {
    /// Loads the layers described in the module doc. Fails naming every bad setting (boxed: the
    /// error is large and only ever travels once, at start-up).
    pub fn load() -> Result<Self, Box<figment::Error>> {
        let mode = std::env::var("PORTAL_MODE").unwrap_or_else(|_| "dev".into());
        let s: Settings = Figment::from(Serialized::defaults(Settings::default()))
            .merge(Toml::file("config/portal.toml"))
            .merge(Toml::file(format!("config/{mode}.toml")))
            .merge(Env::prefixed("PORTAL_").split("__"))
            .merge(Env::raw().only(&["DATABASE_URL", "REDIS_URL", "PORT", "SMTP_URL", "SMS_URL"]))
            .merge(Env::prefixed("QFF_").only(&["API_URL", "API_KEY"]).map(|k| format!("qff.{k}").into()))
            .extract()
            .map_err(Box::new)?;
        Ok(s)
    }

    pub fn is_dev(&self) -> bool {
        self.mode == Mode::Dev
    }

    pub fn manifest_path(&self) -> PathBuf {
        self.mfe_manifest.clone().unwrap_or_else(|| self.static_dir.join("mfe-manifest.json"))
    }

    /// The URL of a service, or an error naming the missing setting.
    pub fn service_url(&self, name: &str) -> anyhow::Result<String> {
        let v = match name {
            "auth" => &self.services.auth,
            "profile" => &self.services.profile,
            "connections" => &self.services.connections,
            "qff" => &self.services.qff,
            "refdata" => &self.services.refdata,
            _ => &None,
        };
        v.clone().ok_or_else(|| anyhow::anyhow!("missing setting PORTAL_SERVICES__{}: the {name} service's gRPC URL", name.to_uppercase()))
    }
}

#[cfg(test)]
// figment::Jail's closures must return figment's own error, which is large: not ours to box.
#[allow(clippy::result_large_err)]
mod tests {
    use super::*;

    #[test]
    fn lists_come_from_the_environment() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("PORTAL_TRUSTED_PROXIES", r#"["10.0.0.0/8", "127.0.0.1"]"#);
            jail.set_env("PORTAL_RATE_LIMIT__PER_IP", "7");
            let s = Settings::load().map_err(|e| *e)?;
            assert_eq!(s.trusted_proxies, ["10.0.0.0/8", "127.0.0.1"]);
            assert_eq!(s.rate_limit.per_ip, 7);
            Ok(())
        });
    }

    #[test]
    fn the_partner_api_comes_from_its_conventional_variables() {
        use secrecy::ExposeSecret;
        figment::Jail::expect_with(|jail| {
            jail.set_env("QFF_API_URL", "https://partner.example/api");
            jail.set_env("QFF_API_KEY", "k-1");
            jail.set_env("PORTAL_QFF__TIMEOUT_MS", "1500");
            let s = Settings::load().map_err(|e| *e)?;
            assert_eq!(s.qff.api_url.as_deref(), Some("https://partner.example/api"));
            assert_eq!(s.qff.api_key.as_ref().map(|k| k.expose_secret().to_string()).as_deref(), Some("k-1"));
            assert_eq!(s.qff.timeout_ms, 1500);
            assert!(!format!("{s:?}").contains("k-1"), "the key never prints");
            Ok(())
        });
    }
}

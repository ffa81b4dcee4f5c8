//! Helpers for the portal's own tests, behind the `testing` feature (never in the services):
//! skipping a test that needs PostgreSQL or Redis, a private Redis to crash, and the kit a
//! service's own gRPC tests start it with ([`Harness`]: `h.start("refdata",
//! portal_refdata::build)`, then the services that call it, each test file adding only what is
//! its own). A GeoIP file for tests is `portal_geo::testing`'s.

use std::io::Write;

use crate::config::Settings;
use crate::grpc::GrpcApp;
use crate::identity::Caller;
use secrecy::{ExposeSecret, SecretString};

/// Which storage a service test runs on: SQLite files and the in-process KV store (the
/// embedded default), or PostgreSQL and Redis (`DATABASE_URL`, `REDIS_URL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Embedded,
    External,
}

/// A service test's settings and storage of its own: a temporary data directory (SQLite) or
/// PostgreSQL schemas and a Redis prefix no other test uses; the repository's tenant file; gRPC
/// on loopback port 0. Start services with their `build(&h.settings)` and [`Harness::serve`].
pub struct Harness {
    pub settings: Settings,
    dir: tempfile::TempDir,
}

impl Harness {
    /// `None` (and the test reported skipped) for `External` when `DATABASE_URL` and
    /// `REDIS_URL` are not both set.
    pub fn new(backend: Backend) -> Option<Harness> {
        let dir = tempfile::tempdir().expect("temporary directory");
        let mut settings = Settings {
            port: 0,
            grpc_port: 0,
            data_dir: dir.path().join("data"),
            tenant_config: concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json").into(),
            kv_prefix: crate::new_id("t_") + ":",
            schema_prefix: crate::new_id("t") + "_",
            demo_data: false,
            ..Settings::default()
        };
        if backend == Backend::External {
            let (Ok(db), Ok(redis)) = (std::env::var("DATABASE_URL"), std::env::var("REDIS_URL")) else {
                skip("DATABASE_URL and REDIS_URL are not both set");
                return None;
            };
            settings.database_url = Some(SecretString::from(db));
            settings.redis_url = Some(SecretString::from(redis));
        }
        Some(Harness { settings, dir })
    }

    /// A path inside the test's own temporary directory.
    pub fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }

    /// Serves a built service in the background until the test ends; its URL (for
    /// `settings.services.<name>` of the services that call it, or a client's channel).
    pub fn serve(&self, app: GrpcApp) -> String {
        let url = app.url();
        tokio::spawn(app.run(std::future::pending()));
        url
    }

    /// Builds a service with the settings so far (its `build`: `portal_refdata::build`, ...),
    /// serves it until the test ends, and records its URL as `settings.services.<name>`, so the
    /// services built after it call this one; its URL. Start them in the order they call each
    /// other: refdata first, then connections, profile, qff and auth.
    pub async fn start(&mut self, name: &str, build: impl AsyncFnOnce(&Settings) -> anyhow::Result<GrpcApp>) -> String {
        let app = build(&self.settings).await.unwrap_or_else(|e| panic!("{name} builds: {e:#}"));
        let url = self.serve(app);
        *self.service_url(name) = Some(url.clone());
        url
    }

    /// Points `settings.services.<name>` at a loopback port nothing listens on: a service the
    /// test never makes the others call, or one it brings up there later; the port.
    pub fn absent(&mut self, name: &str) -> u16 {
        let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        *self.service_url(name) = Some(format!("http://127.0.0.1:{port}"));
        port
    }

    fn service_url(&mut self, name: &str) -> &mut Option<String> {
        let s = &mut self.settings.services;
        match name {
            "refdata" => &mut s.refdata,
            "connections" => &mut s.connections,
            "profile" => &mut s.profile,
            "qff" => &mut s.qff,
            "auth" => &mut s.auth,
            other => panic!("no service {other:?}"),
        }
    }

    /// Drops the test's PostgreSQL schemas (nothing to do on SQLite: the directory goes with
    /// the harness).
    pub async fn finish(self) {
        let Some(url) = &self.settings.database_url else { return };
        drop_schemas(url.expose_secret(), &self.settings.schema_prefix).await;
    }
}

/// Drops a test's PostgreSQL schemas (`<prefix><service>` for each service). A service may still
/// be building an online index in the background (`CREATE INDEX CONCURRENTLY`), which can make a
/// `DROP SCHEMA … CASCADE` fail with a deadlock or "tuple concurrently updated": each drop is
/// tried again, a few times, before the test fails.
pub async fn drop_schemas(url: &str, prefix: &str) {
    use sqlx::{Connection, Executor};
    sqlx::any::install_default_drivers();
    let mut c = sqlx::AnyConnection::connect(url).await.expect("PostgreSQL");
    for svc in ["auth", "profile", "connections", "qff", "refdata"] {
        let sql = format!("DROP SCHEMA IF EXISTS {prefix}{svc} CASCADE");
        let mut attempt = 0;
        while let Err(e) = c.execute(sql.as_str()).await {
            attempt += 1;
            assert!(attempt < 20, "{sql}: {e}");
            tokio::time::sleep(std::time::Duration::from_millis(100 * attempt)).await;
        }
    }
}

/// A client's channel to a service the test serves (a URL from [`Harness::start`]).
pub fn channel(url: &str) -> crate::grpc::Channel {
    crate::grpc::channel(url).expect("a channel to the service")
}

/// A request as the gateway sends it for a member's own session.
pub fn as_member<T>(msg: T, profile_id: &str) -> tonic::Request<T> {
    with_caller(
        msg,
        &Caller {
            profile_id: profile_id.into(),
            actor: None,
            tenant: None,
            staff: false,
            token_id: None,
            token_exp: None,
            auth_time: None,
        },
    )
}

/// A request as the gateway sends it for a staff user viewing a member's account.
pub fn as_staff_view<T>(msg: T, profile_id: &str, staff_id: &str) -> tonic::Request<T> {
    with_caller(
        msg,
        &Caller {
            profile_id: profile_id.into(),
            actor: Some(staff_id.into()),
            tenant: None,
            staff: false,
            token_id: None,
            token_exp: None,
            auth_time: None,
        },
    )
}

/// A request carrying the given caller in its metadata.
pub fn with_caller<T>(msg: T, caller: &Caller) -> tonic::Request<T> {
    let mut r = tonic::Request::new(msg);
    caller.write_to(r.metadata_mut());
    r
}

/// Declares, for each named `async fn name(backend: Backend)`, a test on each backend:
/// `name::embedded` and `name::external` (the latter skipped without PostgreSQL and Redis).
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test]
                async fn embedded() {
                    super::$name($crate::testing::Backend::Embedded).await
                }
                #[tokio::test]
                async fn external() {
                    super::$name($crate::testing::Backend::External).await
                }
            }
        )*
    };
}

/// A test that cannot run here (PostgreSQL or Redis not configured) says so and returns early.
/// libtest has no "skipped" outcome, so it counts as passed; with `PORTAL_TEST_SKIPS` set to a
/// file (tools/test-all.sh sets it), the test's name is appended there and the run reports it as
/// skipped instead.
pub fn skip(reason: &str) {
    let name = std::thread::current().name().unwrap_or("unnamed test").to_string();
    eprintln!("skipped: {reason}");
    if let Some(path) = std::env::var_os("PORTAL_TEST_SKIPS") {
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = writeln!(f, "{name}: {reason}");
        }
    }
}

/// A Redis server of the test's own, which it may stop and start again on the same port (the
/// shared one must never be stopped). `None` unless `REDIS_URL` is set (Redis tests are on)
/// and `redis-server` is installed.
pub struct PrivateRedis {
    pub port: u16,
    child: Option<std::process::Child>,
}

impl PrivateRedis {
    pub fn start() -> Option<PrivateRedis> {
        if std::env::var("REDIS_URL").is_err() || std::process::Command::new("redis-server").arg("--version").output().is_err() {
            skip("needs REDIS_URL set and redis-server installed");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut r = PrivateRedis { port, child: None };
        r.up();
        Some(r)
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Starts it (again) on its port and waits until it accepts connections.
    pub fn up(&mut self) {
        let child = std::process::Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("redis-server did not listen on {}", self.port);
    }

    /// Kills it (as a crash would) and waits until it is gone.
    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        self.down();
    }
}

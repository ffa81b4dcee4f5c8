//! `spawn_app` starts the real portal (every service and the gateway) on port 0 with its own
//! storage: a temp dir of SQLite files and an in-process KV, or unique PostgreSQL schemas and a
//! unique Redis prefix when `external`. `TestApp` has one helper per endpoint the tests use.
use portal_common::config::{Mode, Settings};
use secrecy::SecretString;
use serde_json::{json, Value};

pub struct TestApp {
    pub base: String,
    pub http: reqwest::Client,
    pub settings: Settings,
    stack: Option<portal_launcher::Stack>,
    _dir: tempfile::TempDir,
}

pub struct Options {
    pub external: bool,
    pub mode: Mode,
    /// Adjusts the settings before the portal starts (short lifetimes, SMTP, ...).
    pub tweak: fn(&mut Settings),
    /// A Redis of the test's own (one it may stop), with SQLite storage.
    pub redis_url: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options { external: false, mode: Mode::Dev, tweak: |_| {}, redis_url: None }
    }
}

/// Starts the portal; `None` when an external backend is asked for but not configured.
pub async fn spawn_app(opts: Options) -> Option<TestApp> {
    let dir = tempfile::tempdir().unwrap();
    let static_dir = dir.path().join("public");
    std::fs::create_dir_all(static_dir.join("assets")).unwrap();
    std::fs::write(static_dir.join("index.html"), "<!doctype html><title>shell</title>").unwrap();
    std::fs::write(static_dir.join("assets/app.js"), "console.log(1)").unwrap();
    std::fs::write(
        static_dir.join("mfe-manifest.json"),
        r#"{"mfe_profile":{"entry":"/mfe/mfe-profile/0.1.0/mf-manifest.json","version":"0.1.0"}}"#,
    )
    .unwrap();
    let tenant = dir.path().join("tenant.json");
    // The demo tenant's profile rules (identities, messaging channels, size chart).
    let repo_tenant: Value =
        serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json")).unwrap()).unwrap();
    std::fs::write(
        &tenant,
        json!({
            "general": {"tenant": "demo", "siteMeta": {"title": "My account"}, "smtpPassword": "hunter2", "allowedOrigins": ["https://partner.example"],
                        "defaultPosition": repo_tenant["general"]["defaultPosition"]},
            "events": repo_tenant["events"],
            "components": {"qantas": {"apiKey": "partner-key", "redemption": repo_tenant["components"]["qantas"]["redemption"]}, "profile": repo_tenant["components"]["profile"],
                           "claims": repo_tenant["components"]["claims"], "connections": repo_tenant["components"]["connections"],
                           "loyalty": repo_tenant["components"]["loyalty"], "login": repo_tenant["components"]["login"]},
            "secrets": {"jwt": "s3cret"},
            "languages": ["en", "ar"],
            "lastUpdated": 1_763_683_200
        })
        .to_string(),
    )
    .unwrap();
    let mut settings = Settings {
        mode: opts.mode,
        port: 0,
        data_dir: dir.path().join("data"),
        static_dir,
        tenant_config: tenant,
        kv_prefix: portal_common::new_id("t_") + ":",
        schema_prefix: portal_common::new_id("t") + "_",
        ..Settings::default()
    };
    // The airline partner: short timeouts, and the reconciler driven by the tests (it runs
    // once at start, then only when a test asks), taking a pending conversion at once.
    settings.qff.timeout_ms = 2000;
    settings.qff.retries = 1;
    settings.qff.reconcile_secs = 3600;
    settings.qff.reconcile_after_secs = 0;
    (opts.tweak)(&mut settings);
    if let Some(url) = opts.redis_url {
        settings.redis_url = Some(SecretString::from(url));
    }
    if opts.external {
        let (Ok(db), Ok(redis)) = (std::env::var("DATABASE_URL"), std::env::var("REDIS_URL")) else {
            portal_common::testing::skip("DATABASE_URL and REDIS_URL are not both set");
            return None;
        };
        settings.database_url = Some(SecretString::from(db));
        settings.redis_url = Some(SecretString::from(redis));
    }
    let stack = portal_launcher::start(settings).await.expect("portal starts");
    let base = format!("http://127.0.0.1:{}", stack.gateway_port);
    let settings = stack.settings.clone();
    Some(TestApp { base, http: reqwest::Client::new(), settings, stack: Some(stack), _dir: dir })
}

pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn call(&self, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Reply {
        let mut rb = self.http.request(method.parse().unwrap(), self.url(path));
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        if let Some(b) = body {
            rb = rb.json(&b);
        }
        let res = rb.send().await.expect("request sent");
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Reply { status, body }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.call("GET", path, token, None).await
    }

    pub async fn request_link(&self, email: &str, redirect: &str) -> Reply {
        self.call("POST", "/api/auth", None, Some(json!({"email": email, "redirect": redirect}))).await
    }

    pub async fn outbox(&self) -> Vec<Value> {
        let r = self.get("/_dev/outbox.json", None).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        r.body.as_array().unwrap().clone()
    }

    /// The token of the newest emailed link to `email`.
    pub async fn link_token_for(&self, email: &str) -> (String, url::Url) {
        let outbox = self.outbox().await;
        let m = outbox.iter().find(|m| m["to"] == email).unwrap_or_else(|| panic!("no email to {email}"));
        let link = url::Url::parse(m["link"].as_str().unwrap()).unwrap();
        let token = link.query_pairs().find(|(k, _)| k == "token").unwrap().1.to_string();
        (token, link)
    }

    pub async fn exchange(&self, link_token: &str) -> Reply {
        self.call("POST", "/api/auth/exchange", None, Some(json!({"token": link_token}))).await
    }

    /// Signs in through the emailed link and returns the session token.
    pub async fn sign_in(&self, email: &str) -> String {
        assert_eq!(self.request_link(email, "/home").await.status, 200);
        let (t, _) = self.link_token_for(email).await;
        let r = self.exchange(&t).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        r.body["token"].as_str().unwrap().to_string()
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        self.call("POST", path, token, Some(body)).await
    }

    /// Asks for a code by email and returns it, read from the outbox.
    pub async fn email_code(&self, email: &str) -> String {
        let r = self.post("/api/auth/email", None, json!({"email": email})).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        let outbox = self.outbox().await;
        let m = outbox.iter().find(|m| m["to"] == email && m["subject"] == "Your sign-in code").expect("a code email");
        six_digits(m["text"].as_str().unwrap())
    }

    pub async fn verify(&self, email: &str, code: &str) -> Reply {
        self.post("/api/auth/verify", None, json!({"email": email, "code": code})).await
    }

    /// The portal's profile storage (profiles, the points ledger), for checking what was recorded.
    pub async fn profile_db(&self) -> portal_common::db::Db {
        portal_common::db::Db::connect(&self.settings, "profile", &portal_profile::MIGRATOR).await.unwrap()
    }

    /// The profile service's loyalty RPCs, including the internal ones the gateway does not offer.
    pub fn loyalty(&self) -> portal_proto::profile::v1::loyalty_service_client::LoyaltyServiceClient<portal_common::grpc::Channel> {
        let url = self.settings.services.profile.clone().expect("the launcher sets service URLs");
        portal_proto::profile::v1::loyalty_service_client::LoyaltyServiceClient::new(portal_common::grpc::channel(&url).unwrap())
    }

    /// The qff service's RPCs, including the internal reconciler.
    pub fn qff(&self) -> portal_proto::qff::v1::qff_service_client::QffServiceClient<portal_common::grpc::Channel> {
        let url = self.settings.services.qff.clone().expect("the launcher sets service URLs");
        portal_proto::qff::v1::qff_service_client::QffServiceClient::new(portal_common::grpc::channel(&url).unwrap())
    }

    /// The airline partner sandbox the portal talks to (a real HTTP server).
    pub fn sandbox(&self) -> &portal_qff_sandbox::Sandbox {
        &self.stack.as_ref().and_then(|s| s.sandbox.as_ref()).expect("the launcher started a partner sandbox").sandbox
    }

    /// Stops the partner sandbox: its port refuses connections from now on.
    pub async fn stop_sandbox(&self) {
        let running = self.stack.as_ref().and_then(|s| s.sandbox.as_ref()).expect("the launcher started a partner sandbox");
        running.task.abort();
        while !running.task.is_finished() {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    /// The qff service's storage (links, conversions).
    pub async fn qff_db(&self) -> portal_common::db::Db {
        portal_common::db::Db::connect(&self.settings, "qff", &portal_qff::MIGRATOR).await.unwrap()
    }

    /// A profile id from its token.
    pub fn pid(token: &str) -> String {
        payload(token)["pid"].as_str().unwrap().to_string()
    }

    /// The connections service's storage.
    pub async fn connections_db(&self) -> portal_common::db::Db {
        portal_common::db::Db::connect(&self.settings, "connections", &portal_connections::MIGRATOR).await.unwrap()
    }

    /// The refdata service's storage.
    pub async fn refdata_db(&self) -> portal_common::db::Db {
        portal_common::db::Db::connect(&self.settings, "refdata", &portal_refdata::MIGRATOR).await.unwrap()
    }

    /// The KV store as the services see it (this test's prefix).
    pub async fn kv(&self) -> portal_common::kv::Kv {
        portal_common::kv::Kv::connect(&self.settings).await.unwrap()
    }

    /// The portal's auth storage, for checking what was recorded.
    pub async fn auth_db(&self) -> portal_common::db::Db {
        portal_common::db::Db::connect(&self.settings, "auth", &portal_auth::MIGRATOR).await.unwrap()
    }

    /// Stops the portal and starts it again on the same storage with an empty KV, as a restart
    /// of the one-process default (its in-process KV) does. The base URL changes (a new port).
    #[allow(dead_code)]
    pub async fn restart_with_empty_kv(&mut self) {
        let stack = self.stack.take().expect("running");
        let mut settings = stack.settings.clone();
        if stack.sandbox.is_some() {
            settings.qff.api_url = None;
        }
        stack.stop().await.unwrap();
        settings.port = 0;
        settings.grpc_in_process = None;
        settings.kv_prefix = portal_common::new_id("t_") + ":";
        let stack = portal_launcher::start(settings).await.expect("portal restarts");
        self.base = format!("http://127.0.0.1:{}", stack.gateway_port);
        self.settings = stack.settings.clone();
        self.stack = Some(stack);
    }

    pub async fn stop(mut self) {
        if let Some(stack) = self.stack.take() {
            let settings = stack.settings.clone();
            stack.stop().await.unwrap();
            if settings.database_url.is_some() {
                drop_schemas(&settings).await;
            }
        }
    }
}

async fn drop_schemas(s: &Settings) {
    use secrecy::ExposeSecret;
    portal_common::testing::drop_schemas(s.database_url.as_ref().unwrap().expose_secret(), &s.schema_prefix).await;
}

// Used by the api tests (kv_outage), not by the other test binaries that include this file.
#[allow(unused_imports)]
pub use portal_common::testing::PrivateRedis;

/// Asserts the spec's error shape with the given status.
pub fn assert_error_shape(r: &Reply, status: u16) {
    assert_eq!(r.status, status, "{:?}", r.body);
    assert_eq!(r.body["status"], status, "{:?}", r.body);
    assert_eq!(r.body["error"], true);
    assert!(r.body["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(r.body["errors"].is_object());
}

/// The first run of six digits in a text.
pub fn six_digits(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(6)
        .find(|w| w.iter().all(|c| c.is_ascii_digit()))
        .map(|w| w.iter().collect())
        .unwrap_or_else(|| panic!("no code in {text:?}"))
}

/// Part `i` of a portal token's JWT (0 header, 1 payload), decoded without checking anything.
fn jwt_part(token: &str, i: usize) -> Value {
    use base64::Engine;
    let jwt = String::from_utf8(base64::engine::general_purpose::STANDARD.decode(token).unwrap()).unwrap();
    let part = jwt.split('.').nth(i).unwrap();
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
}

pub fn payload(token: &str) -> Value {
    jwt_part(token, 1)
}

pub fn header(token: &str) -> Value {
    jwt_part(token, 0)
}

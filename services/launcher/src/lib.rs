//! Starts the portal's services inside this process: [`start_services`] the ones named (`portal
//! serve <service>` runs one), [`start`] the whole portal, every service called directly (or over
//! Unix sockets or loopback) and the gateway pointed at them, as `portal` and the tests run it. What every process
//! does around that (telemetry, the tenant check, `/metrics`, signals) is
//! `portal_common::grpc::run_process`.
use portal_common::config::{EmbeddedTransport, Settings};
use portal_common::grpc::Running;

/// What a process can serve, in the order they start: each asks only those before it
/// (connections and profile ask refdata for the tenant's rules, profile asks connections about
/// list items, auth asks profile and refdata, the gateway asks them all).
pub const SERVICES: [&str; 6] = ["refdata", "connections", "profile", "qff", "auth", "gateway"];

pub struct Stack {
    /// The gateway's port (0 when this stack runs no gateway).
    pub gateway_port: u16,
    /// The airline partner sandbox, when the launcher started one in this process (no
    /// `QFF_API_URL` was set); tests switch its faults on.
    pub sandbox: Option<portal_qff_sandbox::Running>,
    /// The settings the services were started with (service URLs filled in).
    pub settings: Settings,
    running: Running,
}

/// Builds and starts `names` in this process, in the order of [`SERVICES`], each told where the
/// ones before it listen; returns once all are listening. `portal serve <service>` runs one this
/// way, configured by the environment alone; [`start`] runs them all.
pub async fn start_services(settings: Settings, names: &[&str]) -> anyhow::Result<Stack> {
    if let Some(other) = names.iter().find(|n| !SERVICES.contains(n)) {
        anyhow::bail!("unknown service {other:?}: use gateway, auth, profile, connections, qff or refdata");
    }
    let mut stack = Stack::new(settings);
    for name in SERVICES.into_iter().filter(|s| names.contains(s)) {
        stack.start_one(name).await?;
    }
    Ok(stack)
}

/// Builds and starts every service, then the gateway, in one process; returns once all are
/// listening.
pub async fn start(mut settings: Settings) -> anyhow::Result<Stack> {
    settings.grpc_port = 0;
    let mut stack = Stack::new(settings);
    // One process: by default its services call each other directly, the tonic client on the
    // tonic server with no HTTP/2 in between (see `EmbeddedTransport`, `grpc::local`).
    let settings = &mut stack.settings;
    if settings.grpc_socket_dir.is_none() {
        match settings.embedded_transport {
            EmbeddedTransport::Memory => settings.grpc_in_process = Some(next_run_name()),
            EmbeddedTransport::Unix => {
                let dir = private_socket_dir()?;
                settings.grpc_socket_dir = Some(dir.clone());
                // The sockets' directory this stack made, removed when it stops.
                stack.running.after_stop(move || {
                    let _ = std::fs::remove_dir_all(dir);
                });
            }
            EmbeddedTransport::Tcp => {}
        }
    }
    for name in SERVICES {
        // The qff service always talks HTTP to the partner: the one configured, or a sandbox here.
        if name == "qff" && stack.settings.qff.api_url.is_none() {
            let s =
                portal_qff_sandbox::spawn(&format!("127.0.0.1:{}", stack.settings.qff.sandbox_port), partner_key(&stack.settings).as_str())
                    .await?;
            stack.settings.qff.api_url = Some(s.url.clone());
            stack.sandbox = Some(s);
        }
        stack.start_one(name).await?;
    }
    Ok(stack)
}

/// A name for this run of the stack, unique in the process (tests start many).
fn next_run_name() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static RUN: AtomicU32 = AtomicU32::new(0);
    format!("portal-{}-{}", std::process::id(), RUN.fetch_add(1, Ordering::Relaxed))
}

/// A new directory only this user can enter, for this run's sockets (removed at stop). Kept
/// short: a socket path may not exceed 107 bytes.
fn private_socket_dir() -> anyhow::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(next_run_name());
    let _ = std::fs::remove_dir_all(&dir);
    let mut b = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(&dir)?;
    Ok(dir)
}

/// The key the partner sandbox accepts: the configured one, or the sandbox's default.
pub fn partner_key(settings: &Settings) -> String {
    use secrecy::ExposeSecret;
    settings.qff.api_key.as_ref().map_or_else(|| portal_qff::partner::SANDBOX_KEY.to_string(), |k| k.expose_secret().to_string())
}

/// Starts the partner sandbox as its own process (this binary, `portal qff-sandbox ADDR`), as
/// the airline's API would be: returns the child (killed when dropped) and its URL.
pub async fn spawn_sandbox_process(settings: &Settings) -> anyhow::Result<(tokio::process::Child, String)> {
    use tokio::io::AsyncBufReadExt;
    let exe = std::env::current_exe()?;
    let mut child = tokio::process::Command::new(exe)
        .arg("qff-sandbox")
        .arg(format!("127.0.0.1:{}", settings.qff.sandbox_port))
        .env("QFF_API_KEY", partner_key(settings))
        // Its stdin is a pipe from us: when this process ends, however it ends, the sandbox
        // reads EOF and stops too (QFF_SANDBOX_STDIN_LIFELINE).
        .env("QFF_SANDBOX_STDIN_LIFELINE", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let stdout = child.stdout.take().ok_or_else(|| anyhow::anyhow!("partner sandbox: no stdout"))?;
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let line = tokio::time::timeout(std::time::Duration::from_secs(10), lines.next_line())
        .await
        .map_err(|_| anyhow::anyhow!("partner sandbox did not start in 10 s"))??
        .ok_or_else(|| anyhow::anyhow!("partner sandbox exited before listening"))?;
    let url = line.strip_prefix("listening on ").ok_or_else(|| anyhow::anyhow!("partner sandbox said {line:?}"))?.to_string();
    // Keep reading so the child never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok((child, url))
}

impl Stack {
    fn new(settings: Settings) -> Stack {
        Stack { gateway_port: 0, sandbox: None, settings, running: Running::new() }
    }

    /// Builds one of [`SERVICES`] with the settings so far, starts it, and records where it
    /// listens for the ones after it.
    async fn start_one(&mut self, name: &str) -> anyhow::Result<()> {
        let settings = &mut self.settings;
        let (app, url) = match name {
            "gateway" => {
                let gateway = portal_gateway::Application::build(settings.clone()).await?;
                self.gateway_port = gateway.port();
                self.running.spawn(|stopped| gateway.run(stopped));
                return Ok(());
            }
            "refdata" => {
                let app = portal_refdata::build(settings).await?;
                (app, &mut settings.services.refdata)
            }
            "connections" => {
                let app = portal_connections::build(settings).await?;
                (app, &mut settings.services.connections)
            }
            "profile" => {
                let app = portal_profile::build(settings).await?;
                (app, &mut settings.services.profile)
            }
            "qff" => {
                let app = portal_qff::build(settings).await?;
                (app, &mut settings.services.qff)
            }
            "auth" => {
                let app = portal_auth::build(settings).await?;
                (app, &mut settings.services.auth)
            }
            other => anyhow::bail!("unknown service {other:?}"),
        };
        *url = Some(app.url());
        self.running.spawn_grpc(app);
        Ok(())
    }

    /// Where `name` listens: the gateway's HTTP address, or a service's gRPC URL.
    pub fn url(&self, name: &str) -> Option<String> {
        let s = &self.settings.services;
        match name {
            "gateway" => Some(format!("http://127.0.0.1:{}", self.gateway_port)),
            "refdata" => s.refdata.clone(),
            "connections" => s.connections.clone(),
            "profile" => s.profile.clone(),
            "qff" => s.qff.clone(),
            "auth" => s.auth.clone(),
            _ => None,
        }
    }

    /// Stops every service and waits for them to finish.
    pub async fn stop(self) -> anyhow::Result<()> {
        self.running.stop().await
    }

    /// Resolves when any service stops on its own (which is a failure), with its error.
    pub async fn wait(&mut self) -> anyhow::Result<()> {
        self.running.wait().await
    }

    /// What this stack serves, for [`portal_common::grpc::run_process`]; an in-process partner
    /// sandbox is kept until it stops.
    pub fn into_running(self) -> Running {
        let mut running = self.running;
        if let Some(sandbox) = self.sandbox {
            running.after_stop(move || drop(sandbox));
        }
        running
    }
}

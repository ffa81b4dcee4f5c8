//! Starts the whole portal in one process: each gRPC service on its own loopback port (port 0,
//! so nothing collides), then the gateway pointed at them. The same services run as separate
//! processes in production; nothing here is needed there.
use portal_common::config::{EmbeddedTransport, Settings};
use tokio::sync::watch;
use tokio::task::JoinSet;

pub struct Stack {
    pub gateway_port: u16,
    /// The airline partner sandbox, when the launcher started one in this process (no
    /// `QFF_API_URL` was set); tests switch its faults on.
    pub sandbox: Option<portal_qff_sandbox::Running>,
    /// The settings the services were started with (service URLs filled in).
    pub settings: Settings,
    stop: watch::Sender<bool>,
    tasks: JoinSet<anyhow::Result<()>>,
    /// The sockets' directory this stack made, removed when it stops.
    socket_dir: Option<std::path::PathBuf>,
}

async fn stopped(mut rx: watch::Receiver<bool>) {
    let _ = rx.wait_for(|s| *s).await;
}

/// Builds and starts every service, then the gateway; returns once all are listening.
pub async fn start(mut settings: Settings) -> anyhow::Result<Stack> {
    settings.grpc_port = 0;
    // One process: by default its services talk gRPC over in-memory pipes, which skips the
    // kernel on every internal call (see `EmbeddedTransport`).
    let mut socket_dir = None;
    if settings.grpc_socket_dir.is_none() {
        match settings.embedded_transport {
            EmbeddedTransport::Memory => settings.grpc_in_process = Some(next_run_name()),
            EmbeddedTransport::Unix => {
                let dir = private_socket_dir()?;
                settings.grpc_socket_dir = Some(dir.clone());
                socket_dir = Some(dir);
            }
            EmbeddedTransport::Tcp => {}
        }
    }
    let (stop, rx) = watch::channel(false);
    let mut tasks = JoinSet::new();

    // In dependency order: connections and profile ask refdata for the tenant's rules, profile
    // asks connections about list items, auth asks profile and refdata.
    let refdata = portal_refdata::build(&settings).await?;
    settings.services.refdata = Some(refdata.url());
    let connections = portal_connections::build(&settings).await?;
    settings.services.connections = Some(connections.url());
    let profile = portal_profile::build(&settings).await?;
    settings.services.profile = Some(profile.url());
    // The qff service always talks HTTP to the partner: the one configured, or a sandbox here.
    let sandbox = match settings.qff.api_url {
        Some(_) => None,
        None => {
            let s = portal_qff_sandbox::spawn(&format!("127.0.0.1:{}", settings.qff.sandbox_port), partner_key(&settings).as_str()).await?;
            settings.qff.api_url = Some(s.url.clone());
            Some(s)
        }
    };
    let qff = portal_qff::build(&settings).await?;
    settings.services.qff = Some(qff.url());
    let auth = portal_auth::build(&settings).await?;
    settings.services.auth = Some(auth.url());
    for app in [refdata, profile, connections, qff, auth] {
        tasks.spawn(app.run(stopped(rx.clone())));
    }

    let gateway = portal_gateway::Application::build(settings.clone()).await?;
    let gateway_port = gateway.port();
    tasks.spawn(gateway.run(stopped(rx)));
    Ok(Stack { gateway_port, sandbox, settings, stop, tasks, socket_dir })
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
    /// Stops every service and waits for them to finish.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        let _ = self.stop.send(true);
        let mut result = Ok(());
        while let Some(r) = self.tasks.join_next().await {
            if let Err(e) = r.map_err(anyhow::Error::from).and_then(|r| r) {
                result = Err(e);
            }
        }
        if let Some(dir) = self.socket_dir.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
        result
    }

    /// Resolves when any service stops on its own (which is a failure), with its error.
    pub async fn wait(&mut self) -> anyhow::Result<()> {
        match self.tasks.join_next().await {
            Some(r) => r?,
            None => Ok(()),
        }
    }
}

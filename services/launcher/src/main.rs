//! `portal`: the whole portal with embedded defaults (SQLite under ./data, in-process KV, dev
//! outbox, demo data) on http://localhost:8080, or as configured (see the README).
//! `portal openapi` prints the REST API's OpenAPI document instead, `portal tenant-schema` the
//! tenant file's JSON Schema (`config/tenant.schema.json`); `portal qff-sandbox [ADDR]`
//! serves the airline partner sandbox (the launcher starts it so when `QFF_API_URL` is unset);
//! `portal serve <service>` runs one service or the gateway alone (`make run-split`).

// glibc's allocator showed as ~11% of the CPU under load (arena lock contention between
// the runtime's threads); mimalloc keeps per-thread heaps.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc reads its options from the environment when it starts, before `main`. Committing
/// arena memory eagerly (its default on Linux) doubled the resident size under load (42 MiB
/// against 23 MiB) for no measurable speed, so unless the option is set already, start again
/// with it set.
const ARENA_EAGER_COMMIT: &str = "MIMALLOC_ARENA_EAGER_COMMIT";

#[cfg(unix)]
fn with_allocator_options() {
    use std::os::unix::process::CommandExt;
    if std::env::var_os(ARENA_EAGER_COMMIT).is_some() {
        return;
    }
    if let Ok(exe) = std::env::current_exe() {
        let err = std::process::Command::new(exe).args(std::env::args_os().skip(1)).env(ARENA_EAGER_COMMIT, "0").exec();
        eprintln!("could not restart with allocator options ({err}); continuing");
    }
}

#[cfg(not(unix))]
fn with_allocator_options() {}

fn main() -> anyhow::Result<()> {
    with_allocator_options();
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(run())
}

/// `portal serve <service>`: one service (or the gateway) as its own process, configured only by
/// the environment (`PORTAL_GRPC_PORT`, `PORTAL_SERVICES__*`, `DATABASE_URL`, ...), as in
/// production; `deploy/run-split.sh` starts the whole portal this way.
async fn serve_one(name: String) -> anyhow::Result<()> {
    portal_common::telemetry::init(&name);
    let settings = portal_common::config::Settings::load()?;
    if let Some(addr) = portal_common::metrics::serve_configured(&settings).await? {
        println!("{name} metrics on http://{addr}/metrics");
    }
    let served = serve_named(&name, settings).await;
    portal_common::telemetry::shutdown();
    served
}

async fn serve_named(name: &str, settings: portal_common::config::Settings) -> anyhow::Result<()> {
    let shutdown = portal_common::grpc::shutdown_signal();
    let app = match name {
        "gateway" => {
            let gateway = portal_gateway::Application::build(settings).await?;
            println!("gateway listening on http://127.0.0.1:{}", gateway.port());
            return gateway.run(shutdown).await;
        }
        "auth" => portal_auth::build(&settings).await?,
        "profile" => portal_profile::build(&settings).await?,
        "connections" => portal_connections::build(&settings).await?,
        "qff" => portal_qff::build(&settings).await?,
        "refdata" => portal_refdata::build(&settings).await?,
        other => anyhow::bail!("unknown service {other:?}: use gateway, auth, profile, connections, qff or refdata"),
    };
    println!("{name} listening on {}", app.url());
    app.run(shutdown).await
}

async fn run() -> anyhow::Result<()> {
    match std::env::args().nth(1).as_deref() {
        Some("openapi") => {
            println!("{}", portal_gateway::openapi().to_pretty_json()?);
            return Ok(());
        }
        Some("tenant-schema") => {
            print!("{}", portal_tenant::schema_json());
            return Ok(());
        }
        Some("qff-sandbox") => return portal_qff_sandbox::main_from_args(std::env::args().skip(2)).await,
        Some("serve") => return serve_one(std::env::args().nth(2).unwrap_or_default()).await,
        _ => {}
    }
    portal_common::telemetry::init("portal");
    let mut settings = portal_common::config::Settings::load()?;
    // A bad tenant file stops the portal here, naming the field, before anything starts.
    portal_tenant::load(&settings.tenant_config)?;
    if let Some(addr) = portal_common::metrics::serve_configured(&settings).await? {
        println!("metrics on http://{addr}/metrics");
    }
    // No partner configured: the bundled sandbox, in a process of its own.
    let mut sandbox: Option<tokio::process::Child> = None;
    if settings.qff.api_url.is_none() {
        let (child, url) = portal_launcher::spawn_sandbox_process(&settings).await?;
        println!("airline partner sandbox on {url}");
        settings.qff.api_url = Some(url);
        sandbox = Some(child);
    }
    let mut stack = portal_launcher::start(settings).await?;
    let s = &stack.settings;
    println!(
        "portal ready on http://localhost:{} (storage: {}, KV: {}, mode: {:?})",
        stack.gateway_port,
        if s.database_url.is_some() { "PostgreSQL" } else { "SQLite" },
        if s.redis_url.is_some() { "Redis" } else { "in-process" },
        s.mode
    );
    if let Some(mut child) = sandbox {
        // The portal keeps running without it: members are told the airline isn't answering.
        tokio::spawn(async move {
            // `wait` would close its stdin, the sandbox's lifeline: keep that open while we run.
            let _lifeline = child.stdin.take();
            let status = child.wait().await;
            tracing::error!(?status, "the airline partner sandbox stopped");
        });
    }
    tokio::select! {
        r = stack.wait() => {
            r?;
            anyhow::bail!("a service stopped unexpectedly");
        }

        _ = portal_common::grpc::shutdown_signal() => {
            tracing::info!("shutting down");
        }
    }
    let stopped = stack.stop().await;
    portal_common::telemetry::shutdown();
    stopped
}

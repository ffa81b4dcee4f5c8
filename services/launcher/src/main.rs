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

async fn run() -> anyhow::Result<()> {
    match std::env::args().nth(1).as_deref() {
        Some("openapi") => {
            println!("{}", portal_gateway::openapi().to_pretty_json()?);
            Ok(())
        }
        Some("tenant-schema") => {
            print!("{}", portal_tenant::schema_json());
            Ok(())
        }
        Some("qff-sandbox") => portal_qff_sandbox::main_from_args(std::env::args().skip(2)).await,
        Some("serve") => serve_one(std::env::args().nth(2).unwrap_or_default()).await,
        _ => portal_common::grpc::run_process("portal", portal_tenant::load, start_all).await,
    }
}

/// `portal serve <service>`: one service (or the gateway) as its own process, configured only by
/// the environment (`PORTAL_GRPC_PORT`, `PORTAL_SERVICES__*`, `DATABASE_URL`, ...), as in
/// production; `deploy/run-split.sh` starts the whole portal this way.
async fn serve_one(name: String) -> anyhow::Result<()> {
    portal_common::grpc::run_process(&name.clone(), portal_tenant::load, |settings| async move {
        let stack = portal_launcher::start_services(settings, &[name.as_str()]).await?;
        println!("{name} listening on {}", stack.url(&name).unwrap_or_default());
        Ok(stack.into_running())
    })
    .await
}

/// `portal`: every service and the gateway in this process, the partner sandbox in one of its
/// own when no partner is configured.
async fn start_all(mut settings: portal_common::config::Settings) -> anyhow::Result<portal_common::grpc::Running> {
    // No partner configured: the bundled sandbox, in a process of its own.
    let mut sandbox: Option<tokio::process::Child> = None;
    if settings.qff.api_url.is_none() {
        let (child, url) = portal_launcher::spawn_sandbox_process(&settings).await?;
        println!("airline partner sandbox on {url}");
        settings.qff.api_url = Some(url);
        sandbox = Some(child);
    }
    let stack = portal_launcher::start(settings).await?;
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
    Ok(stack.into_running())
}

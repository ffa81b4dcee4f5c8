//! `portal`: the whole portal with embedded defaults (SQLite under ./data, in-process KV, dev
//! outbox, demo data) on http://localhost:8080, or as configured (see the README).
//! `portal openapi` prints the REST API's OpenAPI document instead.
#[tokio::main]
async fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("openapi") {
        println!("{}", portal_gateway::openapi().to_pretty_json()?);
        return Ok(());
    }
    portal_common::telemetry::init();
    let settings = portal_common::config::Settings::load()?;
    let mut stack = portal_launcher::start(settings).await?;
    let s = &stack.settings;
    println!(
        "portal ready on http://localhost:{} (storage: {}, KV: {}, mode: {:?})",
        stack.gateway_port,
        if s.database_url.is_some() { "PostgreSQL" } else { "SQLite" },
        if s.redis_url.is_some() { "Redis" } else { "in-process" },
        s.mode
    );
    tokio::select! {
        r = stack.wait() => {
            r?;
            anyhow::bail!("a service stopped unexpectedly");
        }
        _ = tokio::signal::ctrl_c() => {
            tracing::info!("shutting down");
        }
    }
    stack.stop().await
}

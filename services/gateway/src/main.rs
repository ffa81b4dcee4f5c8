//! `portal-gateway` serves the REST API and the front end; `portal-gateway openapi` prints the
//! OpenAPI document (the front end's types are generated from it).
#[tokio::main]
async fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("openapi") {
        println!("{}", portal_gateway::openapi().to_pretty_json()?);
        return Ok(());
    }
    portal_common::telemetry::init("gateway");
    let settings = portal_common::config::Settings::load()?;
    portal_common::metrics::serve_configured(&settings).await?;
    let app = portal_gateway::Application::build(settings).await?;
    let served = app.run(portal_common::grpc::shutdown_signal()).await;
    portal_common::telemetry::shutdown();
    served
}

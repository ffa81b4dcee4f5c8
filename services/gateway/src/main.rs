//! `portal-gateway` serves the REST API and the front end; `portal-gateway openapi` prints the
//! OpenAPI document (the front end's types are generated from it).
#[tokio::main]
async fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("openapi") {
        println!("{}", portal_gateway::openapi().to_pretty_json()?);
        return Ok(());
    }
    portal_common::grpc::run_process("gateway", portal_tenant::load, |settings| async move {
        let app = portal_gateway::Application::build(settings).await?;
        println!("gateway listening on http://127.0.0.1:{}", app.port());
        let mut running = portal_common::grpc::Running::new();
        running.spawn(|stopped| app.run(stopped));
        Ok(running)
    })
    .await
}

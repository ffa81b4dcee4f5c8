//! `portal-connections`: the connections service as a process of its own (its image: deploy/docker/service.Dockerfile),
//! started the way every portal process starts (`portal_common::grpc::run_process`).
#[tokio::main]
async fn main() -> anyhow::Result<()> {
    portal_common::grpc::run_standalone("connections", portal_tenant::load, |s| async move { portal_connections::build(&s).await }).await
}

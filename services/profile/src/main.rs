//! `portal-profile`: the profile service as a process of its own (its image: deploy/docker/service.Dockerfile),
//! started the way every portal process starts (`portal_common::grpc::run_process`).
#[tokio::main]
async fn main() -> anyhow::Result<()> {
    portal_common::grpc::run_standalone("profile", portal_tenant::load, |s| async move { portal_profile::build(&s).await }).await
}

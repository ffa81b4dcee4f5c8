#[tokio::main]
async fn main() -> anyhow::Result<()> {
    portal_common::grpc::run_standalone("profile", |s| async move { portal_profile::build(&s).await }).await
}

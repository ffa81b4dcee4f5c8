#[tokio::main]
async fn main() -> anyhow::Result<()> {
    portal_common::grpc::run_standalone("auth", |s| async move { portal_auth::build(&s).await }).await
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    portal_common::grpc::run_standalone("connections", |s| async move { portal_connections::build(&s).await }).await
}

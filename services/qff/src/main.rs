#[tokio::main]
async fn main() -> anyhow::Result<()> {
    portal_common::grpc::run_standalone("qff", |s| async move { portal_qff::build(&s).await }).await
}

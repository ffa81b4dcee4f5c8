#[tokio::main]
async fn main() -> anyhow::Result<()> {
    portal_common::grpc::run_standalone("refdata", |s| async move { portal_refdata::build(&s).await }).await
}

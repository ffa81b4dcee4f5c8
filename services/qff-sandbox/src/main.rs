//! `qff-sandbox [ADDR]`: serves the partner sandbox on ADDR (default `127.0.0.1:0`) and prints
//! `listening on http://<addr>` once bound. The key it accepts is `QFF_API_KEY` (default `sandbox`).
#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    portal_qff_sandbox::main_from_args(std::env::args().skip(1)).await
}

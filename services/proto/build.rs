//! Compiles every contract under `proto/` with protox, so no system `protoc` is needed.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto");
    let files: Vec<_> =
        ["auth/v1/auth", "profile/v1/profile", "profile/v1/loyalty", "connections/v1/connections", "qff/v1/qff", "refdata/v1/refdata"]
            .iter()
            .map(|s| root.join(format!("portal/{s}.proto")))
            .collect();
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let fds = protox::compile(&files, [&root])?;
    tonic_prost_build::configure().compile_fds(fds)?;
    Ok(())
}

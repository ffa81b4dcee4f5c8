//! Reading the tenant file at start-up: once per process, in `portal_common::grpc::run_process`
//! (a service binary, `portal`, `portal serve`, the gateway), before any service is built, so a
//! bad file stops the process naming the field. The services then read the config from refdata
//! (typed once per version, [`crate::Cache`]); refdata watches the file itself. A second load of
//! the same text in one process is a read and a comparison.
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::Tenant;

/// The last file checked in this process, its text and what it parsed to.
static LAST: Mutex<Option<(PathBuf, String, Arc<Tenant>)>> = Mutex::new(None);

/// Reads, parses and checks the tenant file at `path`. The error names the file and the field:
/// `tenant config config/tenant.json: components.loyalty.tiers.levels[1].threshold: tier thresholds must rise`.
pub fn load(path: &Path) -> anyhow::Result<Tenant> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("reading tenant config {}: {e}", path.display()))?;
    let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((p, t, tenant)) = last.as_ref() {
        if p == path && *t == text {
            return Ok(Tenant::clone(tenant));
        }
    }
    let tenant = Tenant::from_json(&text).map_err(|e| anyhow::anyhow!("tenant config {}: {e}", path.display()))?;
    *last = Some((path.to_path_buf(), text, Arc::new(tenant.clone())));
    Ok(tenant)
}

//! Reading the tenant file at start-up. Every part of a process checks it before it starts (the
//! launcher, each service's `build`, the gateway), so the text is parsed once per content and
//! every later check of the same text is a read and a comparison.
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

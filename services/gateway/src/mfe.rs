//! Per-tab delivery at run time. The platform's micro-frontend manifest (a file: the
//! `mfe-manifest.json` a team's pipeline writes next to the tabs' versioned files, a ConfigMap or
//! a volume in Kubernetes) names each tab's stable release and, optionally, a canary:
//!
//! ```json
//! { "mfe_rewards": { "entry": "/mfe/mfe-rewards/0.1.0/mf-manifest.json", "version": "0.1.0",
//!     "canary": { "entry": "/mfe/mfe-rewards/0.2.0/mf-manifest.json", "version": "0.2.0",
//!                 "percent": 50, "minSamples": 20, "maxFailureRate": 0.1 } } }
//! ```
//!
//! Each member is told one release per tab ([`Canaries::resolve`]): the canary when the member's
//! bucket (a hash of the tab's name and the member's profile id, 0–99: the same every visit) is
//! below `percent`, else the stable one. Signed-out visitors always get the stable one.
//!
//! The shell reports every failed load or mount of a tab, and every load of a canary
//! ([`Canaries::record`]): the counts live in the KV store, shared by every gateway replica. A
//! canary whose failures reach `maxFailureRate` of its loads, once it has `minSamples` loads, is
//! rolled back: one atomic `set_nx` of its marker decides, so of any number of replicas reporting
//! at once exactly one records the rollback (log, `mfe_canary_rollbacks_total`), and from then on
//! every member is told the stable release, whatever the file still says.
use portal_common::kv::{Kv, KvResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// Reports one client address may send per minute (a page sends one per failed tab, and one per
/// canary it loads).
pub const REPORTS_PER_MINUTE: i64 = 60;
/// A canary is judged once it has this many loads, unless its manifest entry says otherwise.
pub const DEFAULT_MIN_SAMPLES: u64 = 20;
/// Failures per load at which a canary is rolled back, unless its manifest entry says otherwise.
pub const DEFAULT_MAX_FAILURE_RATE: f64 = 0.1;
/// How long a version's counts are kept after its first report.
const COUNTS_TTL: Duration = Duration::from_secs(30 * 86_400);
/// A rolled-back version stays rolled back (versions are immutable: a fix is a new version).
const ROLLBACK_TTL: Duration = Duration::from_secs(365 * 86_400);

/// One published build of a tab.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Release {
    pub entry: String,
    pub version: String,
}

/// A new release offered to a share of members.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Canary {
    pub entry: String,
    pub version: String,
    /// Share of members (0–100) who get it.
    pub percent: u8,
    #[serde(default)]
    pub min_samples: Option<u64>,
    #[serde(default)]
    pub max_failure_rate: Option<f64>,
}

/// A tab's entry in the manifest file. Other fields (`previous`, kept by the publish script for
/// its rollback command) are the pipeline's, not read here.
#[derive(Debug, Clone, Deserialize)]
pub struct Remote {
    pub entry: String,
    pub version: String,
    #[serde(default)]
    pub canary: Option<Canary>,
}

pub type Manifest = BTreeMap<String, Remote>;

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("no micro-frontend manifest has been published")]
    Missing,
    #[error("the micro-frontend manifest is invalid: {0}")]
    Invalid(String),
}

/// Reads the manifest file now (a publish or a rollback needs no restart).
pub async fn read_manifest(path: &Path) -> Result<Manifest, ManifestError> {
    let bytes = tokio::fs::read(path).await.map_err(|_| ManifestError::Missing)?;
    parse_manifest(&bytes)
}

pub fn parse_manifest(bytes: &[u8]) -> Result<Manifest, ManifestError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let m: Manifest = serde_path_to_error::deserialize(de).map_err(|e| ManifestError::Invalid(e.to_string()))?;
    for (name, r) in &m {
        if let Some(c) = &r.canary {
            if c.percent > 100 {
                return Err(ManifestError::Invalid(format!("{name}.canary.percent is {} (0-100)", c.percent)));
            }
            if c.max_failure_rate.is_some_and(|r| !(0.0..=1.0).contains(&r)) {
                return Err(ManifestError::Invalid(format!("{name}.canary.maxFailureRate is not between 0 and 1")));
            }
        }
    }
    Ok(m)
}

/// The member's bucket for a tab, 0–99: the first 32 bits of SHA-256 of `remote:profile_id`.
/// Stable for a member (every visit, every replica); the tab's name in it spreads the canaries
/// of different tabs over different members.
pub fn bucket(remote: &str, profile_id: &str) -> u8 {
    let hex = portal_token::hash_hex(&format!("{remote}:{profile_id}"));
    let n = u32::from_str_radix(&hex[..8], 16).expect("SHA-256 hex");
    (n % 100) as u8
}

/// What the shell is told for one tab.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema, PartialEq)]
pub struct Served {
    /// The release's module-federation manifest (`/mfe/<package>/<version>/mf-manifest.json`).
    pub entry: String,
    pub version: String,
    /// Whether this is a canary release (the shell then reports each load of it).
    pub canary: bool,
}

/// What the shell saw of a tab.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, utoipa::ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Its code loaded (reported for canaries).
    Loaded,
    /// Its code could not be loaded (network, a broken build, no lifecycles).
    LoadFailed,
    /// It loaded but failed to mount or to draw.
    RenderFailed,
    /// It refused to mount: it needs another version of the shell's runtime.
    Incompatible,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Loaded => "loaded",
            Outcome::LoadFailed => "load_failed",
            Outcome::RenderFailed => "render_failed",
            Outcome::Incompatible => "incompatible",
        }
    }
}

/// A report the manifest does not account for.
#[derive(Debug, PartialEq, Eq)]
pub enum Unknown {
    Remote,
    Version,
}

/// What recording one report did.
#[derive(Debug, PartialEq, Eq)]
pub enum Recorded {
    Counted,
    /// This report tipped the canary over its threshold and this instance rolled it back.
    RolledBack,
}

/// The canary state every gateway replica shares: counts and rollback markers in the KV store.
#[derive(Clone, Debug)]
pub struct Canaries {
    kv: Kv,
}

impl Canaries {
    pub fn new(kv: Kv) -> Canaries {
        Canaries { kv }
    }

    fn marker(remote: &str, version: &str) -> String {
        format!("rolledback:{remote}:{version}")
    }

    fn count(remote: &str, version: &str, what: &str) -> String {
        format!("n:{remote}:{version}:{what}")
    }

    /// Whether `version` of `remote` was rolled back.
    pub async fn is_rolled_back(&self, remote: &str, version: &str) -> KvResult<bool> {
        Ok(self.kv.get(&Self::marker(remote, version)).await?.is_some())
    }

    /// The release of each tab for this member (`None`: signed out). When the KV store cannot say
    /// which canaries were rolled back, everybody gets the stable releases.
    pub async fn resolve(&self, manifest: &Manifest, member: Option<&str>) -> BTreeMap<String, Served> {
        let live: Vec<(&String, &Canary)> = manifest.iter().filter_map(|(n, r)| r.canary.as_ref().map(|c| (n, c))).collect();
        let keys: Vec<String> = live.iter().map(|(n, c)| Self::marker(n, &c.version)).collect();
        let key_refs: Vec<&str> = keys.iter().map(String::as_str).collect();
        let rolled_back = if key_refs.is_empty() || member.is_none() {
            vec![None; key_refs.len()]
        } else {
            match self.kv.get_many(&key_refs).await {
                Ok(v) => v,
                Err(e) => {
                    tracing::warn!(error = %e, "canary state unavailable: serving the stable releases");
                    vec![Some(Vec::new()); key_refs.len()]
                }
            }
        };
        let on: Vec<&String> = live.iter().zip(&rolled_back).filter(|(_, m)| m.is_none()).map(|((n, _), _)| *n).collect();
        manifest
            .iter()
            .map(|(name, r)| {
                let canary = r.canary.as_ref().filter(|c| on.contains(&name) && member.is_some_and(|pid| bucket(name, pid) < c.percent));
                let served = match canary {
                    Some(c) => Served { entry: c.entry.clone(), version: c.version.clone(), canary: true },
                    None => Served { entry: r.entry.clone(), version: r.version.clone(), canary: false },
                };
                (name.clone(), served)
            })
            .collect()
    }

    /// Counts one report from `ip` in its minute: whether it is within [`REPORTS_PER_MINUTE`].
    pub async fn allow_report(&self, ip: &str) -> KvResult<bool> {
        let n = self.kv.incr(&format!("rl:{ip}"), Duration::from_secs(60)).await?;
        Ok(n <= REPORTS_PER_MINUTE)
    }

    /// Records one report (the metric `mfe_remote_reports_total`), and for a canary its counts and,
    /// when they cross its threshold, its rollback: exactly once, by whichever replica's
    /// `set_nx` wins.
    pub async fn record(
        &self,
        manifest: &Manifest,
        remote: &str,
        version: &str,
        outcome: Outcome,
    ) -> Result<Result<Recorded, Unknown>, portal_common::kv::KvError> {
        let Some(r) = manifest.get(remote) else { return Ok(Err(Unknown::Remote)) };
        let canary = r.canary.as_ref().filter(|c| c.version == version);
        if canary.is_none() && r.version != version {
            return Ok(Err(Unknown::Version));
        }
        if portal_common::metrics::enabled() {
            let labels = [("remote", remote.to_string()), ("version", version.to_string()), ("outcome", outcome.as_str().to_string())];
            metrics::counter!("mfe_remote_reports_total", &labels).increment(1);
        }
        let Some(c) = canary else { return Ok(Ok(Recorded::Counted)) };
        // A load is an attempt (it loaded or it failed to); anything but `loaded` is a failure.
        if matches!(outcome, Outcome::Loaded | Outcome::LoadFailed) {
            self.kv.incr(&Self::count(remote, version, "loads"), COUNTS_TTL).await?;
        }
        if outcome == Outcome::Loaded {
            return Ok(Ok(Recorded::Counted));
        }
        let failures = self.kv.incr(&Self::count(remote, version, "failures"), COUNTS_TTL).await?;
        let loads = self.kv.get(&Self::count(remote, version, "loads")).await?;
        let loads: i64 = loads.and_then(|v| String::from_utf8(v).ok()).and_then(|s| s.parse().ok()).unwrap_or(0);
        if !crossed(c, loads, failures) {
            return Ok(Ok(Recorded::Counted));
        }
        if !self.kv.set_nx(&Self::marker(remote, version), b"1", Some(ROLLBACK_TTL)).await? {
            return Ok(Ok(Recorded::Counted));
        }
        tracing::warn!(remote, version, loads, failures, stable = %r.version, "canary rolled back: every member gets the stable release");
        if portal_common::metrics::enabled() {
            metrics::counter!("mfe_canary_rollbacks_total", "remote" => remote.to_string(), "version" => version.to_string()).increment(1);
        }
        Ok(Ok(Recorded::RolledBack))
    }
}

/// Whether a canary's counts cross its threshold: at least `minSamples` loads, and failures at
/// or above `maxFailureRate` of them.
pub fn crossed(c: &Canary, loads: i64, failures: i64) -> bool {
    let min = c.min_samples.unwrap_or(DEFAULT_MIN_SAMPLES).max(1) as i64;
    let rate = c.max_failure_rate.unwrap_or(DEFAULT_MAX_FAILURE_RATE);
    loads >= min && failures as f64 >= rate * loads as f64
}

#[cfg(test)]
#[path = "mfe_tests.rs"]
mod tests;

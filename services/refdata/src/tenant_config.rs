//! The tenant's configuration file, owned by this service: read and checked with the typed
//! config (`portal_tenant`), re-read when the file changes (a tenant's edit applies without a
//! restart), and passed on as JSON text with anything secret removed: the `secrets` section,
//! and any key whose name says it holds a secret.
use anyhow::Context;
use portal_tenant::Tenant;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub struct TenantConfig {
    /// The document as members may see it, as JSON text.
    pub public_json: String,
    /// `lastUpdated` from the file, else the file's modification time (unix seconds).
    pub last_updated: i64,
    /// The file, typed and checked.
    pub tenant: Arc<Tenant>,
}

impl TenantConfig {
    pub fn load(path: &Path) -> anyhow::Result<TenantConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading tenant config {}", path.display()))?;
        Self::from_text(path, &text, mtime(path))
    }

    fn from_text(path: &Path, text: &str, mtime: i64) -> anyhow::Result<TenantConfig> {
        let tenant = Tenant::from_json(text).map_err(|e| anyhow::anyhow!("tenant config {}: {e}", path.display()))?;
        let mut doc: Value = serde_json::from_str(text).with_context(|| format!("parsing tenant config {}", path.display()))?;
        let last_updated = tenant.last_updated.unwrap_or(mtime);
        strip_secrets(&mut doc);
        doc["lastUpdated"] = Value::from(last_updated);
        Ok(TenantConfig { public_json: doc.to_string(), last_updated, tenant: Arc::new(tenant) })
    }
}

fn mtime(path: &Path) -> i64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// The current config: the file is read on each ask (a small file), parsed and checked only when
/// its text or modification time changed. A file edited into a bad state is logged, with the
/// field, and the last good config is kept.
pub struct Source {
    path: PathBuf,
    last: Mutex<Option<(String, i64, Arc<TenantConfig>)>>,
}

impl Source {
    /// Loads the file now: a bad file is an error here, at start-up.
    pub fn open(path: &Path) -> anyhow::Result<Source> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading tenant config {}", path.display()))?;
        let at = mtime(path);
        let cfg = Arc::new(TenantConfig::from_text(path, &text, at)?);
        Ok(Source { path: path.to_owned(), last: Mutex::new(Some((text, at, cfg))) })
    }

    pub fn current(&self) -> anyhow::Result<Arc<TenantConfig>> {
        let text = std::fs::read_to_string(&self.path).with_context(|| format!("reading tenant config {}", self.path.display()));
        let at = mtime(&self.path);
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        let text = match (text, last.as_ref()) {
            (Ok(t), Some((seen, seen_at, cfg))) if t == *seen && at == *seen_at => return Ok(cfg.clone()),
            (Ok(t), _) => t,
            (Err(e), Some((_, _, cfg))) => {
                tracing::error!(error = %format!("{e:#}"), "tenant config unreadable: the last good one is kept");
                return Ok(cfg.clone());
            }
            (Err(e), None) => return Err(e),
        };
        match TenantConfig::from_text(&self.path, &text, at) {
            Ok(cfg) => {
                let cfg = Arc::new(cfg);
                *last = Some((text, at, cfg.clone()));
                Ok(cfg)
            }
            Err(e) => match last.as_ref() {
                Some((_, _, cfg)) => {
                    tracing::error!(error = %format!("{e:#}"), "tenant config changed to one that does not load: the last good one is kept");
                    Ok(cfg.clone())
                }
                None => Err(e),
            },
        }
    }
}

fn is_secret_key(key: &str) -> bool {
    let k: String = key.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    ["secret", "password", "apikey", "privatekey", "clientsecret", "accesstoken", "credentials"].iter().any(|s| k.contains(s))
        || k == "secrets"
}

/// Removes secret keys at every depth.
pub fn strip_secrets(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, _| !is_secret_key(k));
            map.values_mut().for_each(strip_secrets);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_secrets),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn secrets_are_removed_at_every_depth() {
        let mut v = json!({
            "general": {"tenant": "demo", "smtpPassword": "x"},
            "secrets": {"jwt": "y"},
            "components": {"qantas": {"apiKey": "k", "client_secret": "s", "redemption": {"type": "points"}}},
            "list": [{"accessToken": "t", "ok": 1}]
        });
        strip_secrets(&mut v);
        assert_eq!(
            v,
            json!({
                "general": {"tenant": "demo"},
                "components": {"qantas": {"redemption": {"type": "points"}}},
                "list": [{"ok": 1}]
            })
        );
    }

    #[test]
    fn last_updated_comes_from_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.json");
        std::fs::write(&p, r#"{"general": {"tenant": "demo"}, "lastUpdated": 1700000000, "secrets": {"a": 1}}"#).unwrap();
        let c = TenantConfig::load(&p).unwrap();
        assert_eq!(c.last_updated, 1_700_000_000);
        let doc: Value = serde_json::from_str(&c.public_json).unwrap();
        assert!(doc.get("secrets").is_none());
    }

    #[test]
    fn a_malformed_file_is_an_error_naming_it_and_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.json");
        std::fs::write(&p, "{not json").unwrap();
        let e = TenantConfig::load(&p).err().unwrap();
        assert!(format!("{e:#}").contains("bad.json"));
        std::fs::write(&p, r#"{"general": {"tenant": "demo", "timeZone": 3}}"#).unwrap();
        let e = format!("{:#}", Source::open(&p).err().unwrap());
        assert!(e.contains("bad.json") && e.contains("general.timeZone: invalid type"), "{e}");
    }

    #[test]
    fn a_change_applies_and_a_bad_change_keeps_the_last_good() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.json");
        std::fs::write(&p, r#"{"general": {"tenant": "demo"}, "lastUpdated": 1}"#).unwrap();
        let s = Source::open(&p).unwrap();
        let first = s.current().unwrap();
        assert!(Arc::ptr_eq(&first, &s.current().unwrap()), "unchanged: parsed once");
        std::fs::write(&p, r#"{"general": {"tenant": "demo", "currency": "NZD"}, "lastUpdated": 1}"#).unwrap();
        assert_eq!(s.current().unwrap().tenant.general.currency.as_deref(), Some("NZD"));
        std::fs::write(&p, r#"{"general": {"tenant": "demo", "timeZone": "Mars/Olympus"}}"#).unwrap();
        assert_eq!(s.current().unwrap().tenant.general.currency.as_deref(), Some("NZD"));
    }
}

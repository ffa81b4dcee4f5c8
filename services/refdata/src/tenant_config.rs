//! The tenant's configuration file. Anything secret is removed before the document leaves the
//! service: the `secrets` section, and any key whose name says it holds a secret.
use anyhow::Context;
use serde_json::Value;
use std::path::Path;

pub struct TenantConfig {
    /// The document as members may see it.
    pub public_json: Value,
    /// `lastUpdated` from the file, else the file's modification time (unix seconds).
    pub last_updated: i64,
}

impl TenantConfig {
    pub fn load(path: &Path) -> anyhow::Result<TenantConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading tenant config {}", path.display()))?;
        let mut doc: Value = serde_json::from_str(&text).with_context(|| format!("parsing tenant config {}", path.display()))?;
        anyhow::ensure!(doc.is_object(), "tenant config {} must be a JSON object", path.display());
        let mtime = std::fs::metadata(path)?.modified()?.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
        let last_updated = doc.get("lastUpdated").and_then(Value::as_i64).unwrap_or(mtime);
        strip_secrets(&mut doc);
        doc["lastUpdated"] = Value::from(last_updated);
        Ok(TenantConfig { public_json: doc, last_updated })
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
        std::fs::write(&p, r#"{"lastUpdated": 1700000000, "secrets": {"a": 1}}"#).unwrap();
        let c = TenantConfig::load(&p).unwrap();
        assert_eq!(c.last_updated, 1_700_000_000);
        assert!(c.public_json.get("secrets").is_none());
    }

    #[test]
    fn a_malformed_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.json");
        std::fs::write(&p, "{not json").unwrap();
        let e = TenantConfig::load(&p).err().unwrap();
        assert!(format!("{e:#}").contains("bad.json"));
    }
}

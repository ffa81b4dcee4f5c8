//! What the gateway builds once and serves many times, held in its state: the country list's
//! body and the tenant config (typed, and `/api/config`'s body), each rebuilt only when its source
//! changes. Here rather than beside their routes, so the state depends on no route module.
use axum::body::Bytes;
use serde::{de::DeserializeOwned, Serialize};
use std::sync::{Arc, Mutex};

/// The serialised country list and the age it was built from. The data changes only with a new
/// data package, so it is built once per change and served as bytes.
#[derive(Default)]
pub struct CountriesCache(pub(crate) tokio::sync::RwLock<Option<(i64, Bytes)>>);

/// The tenant config as the gateway uses it, for the refdata service's current text (asked on
/// each use, so an edit applies at once): typed (the CSP's allow-list, the web app manifest), and
/// `/api/config`'s body; each made once per version of the text, not per request.
#[derive(Default)]
pub struct TenantCache {
    typed: portal_tenant::Cache,
    public: Mutex<Option<(String, Bytes)>>,
}

impl TenantCache {
    pub fn typed(&self, json: &str) -> Result<Arc<portal_tenant::Tenant>, portal_tenant::ConfigError> {
        self.typed.get(json)
    }

    /// `/api/config`'s body: the text read as `P` (its public shape) and serialised.
    pub(crate) fn public_body<P: DeserializeOwned + Serialize>(&self, json: &str) -> Result<Bytes, serde_json::Error> {
        if let Some((text, body)) = self.public.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if text == json {
                return Ok(body.clone());
            }
        }
        let v: P = serde_json::from_str(json)?;
        let body = Bytes::from(serde_json::to_vec(&v)?);
        *self.public.lock().unwrap_or_else(|p| p.into_inner()) = Some((json.to_owned(), body.clone()));
        Ok(body)
    }
}

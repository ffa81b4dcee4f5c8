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
/// `/api/config`'s body; and the phrasebook the loyalty answers' `translations` come from (see
/// `portal_tenant::Phrasebook`: the language is chosen in the browser); each made once per version
/// of the text, not per request.
#[derive(Default)]
pub struct TenantCache {
    typed: portal_tenant::Cache,
    public: Mutex<Option<(String, Bytes)>>,
    phrases: portal_tenant::Derived<portal_tenant::Phrasebook>,
}

impl TenantCache {
    pub fn typed(&self, json: &str) -> Result<Arc<portal_tenant::Tenant>, portal_tenant::ConfigError> {
        self.typed.get(json)
    }

    /// The tenant's translations of its content, for the refdata service's current text. When the
    /// config can't be had the answer still goes out, in the default language (an empty book).
    pub async fn phrasebook(
        &self,
        mut refdata: portal_proto::refdata::v1::refdata_service_client::RefdataServiceClient<portal_common::grpc::Channel>,
    ) -> Arc<portal_tenant::Phrasebook> {
        let config = refdata.get_config(portal_proto::refdata::v1::GetConfigRequest {}).await.map(|r| r.into_inner().json);
        match config.map_err(|e| e.to_string()).and_then(|json| self.typed(&json).map_err(|e| e.to_string())) {
            Ok(tenant) => self.phrases.get(&tenant, portal_tenant::Phrasebook::new),
            Err(e) => {
                tracing::warn!(error = %e, "tenant config unavailable: content in its default language");
                Arc::default()
            }
        }
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

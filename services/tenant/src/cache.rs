//! Holding the typed config while a process runs: [`Cache`] parses the JSON text a service is
//! given (the refdata service's answer) once per version, [`Derived`] rebuilds what a service
//! computes from it only when that version changes.
use std::sync::{Arc, Mutex};

use crate::ConfigError;
use crate::Tenant;

/// The typed config for the JSON text a process is given (the refdata service's answer): parsed
/// once for each new text, the same `Arc` while the text is unchanged.
#[derive(Default)]
pub struct Cache {
    last: Mutex<Option<(String, Arc<Tenant>)>>,
}

impl Cache {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get(&self, text: &str) -> Result<Arc<Tenant>, ConfigError> {
        if let Some((t, cfg)) = self.last.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if t == text {
                return Ok(cfg.clone());
            }
        }
        let cfg = Arc::new(Tenant::from_json(text)?);
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some((text.to_owned(), cfg.clone()));
        Ok(cfg)
    }
}

/// A value a service derives from the tenant config (its rules, a header), rebuilt only when the
/// config changed (another `Arc` from [`Cache`]).
pub struct Derived<T> {
    last: Mutex<Option<(Arc<Tenant>, Arc<T>)>>,
}

impl<T> Default for Derived<T> {
    fn default() -> Self {
        Derived { last: Mutex::new(None) }
    }
}

impl<T> Derived<T> {
    pub fn get(&self, tenant: &Arc<Tenant>, make: impl FnOnce(&Tenant) -> T) -> Arc<T> {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((t, v)) = last.as_ref() {
            if Arc::ptr_eq(t, tenant) {
                return v.clone();
            }
        }
        let v = Arc::new(make(tenant));
        *last = Some((tenant.clone(), v.clone()));
        v
    }
}

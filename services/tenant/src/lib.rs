//! The tenant configuration (`config/tenant.json`, `PORTAL_TENANT_CONFIG`) as one Rust type
//! (issue 23). Every process loads it at start-up with [`load`], which names the field that is
//! wrong (`components.loyalty.tiers.levels[1].threshold: ...`) so a bad file stops the process
//! there instead of failing the first request that reads that part; the services then hold the
//! typed value ([`Cache`] parses the refdata service's JSON text once per version). The checks
//! that are more than a type (ranges, order, references) are all in [`Tenant::validate`], and the
//! JSON Schema committed at `config/tenant.schema.json` is derived from these types ([`schema_json`]).
//!
//! Fields the services do not read (the front end's own settings) are accepted as they are: the
//! front end gets the file itself, secrets removed, from the refdata service.
//!
//! The modules, by job: `types` and `components` are the file's shape, `content` its texts in
//! every language (and where the language is chosen), `validate` parses
//! and checks it naming the field, `load` reads the file at start-up, `cache` holds the typed
//! value while a process runs, `schema` derives the JSON Schema.
mod cache;
mod components;
mod content;
mod load;
mod schema;
mod types;
mod validate;

pub use cache::{Cache, Derived};
pub use components::*;
pub use content::{ItemTranslations, Phrasebook, Translations, DEFAULT_LANGUAGE, LANGUAGES};
pub use load::load;
pub use schema::schema_json;
pub use types::*;
pub use validate::ConfigError;

/// The time zone when the tenant names none (spec 9).
pub const DEFAULT_ZONE: chrono_tz::Tz = chrono_tz::Australia::Melbourne;

/// The country a member is taken to live in when the tenant names none.
pub const DEFAULT_COUNTRY: &str = "AU";

#[cfg(test)]
mod tests;

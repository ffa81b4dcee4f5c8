//! The tenant file's JSON Schema, derived from the types (`config/tenant.schema.json` is this
//! text, committed; a test says when it is stale).
use crate::Tenant;

/// The JSON Schema of the tenant file, as committed at `config/tenant.schema.json`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Tenant);
    serde_json::to_string_pretty(&schema).expect("a schema serialises") + "\n"
}

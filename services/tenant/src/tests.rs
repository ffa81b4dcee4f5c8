//! The tenant file's loading, field-path errors, cache and committed schema, against the
//! repository's `config/tenant.json` and the variants the other tests write.
use super::*;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;

const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json");
const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.schema.json");

fn repo() -> Value {
    serde_json::from_str(&std::fs::read_to_string(REPO).unwrap()).unwrap()
}

fn error_of(doc: &Value) -> ConfigError {
    Tenant::from_json(&doc.to_string()).err().unwrap_or_else(|| panic!("accepted: {doc}"))
}

#[test]
fn the_repo_tenant_loads() {
    let t = load(Path::new(REPO)).unwrap();
    assert_eq!(t.general.tenant, "demo");
    assert_eq!(t.zone(), chrono_tz::Australia::Melbourne);
    assert_eq!(t.default_country(), "AU");
    assert_eq!(t.components.loyalty.tiers.levels.iter().map(|l| l.handle.as_str()).collect::<Vec<_>>(), ["silver", "gold", "platinum"]);
    assert!(t.catalogue_by_points().windows(2).all(|w| w[0].points <= w[1].points));
    assert_eq!(t.components.qantas.redemption.kind, RedemptionKind::Points);
    assert!(t.events["spring-launch"].custom_fields.iter().any(|f| f.kind == FieldKind::Select));
}

/// The variants the tests and the e2e run write are accepted too.
#[test]
fn the_variants_the_tests_write_load() {
    let r = repo();
    // services/launcher/tests/api/helpers.rs
    let launcher = json!({
        "general": {"tenant": "demo", "siteMeta": {"title": "My account"}, "smtpPassword": "hunter2", "allowedOrigins": ["https://partner.example"],
                    "defaultPosition": r["general"]["defaultPosition"]},
        "events": r["events"],
        "components": {"qantas": {"apiKey": "partner-key", "redemption": r["components"]["qantas"]["redemption"]}, "profile": r["components"]["profile"],
                       "claims": r["components"]["claims"], "connections": r["components"]["connections"],
                       "loyalty": r["components"]["loyalty"]},
        "secrets": {"jwt": "s3cret"},
        "languages": ["en", "ar"],
        "lastUpdated": 1_763_683_200
    });
    let mut variants = vec![launcher.clone()];
    // tests/api/claims.rs set_component
    let mut caps = launcher.clone();
    caps["components"]["claims"]["maxPending"] = json!(2);
    caps["components"]["claims"]["maxPerDay"] = json!(3);
    caps["components"]["connections"]["maxListsPerConnection"] = json!(3);
    caps["components"]["connections"]["maxItemsPerList"] = json!(4);
    variants.push(caps);
    // e2e/run.sh adds the partner page's origin
    let mut e2e = r.clone();
    e2e["general"]["allowedOrigins"].as_array_mut().unwrap().push(json!("http://127.0.0.1:40123"));
    variants.push(e2e);
    // The smallest file: a tenant handle.
    variants.push(json!({"general": {"tenant": "demo"}}));
    // The config as the refdata service passes it on: secrets removed.
    let mut public = r.clone();
    public.as_object_mut().unwrap().remove("secrets");
    public["components"]["qantas"].as_object_mut().unwrap().remove("apiKey");
    variants.push(public);
    for v in variants {
        Tenant::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}: {v}"));
    }
}

/// A second check of the same text is not parsed again; a changed file is.
#[test]
fn loading_again_sees_a_changed_file() {
    let path = std::env::temp_dir().join(format!("tenant-load-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"general": {"tenant": "one"}}"#).unwrap();
    assert_eq!(load(&path).unwrap().general.tenant, "one");
    assert_eq!(load(&path).unwrap().general.tenant, "one");
    std::fs::write(&path, r#"{"general": {"tenant": ""}}"#).unwrap();
    let e = load(&path).unwrap_err().to_string();
    std::fs::write(&path, r#"{"general": {"tenant": "two"}}"#).unwrap();
    assert_eq!(load(&path).unwrap().general.tenant, "two");
    let _ = std::fs::remove_file(&path);
    assert!(e.contains("general.tenant: must not be empty"), "{e}");
}

#[test]
fn a_wrong_type_is_named_by_its_path() {
    let mut doc = repo();
    doc["components"]["loyalty"]["tiers"]["levels"][1]["threshold"] = json!("lots");
    let e = error_of(&doc);
    assert_eq!(e.path, "components.loyalty.tiers.levels[1].threshold");
    assert!(e.to_string().starts_with("components.loyalty.tiers.levels[1].threshold: invalid type"), "{e}");
    let e = error_of(&json!({"general": {"tenant": "demo", "allowedOrigins": "https://a.example"}}));
    assert_eq!(e.path, "general.allowedOrigins");
    let e = error_of(&json!({"components": {}}));
    assert_eq!((e.path.as_str(), e.message.contains("general")), (".", true), "{e}");
    assert_eq!(Tenant::from_json("{not json").unwrap_err().path, ".");
}

#[test]
fn the_semantic_checks_name_the_field() {
    let cases: [(&str, Value, &str); 16] = [
        ("general.timeZone", json!("Mars/Olympus"), "general.timeZone"),
        ("general.defaultCountry", json!("Australia"), "general.defaultCountry"),
        ("general.defaultCountry", json!("zz"), "general.defaultCountry"),
        ("general.defaultPosition", json!({"latitude": 95.0, "longitude": 0.0}), "general.defaultPosition.latitude"),
        ("general.allowedOrigins", json!(["https://ok.example", "partner.example"]), "general.allowedOrigins[1]"),
        ("components.loyalty.pointsExpireDays", json!(-1), "components.loyalty.pointsExpireDays"),
        (
            "components.loyalty.tiers.levels",
            json!([{"handle": "a", "name": "A", "threshold": 5}]),
            "components.loyalty.tiers.levels[0].threshold",
        ),
        (
            "components.loyalty.tiers.levels",
            json!([{"handle": "a", "name": "A", "threshold": 0}, {"handle": "b", "name": "B", "threshold": 0}]),
            "components.loyalty.tiers.levels[1].threshold",
        ),
        ("components.loyalty.catalogue", json!([{"id": "x", "name": "X", "points": 0}]), "components.loyalty.catalogue[0].points"),
        ("components.qantas.redemption", json!({"type": "points", "blockSize": 0}), "components.qantas.redemption.blockSize"),
        ("components.claims.maxPending", json!(0), "components.claims.maxPending"),
        ("components.connections.maxItemsPerList", json!(0), "components.connections.maxItemsPerList"),
        ("components.connections.productUrl", json!("https://shop.example/products"), "components.connections.productUrl"),
        ("components.connections.variantUrl", json!("http://shop.example/v/{id}"), "components.connections.variantUrl"),
        ("events.x.endsAt", json!("next week"), "events.x.endsAt"),
        ("components.profile.sizes.tops.systems.US", json!(["1"]), "components.profile.sizes.tops.systems.US"),
    ];
    for (at, value, path) in cases {
        let mut doc = repo();
        let mut slot = &mut doc;
        for k in at.split('.') {
            if slot.get(k).is_none() {
                slot[k] = json!({"title": "X"});
            }
            slot = &mut slot[k];
        }
        *slot = value;
        assert_eq!(error_of(&doc).path, path, "{at}");
    }
}

#[test]
fn the_cache_parses_a_text_once() {
    let c = Cache::new();
    let text = std::fs::read_to_string(REPO).unwrap();
    let a = c.get(&text).unwrap();
    assert!(Arc::ptr_eq(&a, &c.get(&text).unwrap()));
    let b = c.get(r#"{"general": {"tenant": "other"}}"#).unwrap();
    assert_eq!(b.general.tenant, "other");
    assert!(c.get("{}").is_err());
    let d = Derived::default();
    let n = d.get(&a, |t| t.events.len());
    assert!(Arc::ptr_eq(&n, &d.get(&a, |_| unreachable!("the same config: kept"))));
    assert_eq!(*d.get(&b, |t| t.events.len()), 0);
}

/// `config/tenant.schema.json` is what the types say: regenerate it with
/// `cargo run -p portal-launcher -- tenant-schema > config/tenant.schema.json`.
#[test]
fn the_committed_schema_is_current() {
    let committed = std::fs::read_to_string(SCHEMA).unwrap_or_default();
    assert!(
        committed == schema_json(),
        "config/tenant.schema.json is stale: run `cargo run -p portal-launcher -- tenant-schema > config/tenant.schema.json`"
    );
}

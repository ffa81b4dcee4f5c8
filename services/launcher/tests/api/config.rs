//! GET /api/config, /api/config/age and /api/network/available; a tenant file that does not load
//! stops the portal at start-up, naming the field.
use crate::helpers::{spawn_app, TestApp};

crate::both!(config_is_served_without_secrets);

async fn config_is_served_without_secrets(app: &TestApp) {
    let r = app.get("/api/config", None).await;
    assert_eq!(r.status, 200);
    let text = r.body.to_string();
    for secret in ["hunter2", "partner-key", "s3cret", "smtpPassword", "apiKey", "secrets"] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    assert_eq!(r.body["general"]["siteMeta"]["title"], "My account");
    assert_eq!(r.body["components"]["qantas"]["redemption"]["type"], "points");
    assert_eq!(r.body["lastUpdated"], 1_763_683_200);
    assert_eq!(app.get("/api/config/age", None).await.body["age"], 1_763_683_200);
}

#[tokio::test]
async fn network_is_available() {
    let app = spawn_app(Default::default()).await.unwrap();
    let r = app.get("/api/network/available", None).await;
    assert_eq!((r.status, r.body["available"].as_bool()), (200, Some(true)));
    let h = app.get("/healthz", None).await;
    assert_eq!(h.status, 200);
    assert_eq!(h.body["services"].as_object().unwrap().len(), 5);
    assert!(h.body["services"].as_object().unwrap().values().all(|v| v == "serving"));
    app.stop().await;
}

/// The repository's tenant file with one tier's threshold of the wrong type.
fn broken_tenant(dir: &std::path::Path) -> std::path::PathBuf {
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json")).unwrap()).unwrap();
    doc["components"]["loyalty"]["tiers"]["levels"][1]["threshold"] = serde_json::json!("lots");
    let path = dir.join("tenant.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    path
}

const BROKEN_FIELD: &str = "components.loyalty.tiers.levels[1].threshold: invalid type";

#[tokio::test]
async fn a_broken_tenant_file_stops_the_start_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let settings = portal_common::config::Settings {
        port: 0,
        data_dir: dir.path().join("data"),
        tenant_config: broken_tenant(dir.path()),
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let e = match portal_launcher::start(settings).await {
        Ok(_) => panic!("started with a broken tenant file"),
        Err(e) => format!("{e:#}"),
    };
    assert!(e.contains(BROKEN_FIELD) && e.contains("tenant.json"), "{e}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
}

/// The built binary, as one process and as each split process, exits non-zero within seconds
/// and says which field is wrong.
#[tokio::test]
async fn the_binary_exits_on_a_broken_tenant_file() {
    let dir = tempfile::tempdir().unwrap();
    let tenant = broken_tenant(dir.path());
    for args in [&[][..], &["serve", "refdata"], &["serve", "profile"], &["serve", "gateway"]] {
        let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_portal"))
            .args(args)
            .env_remove("DATABASE_URL")
            .env_remove("REDIS_URL")
            .env("PORT", "0")
            .env("PORTAL_GRPC_PORT", "0")
            .env("PORTAL_DATA_DIR", dir.path().join("data"))
            .env("PORTAL_TENANT_CONFIG", &tenant)
            .env("QFF_API_URL", "http://127.0.0.1:9")
            .kill_on_drop(true)
            .output();
        let out = tokio::time::timeout(std::time::Duration::from_secs(20), run).await.expect("exits within seconds").unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} exited 0");
        assert!(stderr.contains(BROKEN_FIELD), "{args:?}: {stderr}");
    }
}

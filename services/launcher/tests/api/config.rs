//! GET /api/config, /api/config/age and /api/network/available.
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

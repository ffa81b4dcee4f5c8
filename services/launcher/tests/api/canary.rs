//! Per-tab delivery at the gateway (`portal_gateway::mfe`): `/mfe-manifest.json` tells each member
//! their release of each tab (a canary for the members whose bucket is below its percentage), the
//! shell's reports at `/api/mfe/reports` are limited per address and counted in the metrics, and a
//! canary whose failures cross its threshold is rolled back for everybody, exactly once however
//! many gateways hear the reports.
use crate::helpers::{assert_error_shape, TestApp};
use portal_gateway::mfe::{Canaries, Outcome, Recorded};
use serde_json::json;
use std::time::Duration;

/// A stable 0.1.0 and a canary for half the members (the demo member's bucket for mfe_rewards is
/// 32, the other member's 58), judged after 3 loads at 50 % failures.
fn publish_canary(app: &TestApp, canary: &str) {
    let manifest = json!({
        "mfe_rewards": {"entry": "/mfe/mfe-rewards/0.1.0/mf-manifest.json", "version": "0.1.0",
            "canary": {"entry": format!("/mfe/mfe-rewards/{canary}/mf-manifest.json"), "version": canary,
                       "percent": 50, "minSamples": 3, "maxFailureRate": 0.5}},
        "mfe_orders": {"entry": "/mfe/mfe-orders/0.1.0/mf-manifest.json", "version": "0.1.0"}
    });
    std::fs::write(app.settings.manifest_path(), manifest.to_string()).unwrap();
}

async fn rewards_version(app: &TestApp, token: Option<&str>) -> (String, bool) {
    let m = app.get("/mfe-manifest.json", token).await;
    assert_eq!(m.status, 200, "{:?}", m.body);
    assert_eq!(m.body["mfe_orders"]["version"], "0.1.0");
    (m.body["mfe_rewards"]["version"].as_str().unwrap().to_string(), m.body["mfe_rewards"]["canary"].as_bool().unwrap())
}

fn metric(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) && labels.iter().all(|want| l.contains(want)))
        .find_map(|l| l.rsplit(' ').next()?.parse().ok())
}

async fn canary_for_a_share_of_members_rolled_back_past_its_threshold(app: &TestApp) {
    portal_common::metrics::handle();
    let canary = format!("0.2.0-{}", portal_common::new_id("c"));
    publish_canary(app, &canary);
    let (demo, other) = (app.sign_in("demo@example.com").await, app.sign_in("other@example.com").await);
    assert_eq!(rewards_version(app, Some(&demo)).await, (canary.clone(), true), "bucket 32 < 50");
    assert_eq!(rewards_version(app, Some(&demo)).await, (canary.clone(), true), "the same every time");
    assert_eq!(rewards_version(app, Some(&other)).await, ("0.1.0".into(), false), "bucket 58");
    assert_eq!(rewards_version(app, None).await, ("0.1.0".into(), false), "signed out: stable");

    let report =
        |outcome: &str| app.post("/api/mfe/reports", None, json!({"remote": "mfe_rewards", "version": canary, "outcome": outcome}));
    // One good load, then two that fail: 2 of 3 loads failed, past 50 % with 3 loads.
    assert_eq!(report("loaded").await.status, 204);
    assert_eq!(report("load_failed").await.status, 204);
    assert_eq!(rewards_version(app, Some(&demo)).await.0, canary, "2 loads: below the minimum sample");
    assert_eq!(report("load_failed").await.status, 204);
    for token in [Some(demo.as_str()), Some(other.as_str()), None] {
        assert_eq!(rewards_version(app, token).await, ("0.1.0".into(), false), "rolled back for everybody");
    }
    // Pages still open on the canary keep reporting: counted, never a second rollback.
    assert_eq!(report("render_failed").await.status, 204);

    let text = portal_common::metrics::render();
    let v = format!("version=\"{canary}\"");
    let reports =
        |outcome: &str| metric(&text, "mfe_remote_reports_total", &["remote=\"mfe_rewards\"", &v, &format!("outcome=\"{outcome}\"")]);
    assert_eq!((reports("loaded"), reports("load_failed"), reports("render_failed")), (Some(1.0), Some(2.0), Some(1.0)));
    assert_eq!(metric(&text, "mfe_canary_rollbacks_total", &["remote=\"mfe_rewards\"", &v]), Some(1.0), "{text}");
}

async fn reports_refused_when_unknown_or_too_many(app: &TestApp) {
    publish_canary(app, "0.2.0");
    let r = app.post("/api/mfe/reports", None, json!({"remote": "mfe_nope", "version": "0.1.0", "outcome": "load_failed"})).await;
    assert_error_shape(&r, 422);
    assert!(r.body["errors"]["remote"].is_string());
    let r = app.post("/api/mfe/reports", None, json!({"remote": "mfe_rewards", "version": "6.6.6", "outcome": "load_failed"})).await;
    assert_error_shape(&r, 422);
    assert!(r.body["errors"]["version"].is_string());
    assert_error_shape(
        &app.post("/api/mfe/reports", None, json!({"remote": "mfe_rewards", "version": "0.1.0", "outcome": "odd"})).await,
        400,
    );
    // 60 a minute from one address: the two 422s above count (the 400 was refused before).
    for _ in 2..portal_gateway::mfe::REPORTS_PER_MINUTE {
        let r = app.post("/api/mfe/reports", None, json!({"remote": "mfe_orders", "version": "0.1.0", "outcome": "render_failed"})).await;
        assert_eq!(r.status, 204, "{:?}", r.body);
    }
    let res = app
        .http
        .post(app.url("/api/mfe/reports"))
        .json(&json!({"remote": "mfe_orders", "version": "0.1.0", "outcome": "render_failed"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    assert_eq!(res.headers()["retry-after"], "60");
}

crate::both!(canary_for_a_share_of_members_rolled_back_past_its_threshold, reports_refused_when_unknown_or_too_many);

#[tokio::test]
async fn the_manifest_is_checked_and_read_at_request_time() {
    let app = crate::helpers::spawn_app(Default::default()).await.unwrap();
    let m = app.get("/mfe-manifest.json", None).await;
    assert_eq!(m.body["mfe_profile"], json!({"entry": "/mfe/mfe-profile/0.1.0/mf-manifest.json", "version": "0.1.0", "canary": false}));
    std::fs::write(
        app.settings.manifest_path(),
        r#"{"mfe_profile": {"entry": "/x", "version": "1", "canary": {"entry": "/y", "version": "2", "percent": 300}}}"#,
    )
    .unwrap();
    assert_error_shape(&app.get("/mfe-manifest.json", None).await, 500);
    std::fs::remove_file(app.settings.manifest_path()).unwrap();
    assert_error_shape(&app.get("/mfe-manifest.json", None).await, 404);
    app.stop().await;
}

/// Two gateway replicas (each its own KV connection, one store: Redis, or the process's) hear the
/// failures of one canary at once: exactly one rolls it back.
async fn rolled_back_once_across_replicas(a: Canaries, b: Canaries) {
    let manifest = portal_gateway::mfe::parse_manifest(
        br#"{"mfe_rewards": {"entry": "/s", "version": "0.1.0",
             "canary": {"entry": "/c", "version": "0.2.0", "percent": 50, "minSamples": 10, "maxFailureRate": 0.2}}}"#,
    )
    .unwrap();
    let mut tasks = Vec::new();
    for i in 0..40 {
        let (c, m) = (if i % 2 == 0 { a.clone() } else { b.clone() }, manifest.clone());
        tasks.push(tokio::spawn(async move { c.record(&m, "mfe_rewards", "0.2.0", Outcome::LoadFailed).await.unwrap().unwrap() }));
    }
    let mut rolled_back = 0;
    for t in tasks {
        if t.await.unwrap() == Recorded::RolledBack {
            rolled_back += 1;
        }
    }
    assert_eq!(rolled_back, 1, "exactly one replica rolled the canary back");
    assert!(a.is_rolled_back("mfe_rewards", "0.2.0").await.unwrap() && b.is_rolled_back("mfe_rewards", "0.2.0").await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rollback_once_across_two_gateways_in_process() {
    let settings = portal_common::config::Settings { kv_prefix: portal_common::new_id("t_") + ":", ..Default::default() };
    let kv = |s| async move { Canaries::new(portal_common::kv::Kv::connect(s).await.unwrap().scoped("mfe")) };
    rolled_back_once_across_replicas(kv(&settings).await, kv(&settings).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn rollback_once_across_two_gateways_on_redis() {
    let Ok(url) = std::env::var("REDIS_URL") else {
        portal_common::testing::skip("REDIS_URL is not set");
        return;
    };
    let settings = portal_common::config::Settings {
        kv_prefix: portal_common::new_id("t_") + ":",
        redis_url: Some(secrecy::SecretString::from(url)),
        ..Default::default()
    };
    let connect = || async { Canaries::new(portal_common::kv::Kv::connect(&settings).await.unwrap().scoped("mfe")) };
    let (a, b) = (connect().await, connect().await);
    tokio::time::timeout(Duration::from_secs(30), rolled_back_once_across_replicas(a, b)).await.unwrap();
}

//! Redis down: every route that needs it (the token's revocation check, sign-in's rate limits
//! and one-time links and codes) refuses with 503 and `Retry-After` in the error shape, at once;
//! a signed-in member is not signed out (no 401). When Redis returns, everything works again
//! within 5 s without a restart.
use crate::helpers::{assert_error_shape, spawn_app, Options, PrivateRedis, Reply, TestApp};
use serde_json::json;
use std::time::{Duration, Instant};

/// A call that must be refused for now: 503, `Retry-After: 5`, the error shape, quickly.
async fn assert_refused_for_now(app: &TestApp, method: &str, path: &str, token: Option<&str>, body: Option<serde_json::Value>) {
    let mut rb = app.http.request(method.parse().unwrap(), app.url(path));
    if let Some(t) = token {
        rb = rb.bearer_auth(t);
    }
    if let Some(b) = body {
        rb = rb.json(&b);
    }
    let started = Instant::now();
    let res = rb.send().await.unwrap();
    let took = started.elapsed();
    let retry_after = res.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string());
    let r = Reply { status: res.status().as_u16(), body: res.json().await.unwrap() };
    assert_error_shape(&r, 503);
    assert_eq!(r.body["message"], "A service is unavailable, please try again shortly", "{method} {path}");
    assert_eq!(retry_after.as_deref(), Some("5"), "{method} {path}");
    assert!(took < Duration::from_secs(3), "{method} {path}: no hang, took {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_refuses_with_503_and_everything_recovers_when_it_returns() {
    let Some(mut redis) = PrivateRedis::start() else { return };
    let app =
        spawn_app(Options { redis_url: Some(redis.url()), tweak: |s| s.rate_limit.per_address = 2, ..Options::default() }).await.unwrap();
    let token = app.sign_in("demo@example.com").await;
    let code = app.email_code("other@example.com").await;

    redis.down();
    // The member stays signed in: told to try again, not to log in again.
    assert_refused_for_now(&app, "GET", "/api/profile", Some(&token), None).await;
    assert_refused_for_now(&app, "PUT", "/api/profile/attributes/comms", Some(&token), Some(json!({"sms": true}))).await;
    // Rate limits and one-time codes fail closed: nothing is counted, sent or accepted, however
    // many times it is asked (the per-address limit here is 2).
    for _ in 0..3 {
        assert_refused_for_now(&app, "POST", "/api/auth", None, Some(json!({"email": "demo@example.com"}))).await;
        assert_refused_for_now(&app, "POST", "/api/auth/email", None, Some(json!({"email": "demo@example.com"}))).await;
    }
    assert_refused_for_now(&app, "POST", "/api/auth/verify", None, Some(json!({"email": "other@example.com", "code": code}))).await;
    // What needs no KV still answers.
    assert_eq!(app.get("/api/config", None).await.status, 200);

    // Back (empty: this Redis keeps nothing on disk). Within 5 s, with no restart, the same
    // token works again and so does sign-in (every service reconnects on its own).
    redis.up();
    let back = Instant::now();
    let (mut profile, mut code) = (None, None);
    while back.elapsed() < Duration::from_secs(5) && (profile.is_none() || code.is_none()) {
        if profile.is_none() {
            let r = app.get("/api/profile", Some(&token)).await;
            match r.status {
                200 => profile = Some(r),
                _ => assert_error_shape(&r, 503),
            }
        }
        if code.is_none() {
            let r = app.post("/api/auth/email", None, json!({"email": "other@example.com"})).await;
            match r.status {
                200 => code = Some(r),
                _ => assert_error_shape(&r, 503),
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(profile.expect("the token works again within 5 s").body["email"], "demo@example.com");
    assert!(code.is_some(), "codes are sent again within 5 s");
    let outbox = app.outbox().await;
    let m = outbox.iter().find(|m| m["to"] == "other@example.com" && m["subject"] == "Your sign-in code").unwrap();
    let code = crate::helpers::six_digits(m["text"].as_str().unwrap());
    assert_eq!(app.verify("other@example.com", &code).await.status, 200);
    app.stop().await;
}

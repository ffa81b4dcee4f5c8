//! POST /api/auth/email, /api/auth/sms and /api/auth/verify: one-time codes, and the rate limits
//! on every sign-in and code route.
use crate::helpers::{assert_error_shape, spawn_app, Options, TestApp};
use serde_json::json;

crate::both!(
    a_code_signs_in_once,
    a_texted_code_signs_in_where_the_tenant_offers_it,
    the_sixth_wrong_attempt_locks_the_code,
    rapid_requests_for_one_address_are_limited
);

async fn a_code_signs_in_once(app: &TestApp) {
    let code = app.email_code("demo@example.com").await;
    let r = app.verify("demo@example.com", &code).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let t = r.body["token"].as_str().unwrap();
    assert_eq!(app.get("/api/profile", Some(t)).await.body["email"], "demo@example.com");
    assert_error_shape(&app.verify("demo@example.com", &code).await, 401);

    // Unknown addresses get the same answer and nothing is sent.
    let unknown = app.post("/api/auth/email", None, json!({"email": "nobody@example.com"})).await;
    assert_eq!(unknown.status, 200);
    assert_eq!(unknown.body["message"], portal_auth::CODE_SENT);
    assert!(app.outbox().await.iter().all(|m| m["to"] != "nobody@example.com"));
    assert_error_shape(&app.verify("nobody@example.com", "123456").await, 401);
    assert_error_shape(&app.verify("demo@example.com", "12ab").await, 422);
}

/// `components.login.sms` on (the demo tenant): a code texted to the account's phone (the dev
/// outbox here) signs in.
/// Off: the route refuses (403) and nothing is sent.
async fn a_texted_code_signs_in_where_the_tenant_offers_it(app: &TestApp) {
    let r = app.post("/api/auth/sms", None, json!({"email": "demo@example.com"})).await;
    assert_eq!((r.status, r.body["message"].as_str()), (200, Some(portal_auth::CODE_SENT)), "{:?}", r.body);
    let outbox = app.outbox().await;
    let text = outbox.iter().find(|m| m["channel"] == "sms" && m["to"] == "+61400000001").expect("a text to the demo phone");
    let code = crate::helpers::six_digits(text["text"].as_str().unwrap());
    let r = app.verify("demo@example.com", &code).await;
    assert_eq!(r.status, 200, "{:?}", r.body);

    let path = &app.settings.tenant_config;
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["components"]["login"]["sms"] = json!(false);
    std::fs::write(path, doc.to_string()).unwrap();
    let before = app.outbox().await.len();
    let r = app.post("/api/auth/sms", None, json!({"email": "demo@example.com"})).await;
    assert_error_shape(&r, 403);
    assert_eq!(r.body["message"], portal_auth::SMS_OFF);
    assert_eq!(app.outbox().await.len(), before, "nothing sent");
    // The email code is unchanged.
    assert_eq!(app.post("/api/auth/email", None, json!({"email": "demo@example.com"})).await.status, 200);
}

async fn the_sixth_wrong_attempt_locks_the_code(app: &TestApp) {
    let code = app.email_code("other@example.com").await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..portal_auth::MAX_CODE_ATTEMPTS {
        assert_error_shape(&app.verify("other@example.com", wrong).await, 401);
    }
    // Locked: even the right code is refused now.
    assert_error_shape(&app.verify("other@example.com", &code).await, 429);
    assert_error_shape(&app.verify("other@example.com", &code).await, 429);
}

async fn rapid_requests_for_one_address_are_limited(app: &TestApp) {
    let mut statuses = Vec::new();
    for _ in 0..40 {
        statuses.push(app.request_link("demo@example.com", "/home").await.status);
    }
    let limited = statuses.iter().filter(|s| **s == 429).count();
    assert!(statuses.iter().all(|s| *s == 200 || *s == 429), "{statuses:?}");
    assert!(limited >= 30, "{limited} of 40 were limited");
    let r = app.request_link("demo@example.com", "/home").await;
    assert_error_shape(&r, 429);
    // The code route has its own limit, applied the same way.
    let mut code_limited = 0;
    for _ in 0..40 {
        if app.post("/api/auth/email", None, json!({"email": "other@example.com"})).await.status == 429 {
            code_limited += 1;
        }
    }
    assert!(code_limited >= 30, "{code_limited}");
    // Unknown addresses are limited exactly like known ones.
    let mut unknown_limited = 0;
    for _ in 0..40 {
        if app.request_link("nobody@example.com", "/home").await.status == 429 {
            unknown_limited += 1;
        }
    }
    assert_eq!(unknown_limited, limited);
}

#[tokio::test]
async fn redeeming_is_limited_per_client_ip() {
    let app = spawn_app(Options { tweak: |s| s.rate_limit.per_ip = 4, ..Options::default() }).await.unwrap();
    // 5 x per_ip garbage exchanges pass the limiter (and fail as invalid), then 429s.
    let mut statuses = Vec::new();
    for _ in 0..25 {
        statuses.push(app.exchange("Z2FyYmFnZQ==").await.status);
    }
    assert!(statuses[..20].iter().all(|s| *s == 401), "{statuses:?}");
    assert!(statuses[20..].iter().all(|s| *s == 429), "{statuses:?}");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_redemptions_of_one_code_succeed_once() {
    let app = spawn_app(Default::default()).await.unwrap();
    let code = app.email_code("demo@example.com").await;
    let tries = (0..50).map(|_| app.verify("demo@example.com", &code));
    let results = futures::future::join_all(tries).await;
    assert_eq!(results.iter().filter(|r| r.status == 200).count(), 1);
    assert!(results.iter().filter(|r| r.status != 200).all(|r| r.status == 401 || r.status == 429));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_code_or_link_used_after_its_lifetime_is_refused() {
    let app = spawn_app(Options { tweak: |s| s.link_ttl_secs = 1, ..Options::default() }).await.unwrap();
    let code = app.email_code("demo@example.com").await;
    app.request_link("demo@example.com", "/home").await;
    let (link, _) = app.link_token_for("demo@example.com").await;
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    assert_error_shape(&app.verify("demo@example.com", &code).await, 401);
    assert_error_shape(&app.exchange(&link).await, 401);
    app.stop().await;
}

#[tokio::test]
async fn links_and_codes_expire_within_ten_minutes() {
    let app = spawn_app(Options { tweak: |s| s.link_ttl_secs = 86_400, ..Options::default() }).await.unwrap();
    app.request_link("demo@example.com", "/home").await;
    let (link, _) = app.link_token_for("demo@example.com").await;
    let p = crate::helpers::payload(&link);
    let life = p["exp"].as_i64().unwrap() - p["iat"].as_i64().unwrap();
    assert!(life <= 600, "link lives {life}s");
    app.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit() {
    let app = spawn_app(Options {
        tweak: |s| {
            s.rate_limit.per_ip = 2;
            s.trusted_proxies = vec!["127.0.0.1".into()];
        },
        ..Options::default()
    })
    .await
    .unwrap();
    let exchange = |ip: &'static str| {
        app.http
            .post(app.url("/api/auth/exchange"))
            .header("x-forwarded-for", ip)
            .json(&serde_json::json!({"token": "Z2FyYmFnZQ=="}))
            .send()
    };
    let mut first = Vec::new();
    for _ in 0..12 {
        first.push(exchange("198.51.100.1").await.unwrap().status().as_u16());
    }
    assert_eq!(*first.last().unwrap(), 429, "{first:?}");
    // Another client behind the same proxy is not limited by the first one's attempts.
    assert_eq!(exchange("198.51.100.2").await.unwrap().status().as_u16(), 401);
    app.stop().await;
}

#[tokio::test]
async fn a_forwarded_for_header_from_an_untrusted_peer_changes_nothing() {
    let app = spawn_app(Options { tweak: |s| s.rate_limit.per_ip = 2, ..Options::default() }).await.unwrap();
    for i in 0..12 {
        app.http
            .post(app.url("/api/auth/exchange"))
            .header("x-forwarded-for", format!("198.51.100.{i}"))
            .json(&serde_json::json!({"token": "Z2FyYmFnZQ=="}))
            .send()
            .await
            .unwrap();
    }
    let r = app
        .http
        .post(app.url("/api/auth/exchange"))
        .header("x-forwarded-for", "198.51.100.200")
        .json(&serde_json::json!({"token": "Z2FyYmFnZQ=="}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429, "a client cannot dodge the limit by inventing hops");
    app.stop().await;
}

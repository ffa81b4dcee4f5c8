//! POST /api/auth and POST /api/auth/exchange.
use crate::helpers::{assert_error_shape, TestApp};
use serde_json::json;

crate::both!(magic_link_signs_a_member_in_once, unknown_and_invalid_addresses);

async fn magic_link_signs_a_member_in_once(app: &TestApp) {
    let r = app.request_link("  Demo@Example.com ", "/profile").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["message"], portal_auth::LINK_SENT);

    let (token, link) = app.link_token_for("demo@example.com").await;
    assert_eq!(link.origin().ascii_serialization(), "http://localhost:8080");
    assert_eq!(link.path(), "/");
    assert!(link.as_str().contains("redirect=%2Fprofile"), "{link}");

    let s = app.exchange(&token).await;
    assert_eq!(s.status, 200, "{:?}", s.body);
    let session = s.body["token"].as_str().unwrap();
    assert!(s.body["expiry"].as_i64().unwrap() > portal_common::now_unix());

    let p = app.get("/api/profile", Some(session)).await;
    assert_eq!(p.status, 200);
    assert_eq!(p.body["email"], "demo@example.com");
    assert_eq!(p.body["id"], s.body["profile_id"]);

    // The link works once only.
    assert_error_shape(&app.exchange(&token).await, 401);
    // A link token is not a session token.
    assert_error_shape(&app.get("/api/profile", Some(&token)).await, 401);
}

async fn unknown_and_invalid_addresses(app: &TestApp) {
    let known = app.request_link("demo@example.com", "/home").await;
    let unknown = app.request_link("nobody@example.com", "/home").await;
    assert_eq!((known.status, &known.body), (unknown.status, &unknown.body), "same answer either way");
    assert!(app.outbox().await.iter().all(|m| m["to"] != "nobody@example.com"));

    let bad = app.request_link("not-an-email", "/home").await;
    assert_error_shape(&bad, 422);
    assert!(bad.body["errors"]["email"].is_string());

    let garbage = app.call("POST", "/api/auth", None, None).await;
    assert!(garbage.status == 400 || garbage.status == 415, "{}", garbage.status);
    assert_eq!(garbage.body["error"], true);

    assert_error_shape(&app.call("POST", "/api/auth/exchange", None, Some(json!({"token": ""}))).await, 422);
    assert_error_shape(&app.exchange("bm9wZQ==").await, 401);
}

crate::both!(outside_redirects_are_replaced);

async fn outside_redirects_are_replaced(app: &TestApp) {
    app.request_link("other@example.com", "https://evil.example/steal").await;
    let (_, link) = app.link_token_for("other@example.com").await;
    let redirect = link.query_pairs().find(|(k, _)| k == "redirect").unwrap().1.to_string();
    assert_eq!(redirect, "/home");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_redemptions_of_one_link_succeed_once() {
    let app = crate::helpers::spawn_app(Default::default()).await.unwrap();
    app.request_link("demo@example.com", "/home").await;
    let (token, _) = app.link_token_for("demo@example.com").await;
    let tries = (0..50).map(|_| app.exchange(&token));
    let results = futures::future::join_all(tries).await;
    let ok = results.iter().filter(|r| r.status == 200).count();
    assert_eq!(ok, 1);
    assert!(results.iter().filter(|r| r.status != 200).all(|r| r.status == 401));
    app.stop().await;
}

crate::both!(links_may_lead_only_to_allowed_origins);

async fn links_may_lead_only_to_allowed_origins(app: &TestApp) {
    // A partner page hosting the portal in an iframe: the link opens that page.
    let r = app
        .call(
            "POST",
            "/api/auth",
            None,
            Some(json!({
                "email": "demo@example.com", "redirect": "/rewards", "iFrame": true,
                "urlPath": "https://partner.example/members", "urlParams": {"campaign": "spring", "token": "ignored"},
                "externalRedirect": "https://partner.example/thanks"
            })),
        )
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let (token, link) = app.link_token_for("demo@example.com").await;
    assert_eq!(link.origin().ascii_serialization(), "https://partner.example");
    assert_eq!(link.path(), "/members");
    let q: std::collections::HashMap<_, _> = link.query_pairs().into_owned().collect();
    assert_eq!(q["campaign"], "spring");
    assert_eq!(q["redirect"], "/rewards");
    assert_eq!(q["externalRedirect"], "https://partner.example/thanks");
    assert_eq!(app.exchange(&token).await.status, 200, "the token is the real one, not the urlParams copy");

    // Anything else is refused with a field error, for known and unknown addresses alike.
    for (email, body, field) in [
        ("demo@example.com", json!({"externalRedirect": "https://evil.example/"}), "externalRedirect"),
        ("nobody@example.com", json!({"externalRedirect": "https://evil.example/"}), "externalRedirect"),
        ("demo@example.com", json!({"urlPath": "https://evil.example/login"}), "urlPath"),
        ("demo@example.com", json!({"iFrame": true}), "urlPath"),
    ] {
        let mut b = body;
        b["email"] = json!(email);
        let r = app.call("POST", "/api/auth", None, Some(b)).await;
        assert_error_shape(&r, 422);
        assert!(r.body["errors"][field].is_string(), "{:?}", r.body);
    }

    // A portal page, and params given as a string.
    app.call(
        "POST",
        "/api/auth/magicLink",
        None,
        Some(json!({"email": "other@example.com", "urlPath": "/loc/chadstone", "urlParams": "src=qr"})),
    )
    .await;
    let (_, link) = app.link_token_for("other@example.com").await;
    assert_eq!(link.path(), "/loc/chadstone");
    assert!(link.as_str().contains("src=qr&token="), "{link}");
}

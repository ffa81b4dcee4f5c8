//! /api/privacy: My sessions (devices from the User-Agent, sign one out, sign out the others)
//! and Download my data; Delete my account, whose test proves nothing personal is left in any
//! table of any service's storage, nor in the KV, is in `privacy/deletion.rs`.
use crate::helpers::{assert_error_shape, payload, TestApp};
use serde_json::{json, Value};
use sqlx::Row;

mod deletion;

crate::both!(
    sessions_show_each_device_and_sign_out_one_or_the_others,
    staff_viewing_an_account_cannot_use_the_privacy_centre,
    the_export_holds_what_the_portal_holds,
);

const ANDROID_CHROME: &str =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36";
const WINDOWS_FIREFOX: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";

/// Signs in through the emailed link from a browser with this User-Agent (and, behind a
/// trusted proxy, this forwarded address).
async fn sign_in_from(app: &TestApp, email: &str, user_agent: &str, forwarded_for: Option<&str>) -> String {
    assert_eq!(app.request_link(email, "/home").await.status, 200);
    let (link, _) = app.link_token_for(email).await;
    let mut rb = app.http.post(app.url("/api/auth/exchange")).header("user-agent", user_agent).json(&json!({"token": link}));
    if let Some(ip) = forwarded_for {
        rb = rb.header("x-forwarded-for", ip);
    }
    let res = rb.send().await.unwrap();
    assert_eq!(res.status(), 200);
    res.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_string()
}

fn jti(token: &str) -> String {
    payload(token)["jti"].as_str().unwrap().to_string()
}

async fn sessions(app: &TestApp, t: &str) -> Vec<Value> {
    let r = app.get("/api/privacy/sessions", Some(t)).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    r.body["sessions"].as_array().unwrap().clone()
}

async fn sessions_show_each_device_and_sign_out_one_or_the_others(app: &TestApp) {
    let phone = sign_in_from(app, "demo@example.com", ANDROID_CHROME, None).await;
    // A second device signs in with a code (the other sign-in route).
    let code = app.email_code("demo@example.com").await;
    let res = app
        .http
        .post(app.url("/api/auth/verify"))
        .header("user-agent", WINDOWS_FIREFOX)
        .json(&json!({"email": "demo@example.com", "code": code}))
        .send()
        .await
        .unwrap();
    let laptop = res.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_string();

    let listed = sessions(app, &phone).await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[0]["id"], jti(&laptop).as_str(), "newest sign-in first");
    assert_eq!(
        (listed[0]["browser"].as_str(), listed[0]["os"].as_str(), listed[0]["device"].as_str()),
        (Some("Firefox 132"), Some("Windows 10"), Some("desktop"))
    );
    assert_eq!(listed[0]["current"], false);
    let mine = &listed[1];
    assert_eq!(mine["id"], jti(&phone).as_str());
    assert_eq!(mine["current"], true);
    assert_eq!(
        (mine["browser"].as_str(), mine["os"].as_str(), mine["device"].as_str()),
        (Some("Chrome 131"), Some("Android 14"), Some("mobile"))
    );
    assert_eq!(mine["ip"], "127.0.0.0", "the address is kept truncated");
    assert!(mine["place"].is_null(), "no GeoIP database, no place");
    assert!(mine["last_seen_at"].as_str().is_some_and(|t| t.ends_with('Z')), "last used: {}", mine["last_seen_at"]);
    assert_eq!(mine["expires_at"], portal_common::rfc3339(payload(&phone)["exp"].as_i64().unwrap()).as_str());
    assert!(mine["signed_in_at"].as_str().is_some_and(|t| t.ends_with('Z')));

    // Sign out the laptop: its token is refused at once, the phone's is not.
    let r = app.call("DELETE", &format!("/api/privacy/sessions/{}", jti(&laptop)), Some(&phone), None).await;
    assert_eq!(r.status, 204, "{:?}", r.body);
    assert_error_shape(&app.get("/api/profile", Some(&laptop)).await, 401);
    assert_eq!(app.get("/api/profile", Some(&phone)).await.status, 200);
    assert_eq!(sessions(app, &phone).await.len(), 1);
    // Again, an unknown id, or another member's session: 404, and that session lives on.
    assert_error_shape(&app.call("DELETE", &format!("/api/privacy/sessions/{}", jti(&laptop)), Some(&phone), None).await, 404);
    assert_error_shape(&app.call("DELETE", "/api/privacy/sessions/ses_nothing", Some(&phone), None).await, 404);
    let other = app.sign_in("other@example.com").await;
    assert_error_shape(&app.call("DELETE", &format!("/api/privacy/sessions/{}", jti(&other)), Some(&phone), None).await, 404);
    assert_eq!(app.get("/api/profile", Some(&other)).await.status, 200);
    assert_eq!(sessions(app, &other).await.len(), 1, "each member sees only their own");

    // Sign out everywhere else.
    let (a, b) = (app.sign_in("demo@example.com").await, app.sign_in("demo@example.com").await);
    let r = app.post("/api/privacy/sessions/revoke-others", Some(&phone), json!({})).await;
    assert_eq!((r.status, &r.body), (200, &json!({"revoked": 2})));
    for t in [&a, &b] {
        assert_error_shape(&app.get("/api/profile", Some(t)).await, 401);
    }
    assert_eq!(app.get("/api/profile", Some(&phone)).await.status, 200);
    assert_eq!(app.get("/api/profile", Some(&other)).await.status, 200, "another member's sessions are untouched");

    // The token swap replaces the session's record: listed once, as the fresh token.
    let fresh = app.exchange(&phone).await.body["token"].as_str().unwrap().to_string();
    let listed = sessions(app, &fresh).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!((&listed[0]["id"], &listed[0]["current"]), (&json!(jti(&fresh)), &json!(true)));
    assert_eq!(listed[0]["signed_in_at"], mine["signed_in_at"], "the same sign-in");

    // Logout marks the record; signing out the current session is allowed.
    let c = app.sign_in("demo@example.com").await;
    assert_eq!(app.call("POST", "/api/auth/logout", Some(&c), None).await.status, 204);
    let row =
        sqlx::query("SELECT revoked_at FROM sessions WHERE id = $1").bind(jti(&c)).fetch_one(&app.auth_db().await.pool).await.unwrap();
    assert!(row.get::<Option<i64>, _>("revoked_at").is_some());
    assert_eq!(app.call("DELETE", &format!("/api/privacy/sessions/{}", jti(&fresh)), Some(&fresh), None).await.status, 204);
    assert_error_shape(&app.get("/api/privacy/sessions", Some(&fresh)).await, 401);
    assert_error_shape(&app.get("/api/privacy/sessions", None).await, 401);
}

async fn staff_viewing_an_account_cannot_use_the_privacy_centre(app: &TestApp) {
    let staff = app.sign_in("staff@example.com").await;
    let r = app.post("/api/auth/impersonate/prf_0000000000000000000000d1", Some(&staff), json!({"reason": "Checking sessions"})).await;
    let view = r.body["token"].as_str().unwrap().to_string();
    let member = app.sign_in("demo@example.com").await;
    for (method, path, body) in [
        ("GET", "/api/privacy/sessions".to_string(), None),
        ("DELETE", format!("/api/privacy/sessions/{}", jti(&member)), None),
        ("POST", "/api/privacy/sessions/revoke-others".to_string(), Some(json!({}))),
        ("GET", "/api/privacy/export".to_string(), None),
        ("POST", "/api/privacy/delete/code".to_string(), Some(json!({}))),
        ("POST", "/api/privacy/delete".to_string(), Some(json!({"code": "123456"}))),
    ] {
        let r = app.call(method, &path, Some(&view), body).await;
        assert_error_shape(&r, 403);
        assert_eq!(r.body["message"], portal_common::identity::IMPERSONATION_PRIVACY, "{method} {path}");
    }
    assert_eq!(app.get("/api/profile", Some(&member)).await.status, 200, "nothing was signed out");
    assert_eq!(sessions(app, &member).await.len(), 1);
    // A staff user's own session has no account to export or delete.
    assert_error_shape(&app.get("/api/privacy/export", Some(&staff)).await, 403);
    assert_error_shape(&app.post("/api/privacy/delete/code", Some(&staff), json!({})).await, 403);
}

async fn the_export_holds_what_the_portal_holds(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let pid = TestApp::pid(&t);
    app.call("PUT", "/api/profile/attributes/comms", Some(&t), Some(json!({"sms": true}))).await;
    app.post("/api/connections", Some(&t), json!({"definition_id": "wishlist"})).await;
    let linked = app.post("/api/qff/link", Some(&t), json!({"qff_number": "1900123456"})).await;
    assert_eq!(linked.status, 200, "{:?}", linked.body);
    let staff = app.sign_in("staff@example.com").await;
    app.post(&format!("/api/auth/impersonate/{pid}"), Some(&staff), json!({"reason": "Order question"})).await;

    let balance = app.get("/api/profile/balances", Some(&t)).await.body["data"]["points"].as_i64().unwrap();
    let res = app.http.get(app.url("/api/privacy/export")).bearer_auth(&t).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let h = res.headers().clone();
    assert_eq!(h["content-type"], "application/json");
    assert_eq!(h["cache-control"], "no-store");
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    assert_eq!(h["content-disposition"].to_str().unwrap(), format!("attachment; filename=\"my-data-{today}.json\""));
    let text = res.text().await.unwrap();
    assert!(text.contains("\n  \"profile\""), "pretty-printed");
    let doc: Value = serde_json::from_str(&text).unwrap();
    for key in [
        "generated_at",
        "profile_id",
        "profile",
        "consent_history",
        "transactions",
        "claims",
        "points_ledger",
        "rewards",
        "benefits",
        "lists",
        "airline",
        "sessions",
        "staff_access_log",
        "sign_in_activity",
        "email_changes",
    ] {
        assert!(doc.get(key).is_some(), "{key} missing");
    }
    assert_eq!(doc["profile_id"], pid.as_str());
    assert_eq!(
        (doc["profile"]["email"].as_str(), doc["profile"]["attributes"]["comms"]["sms"].as_bool()),
        (Some("demo@example.com"), Some(true))
    );
    assert!(doc["consent_history"].as_array().unwrap().iter().any(|c| c["channel"] == "sms" && c["value"] == true));
    // Every purchase and every ledger entry, as the API shows them, not one page.
    let txs = app.get("/api/profile/transactions?per_page=100", Some(&t)).await.body;
    assert_eq!(doc["transactions"].as_array().unwrap().len() as u64, txs["meta"]["total"].as_u64().unwrap());
    assert!(doc["transactions"][0]["items"][0]["product"]["id"].is_string(), "with products");
    let ledger = doc["points_ledger"].as_array().unwrap();
    assert_eq!(ledger.iter().map(|e| e["points"].as_i64().unwrap()).sum::<i64>(), balance, "the ledger adds up to the balance");
    assert!(
        doc["rewards"].as_array().unwrap().len() >= app.get("/api/profile/rewards", Some(&t)).await.body["data"].as_array().unwrap().len()
    );
    let lists = doc["lists"].as_array().unwrap();
    assert!(lists.iter().any(|c| c["connection"]["definition"]["id"] == "wishlist"), "{lists:?}");
    assert_eq!(doc["airline"]["link"]["qff_number"], "1900123456");
    assert!(doc["airline"]["history"].is_array() && doc["airline"]["conversions"].is_array());
    let mine = doc["sessions"].as_array().unwrap().iter().find(|s| s["id"] == jti(&t).as_str()).expect("this session");
    assert_eq!(mine["current"], true);
    assert_eq!(doc["staff_access_log"][0]["reason"], "Order question");
    assert_eq!(doc["staff_access_log"][0]["staff_name"], "Sam Staff");
    // Only the caller's own data.
    assert!(!text.contains("other@example.com"));
    assert_error_shape(&app.get("/api/privacy/export", None).await, 401);
}

static GEOIP_DB: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// With a GeoIP database, a session shows roughly where it signed in (the forwarded address of a
/// trusted proxy's client here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sessions_place_comes_from_the_geoip_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("city.mmdb");
    std::fs::write(&path, portal_geo::testing::geoip_db("203.0.113.0/24", "Melbourne", "Australia")).unwrap();
    GEOIP_DB.set(path).unwrap();
    let tweak = |s: &mut portal_common::config::Settings| {
        s.geoip_db = GEOIP_DB.get().map(|p| p.display().to_string());
        s.trusted_proxies = vec!["127.0.0.1".into()];
    };
    let app = crate::helpers::spawn_app(crate::helpers::Options { tweak, ..Default::default() }).await.unwrap();
    let t = sign_in_from(&app, "demo@example.com", WINDOWS_FIREFOX, Some("203.0.113.77")).await;
    let elsewhere = sign_in_from(&app, "demo@example.com", WINDOWS_FIREFOX, Some("198.51.100.20")).await;
    let listed = sessions(&app, &t).await;
    let place =
        |token: &str| listed.iter().find(|s| s["id"] == jti(token).as_str()).map(|s| (s["place"].clone(), s["ip"].clone())).unwrap();
    assert_eq!(place(&t), (json!("Melbourne, Australia"), json!("203.0.113.0")));
    assert_eq!(place(&elsewhere), (Value::Null, json!("198.51.100.0")), "an address the database does not know");
    app.stop().await;
}

//! Logout, revocation (one session, or every session of a device), session hand-over from a
//! native wrapper, key rotation, registration and check-in recording.
use crate::helpers::{assert_error_shape, header, payload, TestApp};
use portal_proto::auth::v1::{auth_service_client::AuthServiceClient, RotateSigningKeyRequest};
use serde_json::{json, Value};
use sqlx::Row;

crate::both!(
    a_token_after_logout_is_refused,
    sessions_are_listed_by_device_and_a_device_signs_out_whole,
    a_native_session_token_is_swapped_for_a_fresh_one,
    registration_validates_and_creates_once,
    a_check_in_is_recorded_when_the_member_signs_in
);

async fn a_token_after_logout_is_refused(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let other = app.sign_in("demo@example.com").await;
    assert_eq!(app.get("/api/profile", Some(&t)).await.status, 200);
    let r = app.call("POST", "/api/auth/logout", Some(&t), None).await;
    assert_eq!(r.status, 204, "{:?}", r.body);
    assert_error_shape(&app.get("/api/profile", Some(&t)).await, 401);
    assert_error_shape(&app.call("POST", "/api/auth/logout", Some(&t), None).await, 401);
    // Only that session ended.
    assert_eq!(app.get("/api/profile", Some(&other)).await.status, 200);
    assert_error_shape(&app.call("POST", "/api/auth/logout", None, None).await, 401);
}

const PHONE: &str =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36";
const PHONE_UPDATED: &str =
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/132.0.6834.10 Mobile Safari/537.36";
const LAPTOP: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";

/// Signs in through the emailed link from a browser with this User-Agent.
async fn sign_in_on(app: &TestApp, email: &str, user_agent: &str) -> String {
    assert_eq!(app.request_link(email, "/home").await.status, 200);
    let (link, _) = app.link_token_for(email).await;
    let res =
        app.http.post(app.url("/api/auth/exchange")).header("user-agent", user_agent).json(&json!({"token": link})).send().await.unwrap();
    assert_eq!(res.status(), 200);
    res.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_string()
}

async fn sessions_are_listed_by_device_and_a_device_signs_out_whole(app: &TestApp) {
    let phone = [
        sign_in_on(app, "demo@example.com", PHONE).await,
        sign_in_on(app, "demo@example.com", PHONE).await,
        sign_in_on(app, "demo@example.com", PHONE_UPDATED).await,
    ];
    let laptop = sign_in_on(app, "demo@example.com", LAPTOP).await;
    let list = app.get("/api/privacy/sessions", Some(&laptop)).await;
    assert_eq!(list.status, 200, "{:?}", list.body);
    assert_eq!(list.body["sessions"].as_array().unwrap().len(), 4, "the sessions one by one, as before");
    let devices = list.body["devices"].as_array().unwrap();
    assert_eq!(devices.len(), 2, "a browser update is the same device: {devices:?}");
    assert_eq!((devices[0]["current"].as_bool(), devices[0]["sign_ins"].as_u64()), (Some(true), Some(1)), "this device first");
    assert_eq!(devices[0]["browser"], "Firefox 132");
    let other = &devices[1];
    assert_eq!((other["current"].as_bool(), other["sign_ins"].as_u64()), (Some(false), Some(3)));
    assert_eq!((other["browser"].as_str(), other["device"].as_str()), (Some("Chrome 132"), Some("mobile")), "as on its newest sign-in");
    assert!(other["last_seen_at"].is_string());
    assert_eq!(other["session_ids"].as_array().unwrap().len(), 3);

    let key = other["key"].as_str().unwrap();
    let r = app.call("DELETE", &format!("/api/privacy/devices/{key}"), Some(&laptop), None).await;
    assert_eq!((r.status, &r.body["revoked"]), (200, &json!(3)), "{:?}", r.body);
    for t in &phone {
        let r = app.get("/api/profile", Some(t)).await;
        assert_error_shape(&r, 401);
        assert_eq!(r.body["errors"]["session"], "revoked", "the device can tell it was signed out elsewhere: {:?}", r.body);
    }
    assert_eq!(app.get("/api/profile", Some(&laptop)).await.status, 200, "this device stays signed in");
    let left = app.get("/api/privacy/sessions", Some(&laptop)).await;
    assert_eq!(left.body["devices"].as_array().unwrap().len(), 1);
    assert_error_shape(&app.call("DELETE", &format!("/api/privacy/devices/{key}"), Some(&laptop), None).await, 404);

    // Signing out this device is the member's own sign-out.
    let mine = left.body["devices"][0]["key"].as_str().unwrap().to_string();
    let r = app.call("DELETE", &format!("/api/privacy/devices/{mine}"), Some(&laptop), None).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(app.get("/api/profile", Some(&laptop)).await.body["errors"]["session"], "revoked");
}

async fn a_native_session_token_is_swapped_for_a_fresh_one(app: &TestApp) {
    let handed_over = app.sign_in("demo@example.com").await;
    let r = app.exchange(&handed_over).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let fresh = r.body["token"].as_str().unwrap();
    assert_ne!(fresh, handed_over);
    assert_eq!(app.get("/api/profile", Some(fresh)).await.status, 200);
    assert_error_shape(&app.get("/api/profile", Some(&handed_over)).await, 401);
    assert_error_shape(&app.exchange(&handed_over).await, 401);
}

async fn registration_validates_and_creates_once(app: &TestApp) {
    let bad = app
        .post(
            "/api/auth/create",
            None,
            json!({"email": "nope", "first_name": "", "last_name": "X<script>", "phone": "0400", "birth_date": "2999-01-01"}),
        )
        .await;
    assert_error_shape(&bad, 422);
    for f in ["email", "first_name", "last_name", "phone", "birth_date"] {
        assert!(bad.body["errors"][f].is_string(), "{f}: {:?}", bad.body);
    }

    let ok = app
        .post("/api/auth/create", None, json!({"email": "New.Member@example.com", "first_name": "Nia", "last_name": "New", "phone": "+61 400 111 222", "birth_date": "1990-05-01", "redirect": "/profile"}))
        .await;
    assert_eq!(ok.status, 202, "{:?}", ok.body);
    let (link, url) = app.link_token_for("new.member@example.com").await;
    assert!(url.as_str().contains("redirect=%2Fprofile"));
    let s = app.exchange(&link).await;
    let p = app.get("/api/profile", s.body["token"].as_str()).await;
    assert_eq!((p.body["first_name"].as_str(), p.body["email"].as_str()), (Some("Nia"), Some("new.member@example.com")));

    // Again: the same answer, no second account, and the first keeps its name.
    let dup =
        app.post("/api/auth/create", None, json!({"email": "new.member@example.com", "first_name": "Nia", "last_name": "Again"})).await;
    assert_eq!((dup.status, &dup.body), (ok.status, &ok.body));
    let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM profiles WHERE email = 'new.member@example.com'")
        .fetch_one(&app.profile_db().await.pool)
        .await
        .unwrap()
        .get("n");
    assert_eq!(n, 1);
    assert_eq!(app.get("/api/profile", s.body["token"].as_str()).await.body["last_name"], "New");
}

async fn a_check_in_is_recorded_when_the_member_signs_in(app: &TestApp) {
    let r = app
        .post(
            "/api/auth",
            None,
            json!({"email": "demo@example.com", "redirect": "/home", "location": "melbourne-central", "mode": "visit"}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_error_shape(&app.post("/api/auth", None, json!({"email": "demo@example.com", "mode": "visit"})).await, 422);
    let db = app.auth_db().await;
    let count = |db: portal_common::db::Db| async move {
        sqlx::query("SELECT COUNT(*) AS n FROM sign_in_activity WHERE kind = 'visit' AND location = 'melbourne-central'")
            .fetch_one(&db.pool)
            .await
            .unwrap()
            .get::<i64, _>("n")
    };
    assert_eq!(count(db.clone()).await, 0, "nothing is recorded until the link is used");
    let (link, _) = app.link_token_for("demo@example.com").await;
    assert_eq!(app.exchange(&link).await.status, 200);
    assert_eq!(count(db.clone()).await, 1);

    app.post("/api/auth", None, json!({"email": "other@example.com", "mode": "event", "eventData": {"m": "spring-launch"}, "customFields": {"guests": 2, "terms": true}}))
        .await;
    let (link, _) = app.link_token_for("other@example.com").await;
    app.exchange(&link).await;
    let row = sqlx::query("SELECT event_data, custom_fields FROM sign_in_activity WHERE kind = 'event'").fetch_one(&db.pool).await.unwrap();
    assert!(row.get::<String, _>("event_data").contains("spring-launch"));
    assert!(row.get::<String, _>("custom_fields").contains("guests"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rotating_keys_rejects_no_valid_token() {
    let app = crate::helpers::spawn_app(Default::default()).await.unwrap();
    let before = app.sign_in("demo@example.com").await;
    let mut auth = AuthServiceClient::new(portal_common::grpc::channel(app.settings.services.auth.as_deref().unwrap()).unwrap());
    auth.rotate_signing_key(RotateSigningKeyRequest {}).await.unwrap();
    // Let the gateway's refresh guard pass (it refreshes keys at most once a second).
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let after = app.sign_in("demo@example.com").await;
    assert_ne!(header(&before)["kid"], header(&after)["kid"], "the new key signs");
    assert_eq!(app.get("/api/profile", Some(&before)).await.status, 200, "a token signed before the rotation still works");
    assert_eq!(app.get("/api/profile", Some(&after)).await.status, 200);
    assert!(payload(&after)["jti"].is_string());
    app.stop().await;
}

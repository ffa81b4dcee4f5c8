//! POST /api/auth/searchById, /api/auth/impersonate/{profileId} and GET /api/profile/access-log.
use crate::helpers::{assert_error_shape, payload, TestApp};
use serde_json::json;

crate::both!(staff_view_a_member_read_only_and_the_member_sees_it, only_staff_search_and_impersonate);

async fn staff_view_a_member_read_only_and_the_member_sees_it(app: &TestApp) {
    let staff = app.sign_in("staff@example.com").await;
    assert_eq!(payload(&staff)["staff"], true);
    let found = app.post("/api/auth/searchById", Some(&staff), json!({"type": "email", "id": "other@example.com"})).await;
    assert_eq!(found.status, 200, "{:?}", found.body);
    let target = found.body["data"][0]["id"].as_str().unwrap().to_string();
    let by_qff = app.post("/api/auth/searchById", Some(&staff), json!({"type": "qff_number", "id": "1900654321"})).await;
    assert_eq!(by_qff.body["data"][0]["email"], "other@example.com");

    let staff_id = payload(&staff)["pid"].as_str().unwrap().to_string();
    let imp = app
        .post(
            &format!("/api/auth/impersonate/{target}"),
            Some(&staff),
            json!({"staffId": staff_id, "reason": "Customer called about an order"}),
        )
        .await;
    assert_eq!(imp.status, 200, "{:?}", imp.body);
    assert_eq!(imp.body["impersonatedProfile"]["first_name"], "Oliver");
    let t = imp.body["token"].as_str().unwrap().to_string();
    let p = payload(&t);
    assert_eq!(p["pid"], target.as_str());
    assert_eq!(p["act"]["sub"], staff_id.as_str());
    let life = p["exp"].as_i64().unwrap() - portal_common::now_unix();
    assert!(life <= 3600 && life > 3500, "lives {life}s");

    // Reads work, as the member.
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["email"], "other@example.com");
    // Every write is refused with a clear message, on real and pending routes alike.
    for (method, path) in
        [("PUT", "/api/profile"), ("PUT", "/api/profile/attributes/comms"), ("POST", "/api/connections"), ("POST", "/api/qff/link")]
    {
        let r = app.call(method, path, Some(&t), Some(json!({}))).await;
        assert_error_shape(&r, 403);
        assert_eq!(r.body["message"], portal_common::identity::IMPERSONATION_READ_ONLY);
    }
    // It cannot be extended or used to impersonate further.
    assert_error_shape(&app.exchange(&t).await, 403);
    assert!(app.post(&format!("/api/auth/impersonate/{target}"), Some(&t), json!({})).await.status == 403);

    // The member sees who looked, and why.
    let member = app.sign_in("other@example.com").await;
    let log = app.get("/api/profile/access-log", Some(&member)).await;
    assert_eq!(log.body["data"][0]["action"], "start");
    assert_eq!(log.body["data"][0]["staff_name"], "Sam Staff");
    assert_eq!(log.body["data"][0]["reason"], "Customer called about an order");

    // Stopping ends the token and is recorded.
    assert_eq!(app.call("POST", "/api/auth/logout", Some(&t), None).await.status, 204);
    assert_error_shape(&app.get("/api/profile", Some(&t)).await, 401);
    let log = app.get("/api/profile/access-log", Some(&member)).await;
    assert_eq!(log.body["data"][0]["action"], "stop");
    // Another member's list is unaffected.
    let demo = app.sign_in("demo@example.com").await;
    assert_eq!(app.get("/api/profile/access-log", Some(&demo)).await.body["data"].as_array().unwrap().len(), 0);
}

async fn only_staff_search_and_impersonate(app: &TestApp) {
    let member = app.sign_in("demo@example.com").await;
    let staff = app.sign_in("staff@example.com").await;
    let other_id = "prf_0000000000000000000000d2";
    let search = json!({"type": "email", "id": "other@example.com"});
    assert_error_shape(&app.post("/api/auth/searchById", None, search.clone()).await, 401);
    assert_error_shape(&app.post("/api/auth/searchById", Some(&member), search.clone()).await, 403);
    assert_error_shape(&app.post(&format!("/api/auth/impersonate/{other_id}"), None, json!({})).await, 401);
    assert_error_shape(&app.post(&format!("/api/auth/impersonate/{other_id}"), Some(&member), json!({})).await, 403);

    // The staff id comes from the token: a different one in the body is refused, and recorded.
    let r = app.post(&format!("/api/auth/impersonate/{other_id}"), Some(&staff), json!({"staffId": "stf_someone_else"})).await;
    assert_error_shape(&r, 403);
    // Staff accounts cannot be impersonated; unknown members neither.
    let staff_id = payload(&staff)["pid"].as_str().unwrap().to_string();
    let r = app.post(&format!("/api/auth/impersonate/{staff_id}"), Some(&staff), json!({})).await;
    assert!(r.status == 403 || r.status == 404, "{}", r.status);
    assert!(r.body.get("token").is_none());
    assert_error_shape(&app.post("/api/auth/impersonate/prf_nobody", Some(&staff), json!({})).await, 404);
    assert_error_shape(&app.post("/api/auth/searchById", Some(&staff), json!({"type": "shoe_size", "id": "9"})).await, 422);

    let other = app.sign_in("other@example.com").await;
    let log = app.get("/api/profile/access-log", Some(&other)).await;
    assert_eq!(log.body["data"][0]["action"], "attempt");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_that_runs_out_is_shown_as_ended() {
    let app =
        crate::helpers::spawn_app(crate::helpers::Options { tweak: |s| s.impersonation_ttl_secs = 1, ..Default::default() }).await.unwrap();
    let staff = app.sign_in("staff@example.com").await;
    let member = app.sign_in("other@example.com").await;
    let target = app.get("/api/profile", Some(&member)).await.body["id"].as_str().unwrap().to_string();
    let imp = app.post(&format!("/api/auth/impersonate/{target}"), Some(&staff), json!({"reason": "Callback"})).await;
    assert_eq!(imp.status, 200);
    // Whether the view still runs at a given moment is `with_ended_views`' unit tests (a held
    // clock); here a one-second view is read once it has surely ended, however slow the runner.
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let log = app.get("/api/profile/access-log", Some(&member)).await.body;
    let actions: Vec<&str> = log["data"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["stop", "start"], "{log}");
    assert_eq!(log["data"][0]["reason"], "The viewing time ran out");
    assert_eq!(log["data"][0]["staff_name"], "Sam Staff");
    app.stop().await;
}

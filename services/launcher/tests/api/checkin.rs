//! One-tap check-ins and event sign-ups for a signed-in member (issue 24): recorded for the
//! caller at once, once per store per day and once per event; a staff view is refused (403),
//! no session is 401; the member's existing sign-up answers with their answers.
use crate::helpers::{assert_error_shape, payload, TestApp};
use serde_json::json;

crate::both!(a_signed_in_member_checks_in_and_signs_up_in_one_tap, staff_and_signed_out_callers_are_refused);

async fn a_signed_in_member_checks_in_and_signs_up_in_one_tap(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let r = app.post("/api/activity/visit", Some(&t), json!({"location": "melbourne-central"})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!((&r.body["kind"], &r.body["key"], &r.body["recorded"]), (&json!("visit"), &json!("melbourne-central"), &json!(true)));
    let again = app.post("/api/activity/visit", Some(&t), json!({"location": "melbourne-central"})).await;
    assert_eq!(again.body["recorded"], false, "one visit per store per local day");
    let r = app.post("/api/activity/visit", Some(&t), json!({"location": "nowhere"})).await;
    assert_error_shape(&r, 422);

    let none = app.get("/api/activity/event/spring-launch", Some(&t)).await;
    assert_eq!(none.status, 200, "{:?}", none.body);
    assert_eq!(none.body["signed_up"], false);
    let body = json!({"eventData": {"m": "spring-launch"}, "customFields": {"guests": "2", "terms": true}});
    let r = app.post("/api/activity/event", Some(&t), body.clone()).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["recorded"], true);
    let twice = app
        .post("/api/activity/event", Some(&t), json!({"eventData": {"m": "spring-launch"}, "customFields": {"guests": "1", "terms": true}}))
        .await;
    assert_eq!(twice.body["recorded"], false, "a second sign-up is not another");
    let mine = app.get("/api/activity/event/spring-launch", Some(&t)).await;
    assert_eq!(mine.body["signed_up"], true);
    assert_eq!(mine.body["custom_fields"], json!({"guests": "2", "terms": true}), "the first answers are kept");

    let export = app.get("/api/privacy/export", Some(&t)).await;
    let activity = export.body["sign_in_activity"].as_array().unwrap();
    assert_eq!(activity.iter().filter(|a| a["kind"] == "visit").count(), 1);
    assert_eq!(activity.iter().filter(|a| a["kind"] == "event").count(), 1);
    assert!(app.outbox().await.iter().all(|m| !m["text"].as_str().unwrap_or("").contains("spring")), "no email to confirm");
}

async fn staff_and_signed_out_callers_are_refused(app: &TestApp) {
    let member = app.sign_in("demo@example.com").await;
    let staff = app.sign_in("staff@example.com").await;
    let pid = TestApp::pid(&member);
    let r = app
        .post(
            &format!("/api/auth/impersonate/{pid}"),
            Some(&staff),
            json!({"staffId": payload(&staff)["pid"], "reason": "Customer called"}),
        )
        .await;
    let view = r.body["token"].as_str().unwrap().to_string();
    let visit = json!({"location": "melbourne-central"});
    assert_error_shape(&app.post("/api/activity/visit", Some(&view), visit.clone()).await, 403);
    assert_error_shape(&app.post("/api/activity/visit", Some(&staff), visit.clone()).await, 403);
    assert_error_shape(&app.post("/api/activity/visit", None, visit).await, 401);
    assert_error_shape(&app.get("/api/activity/event/spring-launch", None).await, 401);
    let export = app.get("/api/privacy/export", Some(&member)).await;
    assert!(export.body["sign_in_activity"].as_array().unwrap().is_empty(), "nothing recorded");
}

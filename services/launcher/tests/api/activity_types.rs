//! The typed `eventData` and `customFields` of an event sign-up (issue 23): each kind of value
//! the browser sends (text, flag, number, none) goes through to the record and comes back in the
//! data export as the JSON it was kept as; a body of the wrong shape answers in the error shape.
use crate::helpers::{assert_error_shape, TestApp};
use serde_json::{json, Value};

crate::both!(every_kind_of_answer_reaches_the_export, a_wrong_shape_is_refused_in_the_error_shape);

fn sign_up(fields: Value) -> Value {
    json!({"email": "demo@example.com", "redirect": "/event/spring-launch", "mode": "event", "eventData": {"m": "spring-launch"}, "customFields": fields})
}

async fn every_kind_of_answer_reaches_the_export(app: &TestApp) {
    // A number for a select and for a text is checked (and kept) as its text; null is no answer.
    let fields = json!({"guests": 2, "dietary": 2.5, "birthday": null, "friend_email": " Friend@Example.com ", "terms": true});
    assert_eq!(app.post("/api/auth/email", None, sign_up(fields)).await.status, 200);
    let outbox = app.outbox().await;
    let code = outbox.iter().find(|m| m["to"] == "demo@example.com").map(|m| crate::helpers::six_digits(m["text"].as_str().unwrap()));
    let s = app.verify("demo@example.com", &code.unwrap()).await;
    assert_eq!(s.status, 200, "{:?}", s.body);
    assert_eq!(s.body["activity"]["key"], "spring-launch");
    // A check-in beside it: neither event data nor answers.
    let visit = json!({"email": "demo@example.com", "redirect": "/home", "location": "melbourne-central", "mode": "visit"});
    assert_eq!(app.post("/api/auth", None, visit).await.status, 200);
    let (link, _) = app.link_token_for("demo@example.com").await;
    let t = app.exchange(&link).await.body["token"].as_str().unwrap().to_string();

    let export = app.get("/api/privacy/export", Some(&t)).await;
    assert_eq!(export.status, 200);
    let activity = export.body["sign_in_activity"].as_array().unwrap();
    let event = activity.iter().find(|a| a["kind"] == "event").expect("the sign-up");
    assert_eq!(event["event_data"], json!({"m": "spring-launch"}));
    assert_eq!(event["custom_fields"], json!({"guests": "2", "dietary": "2.5", "friend_email": "friend@example.com", "terms": true}));
    let visit = activity.iter().find(|a| a["kind"] == "visit").expect("the check-in");
    assert_eq!(
        (&visit["location"], &visit["event_data"], &visit["custom_fields"]),
        (&json!("melbourne-central"), &Value::Null, &Value::Null)
    );
}

async fn a_wrong_shape_is_refused_in_the_error_shape(app: &TestApp) {
    for body in [
        json!({"email": "demo@example.com", "mode": "event", "eventData": {"m": "spring-launch"}, "customFields": "x"}),
        json!({"email": "demo@example.com", "mode": "event", "eventData": 5, "customFields": {"guests": "2", "terms": true}}),
        json!({"email": "demo@example.com", "mode": "event", "eventData": {"m": "spring-launch"}, "customFields": {"guests": ["2"]}}),
    ] {
        for path in ["/api/auth", "/api/auth/email"] {
            let r = app.post(path, None, body.clone()).await;
            assert_error_shape(&r, 400);
            assert!(r.body["errors"]["body"].is_string(), "{path} {body}: {:?}", r.body);
        }
    }
    // Well-formed but not an answer the event takes: still the field's problem, as before.
    let r = app.post("/api/auth", None, json!({"email": "demo@example.com", "mode": "event", "eventData": {}})).await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["errors"]["eventData.m"], "Say which event");
    let r = app.post("/api/auth", None, sign_up(json!({"guests": "2", "terms": "yes", "dietary": false}))).await;
    assert_error_shape(&r, 422);
    assert_eq!(
        (r.body["errors"]["customFields.terms"].as_str(), r.body["errors"]["customFields.dietary"].as_str()),
        (Some("Must be true or false"), Some("Must be text"))
    );
    assert!(app.outbox().await.iter().all(|m| m["to"] != "demo@example.com"), "nothing was sent");
}

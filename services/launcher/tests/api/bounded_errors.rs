//! Issue 22, finding 8: too many fields can't break the error path. A body with more keys and
//! items than any call needs, or nested too deep, is refused at the gateway (413) before any
//! service is called; a service lists at most 50 field errors, saying how many there were; and
//! whatever happens on the way, the member gets the spec's error shape, never a 429 or a 500 for
//! a transport failure and never the transport's own words.
use crate::helpers::{assert_error_shape, Reply, TestApp};
use serde_json::{json, Map, Value};

crate::both!(too_many_fields_are_refused_at_the_gateway, field_errors_are_bounded);

async fn put(app: &TestApp, path: &str, t: &str, body: Value) -> Reply {
    app.call("PUT", path, Some(t), Some(body)).await
}

fn unknown_keys(n: usize) -> Value {
    Value::Object((0..n).map(|i| (format!("unknown_channel_{i:04}"), json!(true))).collect::<Map<_, _>>())
}

/// No transport words (`h2 protocol error: http2 error`) and no status a client would read as
/// its own doing (429).
fn no_internal_text(r: &Reply) {
    let text = r.body.to_string().to_lowercase();
    assert!(!text.contains("h2") && !text.contains("http2") && !text.contains("protocol") && !text.contains("transport"), "{text}");
    assert_ne!(r.status, 429);
}

async fn too_many_fields_are_refused_at_the_gateway(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let before = app.get("/api/profile", Some(&t)).await.body;
    // The attacks as reported: 500 and 2,000 unknown messaging keys, 1,000 identities.
    for n in [500, 2000] {
        let r = put(app, "/api/profile/attributes/comms", &t, unknown_keys(n)).await;
        assert_error_shape(&r, 413);
        assert_eq!(r.body["errors"]["body"], "At most 256 keys and items in all, nested at most 16 deep", "{n} keys");
        no_internal_text(&r);
    }
    let ids: Vec<Value> = (0..1000).map(|i| json!({"handle": "loyalty_card", "identifier": format!("LC{i:04}")})).collect();
    let r = put(app, "/api/profile", &t, json!({"identities": ids})).await;
    assert_error_shape(&r, 413);
    no_internal_text(&r);
    // Nested deeper than any call's body.
    let mut deep = json!("x");
    for _ in 0..40 {
        deep = json!({ "a": deep });
    }
    let r = put(app, "/api/profile", &t, deep).await;
    assert_error_shape(&r, 413);
    // Nothing was written, and an ordinary update still goes through.
    assert_eq!(app.get("/api/profile", Some(&t)).await.body, before);
    let r = put(app, "/api/profile/attributes/comms", &t, json!({"sms": true})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
}

async fn field_errors_are_bounded(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    // Within the gateway's limit, but 200 unknown keys: the service lists the first 50 and says
    // how many there were, in the error shape.
    let r = put(app, "/api/profile/attributes/comms", &t, unknown_keys(200)).await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["message"], "Please check the highlighted fields (200 problems: the first 50 are listed)");
    let errors = r.body["errors"].as_object().unwrap();
    assert_eq!(errors.len(), 50);
    assert!(errors.values().all(|m| m == "Unknown messaging preference"));
    no_internal_text(&r);
    // A key as long as the body allows comes back cut, not as a header the connection can't carry.
    let long: Map<String, Value> = [("k".repeat(100_000), json!(true))].into_iter().collect();
    let r = put(app, "/api/profile/attributes/comms", &t, Value::Object(long)).await;
    assert_error_shape(&r, 422);
    let (key, _) = r.body["errors"].as_object().unwrap().iter().next().unwrap();
    assert_eq!(key.chars().count(), 101, "100 characters and an ellipsis");
    no_internal_text(&r);
}

//! The contract, exact: every rejection of a request's shape (a body that is not JSON, or not
//! of the call's shape, or sent without a JSON content type) is answered in the spec's error shape,
//! never in axum's plain text; and the OpenAPI document lists, for every operation, every status
//! the gateway itself can answer. `tools/contract.sh` fuzzes the rest with schemathesis.
use crate::helpers::{assert_error_shape, spawn_app, Reply, TestApp};
use serde_json::Value;

/// Sends `body` as it is, with `content_type` (or none).
async fn raw(app: &TestApp, method: &str, path: &str, token: &str, content_type: Option<&str>, body: &'static str) -> Reply {
    let mut rb =
        app.http.request(method.parse().unwrap(), app.url(path)).bearer_auth(token).header("idempotency-key", "contract-test").body(body);
    if let Some(ct) = content_type {
        rb = rb.header("content-type", ct);
    }
    let res = rb.send().await.expect("request sent");
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{method} {path}: not JSON: {text:?}"));
    Reply { status, body }
}

/// Member write routes that read a JSON body, with a path that exists for them.
const WRITES: &[(&str, &str)] = &[
    ("PUT", "/api/profile"),
    ("PUT", "/api/profile/attributes/custom/locale:language"),
    ("PUT", "/api/profile/attributes/comms"),
    ("POST", "/api/profile/claims"),
    ("POST", "/api/profile/transactions/items/x/list-item"),
    ("POST", "/api/profile/rewards/redeem"),
    ("POST", "/api/connections"),
    ("PUT", "/api/connections/x"),
    ("POST", "/api/connections/x/lists"),
    ("POST", "/api/connections/x/lists/y/items"),
    ("POST", "/api/qff/validate"),
    ("POST", "/api/qff/link"),
    ("DELETE", "/api/qff/link"),
    ("POST", "/api/qff/redeem"),
];

#[tokio::test]
async fn bodies_of_the_wrong_shape_are_refused_in_the_error_shape() {
    let app = spawn_app(Default::default()).await.unwrap();
    let t = app.sign_in("demo@example.com").await;
    for (method, path) in WRITES {
        for (ct, body, what) in [
            (Some("application/json"), "{not json", "malformed JSON"),
            (Some("application/json"), "[1, 2]", "JSON of another shape"),
            (Some("application/json"), "", "an empty body"),
            (Some("text/plain"), "{}", "a body that is not declared JSON"),
            (None, "{}", "a body without a content type"),
        ] {
            let r = raw(&app, method, path, &t, ct, body).await;
            assert_eq!(r.status, 400, "{method} {path} with {what}: {:?}", r.body);
            assert_error_shape(&r, 400);
            assert!(r.body["errors"]["body"].as_str().is_some_and(|e| !e.is_empty()), "{method} {path} with {what}: {:?}", r.body);
        }
    }
    // A field of the wrong type is the body's shape too, not a field error from a service; the
    // message says which of the three it was.
    let r = raw(&app, "POST", "/api/qff/redeem", &t, Some("application/json"), r#"{"points": "two"}"#).await;
    assert_error_shape(&r, 400);
    assert!(r.body["errors"]["body"].as_str().is_some_and(|e| e.contains("points")), "{:?}", r.body);
    assert_eq!(r.body["message"], "The request body does not have the fields this call needs");
    let r = raw(&app, "PUT", "/api/profile", &t, None, "{}").await;
    assert_eq!(r.body["message"], "Send the request body as JSON, with Content-Type: application/json");
    let r = raw(&app, "PUT", "/api/profile", &t, Some("application/json"), "{").await;
    assert_eq!(r.body["message"], "The request body is not valid JSON for this call");
    // A whole number of points is one however it is written (JSON Schema's integer is a value);
    // a fraction is not.
    let r = raw(&app, "POST", "/api/qff/redeem", &t, Some("application/json"), r#"{"points": 1000.0}"#).await;
    assert_ne!(r.status, 400, "{:?}", r.body);
    let r = raw(&app, "POST", "/api/qff/redeem", &t, Some("application/json"), r#"{"points": 1000.5}"#).await;
    assert_error_shape(&r, 400);
    // The spec's messages for the wish-list steps survive a bad body.
    let r = raw(&app, "POST", "/api/connections/x/lists", &t, Some("application/json"), "{").await;
    assert_eq!(r.body["message"], "Error creating list");
    let r = raw(&app, "POST", "/api/connections/x/lists/y/items", &t, Some("application/json"), "{").await;
    assert_eq!(r.body["message"], "Error creating list Item");
    let r = raw(&app, "POST", "/api/profile/transactions/items/x/list-item", &t, Some("application/json"), "{").await;
    assert_eq!(r.body["message"], "Invalid Arguments");
    // Impersonation's body is optional, but one sent as JSON must parse.
    let staff = app.sign_in("staff@example.com").await;
    let r = raw(&app, "POST", "/api/auth/impersonate/prf_x", &staff, Some("application/json"), "{not json").await;
    assert_error_shape(&r, 400);
    assert!(r.body["errors"]["body"].is_string(), "{:?}", r.body);
    let r = raw(&app, "POST", "/api/auth/impersonate/prf_x", &staff, Some("application/json"), "null").await;
    assert_error_shape(&r, 404);
    app.stop().await;
}

#[tokio::test]
async fn the_document_lists_every_status_the_gateway_answers() {
    let app = spawn_app(Default::default()).await.unwrap();
    let doc = app.get("/api/openapi.json", None).await.body;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(responses) = op["responses"].as_object() else { continue };
            let label = format!("{method} {path}");
            // Every error answer has the error shape.
            for (status, r) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(r["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/ErrorBody", "{label} {status}");
                }
            }
            if responses.contains_key("501") {
                continue;
            }
            let params: Vec<&Value> = op["parameters"].as_array().map(|p| p.iter().collect()).unwrap_or_default();
            let has = |place: &str| params.iter().any(|p| p["in"] == place);
            let expect = |status: &str, why: &str| assert!(responses.contains_key(status), "{label} does not list {status} ({why})");
            if op["requestBody"].is_object() {
                expect("400", "a body that is not JSON");
            }
            if has("query") {
                expect("400", "a malformed query string");
            }
            if has("path") {
                expect("404", "a path that names nothing");
            }
            if op["security"].as_array().is_some_and(|s| !s.is_empty()) {
                expect("401", "no session");
                if method != "get" {
                    expect("403", "staff viewing a member's account");
                }
            }
            // Answered by the gateway alone: the network probe; the tabs' releases (a KV store
            // that is down means the stable releases, never a 503).
            if !["/api/network/available", "/mfe-manifest.json"].contains(&path.as_str()) {
                expect("503", "a service that is down");
            }
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} operations checked");
    app.stop().await;
}

//! Every spec route is in the OpenAPI document and implemented (none is documented as 501), and
//! unknown paths, wrong methods and malformed parameters are answered in the error shape.
use crate::helpers::{assert_error_shape, spawn_app};

/// Section 7 of the spec, every route.
const SPEC_ROUTES: &[(&str, &str)] = &[
    ("get", "/api/config/age"),
    ("get", "/api/config"),
    ("get", "/api/countries/age"),
    ("get", "/api/countries"),
    ("get", "/api/geolocation/age"),
    ("get", "/api/geolocation"),
    ("get", "/api/geolocation/me"),
    ("get", "/api/network/available"),
    ("get", "/api/benefits/definitions/{id}"),
    ("post", "/api/auth"),
    ("post", "/api/auth/availability"),
    ("post", "/api/auth/magicLink"),
    ("post", "/api/auth/email"),
    ("post", "/api/auth/sms"),
    ("post", "/api/auth/create"),
    ("post", "/api/auth/searchById"),
    ("post", "/api/auth/impersonate/{profileId}"),
    ("get", "/api/profile"),
    ("get", "/api/profile/balances"),
    ("get", "/api/profile/transactions"),
    ("get", "/api/profile/tiers"),
    ("get", "/api/profile/points"),
    ("get", "/api/profile/benefits"),
    ("get", "/api/profile/rewards"),
    ("get", "/api/connections"),
    ("post", "/api/auth/exchange"),
    ("post", "/api/auth/verify"),
    ("post", "/api/auth/logout"),
    ("get", "/api/profile/access-log"),
    ("put", "/api/profile"),
    ("put", "/api/profile/attributes/custom/{key}"),
    ("put", "/api/profile/attributes/comms"),
    ("post", "/api/connections"),
    ("get", "/api/connections/{id}"),
    ("put", "/api/connections/{id}"),
    ("delete", "/api/connections/{id}"),
    ("get", "/api/connections/{id}/lists"),
    ("post", "/api/connections/{id}/lists"),
    ("post", "/api/connections/{id}/lists/{listId}/items"),
    ("post", "/api/profile/transactions/items/{id}/list-item"),
    ("post", "/api/qff/validate"),
    ("post", "/api/qff/link"),
    ("get", "/api/qff/points"),
    ("get", "/api/qff/history"),
    ("post", "/api/qff/redeem"),
];

#[tokio::test]
async fn every_spec_route_is_documented_and_implemented() {
    let app = spawn_app(Default::default()).await.unwrap();
    let doc = app.get("/api/openapi.json", None).await;
    assert_eq!(doc.status, 200);
    for (method, path) in SPEC_ROUTES {
        assert!(doc.body["paths"][path][method].is_object(), "{method} {path} missing from OpenAPI");
    }
    for (path, item) in doc.body["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(op["responses"].get("501").is_none(), "{method} {path} is documented as not implemented");
        }
    }
    // Unknown API paths and wrong methods keep the shape too.
    assert_error_shape(&app.get("/api/nowhere", None).await, 404);
    assert_error_shape(&app.call("DELETE", "/api/config", None, None).await, 405);
    // A malformed query string or path parameter is answered in the shape too, never in plain text.
    let t = app.sign_in("demo@example.com").await;
    for path in [
        "/api/connections?page[size]=abc",
        "/api/profile/transactions?page=abc",
        "/api/qff/history?per_page=-1",
        "/api/profile/points?page=x",
    ] {
        let r = app.get(path, Some(&t)).await;
        assert_error_shape(&r, 400);
        assert!(r.body["errors"]["query"].is_string(), "{path}: {:?}", r.body);
    }
    assert_error_shape(&app.get("/api/profile/rewards/not-a-number", Some(&t)).await, 404);
    app.stop().await;
}

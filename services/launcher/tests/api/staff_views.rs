//! Staff views of a member's account (impersonation) and staff sessions on member routes (issue
//! 22, findings 6 and 7): a view lives only as long as the staff user's own session, the member
//! sees it and can end it, deleting the account ends it; a staff user's own session is refused on
//! every member route before any service is called.
use crate::helpers::{assert_error_shape, payload, six_digits, TestApp};
use serde_json::{json, Value};
use sqlx::Row;

crate::both!(
    a_view_ends_with_the_staff_session_that_opened_it,
    the_member_sees_a_view_and_ends_it,
    deleting_the_account_ends_every_view,
    a_staff_session_is_refused_on_every_member_route,
);

/// Staff signs in and opens a view of `member`'s account: (staff token, view token).
async fn open_view(app: &TestApp, member: &str) -> (String, String) {
    let staff = app.sign_in("staff@example.com").await;
    let pid = TestApp::pid(member);
    let r = app
        .post(
            &format!("/api/auth/impersonate/{pid}"),
            Some(&staff),
            json!({"staffId": payload(&staff)["pid"], "reason": "Customer called"}),
        )
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let view = r.body["token"].as_str().unwrap().to_string();
    assert_eq!(app.get("/api/profile", Some(&view)).await.status, 200);
    (staff, view)
}

async fn views(app: &TestApp, member: &str) -> Vec<Value> {
    let r = app.get("/api/privacy/sessions", Some(member)).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    r.body["staff_views"].as_array().unwrap().clone()
}

/// The attack: after the staff user signed out, their view still read the member for an hour.
async fn a_view_ends_with_the_staff_session_that_opened_it(app: &TestApp) {
    let member = app.sign_in("demo@example.com").await;
    let (staff, view) = open_view(app, &member).await;
    assert_eq!(payload(&view)["act"]["sid"], payload(&staff)["jti"], "the view names the staff session");
    assert_eq!(app.call("POST", "/api/auth/logout", Some(&staff), None).await.status, 204);
    let r = app.get("/api/profile", Some(&view)).await;
    assert_error_shape(&r, 401);
    assert!(views(app, &member).await.is_empty());
    let log = app.get("/api/profile/access-log", Some(&member)).await.body;
    assert_eq!(log["data"][0]["action"], "stop");
    assert_eq!(log["data"][0]["reason"], "The staff member signed out");
    // A staff session that simply ran out ends its views too (the view's own token has time left).
    let (staff, view) = open_view(app, &member).await;
    sqlx::query("UPDATE sessions SET expires_at = $2 WHERE id = $1")
        .bind(payload(&staff)["jti"].as_str().unwrap())
        .bind(portal_common::now_unix() - 1)
        .execute(&app.auth_db().await.pool)
        .await
        .unwrap();
    app.kv().await.scoped("auth").del(&portal_token::live_key(payload(&staff)["jti"].as_str().unwrap())).await.unwrap();
    assert_error_shape(&app.get("/api/profile", Some(&view)).await, 401);
}

async fn the_member_sees_a_view_and_ends_it(app: &TestApp) {
    let member = app.sign_in("other@example.com").await;
    let (staff, view) = open_view(app, &member).await;
    let listed = views(app, &member).await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["staff_name"], "Sam Staff");
    assert_eq!(listed[0]["id"], payload(&view)["jti"]);
    // It is not one of the member's own devices (signing out "the others" leaves it be).
    let own = app.get("/api/privacy/sessions", Some(&member)).await.body["sessions"].as_array().unwrap().clone();
    assert!(own.iter().all(|s| s["id"] != payload(&view)["jti"]));
    let id = listed[0]["id"].as_str().unwrap();
    assert_eq!(app.call("DELETE", &format!("/api/privacy/sessions/{id}"), Some(&member), None).await.status, 204);
    assert_error_shape(&app.get("/api/profile", Some(&view)).await, 401);
    assert!(views(app, &member).await.is_empty());
    let log = app.get("/api/profile/access-log", Some(&member)).await.body;
    assert_eq!((log["data"][0]["action"].as_str(), log["data"][0]["reason"].as_str()), (Some("stop"), Some("You ended this view")));
    // The staff user is still signed in; another member can't end anyone's view.
    assert_eq!(app.post("/api/auth/searchById", Some(&staff), json!({"type": "email", "id": "other@example.com"})).await.status, 200);
    let (_, view2) = open_view(app, &member).await;
    let stranger = app.sign_in("demo@example.com").await;
    let id2 = payload(&view2)["jti"].as_str().unwrap().to_string();
    assert_error_shape(&app.call("DELETE", &format!("/api/privacy/sessions/{id2}"), Some(&stranger), None).await, 404);
    assert_eq!(app.get("/api/profile", Some(&view2)).await.status, 200);
}

/// The attack: a view was still accepted after the member deleted the account.
async fn deleting_the_account_ends_every_view(app: &TestApp) {
    let member = app.sign_in("other@example.com").await;
    let (_, view) = open_view(app, &member).await;
    assert_eq!(app.post("/api/privacy/delete/code", Some(&member), json!({})).await.status, 200);
    let m =
        app.outbox().await.into_iter().find(|m| m["to"] == "other@example.com" && m["subject"] == "Your account deletion code").unwrap();
    let r = app.post("/api/privacy/delete", Some(&member), json!({"code": six_digits(m["text"].as_str().unwrap())})).await;
    assert!(r.status < 300, "{:?}", r.body);
    let r = app.get("/api/profile", Some(&view)).await;
    assert_error_shape(&r, 401);
}

/// Finding 7: a staff user's own session got 500s on redeem and claims and a 201 on
/// `POST /api/connections` writing a row owned by the staff id. Walks the OpenAPI document: every
/// signed-in route but sign-out and the staff routes refuses it with 403, and nothing is written.
async fn a_staff_session_is_refused_on_every_member_route(app: &TestApp) {
    const NOT_MEMBER_ROUTES: &[(&str, &str)] =
        &[("post", "/api/auth/logout"), ("post", "/api/auth/searchById"), ("post", "/api/auth/impersonate/{profileId}")];
    let staff = app.sign_in("staff@example.com").await;
    let staff_id = payload(&staff)["pid"].as_str().unwrap().to_string();
    let doc = app.get("/api/openapi.json", None).await.body;
    let mut walked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let signed_in = op["security"].as_array().is_some_and(|s| !s.is_empty());
            if !signed_in || NOT_MEMBER_ROUTES.contains(&(method.as_str(), path.as_str())) {
                continue;
            }
            // Path parameters: values that parse for every route (numeric ids, `namespace:handle`).
            let url = path
                .split('/')
                .map(|seg| {
                    if seg.starts_with('{') {
                        if seg == "{key}" {
                            "locale:language"
                        } else {
                            "1"
                        }
                    } else {
                        seg
                    }
                })
                .collect::<Vec<_>>()
                .join("/");
            let body = (method != "get").then(|| json!({"points": 1000, "store": "melbourne-central", "email": "x@example.com"}));
            let mut req = app
                .http
                .request(method.to_uppercase().parse().unwrap(), app.url(&url))
                .bearer_auth(&staff)
                .header("Idempotency-Key", "staff-walk-1");
            if let Some(b) = &body {
                req = req.json(b);
            }
            let res = req.send().await.unwrap();
            let status = res.status().as_u16();
            let text = res.text().await.unwrap();
            let r = crate::helpers::Reply { status, body: serde_json::from_str(&text).unwrap_or(Value::String(text)) };
            assert_eq!(r.status, 403, "{} {url}: {:?}", method.to_uppercase(), r.body);
            assert_error_shape(&r, 403);
            walked += 1;
        }
    }
    assert!(walked > 40, "the walk covered {walked} routes only");
    // Nothing was written under the staff id, anywhere.
    let n = |pool: sqlx::Pool<sqlx::Any>, q: String| async move { sqlx::query(&q).fetch_one(&pool).await.unwrap().get::<i64, _>("n") };
    let conns = app.connections_db().await.pool.clone();
    assert_eq!(n(conns, format!("SELECT COUNT(*) AS n FROM connections WHERE profile_id = '{staff_id}'")).await, 0);
    let profile = app.profile_db().await.pool.clone();
    assert_eq!(n(profile.clone(), format!("SELECT COUNT(*) AS n FROM claims WHERE profile_id = '{staff_id}'")).await, 0);
    // Sign-out still works for staff.
    assert_eq!(app.call("POST", "/api/auth/logout", Some(&staff), None).await.status, 204);
}

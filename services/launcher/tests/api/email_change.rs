//! POST /api/profile/email, /api/profile/email/verify and /api/auth/email-change/undo (issue 22,
//! finding 1): the sign-in address is the key to the account, so it changes only after a code sent
//! to the new address, with a recent sign-in; the old address is told and can undo it.
use crate::helpers::{assert_error_shape, payload, six_digits, TestApp};
use serde_json::{json, Value};

crate::both!(
    a_put_cannot_take_the_account_over,
    undeliverable_and_staff_addresses_are_refused,
    a_change_is_confirmed_by_the_new_address_and_ends_the_other_sessions,
    the_old_address_can_undo_a_change_and_lock_the_account,
    nobody_else_can_change_the_address,
);

/// The newest message to `to` with `subject`.
async fn mail(app: &TestApp, to: &str, subject: &str) -> Option<Value> {
    app.outbox().await.into_iter().find(|m| m["to"] == to && m["subject"] == subject)
}

async fn email_of(app: &TestApp, t: &str) -> String {
    app.get("/api/profile", Some(t)).await.body["email"].as_str().unwrap().to_string()
}

/// The attack: one PUT with any session token moved the account to the attacker's address.
async fn a_put_cannot_take_the_account_over(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    for attempt in ["attacker@evil.example", "STAFF@example.com", "0@0.0"] {
        let r = app.call("PUT", "/api/profile", Some(&t), Some(json!({"email": attempt, "first_name": "Mallory"}))).await;
        assert_error_shape(&r, 422);
        assert!(r.body["errors"]["email"].is_string(), "{:?}", r.body);
    }
    assert_eq!(email_of(app, &t).await, "demo@example.com");
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["first_name"], "Dana", "nothing was written");
    // The attacker's address signs in to nothing.
    assert_eq!(app.request_link("attacker@evil.example", "/home").await.status, 200);
    assert!(app.outbox().await.iter().all(|m| m["to"] != "attacker@evil.example"));
    // The address sent unchanged (a form that sends every field) is fine.
    let r = app.call("PUT", "/api/profile", Some(&t), Some(json!({"email": " Demo@Example.com ", "first_name": "Dana"}))).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
}

async fn undeliverable_and_staff_addresses_are_refused(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    for bad in ["0@0.0", "dana@localhost", "dana@[127.0.0.1]", "dana@example"] {
        let r = app.post("/api/profile/email", Some(&t), json!({"email": bad})).await;
        assert_error_shape(&r, 422);
        assert!(r.body["errors"]["email"].is_string(), "{bad}: {:?}", r.body);
    }
    // A staff address, in any case, and another member's: the same answer as a free one, and no code.
    let free = app.post("/api/profile/email", Some(&t), json!({"email": "dana.free@example.com"})).await;
    assert_eq!(free.status, 202, "{:?}", free.body);
    for taken in ["STAFF@Example.COM", "other@example.com"] {
        let r = app.post("/api/profile/email", Some(&t), json!({"email": taken})).await;
        assert_eq!(r.status, 202, "{:?}", r.body);
        let same_shape = |b: &Value| b["message"].as_str().unwrap().replacen(b["email"].as_str().unwrap(), "…", 1);
        assert_eq!(same_shape(&r.body), same_shape(&free.body));
    }
    assert!(mail(app, "staff@example.com", "Confirm your new email address").await.is_none());
    assert!(mail(app, "other@example.com", "Confirm your new email address").await.is_none());
    // The member there is told someone tried; the staff mailbox gets nothing.
    assert!(mail(app, "other@example.com", "Someone tried to use your email address").await.is_some());
    assert!(app.outbox().await.iter().all(|m| m["to"] != "staff@example.com"));
    // Asking about taken addresses left the free address's code as it was.
    let code = six_digits(mail(app, "dana.free@example.com", "Confirm your new email address").await.unwrap()["text"].as_str().unwrap());
    let r = app.post("/api/profile/email/verify", Some(&t), json!({"code": code})).await;
    assert_eq!(r.status, 200, "the code for the free address still works: {:?}", r.body);
    assert_eq!(email_of(app, &t).await, "dana.free@example.com");
    // Staff can still view the member (their address is not a staff one).
    let staff = app.sign_in("staff@example.com").await;
    let pid = TestApp::pid(&t);
    assert_eq!(app.post(&format!("/api/auth/impersonate/{pid}"), Some(&staff), json!({"reason": "check"})).await.status, 200);
}

async fn a_change_is_confirmed_by_the_new_address_and_ends_the_other_sessions(app: &TestApp) {
    let here = app.sign_in("demo@example.com").await;
    let elsewhere = app.sign_in("demo@example.com").await;
    let r = app.post("/api/profile/email", Some(&here), json!({"email": " Dana.New@Example.com "})).await;
    assert_eq!(r.status, 202, "{:?}", r.body);
    assert_eq!(r.body["email"], "d***@example.com");
    // Nothing changes until the code is confirmed.
    assert_eq!(email_of(app, &here).await, "demo@example.com");
    let sent = mail(app, "dana.new@example.com", "Confirm your new email address").await.expect("a code to the new address");
    let code = six_digits(sent["text"].as_str().unwrap());
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let r = app.post("/api/profile/email/verify", Some(&here), json!({"code": wrong})).await;
    assert_error_shape(&r, 422);
    assert!(r.body["errors"]["code"].is_string());
    // Another session of the member can't use it either: the code is for whoever holds the mailbox
    // and a recent sign-in; here it works from any of the member's sessions, once.
    let r = app.post("/api/profile/email/verify", Some(&here), json!({"code": code})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["email"], "dana.new@example.com");
    assert_eq!(r.body["signed_out"], 1);
    assert_error_shape(&app.post("/api/profile/email/verify", Some(&here), json!({"code": code})).await, 422);
    // The other device is signed out; this one carries on, with the new address everywhere.
    assert_error_shape(&app.get("/api/profile", Some(&elsewhere)).await, 401);
    let p = app.get("/api/profile", Some(&here)).await.body;
    assert_eq!(p["email"], "dana.new@example.com");
    assert!(p["identities"].as_array().unwrap().iter().any(|i| i["handle"] == "email" && i["identifier"] == "dana.new@example.com"));
    // The old address is told, with a way back; it no longer signs in.
    let notice = mail(app, "demo@example.com", "Your sign-in email address was changed").await.expect("a notice to the old address");
    assert!(notice["link"].as_str().unwrap().contains("/email-change/undo?key="));
    let before = app.outbox().await.len();
    assert_eq!(app.request_link("demo@example.com", "/home").await.status, 200);
    assert_eq!(app.outbox().await.len(), before, "no sign-in link for the old address");
    let t2 = app.sign_in("dana.new@example.com").await;
    assert_eq!(TestApp::pid(&t2), TestApp::pid(&here));
    // The change is part of what the member can download.
    let export = app.get("/api/privacy/export", Some(&t2)).await.body;
    assert_eq!(export["email_changes"][0]["old_email"], "demo@example.com");
    assert_eq!(export["email_changes"][0]["new_email"], "dana.new@example.com");
    assert!(export["email_changes"][0]["undone_at"].is_null());
}

async fn the_old_address_can_undo_a_change_and_lock_the_account(app: &TestApp) {
    // The attacker has a fresh session (say, a stolen device signed in just now).
    let attacker = app.sign_in("other@example.com").await;
    assert_eq!(app.post("/api/profile/email", Some(&attacker), json!({"email": "mallory@evil.example"})).await.status, 202);
    let code = six_digits(mail(app, "mallory@evil.example", "Confirm your new email address").await.unwrap()["text"].as_str().unwrap());
    assert_eq!(app.post("/api/profile/email/verify", Some(&attacker), json!({"code": code})).await.status, 200);
    // The owner follows the link in the notice.
    let notice = mail(app, "other@example.com", "Your sign-in email address was changed").await.unwrap();
    let key = url::Url::parse(notice["link"].as_str().unwrap()).unwrap().query_pairs().find(|(k, _)| k == "key").unwrap().1.to_string();
    let r = app.post("/api/auth/email-change/undo", None, json!({"key": key})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert!(r.body["message"].as_str().unwrap().contains("o***@example.com"));
    // The attacker is out, the address is the owner's again, and it can't be changed for a while.
    assert_error_shape(&app.get("/api/profile", Some(&attacker)).await, 401);
    let owner = app.sign_in("other@example.com").await;
    assert_eq!(email_of(app, &owner).await, "other@example.com");
    let r = app.post("/api/profile/email", Some(&owner), json!({"email": "mallory2@evil.example"})).await;
    assert_error_shape(&r, 403);
    assert!(r.body["message"].as_str().unwrap().contains("can't be changed again"));
    // The link works once.
    assert_error_shape(&app.post("/api/auth/email-change/undo", None, json!({"key": key})).await, 401);
    assert_error_shape(&app.post("/api/auth/email-change/undo", None, json!({"key": "forged"})).await, 401);
}

async fn nobody_else_can_change_the_address(app: &TestApp) {
    let member = app.sign_in("demo@example.com").await;
    let pid = TestApp::pid(&member);
    let staff = app.sign_in("staff@example.com").await;
    let view =
        app.post(&format!("/api/auth/impersonate/{pid}"), Some(&staff), json!({"staffId": payload(&staff)["pid"], "reason": "help"})).await;
    let view = view.body["token"].as_str().unwrap().to_string();
    for t in [&view, &staff] {
        assert_error_shape(&app.post("/api/profile/email", Some(t), json!({"email": "x.new@example.com"})).await, 403);
        assert_error_shape(&app.post("/api/profile/email/verify", Some(t), json!({"code": "123456"})).await, 403);
    }
    assert_error_shape(&app.post("/api/profile/email", None, json!({"email": "x.new@example.com"})).await, 401);
    assert_eq!(email_of(app, &member).await, "demo@example.com");
}

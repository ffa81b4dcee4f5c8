//! The airline link and points conversion, through the gateway to the qff service, the ledger
//! and the partner sandbox (a real HTTP server), on both backends. Every conversion test ends
//! by checking the books: what was held = confirmed + pending + released, each hold settled at
//! most once, and the airline credited exactly for the completed conversions.
use crate::helpers::{assert_error_shape, Reply, TestApp};
use futures::future::join_all;
use portal_qff_sandbox::{Fault, FaultKind};
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::BTreeMap;

crate::both!(
    linking_is_checked_with_the_airline,
    a_conversion_happens_once_per_key,
    a_hundred_concurrent_conversions_with_one_key,
    a_hundred_concurrent_conversions_against_points_for_ten,
    a_timeout_stays_pending_until_the_reconciler_settles_it_once,
    a_refusal_gives_the_points_back,
    a_partner_that_is_down_is_left_alone_and_the_member_told,
    converting_needs_a_recent_sign_in_and_the_members_own_session,
    a_credit_that_could_not_be_sent_gives_the_points_back_at_once,
);

const DEMO_QFF: &str = "1900123456";
const OTHER_QFF: &str = "1900654321";

async fn balance(app: &TestApp, t: &str) -> i64 {
    app.get("/api/profile/balances", Some(t)).await.body["data"]["points"].as_i64().unwrap()
}

async fn linked_demo(app: &TestApp) -> String {
    let t = app.sign_in("demo@example.com").await;
    let r = app.post("/api/qff/link", Some(&t), json!({"qff_number": DEMO_QFF})).await;
    assert_eq!((r.status, &r.body["linked"]), (200, &json!(true)), "{:?}", r.body);
    t
}

async fn convert(app: &TestApp, t: &str, key: &str, points: i64) -> (Reply, bool) {
    let res = app
        .http
        .post(app.url("/api/qff/redeem"))
        .bearer_auth(t)
        .header("Idempotency-Key", key)
        .json(&json!({"points": points}))
        .send()
        .await
        .unwrap();
    let replayed = res.headers().get("idempotent-replayed").is_some();
    let status = res.status().as_u16();
    let body: Value = res.json().await.unwrap();
    (Reply { status, body }, replayed)
}

fn fault(op: &str, kind: FaultKind, count: u32) -> Fault {
    Fault { operation: Some(op.into()), kind, count, delay_ms: Some(3_000) }
}

/// The conversion ledger's books for a member, from SQL: (held, confirmed, pending, released).
/// Fails when a hold is settled twice, both ways, or released for another amount.
async fn books(app: &TestApp, pid: &str) -> (i64, i64, i64, i64) {
    let db = app.profile_db().await;
    let rows = sqlx::query(
        "SELECT h.reference, -h.points AS held,
           (SELECT COUNT(*) FROM loyalty_ledger c WHERE c.reference = h.reference || ':confirm' AND c.kind = 'confirm') AS confirms,
           (SELECT COUNT(*) FROM loyalty_ledger r WHERE r.reference = h.reference || ':release' AND r.kind = 'release') AS releases,
           (SELECT CAST(COALESCE(SUM(r.points), 0) AS BIGINT) FROM loyalty_ledger r WHERE r.reference = h.reference || ':release') AS released
         FROM loyalty_ledger h WHERE h.profile_id = $1 AND h.kind = 'hold'",
    )
    .bind(pid)
    .fetch_all(&db.pool)
    .await
    .unwrap();
    let (mut held, mut confirmed, mut pending, mut released) = (0, 0, 0, 0);
    for r in rows {
        let (reference, h, c, n, back): (String, i64, i64, i64, i64) =
            (r.get("reference"), r.get("held"), r.get("confirms"), r.get("releases"), r.get("released"));
        assert!(c + n <= 1, "{reference} settled {c} + {n} times");
        held += h;
        match (c, n) {
            (1, 0) => confirmed += h,
            (0, 1) => {
                assert_eq!(back, h, "{reference} released another amount");
                released += back
            }
            _ => pending += h,
        }
    }
    assert_eq!(held, confirmed + pending + released, "debits = confirmed + pending + released");
    (held, confirmed, pending, released)
}

/// The member's conversions by status, from the qff service's storage.
async fn statuses(app: &TestApp, pid: &str) -> BTreeMap<String, i64> {
    let db = app.qff_db().await;
    let rows = sqlx::query("SELECT status, COUNT(*) AS n FROM qff_conversions WHERE profile_id = $1 GROUP BY status")
        .bind(pid)
        .fetch_all(&db.pool)
        .await
        .unwrap();
    rows.iter().map(|r| (r.get::<String, _>("status"), r.get::<i64, _>("n"))).collect()
}

/// The books agree with the conversions and with the airline: every completed conversion was
/// credited once at the airline under its id, and nothing else was.
async fn books_agree(app: &TestApp, pid: &str) -> (i64, i64, i64, i64) {
    let b = books(app, pid).await;
    let db = app.qff_db().await;
    let rows = sqlx::query("SELECT id, status, points, airline_points FROM qff_conversions WHERE profile_id = $1")
        .bind(pid)
        .fetch_all(&db.pool)
        .await
        .unwrap();
    let credits: BTreeMap<String, i64> = app.sandbox().credits().into_iter().map(|c| (c.reference, c.points)).collect();
    let mut completed = 0;
    for r in rows {
        let (id, status, points, airline): (String, String, i64, i64) =
            (r.get("id"), r.get("status"), r.get("points"), r.get("airline_points"));
        match status.as_str() {
            "completed" => {
                assert_eq!(credits.get(&id), Some(&airline), "{id} completed and credited once");
                completed += points;
            }
            "failed" => assert!(!credits.contains_key(&id), "{id} failed but the airline has it"),
            _ => {}
        }
    }
    assert_eq!(completed, b.1, "completed conversions = confirmed holds");
    b
}

async fn linking_is_checked_with_the_airline(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let r = app.get("/api/qff/points", Some(&t)).await;
    assert_eq!(r.body, json!({"linked": false, "redemption": {"type": "points", "block_size": 1000, "airline_points_per_block": 500}}));
    assert_error_shape(&app.get("/api/qff/history", Some(&t)).await, 409);

    // The airline's refusals, in plain words, on the right field.
    let check = |n: &str, l: &str| json!({"qff_number": n, "last_name": l});
    let r = app.post("/api/qff/validate", Some(&t), check("12ab", "Demo")).await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["errors"]["qff_number"], "A Frequent Flyer number has 6 to 10 digits");
    let r = app.post("/api/qff/validate", Some(&t), check("1999999999", "Demo")).await;
    assert_eq!(r.body["errors"]["qff_number"], "We couldn't find a Frequent Flyer account with this number");
    let r = app.post("/api/qff/validate", Some(&t), check(DEMO_QFF, "Smith")).await;
    assert_eq!((r.status, &r.body["errors"]["last_name"]), (422, &json!("This last name doesn't match the Frequent Flyer account")));
    let r = app.post("/api/qff/validate", Some(&t), check("1900000002", "Closed")).await;
    assert_eq!(r.body["errors"]["qff_number"], "This Frequent Flyer account is closed");
    let r = app.post("/api/qff/validate", Some(&t), check(OTHER_QFF, "Other")).await;
    assert_error_shape(&r, 409);
    assert_eq!(r.body["errors"]["qff_number"], "This Frequent Flyer account is already linked to another member");
    // A slow airline still answers within the timeout.
    let r = app.post("/api/qff/validate", Some(&t), check("1900000003", "Slow")).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    // The member's own last name by default; spaces in the number are ignored.
    let r = app.post("/api/qff/validate", Some(&t), json!({"qff_number": "1900 123 456"})).await;
    assert_eq!(r.body["data"], json!({"qff_number": DEMO_QFF, "first_name": "Dana", "last_name": "Demo"}));
    assert_eq!(app.get("/api/qff/points", Some(&t)).await.body["linked"], false, "validating stores nothing");

    // Linking: on the profile as an identity and the qantas attributes.
    let r = app.post("/api/qff/link", Some(&t), json!({"qff_number": DEMO_QFF, "last_name": "demo"})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(
        (r.body["linked"].clone(), r.body["qff_number"].clone(), r.body["points"].clone()),
        (json!(true), json!(DEMO_QFF), json!(48_250))
    );
    let p = app.get("/api/profile", Some(&t)).await.body;
    let p = if p["data"].is_object() { p["data"].clone() } else { p };
    assert!(p["identities"].as_array().unwrap().iter().any(|i| i["handle"] == "qff_number" && i["identifier"] == DEMO_QFF), "{p}");
    assert_eq!(p["custom_attributes"]["qantas"]["qff_last_name"], "Demo");
    assert!(p["custom_attributes"]["qantas"]["qff_joined_at"].as_str().unwrap().ends_with('Z'));
    // Again: nothing changes; another number while linked: refused.
    assert_eq!(app.post("/api/qff/link", Some(&t), json!({"qff_number": DEMO_QFF})).await.status, 200);
    assert_error_shape(&app.post("/api/qff/link", Some(&t), json!({"qff_number": "1900000003", "last_name": "Slow"})).await, 409);
    // The frequent-flyer number can't be written directly any more.
    let r = app
        .call("PUT", "/api/profile", Some(&t), Some(json!({"identities": [{"handle": "qff_number", "identifier": "1900000003"}]})))
        .await;
    assert_error_shape(&r, 422);

    // Activity, newest first, from the airline.
    let h = app.get("/api/qff/history?per_page=2", Some(&t)).await;
    assert_eq!((h.status, h.body["data"].as_array().unwrap().len(), h.body["meta"]["total"].as_u64()), (200, 2, Some(3)));
    assert_eq!(h.body["data"][0]["description"], "Flight MEL–SYD");

    // Another member can't take the linked number.
    let o = app.sign_in("other@example.com").await;
    let r = app.post("/api/qff/link", Some(&o), json!({"qff_number": DEMO_QFF, "last_name": "Demo"})).await;
    assert_error_shape(&r, 409);

    // Unlinking needs a reason, and removes the identity and the attributes.
    assert_error_shape(&app.call("DELETE", "/api/qff/link", Some(&t), Some(json!({"reason": "bored"}))).await, 422);
    let r = app.call("DELETE", "/api/qff/link", Some(&t), Some(json!({"reason": "privacy", "comment": "Not now"}))).await;
    assert_eq!((r.status, &r.body["linked"]), (200, &json!(false)), "{:?}", r.body);
    let p = app.get("/api/profile", Some(&t)).await.body;
    let p = if p["data"].is_object() { p["data"].clone() } else { p };
    assert!(!p["identities"].as_array().unwrap().iter().any(|i| i["handle"] == "qff_number"));
    assert!(p["custom_attributes"]["qantas"].is_null() || p["custom_attributes"]["qantas"].as_object().unwrap().is_empty(), "{p}");
    let kept = sqlx::query("SELECT reason, comment FROM qff_unlinks").fetch_all(&app.qff_db().await.pool).await.unwrap();
    assert_eq!((kept[0].get::<String, _>("reason"), kept[0].get::<String, _>("comment")), ("privacy".into(), "Not now".into()));
    assert_error_shape(&app.call("DELETE", "/api/qff/link", Some(&t), Some(json!({"reason": "privacy"}))).await, 409);
    // The number is free again; the other member has their own linked already.
    let r = app.post("/api/qff/link", Some(&o), json!({"qff_number": DEMO_QFF, "last_name": "Demo"})).await;
    assert_eq!(r.body["message"], "Unlink your current Frequent Flyer account first");
}

async fn a_conversion_happens_once_per_key(app: &TestApp) {
    let t = linked_demo(app).await;
    let pid = TestApp::pid(&t);
    let before = balance(app, &t).await;
    let airline_before = app.sandbox().points(DEMO_QFF).unwrap();
    let (r, replayed) = convert(app, &t, "conv-1", 2000).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let d = &r.body["data"];
    assert_eq!(
        (d["status"].as_str(), d["points"].as_i64(), d["airline_points"].as_i64(), d["blocks"].as_i64()),
        (Some("completed"), Some(2000), Some(1000), Some(2))
    );
    assert_eq!(d["balance"].as_i64(), Some(before - 2000));
    assert!(!replayed);
    // The retry gets the first answer; nothing moves twice.
    let (again, replayed) = convert(app, &t, "conv-1", 2000).await;
    assert_eq!((again.status, replayed, &again.body["data"]["id"]), (200, true, &d["id"]));
    assert_eq!(balance(app, &t).await, before - 2000);
    assert_eq!(app.sandbox().points(DEMO_QFF).unwrap(), airline_before + 1000);
    // The same key with another body; bad blocks; no key.
    let (r, _) = convert(app, &t, "conv-1", 1000).await;
    assert_error_shape(&r, 422);
    assert!(r.body["errors"]["idempotency_key"].is_string());
    let (r, _) = convert(app, &t, "conv-2", 1500).await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["errors"]["points"], "Convert a whole number of blocks of 1,000 points");
    let no_key = app.post("/api/qff/redeem", Some(&t), json!({"points": 1000})).await;
    assert_error_shape(&no_key, 400);
    // More than the balance: refused, and the same key may be used again once it could succeed.
    let (r, _) = convert(app, &t, "conv-3", 5000).await;
    assert_error_shape(&r, 409);
    assert_eq!(r.body["message"], "You don't have enough points for this conversion");
    // The ledger shows the hold and its confirmation; the list shows the conversion.
    let entries = app.get("/api/profile/points?sort=-issued_at", Some(&t)).await.body["data"].clone();
    let kinds: Vec<&str> =
        entries.as_array().unwrap().iter().filter(|e| e["source"] == "conversion").map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["confirm", "hold"]);
    let list = app.get("/api/qff/conversions", Some(&t)).await.body;
    assert_eq!((list["data"].as_array().unwrap().len(), &list["data"][0]["status"]), (1, &json!("completed")));
    assert_eq!(books_agree(app, &pid).await, (2000, 2000, 0, 0));
}

async fn a_hundred_concurrent_conversions_with_one_key(app: &TestApp) {
    let t = linked_demo(app).await;
    let pid = TestApp::pid(&t);
    let before = balance(app, &t).await;
    let answers = join_all((0..100).map(|_| convert(app, &t, "same-key", 1000))).await;
    let ok: Vec<&Reply> = answers.iter().map(|(r, _)| r).filter(|r| r.status == 200).collect();
    assert!(!ok.is_empty());
    assert!(ok.iter().all(|r| r.body["data"]["id"] == ok[0].body["data"]["id"]), "one conversion");
    assert!(
        answers
            .iter()
            .all(|(r, _)| r.status == 200 || (r.status == 409 && r.body["message"] == "This conversion is still being processed")),
        "{:?}",
        answers.iter().map(|(r, _)| r.status).collect::<Vec<_>>()
    );
    assert_eq!(balance(app, &t).await, before - 1000, "exactly one debit");
    assert_eq!(app.sandbox().credits().len(), 1, "exactly one credit");
    assert_eq!(books_agree(app, &pid).await, (1000, 1000, 0, 0));
}

async fn a_hundred_concurrent_conversions_against_points_for_ten(app: &TestApp) {
    // The other member (linked in the demo data) gets exactly ten blocks.
    let t = app.sign_in("other@example.com").await;
    let pid = TestApp::pid(&t);
    let top_up = 10_000 - balance(app, &t).await;
    let req = portal_proto::profile::v1::AdjustPointsRequest {
        profile_id: pid.clone(),
        points: top_up,
        source: "staff".into(),
        reason: "Test top-up".into(),
        reference: "topup-10".into(),
    };
    app.loyalty().adjust_points(req).await.unwrap();
    assert_eq!(balance(app, &t).await, 10_000);
    let airline_before = app.sandbox().points(OTHER_QFF).unwrap();
    let answers = join_all((0..100).map(|i| {
        let t = t.clone();
        async move { convert(app, &t, &format!("race-{i}"), 1000).await.0 }
    }))
    .await;
    let done = answers.iter().filter(|r| r.status == 200).count();
    let refused =
        answers.iter().filter(|r| r.status == 409 && r.body["message"] == "You don't have enough points for this conversion").count();
    assert_eq!((done, refused), (10, 90), "{:?}", answers.iter().map(|r| r.status).collect::<Vec<_>>());
    assert_eq!(balance(app, &t).await, 0, "the balance is never below zero");
    assert_eq!(app.sandbox().points(OTHER_QFF).unwrap(), airline_before + 5_000);
    assert_eq!(books_agree(app, &pid).await, (10_000, 10_000, 0, 0));
    assert_eq!(statuses(app, &pid).await, [("completed".to_string(), 10)].into(), "refusals that changed nothing leave no conversion");
}

async fn a_timeout_stays_pending_until_the_reconciler_settles_it_once(app: &TestApp) {
    let t = linked_demo(app).await;
    let pid = TestApp::pid(&t);
    let before = balance(app, &t).await;
    let airline_before = app.sandbox().points(DEMO_QFF).unwrap();

    // The airline credits but answers too late: pending, points held.
    app.sandbox().add_fault(fault("credit", FaultKind::TimeoutAfterCredit, 1));
    let (r, _) = convert(app, &t, "late-1", 1000).await;
    assert_eq!((r.status, r.body["data"]["status"].as_str()), (202, Some("pending")), "{:?}", r.body);
    assert!(r.body["data"]["message"].as_str().unwrap().contains("held"));
    assert_eq!(balance(app, &t).await, before - 1000, "held points are out of the balance");
    // It never answered: nothing reached it.
    app.sandbox().add_fault(fault("credit", FaultKind::Timeout, 1));
    let (r, _) = convert(app, &t, "lost-1", 1000).await;
    assert_eq!(r.status, 202, "{:?}", r.body);
    assert_eq!(balance(app, &t).await, before - 2000);
    let (_, c, p, _) = books_agree(app, &pid).await;
    assert_eq!((c, p), (0, 2000));
    // A retry meanwhile gets the pending answer again.
    let (again, replayed) = convert(app, &t, "late-1", 1000).await;
    assert_eq!((again.status, replayed), (202, true));

    // Two reconcilers at once: each conversion is settled once.
    let (mut q1, mut q2) = (app.qff(), app.qff());
    let (a, b) =
        tokio::join!(q1.reconcile(portal_proto::qff::v1::ReconcileRequest {}), q2.reconcile(portal_proto::qff::v1::ReconcileRequest {}));
    let (a, b) = (a.unwrap().into_inner(), b.unwrap().into_inner());
    assert_eq!((a.completed + b.completed, a.failed + b.failed), (1, 1), "{a:?} {b:?}");
    let again = app.qff().reconcile(portal_proto::qff::v1::ReconcileRequest {}).await.unwrap().into_inner();
    assert_eq!((again.completed, again.failed, again.pending), (0, 0, 0), "nothing left to settle");

    assert_eq!(balance(app, &t).await, before - 1000, "the lost one's points came back");
    assert_eq!(app.sandbox().points(DEMO_QFF).unwrap(), airline_before + 500, "the late one was credited once");
    assert_eq!(books_agree(app, &pid).await, (2000, 1000, 0, 1000));
    let list = app.get("/api/qff/conversions", Some(&t)).await.body;
    let by_status: Vec<&str> = list["data"].as_array().unwrap().iter().map(|c| c["status"].as_str().unwrap()).collect();
    assert!(by_status.contains(&"completed") && by_status.contains(&"failed"), "{list}");
    let (replay, _) = convert(app, &t, "late-1", 1000).await;
    assert_eq!((replay.status, replay.body["data"]["status"].as_str()), (200, Some("completed")), "a retry now sees it settled");
}

async fn a_refusal_gives_the_points_back(app: &TestApp) {
    let t = linked_demo(app).await;
    let pid = TestApp::pid(&t);
    let before = balance(app, &t).await;
    app.sandbox().add_fault(fault("credit", FaultKind::Refuse, 1));
    let (r, _) = convert(app, &t, "refused-1", 1000).await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["message"], "Qantas Frequent Flyer refused the transfer. Your points were given back.");
    assert_eq!(balance(app, &t).await, before);
    let (again, replayed) = convert(app, &t, "refused-1", 1000).await;
    assert_eq!((again.status, replayed), (422, true), "the retry gets the refusal");
    let entries = app.get("/api/profile/points?sort=-issued_at", Some(&t)).await.body["data"].clone();
    let kinds: Vec<&str> =
        entries.as_array().unwrap().iter().filter(|e| e["source"] == "conversion").map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["release", "hold"]);
    assert_eq!(books_agree(app, &pid).await, (1000, 0, 0, 1000));
}

async fn a_partner_that_is_down_is_left_alone_and_the_member_told(app: &TestApp) {
    let t = linked_demo(app).await;
    let pid = TestApp::pid(&t);
    let before = balance(app, &t).await;
    let calls = || async {
        let url = format!("{}/_sandbox/calls", app.settings.qff.api_url.as_ref().unwrap());
        app.http.get(url).send().await.unwrap().json::<BTreeMap<String, u64>>().await.unwrap()
    };
    // A read that fails fast is retried; the member never notices.
    app.sandbox().add_fault(fault("member", FaultKind::Error500, 1));
    let seen = calls().await.get("member").copied().unwrap_or(0);
    assert_eq!(app.get("/api/qff/points", Some(&t)).await.body["points"], 48_250);
    assert_eq!(calls().await["member"], seen + 2, "one failure, one retry");
    // A credit is never retried: a 5xx leaves it pending for the reconciler, which settles it.
    app.sandbox().add_fault(fault("credit", FaultKind::Error500, 1));
    let (r, _) = convert(app, &t, "five-hundred", 1000).await;
    assert_eq!(r.status, 202, "{:?}", r.body);
    assert_eq!(calls().await["credit"], 1);
    assert_eq!(app.qff().reconcile(portal_proto::qff::v1::ReconcileRequest {}).await.unwrap().into_inner().failed, 1);
    assert_eq!(balance(app, &t).await, before, "never received: the points came back");
    app.sandbox().add_fault(Fault { operation: None, kind: FaultKind::Unavailable, count: 1000, delay_ms: None });
    // The balance can't be read: the link still shows, with a reason.
    let r = app.get("/api/qff/points", Some(&t)).await;
    assert_eq!((r.status, &r.body["linked"], &r.body["points"]), (200, &json!(true), &Value::Null));
    assert!(r.body["partner_error"].is_string());
    // After a few failures the breaker opens: answers come at once, 503 with Retry-After.
    for _ in 0..3 {
        let _ = app.get("/api/qff/history", Some(&t)).await;
    }
    let calls_before: u64 = calls().await.values().sum();
    let res = app.http.get(app.url("/api/qff/history")).bearer_auth(&t).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 503);
    assert!(res.headers().get("retry-after").is_some());
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["message"], "Qantas Frequent Flyer isn't answering right now. Nothing was changed; please try again in a few minutes.");
    let (r, _) = convert(app, &t, "down-1", 1000).await;
    assert_error_shape(&r, 503);
    let calls_after: u64 = calls().await.values().sum();
    assert_eq!(calls_after, calls_before, "an open breaker doesn't call the airline");
    assert_eq!(balance(app, &t).await, before, "nothing was held");
    assert_eq!(books_agree(app, &pid).await, (1000, 0, 0, 1000));
    assert_eq!(statuses(app, &pid).await, [("failed".to_string(), 1)].into(), "the refused-at-the-door one left no conversion");
}

async fn converting_needs_a_recent_sign_in_and_the_members_own_session(app: &TestApp) {
    let t = linked_demo(app).await;
    let pid = TestApp::pid(&t);
    // Straight to the service: a sign-in 16 minutes old.
    let mut req = tonic::Request::new(portal_proto::qff::v1::ConvertRequest { points: 1000, idempotency_key: "old-1".into() });
    let caller = portal_common::identity::Caller {
        profile_id: pid.clone(),
        actor: None,
        tenant: Some("demo".into()),
        staff: false,
        token_id: None,
        token_exp: None,
        auth_time: Some(portal_common::now_unix() - 16 * 60),
    };
    caller.write_to(req.metadata_mut());
    let err = app.qff().convert(req).await.unwrap_err();
    assert_eq!(err.code(), tonic::Code::PermissionDenied);
    assert_eq!(err.message(), "For your security, please sign in again with a new code or link to convert points.");
    assert_eq!(portal_common::error::field_errors(&err)["session"], "reauthenticate");
    // Staff viewing the account: read-only.
    let staff = app.sign_in("staff@example.com").await;
    let staff_id = crate::helpers::payload(&staff)["pid"].as_str().unwrap().to_string();
    let imp =
        app.post(&format!("/api/auth/impersonate/{pid}"), Some(&staff), json!({"staffId": staff_id, "reason": "Airline question"})).await;
    let it = imp.body["token"].as_str().unwrap().to_string();
    assert_eq!(app.get("/api/qff/points", Some(&it)).await.status, 200, "staff can read");
    let (r, _) = convert(app, &it, "staff-1", 1000).await;
    assert_error_shape(&r, 403);
    assert_error_shape(&app.call("DELETE", "/api/qff/link", Some(&it), Some(json!({"reason": "other"}))).await, 403);
    assert_eq!(books_agree(app, &pid).await, (0, 0, 0, 0));
}

async fn a_credit_that_could_not_be_sent_gives_the_points_back_at_once(app: &TestApp) {
    let t = linked_demo(app).await;
    let pid = TestApp::pid(&t);
    let before = balance(app, &t).await;
    app.stop_sandbox().await;
    let (r, _) = convert(app, &t, "unreachable-1", 1000).await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["message"], "Qantas Frequent Flyer wasn't answering, so nothing was sent. Your points were given back.");
    assert_eq!(balance(app, &t).await, before);
    assert_eq!(books(app, &pid).await, (1000, 0, 0, 1000));
    assert_eq!(statuses(app, &pid).await, [("failed".to_string(), 1)].into());
    // The link still shows; the balance says why it is missing.
    let s = app.get("/api/qff/points", Some(&t)).await;
    assert_eq!((s.body["linked"].clone(), s.body["points"].clone()), (json!(true), Value::Null));
}

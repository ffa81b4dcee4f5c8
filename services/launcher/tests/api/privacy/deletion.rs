//! /api/privacy/delete: Delete my account needs a fresh deletion code (locked after five wrong
//! tries), leaves nothing personal in any table of any service's storage nor in the KV while the
//! points ledger still balances, and a deletion that stopped midway is finished by repeating it.
use super::{sessions, ANDROID_CHROME};
use crate::helpers::{assert_error_shape, payload, six_digits, Reply, TestApp};
use portal_common::db::{Backend, Db};
use portal_proto::profile::v1 as pb;
use serde_json::{json, Value};
use sqlx::Row;

crate::both!(deletion_needs_a_fresh_deletion_code, nothing_personal_remains_after_deletion, a_deletion_that_stopped_midway_carries_on);

async fn deletion_code(app: &TestApp, t: &str, email: &str) -> String {
    let r = app.post("/api/privacy/delete/code", Some(t), json!({})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["sent"], true);
    let outbox = app.outbox().await;
    let m = outbox.iter().find(|m| m["to"] == email && m["subject"] == "Your account deletion code").expect("a deletion code email");
    six_digits(m["text"].as_str().unwrap())
}

fn wrong_code(r: &Reply) {
    assert_error_shape(r, 422);
    assert_eq!(r.body["errors"]["code"], "That code is not right or has expired");
}

async fn deletion_needs_a_fresh_deletion_code(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    wrong_code(&app.post("/api/privacy/delete", Some(&t), json!({"code": "123456"})).await);
    let r = app.post("/api/privacy/delete/code", Some(&t), json!({})).await;
    assert_eq!(r.body["email"], "d***@example.com");
    let code = deletion_code(app, &t, "demo@example.com").await;
    let wrong = if code == "000000" { "000001" } else { "000000" };
    wrong_code(&app.post("/api/privacy/delete", Some(&t), json!({"code": wrong})).await);
    // A deletion code does not sign anyone in; a sign-in code does not delete.
    assert_error_shape(&app.verify("demo@example.com", &code).await, 401);
    let sign_in_code = app.email_code("demo@example.com").await;
    if sign_in_code != code {
        wrong_code(&app.post("/api/privacy/delete", Some(&t), json!({"code": sign_in_code})).await);
    }
    // Nothing was deleted.
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["email"], "demo@example.com");
    assert!(!app.get("/api/profile/transactions", Some(&t)).await.body["data"].as_array().unwrap().is_empty());
    assert_eq!(sessions(app, &t).await.len(), 1);

    let r = app.post("/api/privacy/delete", Some(&t), json!({"code": code})).await;
    assert_eq!((r.status, &r.body), (200, &json!({"deleted": true})), "{:?}", r.body);
    assert_error_shape(&app.post("/api/privacy/delete", Some(&t), json!({"code": code})).await, 401);
    assert_error_shape(&app.get("/api/profile", Some(&t)).await, 401);
    // The address no longer signs in: nothing is sent to it.
    let before = app.outbox().await.len();
    assert_eq!(app.request_link("demo@example.com", "/home").await.status, 200);
    assert_eq!(app.outbox().await.len(), before);
    // Another member is untouched.
    let other = app.sign_in("other@example.com").await;
    assert_eq!(app.get("/api/profile", Some(&other)).await.body["email"], "other@example.com");
}

async fn deletion_code_locks_after_five_wrong_tries(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let code = deletion_code(app, &t, "demo@example.com").await;
    let wrong = if code == "000000" { "000001" } else { "000000" };
    for _ in 0..5 {
        wrong_code(&app.post("/api/privacy/delete", Some(&t), json!({"code": wrong})).await);
    }
    assert_error_shape(&app.post("/api/privacy/delete", Some(&t), json!({"code": code})).await, 429);
    assert_eq!(app.get("/api/profile", Some(&t)).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deletion_code_locks_after_five_wrong_tries() {
    let app = crate::helpers::spawn_app(Default::default()).await.unwrap();
    deletion_code_locks_after_five_wrong_tries(&app).await;
    app.stop().await;
}

/// The tables of a service's storage, read from its schema.
async fn tables(db: &Db) -> Vec<String> {
    let sql = match db.backend {
        Backend::Sqlite => "SELECT name AS t FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        Backend::Postgres => "SELECT CAST(table_name AS TEXT) AS t FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    };
    sqlx::query(sql).fetch_all(&db.pool).await.unwrap().iter().map(|r| r.get("t")).collect()
}

async fn columns(db: &Db, table: &str) -> Vec<String> {
    let rows = match db.backend {
        Backend::Sqlite => sqlx::query(&format!("SELECT name AS c FROM pragma_table_info('{table}')")).fetch_all(&db.pool).await.unwrap(),
        Backend::Postgres => sqlx::query("SELECT CAST(column_name AS TEXT) AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1")
            .bind(table)
            .fetch_all(&db.pool)
            .await
            .unwrap(),
    };
    rows.iter().map(|r| r.get("c")).collect()
}

/// Every `service.table.column` holding any of `needles` (case-insensitive, any column read as
/// text), in every table of every service's storage.
async fn where_found(app: &TestApp, needles: &[&str]) -> Vec<String> {
    let dbs = [
        ("auth", app.auth_db().await),
        ("profile", app.profile_db().await),
        ("connections", app.connections_db().await),
        ("qff", app.qff_db().await),
        ("refdata", app.refdata_db().await),
    ];
    let mut found = Vec::new();
    let mut scanned = 0;
    for (service, db) in &dbs {
        let tables = tables(db).await;
        assert!(tables.len() > 1, "{service}: no tables found");
        for table in tables {
            for column in columns(db, &table).await {
                scanned += 1;
                for needle in needles {
                    let sql = format!("SELECT COUNT(*) AS n FROM \"{table}\" WHERE LOWER(CAST(\"{column}\" AS TEXT)) LIKE $1");
                    let n: i64 = sqlx::query(&sql).bind(format!("%{}%", needle.to_lowercase())).fetch_one(&db.pool).await.unwrap().get("n");
                    if n > 0 {
                        found.push(format!("{service}.{table}.{column} holds {needle:?} ({n} rows)"));
                    }
                }
            }
        }
    }
    assert!(scanned > 100, "only {scanned} columns scanned");
    found
}

/// Every KV key (and value) of this portal holding any of `needles`.
async fn kv_found(app: &TestApp, needles: &[&str]) -> Vec<String> {
    let entries = app.kv().await.entries().await.unwrap();
    assert!(!entries.is_empty(), "the KV holds this portal's keys");
    let mut found = Vec::new();
    for (k, v) in entries {
        let v = String::from_utf8_lossy(&v).to_lowercase();
        for needle in needles {
            let n = needle.to_lowercase();
            if k.to_lowercase().contains(&n) || v.contains(&n) {
                found.push(format!("KV {k} holds {needle:?}"));
            }
        }
    }
    found
}

/// The member's ledger as stored: (id, points, issued_at) by id, and the owner of those rows.
async fn ledger_rows(db: &Db, ids: Option<&[String]>, pid: Option<&str>) -> Vec<(String, String, i64, i64, i64)> {
    let rows = sqlx::query("SELECT id, profile_id, points, remaining, issued_at FROM loyalty_ledger ORDER BY id")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    rows.iter()
        .map(|r| {
            (
                r.get::<String, _>("id"),
                r.get::<String, _>("profile_id"),
                r.get::<i64, _>("points"),
                r.get::<i64, _>("remaining"),
                r.get::<i64, _>("issued_at"),
            )
        })
        .filter(|(id, owner, ..)| ids.is_none_or(|ids| ids.contains(id)) && pid.is_none_or(|p| p == owner))
        .collect()
}

async fn nothing_personal_remains_after_deletion(app: &TestApp) {
    let (email, first, last) = ("zephyrine.quillfeather@privacy-test.example", "Zephyrine", "Quillfeather");
    let (phone, airline) = ("+61491570157", "1987654320");
    app.sandbox().add_member(airline, first, last, 20_000);

    // A member with something in every service.
    let r = app
        .post(
            "/api/auth/create",
            None,
            json!({"email": email, "first_name": first, "last_name": last, "phone": "+61 491 570 157", "birth_date": "1985-02-03"}),
        )
        .await;
    assert_eq!(r.status, 202, "{:?}", r.body);
    app.post(
        "/api/auth",
        None,
        json!({"email": email, "mode": "event", "eventData": {"guest": "Zephyrine Quillfeather"}, "customFields": {"phone": phone}}),
    )
    .await;
    let (link, _) = app.link_token_for(email).await;
    let res = app
        .http
        .post(app.url("/api/auth/exchange"))
        .header("user-agent", ANDROID_CHROME)
        .json(&json!({"token": link}))
        .send()
        .await
        .unwrap();
    let t = res.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_string();
    let pid = TestApp::pid(&t);
    let code = app.email_code(email).await;
    let t2 = app.verify(email, &code).await.body["token"].as_str().unwrap().to_string();

    let ok = |r: Reply, what: &str| assert!(r.status < 300, "{what}: {} {:?}", r.status, r.body);
    ok(app.call("PUT", "/api/profile", Some(&t), Some(json!({"address": {"line1": "7 Quillfeather Lane", "city": "Melbourne", "state": "VIC", "postcode": "3000", "country": "AU"}}))).await, "address");
    ok(app.call("PUT", "/api/profile/attributes/comms", Some(&t), Some(json!({"email": true, "offers": true}))).await, "comms");
    ok(app.call("PUT", "/api/profile/attributes/comms", Some(&t), Some(json!({"offers": false}))).await, "comms");
    ok(app.call("PUT", "/api/profile/attributes/custom/locale:language", Some(&t), Some(json!({"value": "en"}))).await, "language");
    // A purchase claimed (a transaction, a claim, points), a goodwill credit naming the member,
    // a reward redeemed, an offer.
    let date =
        (chrono::Utc::now() - chrono::Duration::days(1)).with_timezone(&chrono_tz::Australia::Melbourne).format("%Y-%m-%d").to_string();
    let claim = app
        .post(
            "/api/profile/claims",
            Some(&t),
            json!({"store": "melbourne-central", "date": date, "receipt_number": "MC01-100234", "amount": "59.95"}),
        )
        .await;
    assert_eq!(claim.body["data"]["status"], "credited", "{:?}", claim.body);
    app.loyalty()
        .adjust_points(pb::AdjustPointsRequest {
            profile_id: pid.clone(),
            points: 5000,
            source: "staff".into(),
            reason: "Goodwill for Zephyrine Quillfeather".into(),
            reference: format!("goodwill:{pid}"),
        })
        .await
        .unwrap();
    let redeemed = app
        .http
        .post(app.url("/api/profile/rewards/redeem"))
        .bearer_auth(&t)
        .header("Idempotency-Key", "zq-coffee")
        .json(&json!({"catalogue_id": "coffee"}))
        .send()
        .await
        .unwrap();
    assert!(redeemed.status().is_success(), "{}", redeemed.text().await.unwrap());
    let profile_db = app.profile_db().await;
    sqlx::query("INSERT INTO benefits (id, profile_id, name, description, ends_at) VALUES (424242, $1, 'Birthday treat for Zephyrine', 'Quillfeather family offer', $2)")
        .bind(&pid)
        .bind(portal_common::now_unix() + 86_400)
        .execute(&profile_db.pool)
        .await
        .unwrap();
    // A wish list with an item, linked to the purchase.
    let con =
        app.post("/api/connections", Some(&t), json!({"definition_id": "wishlist"})).await.body["data"]["id"].as_str().unwrap().to_string();
    ok(app.call("PUT", &format!("/api/connections/{con}"), Some(&t), Some(json!({"name": "Zephyrine's wishes"}))).await, "rename");
    let list =
        app.post(&format!("/api/connections/{con}/lists"), Some(&t), json!({"handle": "wishlist", "name": "Quillfeather list"})).await.body
            ["data"]["id"]
            .as_str()
            .unwrap()
            .to_string();
    let item = app
        .post(&format!("/api/connections/{con}/lists/{list}/items"), Some(&t), json!({"product_variant_id": "var_linen_shirt_m"}))
        .await
        .body["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let tx = app.get("/api/profile/transactions", Some(&t)).await.body;
    let tx_item = tx["data"][0]["items"][0]["id"].as_str().unwrap().to_string();
    ok(
        app.post(
            &format!("/api/profile/transactions/items/{tx_item}/list-item"),
            Some(&t),
            json!({"product_list_item_id": item, "type": "link"}),
        )
        .await,
        "link",
    );
    // The airline: linked, unlinked with a comment, linked again, points converted.
    ok(app.post("/api/qff/link", Some(&t), json!({"qff_number": airline})).await, "qff link");
    ok(
        app.call("DELETE", "/api/qff/link", Some(&t), Some(json!({"reason": "other", "comment": "Zephyrine Quillfeather will relink"})))
            .await,
        "qff unlink",
    );
    ok(app.post("/api/qff/link", Some(&t), json!({"qff_number": airline})).await, "qff link again");
    let conv = app
        .http
        .post(app.url("/api/qff/redeem"))
        .bearer_auth(&t)
        .header("Idempotency-Key", "zq-convert")
        .json(&json!({"points": 1000}))
        .send()
        .await
        .unwrap();
    assert!(conv.status().is_success(), "{}", conv.text().await.unwrap());
    // Staff looked at the account, saying why.
    let staff = app.sign_in("staff@example.com").await;
    let view = app
        .post(&format!("/api/auth/impersonate/{pid}"), Some(&staff), json!({"reason": "Zephyrine Quillfeather called about MC01-100234"}))
        .await;
    assert_eq!(view.status, 200);
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["phone"], phone);

    let needles = [pid.as_str(), email, first, last, phone, &phone[1..], airline];
    assert!(where_found(app, &needles).await.len() >= 15, "the member's data is everywhere before");
    let before = ledger_rows(&profile_db, None, Some(&pid)).await;
    assert!(before.len() >= 4, "claim, goodwill, redemption, conversion hold: {before:?}");
    let all_before: i64 = ledger_rows(&profile_db, None, None).await.iter().map(|r| r.2).sum();

    let code = deletion_code(app, &t, email).await;
    let r = app.post("/api/privacy/delete", Some(&t), json!({"code": code})).await;
    assert_eq!((r.status, &r.body), (200, &json!({"deleted": true})), "{:?}", r.body);
    for token in [&t, &t2] {
        assert_error_shape(&app.get("/api/profile", Some(token)).await, 401);
    }

    // Nothing personal anywhere: every column of every table, and the KV.
    let left = where_found(app, &needles).await;
    assert!(left.is_empty(), "personal data left behind:\n{}", left.join("\n"));
    let left = kv_found(app, &needles).await;
    assert!(left.is_empty(), "personal data left in the KV:\n{}", left.join("\n"));

    // The ledger is still there, anonymised: same entries, amounts and dates, one new owner
    // that is not the member, and every total still adds up.
    let ids: Vec<String> = before.iter().map(|r| r.0.clone()).collect();
    let after = ledger_rows(&profile_db, Some(&ids), None).await;
    assert_eq!(after.len(), before.len());
    let owner = &after[0].1;
    assert!(owner.starts_with("anon_") && owner != &pid, "{owner}");
    for (b, a) in before.iter().zip(&after) {
        assert_eq!((&b.0, b.2, b.3, b.4), (&a.0, a.2, a.3, a.4), "amounts and dates kept");
        assert_eq!(&a.1, owner, "one owner");
    }
    assert_eq!(ledger_rows(&profile_db, None, Some(owner)).await.len(), before.len(), "the owner holds nothing else");
    let sum = |rows: &[(String, String, i64, i64, i64)]| (rows.iter().map(|r| r.2).sum::<i64>(), rows.iter().map(|r| r.3).sum::<i64>());
    assert_eq!(sum(&after), sum(&before));
    assert_eq!(sum(&after).0, sum(&after).1, "points = what remains of the lots");
    assert_eq!(ledger_rows(&profile_db, None, None).await.iter().map(|r| r.2).sum::<i64>(), all_before);
    // The anonymous owner is no one staff can find.
    let found = app.post("/api/auth/searchById", Some(&staff), json!({"type": "id", "id": owner})).await;
    assert_eq!(found.body["data"], json!([]));
    assert_error_shape(&app.post(&format!("/api/auth/impersonate/{owner}"), Some(&staff), json!({})).await, 404);
    // The staff side of the access log is kept.
    let kept: i64 = sqlx::query("SELECT COUNT(*) AS n FROM access_log WHERE staff_id = $1 AND action = 'start'")
        .bind(payload(&staff)["pid"].as_str().unwrap())
        .fetch_one(&app.auth_db().await.pool)
        .await
        .unwrap()
        .get("n");
    assert_eq!(kept, 1);
}

/// A deletion that stopped after some services had erased their part (here the profile is gone
/// already) is finished by the same request with the same code.
async fn a_deletion_that_stopped_midway_carries_on(app: &TestApp) {
    use portal_proto::auth::v1::{auth_service_client::AuthServiceClient, ConfirmDeletionRequest};
    use portal_proto::profile::v1::profile_service_client::ProfileServiceClient;
    let t = app.sign_in("demo@example.com").await;
    let pid = TestApp::pid(&t);
    let code = deletion_code(app, &t, "demo@example.com").await;
    let c = payload(&t);
    let caller = portal_common::identity::Caller {
        profile_id: pid.clone(),
        actor: None,
        tenant: Some("demo".into()),
        staff: false,
        token_id: c["jti"].as_str().map(str::to_owned),
        token_exp: c["exp"].as_i64(),
        auth_time: c["iat"].as_i64(),
    };
    fn as_member<T>(caller: &portal_common::identity::Caller, msg: T) -> tonic::Request<T> {
        let mut req = tonic::Request::new(msg);
        caller.write_to(req.metadata_mut());
        req
    }
    // What the gateway does first: the code is confirmed, the profile service erases its part;
    // then (say) the auth service is not reached.
    let ch = |svc: &Option<String>| portal_common::grpc::channel(svc.as_deref().unwrap()).unwrap();
    AuthServiceClient::new(ch(&app.settings.services.auth))
        .confirm_deletion(as_member(&caller, ConfirmDeletionRequest { code: code.clone() }))
        .await
        .unwrap();
    let erased = ProfileServiceClient::new(ch(&app.settings.services.profile))
        .erase_member(as_member(&caller, pb::EraseMemberRequest {}))
        .await
        .unwrap();
    assert!(erased.into_inner().erased);
    assert_error_shape(&app.get("/api/profile", Some(&t)).await, 404);
    assert_eq!(sessions(app, &t).await.len(), 1, "still signed in: the deletion can be finished");

    let r = app.post("/api/privacy/delete", Some(&t), json!({"code": code})).await;
    assert_eq!((r.status, &r.body), (200, &json!({"deleted": true})), "{:?}", r.body);
    assert_error_shape(&app.get("/api/privacy/sessions", Some(&t)).await, 401);
    let left = where_found(app, &[pid.as_str(), "demo@example.com"]).await;
    assert!(left.is_empty(), "personal data left behind:\n{}", left.join("\n"));
}

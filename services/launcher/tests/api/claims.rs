//! Issue 22, finding 4: `POST /api/profile/claims` can't be squatted. A claim that doesn't match
//! the store's record never blocks the real buyer and is never credited; its answer is the same
//! whether the receipt exists, is someone else's or has other details; and each member has
//! quotas (claims waiting at once, claims a day), as do lists and list items under
//! `/api/connections`. The quotas come from the tenant config, which the tests rewrite (the
//! services read it on every call).
use crate::helpers::{assert_error_shape, Reply, TestApp};
use serde_json::{json, Value};

crate::both!(
    a_wrong_claim_never_blocks_the_real_buyer,
    a_claim_that_does_not_match_tells_nothing_about_the_receipt,
    claims_have_quotas_per_member,
    lists_and_items_have_quotas,
);

/// A date `days` ago in the tenant's zone (Australia/Melbourne), as the member would enter it.
fn melbourne_date(days_ago: i64) -> String {
    let now = chrono::Utc::now() - chrono::Duration::days(days_ago);
    now.with_timezone(&chrono_tz::Australia::Melbourne).format("%Y-%m-%d").to_string()
}

async fn balance(app: &TestApp, t: &str) -> i64 {
    app.get("/api/profile/balances", Some(t)).await.body["data"]["points"].as_i64().unwrap()
}

async fn claim(app: &TestApp, t: &str, store: &str, days_ago: i64, receipt: &str, amount: &str) -> Reply {
    let body = json!({"store": store, "date": melbourne_date(days_ago), "receipt_number": receipt, "amount": amount});
    app.post("/api/profile/claims", Some(t), body).await
}

async fn claims_of(app: &TestApp, t: &str) -> Vec<Value> {
    app.get("/api/profile/claims", Some(t)).await.body["data"].as_array().unwrap().clone()
}

/// Changes one component's settings in the tenant config the portal reads.
fn set_component(app: &TestApp, component: &str, settings: Value) {
    let path = &app.settings.tenant_config;
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for (k, v) in settings.as_object().unwrap() {
        doc["components"][component][k] = v.clone();
    }
    std::fs::write(path, doc.to_string()).unwrap();
}

async fn a_wrong_claim_never_blocks_the_real_buyer(app: &TestApp) {
    let squatter = app.sign_in("other@example.com").await;
    let buyer = app.sign_in("demo@example.com").await;
    let (squatter_before, buyer_before) = (balance(app, &squatter).await, balance(app, &buyer).await);
    // The squatter files first, for a receipt they don't hold (sequential numbers), with a
    // made-up amount: it waits, uncredited.
    let r = claim(app, &squatter, "melbourne-central", 1, "MC01-100234", "10.00").await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    assert_eq!(r.body["data"]["status"], "pending");
    // The real buyer, with the receipt in hand, is credited as if nobody had claimed before.
    let r = claim(app, &buyer, "melbourne-central", 1, "MC01-100234", "59.95").await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    assert_eq!(r.body["data"]["status"], "credited");
    assert_eq!(balance(app, &buyer).await, buyer_before + 60);
    // The squatter's claim is matched again whenever they look, and never credited: not with the
    // right amount either, the sale is the buyer's now.
    let theirs = claims_of(app, &squatter).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["status"], "pending");
    let again = claim(app, &squatter, "melbourne-central", 1, "MC01-100234", "59.95").await;
    assert_error_shape(&again, 409);
    assert_eq!(again.body["errors"]["receipt_number"], "You have already claimed this receipt", "their own claim, nobody else's");
    assert_eq!(balance(app, &squatter).await, squatter_before);
    // Past its window (and the grace after it) it is rejected, with the one neutral message.
    let db = app.profile_db().await;
    sqlx::query("UPDATE claims SET purchase_date = $2 WHERE id = $1")
        .bind(theirs[0]["id"].as_str().unwrap())
        .bind(melbourne_date(60))
        .execute(&db.pool)
        .await
        .unwrap();
    let theirs = claims_of(app, &squatter).await;
    assert_eq!((theirs[0]["status"].as_str(), theirs[0]["message"].as_str()), (Some("rejected"), Some("We could not find this purchase")));
    assert_eq!(balance(app, &squatter).await, squatter_before);
    assert_eq!(balance(app, &buyer).await, buyer_before + 60, "points issued once");
}

async fn a_claim_that_does_not_match_tells_nothing_about_the_receipt(app: &TestApp) {
    let t = app.sign_in("other@example.com").await;
    let answers = [
        // On another member's account already (the demo member's, scanned at the till), with
        // its true details.
        claim(app, &t, "melbourne-central", 2, "MC01-100200", "129.90").await,
        // In the store's records, on nobody's account, but another amount.
        claim(app, &t, "chadstone", 3, "CH02-200512", "99.00").await,
        // Not in the store's records at all.
        claim(app, &t, "chadstone", 3, "CH02-999999", "120.00").await,
    ];
    let same = |r: &Reply| {
        let d = &r.body["data"];
        (
            r.status,
            d["status"].clone(),
            d["message"].clone(),
            d["points"].clone(),
            d["transaction_id"].clone(),
            d.as_object().unwrap().keys().cloned().collect::<Vec<_>>(),
        )
    };
    assert_eq!(same(&answers[0]).0, 201, "{:?}", answers[0].body);
    assert_eq!(same(&answers[0]), same(&answers[1]));
    assert_eq!(same(&answers[1]), same(&answers[2]));
    assert_eq!(answers[0].body["data"]["status"], "pending");
    // The receipts of the member's own account are the one thing told apart.
    let d = app.sign_in("demo@example.com").await;
    let r = claim(app, &d, "melbourne-central", 2, "MC01-100200", "129.90").await;
    assert_error_shape(&r, 409);
    assert_eq!(r.body["errors"]["receipt_number"], "This receipt is already on your account");
}

async fn claims_have_quotas_per_member(app: &TestApp) {
    set_component(app, "claims", json!({"maxPending": 2, "maxPerDay": 3}));
    let t = app.sign_in("demo@example.com").await;
    for receipt in ["MC01-900001", "MC01-900002"] {
        assert_eq!(claim(app, &t, "melbourne-central", 1, receipt, "10.00").await.status, 201);
    }
    // A third that would wait: refused, with what to do.
    let r = claim(app, &t, "melbourne-central", 1, "MC01-900003", "10.00").await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["errors"], json!({}));
    assert_eq!(r.body["message"], "You have 2 claims waiting to be checked. You can make another once one of them is matched or closed");
    assert_eq!(claims_of(app, &t).await.len(), 2, "nothing was filed");
    // One that matches the store's record is credited at once, so it never waits.
    let r = claim(app, &t, "melbourne-central", 1, "MC01-100234", "59.95").await;
    assert_eq!((r.status, r.body["data"]["status"].as_str()), (201, Some("credited")), "{:?}", r.body);
    // That was the third today: the fourth waits for a day, whatever it is.
    let res = app
        .http
        .post(app.url("/api/profile/claims"))
        .bearer_auth(&t)
        .json(&json!({"store": "chadstone", "date": melbourne_date(3), "receipt_number": "CH02-200512", "amount": "120.00"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    let wait: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((86_000..=86_401).contains(&wait), "Retry-After {wait}");
    let r = Reply { status: 429, body: res.json().await.unwrap() };
    assert_error_shape(&r, 429);
    assert_eq!(r.body["message"], "You have made 3 claims in the last 24 hours. Please try again later");
    // Another member's quotas are their own.
    let o = app.sign_in("other@example.com").await;
    assert_eq!(claim(app, &o, "chadstone", 3, "CH02-200512", "120.00").await.body["data"]["status"], "credited");
}

async fn lists_and_items_have_quotas(app: &TestApp) {
    set_component(app, "connections", json!({"maxListsPerConnection": 3, "maxItemsPerList": 4}));
    let t = app.sign_in("demo@example.com").await;
    let con =
        app.post("/api/connections", Some(&t), json!({"definition_id": "wishlist"})).await.body["data"]["id"].as_str().unwrap().to_string();
    let lists = format!("/api/connections/{con}/lists");
    let mut first = String::new();
    for handle in ["wishlist", "birthday", "later"] {
        let r = app.post(&lists, Some(&t), json!({"handle": handle})).await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        if first.is_empty() {
            first = r.body["data"]["id"].as_str().unwrap().to_string();
        }
    }
    let r = app.post(&lists, Some(&t), json!({"handle": "one-more"})).await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["message"], "This connection already holds 3 lists, the most it can");
    assert_eq!(app.get(&lists, Some(&t)).await.body["data"].as_array().unwrap().len(), 3);

    let items = format!("{lists}/{first}/items");
    // Concurrent adds can't pass the cap between them.
    let adds = (0..8).map(|i| app.post(&items, Some(&t), json!({"product_id": format!("prd_{i}")})));
    let replies = futures::future::join_all(adds).await;
    let mut statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 201, 201, 201, 422, 422, 422, 422], "{:?}", replies.iter().map(|r| &r.body).collect::<Vec<_>>());
    let refused = replies.iter().find(|r| r.status == 422).unwrap();
    assert_error_shape(refused, 422);
    assert_eq!(refused.body["message"], "This list already holds 4 items, the most it can");
    // A product already on the list is still found there (200), not refused.
    let held = replies.iter().find(|r| r.status == 201).unwrap().body["data"]["product_id"].clone();
    let r = app.post(&items, Some(&t), json!({"product_id": held})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
}

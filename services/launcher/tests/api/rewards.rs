//! Issue 9: the loyalty routes against the real services. Each collection is the caller's own;
//! redemption happens once per Idempotency-Key, also when 50 race against points for 3; points
//! expire (oldest first) in an idempotent job; offers' text overrides follow the spec's rule in
//! all eight cases, and activating twice activates once. Redeeming is in `rewards/redemption.rs`,
//! the content's translations in `rewards/translations.rs`.
use crate::helpers::{assert_error_shape, Reply, TestApp};
use portal_proto::profile::v1 as pb;
use serde_json::{json, Value};
use sqlx::Row;

mod redemption;
mod translations;

crate::both!(
    collections_are_the_callers_own,
    points_expire_oldest_first_in_an_idempotent_job,
    offers_follow_the_override_rule_and_activate_once,
    the_profiles_tier_follows_what_is_earned,
);

const DAY: i64 = 86_400;

async fn balance(app: &TestApp, t: &str) -> i64 {
    app.get("/api/profile/balances", Some(t)).await.body["data"]["points"].as_i64().unwrap()
}

async fn redeem(app: &TestApp, t: &str, key: Option<&str>, item: &str) -> (Reply, Option<String>) {
    let mut rb = app.http.post(app.url("/api/profile/rewards/redeem")).bearer_auth(t).json(&json!({"catalogue_id": item}));
    if let Some(k) = key {
        rb = rb.header("Idempotency-Key", k);
    }
    let res = rb.send().await.unwrap();
    let replayed = res.headers().get("idempotent-replayed").map(|v| v.to_str().unwrap().to_string());
    let status = res.status().as_u16();
    let body: Value = res.json().await.unwrap();
    (Reply { status, body }, replayed)
}

/// The ledger's sum straight from SQL, and whether every lot still holds what the debits left.
async fn ledger_sum(app: &TestApp, pid: &str) -> (i64, i64) {
    let db = app.profile_db().await;
    let row = sqlx::query(
        "SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS total, CAST(COALESCE(SUM(remaining), 0) AS BIGINT) AS left_in_lots
         FROM loyalty_ledger WHERE profile_id = $1",
    )
    .bind(pid)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    (row.get("total"), row.get("left_in_lots"))
}

fn secs(iso: &Value) -> i64 {
    chrono::DateTime::parse_from_rfc3339(iso.as_str().unwrap()).unwrap().timestamp()
}

async fn collections_are_the_callers_own(app: &TestApp) {
    let a = app.sign_in("demo@example.com").await;
    let b = app.sign_in("other@example.com").await;
    let now = portal_common::now_unix();

    assert_eq!(app.get("/api/profile/balances", Some(&a)).await.body, json!({"data": {"points": 3049, "currency": "AUD"}}));
    assert_eq!(balance(app, &b).await, 500);

    // The ledger: oldest first by default (spec: sort issued_at), newest first on request, paged.
    let all = app.get("/api/profile/points?per_page=100", Some(&a)).await.body;
    let entries = all["data"].as_array().unwrap();
    assert_eq!(all["meta"]["total"], entries.len());
    let sum: i64 = entries.iter().map(|e| e["points"].as_i64().unwrap()).sum();
    assert_eq!(sum, 3049, "the balance is the sum of the ledger");
    let times: Vec<i64> = entries.iter().map(|e| secs(&e["issued_at"])).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first");
    let kinds: Vec<(&str, &str, i64)> =
        entries.iter().map(|e| (e["kind"].as_str().unwrap(), e["source"].as_str().unwrap(), e["points"].as_i64().unwrap())).collect();
    assert_eq!(kinds[0], ("earn", "bonus", 500));
    assert!(kinds.contains(&("spend", "redemption", -300)));
    assert!(kinds.contains(&("expire", "expiry", -200)), "what was left of the welcome bonus expired: {kinds:?}");
    assert!(entries.iter().all(|e| !e["reference"].as_str().unwrap().is_empty()));
    let newest = app.get("/api/profile/points?sort=-issued_at&per_page=2&page=1", Some(&a)).await.body;
    assert_eq!(newest["data"][0]["reason"], "Melbourne Central");
    assert_eq!(newest["data"][0]["source"], "purchase");
    assert!(newest["data"][0]["expires_at"].is_string());
    assert_eq!(newest["meta"], json!({"page": 1, "per_page": 2, "total": entries.len()}));
    let last = app.get(&format!("/api/profile/points?sort=-issued_at&per_page=2&page={}", entries.len().div_ceil(2)), Some(&a)).await.body;
    assert_eq!(last["data"].as_array().unwrap().last().unwrap()["id"], entries[0]["id"]);
    let bad = app.get("/api/profile/points?sort=points", Some(&a)).await;
    assert_error_shape(&bad, 422);
    assert!(bad.body["errors"]["sort"].is_string());
    let theirs = app.get("/api/profile/points", Some(&b)).await.body;
    assert_eq!(theirs["data"].as_array().unwrap().len(), 1);

    // What expires next: the spring bonus's 1,200, in about 25 days.
    let exp = app.get("/api/profile/points/expiring", Some(&a)).await.body;
    assert_eq!(exp["data"][0]["points"], 1200);
    let when = secs(&exp["data"][0]["expires_at"]);
    assert!((when - (now + 25 * DAY)).abs() < 120, "expires in 25 days");
    assert_eq!(exp["data"][0]["date"].as_str().unwrap().len(), 10);

    // Tiers: gold for the demo, silver for the other member.
    let tiers = app.get("/api/profile/tiers", Some(&a)).await.body;
    let current: Vec<&str> =
        tiers["data"].as_array().unwrap().iter().filter(|t| t["current"] == true).map(|t| t["handle"].as_str().unwrap()).collect();
    assert_eq!(current, ["gold"]);
    let silver = &tiers["data"][0];
    assert_eq!(
        (&silver["handle"], &silver["name"], &silver["threshold"], &silver["current"]),
        (&json!("silver"), &json!("Silver"), &json!(0), &json!(false))
    );
    assert_eq!(silver["translations"]["it"]["name"], "Argento", "the tier's names in the other languages (rewards/translations.rs)");
    let p = app.get("/api/profile/tiers/progress", Some(&a)).await.body["data"].clone();
    assert_eq!(
        (p["measure"].as_str(), p["qualifying"].as_i64(), p["needed"].as_i64(), p["progress_percent"].as_i64()),
        (Some("points"), Some(3049), Some(1951), Some(34))
    );
    assert_eq!(p["current"]["handle"], "gold");
    assert_eq!(p["next"]["handle"], "platinum");
    assert!((secs(&p["kept_until"]) - (now + 25 * DAY)).abs() < 120, "gold is kept until the spring bonus leaves the window");
    let pb = app.get("/api/profile/tiers/progress", Some(&b)).await.body["data"].clone();
    assert_eq!((pb["current"]["handle"].as_str(), pb["needed"].as_i64()), (Some("silver"), Some(1500)));
    assert!(pb["kept_until"].is_null());

    // Rewards issued up to now, newest first, each with its status.
    let rewards = app.get("/api/profile/rewards", Some(&a)).await.body;
    let list: Vec<(i64, &str)> =
        rewards["data"].as_array().unwrap().iter().map(|r| (r["id"].as_i64().unwrap(), r["status"].as_str().unwrap())).collect();
    assert_eq!(list, [(102, "available"), (101, "available"), (103, "used"), (104, "expired")]);
    let one = app.get("/api/profile/rewards/101", Some(&a)).await;
    assert_eq!(one.status, 200);
    assert_eq!((one.body["data"]["code"].as_str(), one.body["data"]["source"].as_str()), (Some("K7QM-4TXA-9PWD"), Some("gift")));
    assert!(one.body["data"]["used_at"].is_null() && one.body["data"]["catalogue_id"].is_null());
    for (path, who) in [("/api/profile/rewards/101", &b), ("/api/profile/rewards/abc", &a), ("/api/profile/rewards/999", &a)] {
        assert_error_shape(&app.get(path, Some(who)).await, 404);
    }
    // A reward issued for later is not listed, nor readable, until its time.
    let db = app.profile_db().await;
    sqlx::query("INSERT INTO rewards (id, profile_id, name, description, points_cost, issued_at, expires_at, code) VALUES (777, $1, 'Later', '', 0, $2, 0, 'LATE-R222-2222')")
        .bind(TestApp::pid(&a))
        .bind(now + DAY)
        .execute(&db.pool)
        .await
        .unwrap();
    assert!(app.get("/api/profile/rewards", Some(&a)).await.body["data"].as_array().unwrap().iter().all(|r| r["id"] != 777));
    assert_error_shape(&app.get("/api/profile/rewards/777", Some(&a)).await, 404);
    assert_eq!(app.get("/api/profile/rewards", Some(&b)).await.body["data"], json!([]));

    // The catalogue, cheapest first, with what each member can afford.
    let cat = app.get("/api/profile/rewards/catalogue", Some(&b)).await.body;
    let items: Vec<(&str, bool, i64)> = cat["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_str().unwrap(), c["affordable"].as_bool().unwrap(), c["points_needed"].as_i64().unwrap()))
        .collect();
    assert_eq!(items[0], ("coffee", true, 0));
    assert_eq!(items[1], ("voucher-10", false, 500));

    for path in [
        "/api/profile/balances",
        "/api/profile/points",
        "/api/profile/points/expiring",
        "/api/profile/tiers/progress",
        "/api/profile/rewards/catalogue",
        "/api/profile/rewards/101",
    ] {
        assert_error_shape(&app.get(path, None).await, 401);
    }
}

async fn points_expire_oldest_first_in_an_idempotent_job(app: &TestApp) {
    let t = app.sign_in("other@example.com").await;
    let pid = TestApp::pid(&t);
    let mut loyalty = app.loyalty();
    // Two credits; the older one's date is moved into the past, as if a year had gone by.
    for (reference, points) in [("test:old", 700), ("test:new", 300)] {
        let req = pb::AdjustPointsRequest {
            profile_id: pid.clone(),
            points,
            source: "import".into(),
            reason: "Imported".into(),
            reference: reference.into(),
        };
        loyalty.adjust_points(req).await.unwrap();
    }
    let db = app.profile_db().await;
    let now = portal_common::now_unix();
    sqlx::query("UPDATE loyalty_ledger SET issued_at = $2, expires_at = $3 WHERE reference = $1")
        .bind("test:old")
        .bind(now - 400 * DAY)
        .bind(now - 35 * DAY)
        .execute(&db.pool)
        .await
        .unwrap();
    // Spending uses the oldest points first: the 500 welcome bonus (40 days old) before the
    // 300 credited today... but not the 700 whose date has passed: they expire first.
    let (spent, _) = redeem(app, &t, Some("exp-1"), "coffee").await;
    assert_eq!(spent.status, 201, "{:?}", spent.body);
    assert_eq!(spent.body["data"]["balance"], 500 + 300 - 300);
    let ran = loyalty.run_expiry(pb::RunExpiryRequest {}).await.unwrap().into_inner();
    assert_eq!((ran.entries, ran.points), (0, 0), "the spend expired the due points first; the job finds nothing more");
    let ledger = app.get("/api/profile/points?sort=-issued_at&per_page=100", Some(&t)).await.body;
    let expired: Vec<i64> =
        ledger["data"].as_array().unwrap().iter().filter(|e| e["kind"] == "expire").map(|e| e["points"].as_i64().unwrap()).collect();
    assert_eq!(expired, [-700]);
    let left = sqlx::query("SELECT reference, remaining FROM loyalty_ledger WHERE profile_id = $1 AND points > 0 ORDER BY issued_at")
        .bind(&pid)
        .fetch_all(&db.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get::<String, _>("reference"), r.get::<i64, _>("remaining")))
        .collect::<Vec<_>>();
    assert_eq!(left, [("test:old".into(), 0), ("demo:d2:welcome".into(), 200), ("test:new".into(), 300)]);

    // The job on its own: a lot past its date expires once, however often the job runs.
    sqlx::query("UPDATE loyalty_ledger SET expires_at = $2 WHERE reference = $1")
        .bind("test:new")
        .bind(now - 1)
        .execute(&db.pool)
        .await
        .unwrap();
    let first = loyalty.run_expiry(pb::RunExpiryRequest {}).await.unwrap().into_inner();
    assert_eq!((first.entries, first.points), (1, 300));
    let second = loyalty.run_expiry(pb::RunExpiryRequest {}).await.unwrap().into_inner();
    assert_eq!((second.entries, second.points), (0, 0));
    assert_eq!(balance(app, &t).await, 200);
    assert_eq!(ledger_sum(app, &pid).await, (200, 200));
}

async fn offers_follow_the_override_rule_and_activate_once(app: &TestApp) {
    let a = app.sign_in("demo@example.com").await;
    let b = app.sign_in("other@example.com").await;

    let offers = app.get("/api/profile/benefits", Some(&a)).await.body;
    let by_id = |id: i64| offers["data"].as_array().unwrap().iter().find(|o| o["id"] == id).unwrap().clone();
    let double = by_id(201);
    assert_eq!(double["name"], "Double points this weekend", "published, claimable, with meta: overridden");
    assert_eq!(double["banner_mobile"], "2× points, Friday to Sunday");
    assert_eq!((double["is_claimable"].as_bool(), double["activated"].as_bool()), (Some(true), Some(false)));
    let birthday = by_id(202);
    assert_eq!(birthday["name"], "Birthday gift", "not claimable: its meta's title does not apply");
    assert!(birthday["banner_desktop"].is_null());
    assert_eq!(by_id(203)["activated"], true);

    // Activating twice (at once, then again) activates once.
    let url = "/api/profile/benefits/201/activate";
    let (r1, r2) = tokio::join!(app.post(url, Some(&a), json!({})), app.post(url, Some(&a), json!({})));
    assert_eq!((r1.status, r2.status), (200, 200), "{:?}", r1.body);
    assert_eq!(r1.body["data"]["activated"], true);
    assert_eq!(r1.body["data"]["activated_at"], r2.body["data"]["activated_at"]);
    let r3 = app.post(url, Some(&a), json!({})).await;
    assert_eq!(r3.body["data"]["activated_at"], r1.body["data"]["activated_at"]);
    let activated = app.profile_db().await;
    let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM benefits WHERE id = 201 AND activated_at IS NOT NULL")
        .fetch_one(&activated.pool)
        .await
        .unwrap()
        .get("n");
    assert_eq!(n, 1);
    let refused = app.post("/api/profile/benefits/202/activate", Some(&a), json!({})).await;
    assert_error_shape(&refused, 409);
    assert_eq!(refused.body["message"], "This offer doesn't need activating");
    assert_error_shape(&app.post(url, Some(&b), json!({})).await, 404);
    assert_error_shape(&app.post("/api/profile/benefits/x/activate", Some(&a), json!({})).await, 404);

    // The definition as stored, read as the body itself.
    let d = app.get("/api/benefits/definitions/301", Some(&a)).await;
    assert_eq!(d.status, 200);
    assert_eq!((d.body["is_published"].as_bool(), d.body["is_claimable"].as_bool()), (Some(true), Some(true)));
    assert_eq!(
        d.body["meta"]["profileportal"]["banner_desktop"],
        "Activate now and earn 2× points on everything you buy, Friday to Sunday."
    );
    assert!(app.get("/api/benefits/definitions/303", Some(&a)).await.body["meta"].is_null());
    assert_error_shape(&app.get("/api/benefits/definitions/999", Some(&a)).await, 404);
    assert_error_shape(&app.get("/api/benefits/definitions/301", None).await, 401);

    // The eight cases of the rule, end to end: meta or not, published or not, claimable or not.
    let db = app.profile_db().await;
    let bid = TestApp::pid(&b);
    let ends = portal_common::now_unix() + 10 * DAY;
    let meta = r#"{"profileportal": {"title": "Overridden", "banner_desktop": "Banner"}}"#;
    let mut case = 0;
    for has_meta in [false, true] {
        for published in [0i64, 1] {
            for claimable in [0i64, 1] {
                case += 1;
                sqlx::query("INSERT INTO benefit_definitions (id, tenant, name, description, meta, is_published, is_claimable, ends_at) VALUES ($1, 'demo', 'Own', 'Text', $2, $3, $4, $5)")
                    .bind(900 + case)
                    .bind(has_meta.then_some(meta))
                    .bind(published)
                    .bind(claimable)
                    .bind(ends)
                    .execute(&db.pool)
                    .await
                    .unwrap();
                sqlx::query("INSERT INTO benefits (id, profile_id, name, description, ends_at, definition_id) VALUES ($1, $2, 'Own', 'Text', $3, $4)")
                    .bind(800 + case)
                    .bind(&bid)
                    .bind(ends)
                    .bind(900 + case)
                    .execute(&db.pool)
                    .await
                    .unwrap();
            }
        }
    }
    let theirs = app.get("/api/profile/benefits", Some(&b)).await.body;
    let mut seen = 0;
    for o in theirs["data"].as_array().unwrap() {
        let def = app.get(&format!("/api/benefits/definitions/{}", o["definition_id"]), Some(&b)).await.body;
        let applies = !def["meta"].is_null() && def["is_published"] == true && def["is_claimable"] == true;
        let expected = if applies { ("Overridden", json!("Banner")) } else { ("Own", Value::Null) };
        assert_eq!((o["name"].as_str().unwrap(), o["banner_desktop"].clone()), expected, "{def}");
        seen += 1;
    }
    assert_eq!(seen, 8);
}

async fn the_profiles_tier_follows_what_is_earned(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let pid = TestApp::pid(&t);
    // Read (and cache) the profile: Gold.
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["tier_handle"], "gold");
    // A big purchase arrives from the till feed: 2,000 points earned, the account due for a review.
    let db = app.profile_db().await;
    let now = portal_common::now_unix();
    sqlx::query(
        "INSERT INTO loyalty_ledger (id, profile_id, kind, source, reason, reference, points, issued_at, expires_at, remaining, seq, created_at_ms)
         VALUES ('led_test_big', $1, 'earn', 'purchase', 'Chadstone', 'test:big', 2000, $2, NULL, 2000, 1000, 0)",
    )
    .bind(&pid)
    .bind(now)
    .execute(&db.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE loyalty_accounts SET review_at = 0 WHERE profile_id = $1").bind(&pid).execute(&db.pool).await.unwrap();
    // The job reviews due tiers: the profile (its cached copy marked stale) says Platinum.
    app.loyalty().run_expiry(pb::RunExpiryRequest {}).await.unwrap();
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["tier_handle"], "platinum");
    let p = app.get("/api/profile/tiers/progress", Some(&t)).await.body["data"].clone();
    assert_eq!(
        (p["current"]["handle"].as_str(), p["needed"].as_i64(), p["progress_percent"].as_i64()),
        (Some("platinum"), Some(0), Some(100))
    );
    assert!(p["next"].is_null());
    let review: Option<i64> = sqlx::query("SELECT review_at FROM loyalty_accounts WHERE profile_id = $1")
        .bind(&pid)
        .fetch_one(&db.pool)
        .await
        .unwrap()
        .get("review_at");
    assert_eq!(review, p["kept_until"].as_str().map(|_| secs(&p["kept_until"])), "the next review is when Platinum would end");
}

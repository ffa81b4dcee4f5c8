//! POST /api/profile/rewards/redeem: a redemption happens once per Idempotency-Key, also when 50
//! race against points for 3 (the ledger still balances), and a staff view cannot spend.
use super::{balance, ledger_sum, redeem, secs, DAY};
use crate::helpers::{assert_error_shape, TestApp};
use portal_proto::profile::v1 as pb;
use serde_json::{json, Value};

crate::both!(
    a_redemption_happens_once_per_key,
    fifty_concurrent_redemptions_against_points_for_three,
    staff_viewing_an_account_cannot_spend_its_points,
);

async fn a_redemption_happens_once_per_key(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let pid = TestApp::pid(&t);
    let before = balance(app, &t).await;

    let (r, replayed) = redeem(app, &t, Some("key-one"), "coffee").await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    assert_eq!(replayed, None);
    let voucher = r.body["data"]["reward"].clone();
    assert_eq!((r.body["data"]["points_spent"].as_i64(), r.body["data"]["balance"].as_i64()), (Some(300), Some(before - 300)));
    assert_eq!(
        (voucher["status"].as_str(), voucher["source"].as_str(), voucher["catalogue_id"].as_str()),
        (Some("available"), Some("redemption"), Some("coffee"))
    );
    assert_eq!(voucher["code"].as_str().unwrap().len(), 14);
    assert!((secs(&voucher["expires_at"]) - secs(&voucher["issued_at"]) - 30 * DAY).abs() < 2, "valid for 30 days");
    assert_eq!(balance(app, &t).await, before - 300);

    // A retry gets the first answer again, and nothing more is spent.
    let (again, replayed) = redeem(app, &t, Some("key-one"), "coffee").await;
    assert_eq!(again.status, 201);
    assert_eq!(replayed.as_deref(), Some("true"));
    assert_eq!(again.body["data"]["reward"]["id"], voucher["id"]);
    assert_eq!(again.body["data"]["balance"], r.body["data"]["balance"]);
    assert_eq!(balance(app, &t).await, before - 300);

    // The same key for something else is refused; so is a request without a usable key.
    let (other, _) = redeem(app, &t, Some("key-one"), "voucher-10").await;
    assert_error_shape(&other, 422);
    assert!(other.body["errors"]["idempotency_key"].is_string());
    for key in [None, Some(""), Some(&*"k".repeat(256))] {
        let (r, _) = redeem(app, &t, key, "coffee").await;
        assert_error_shape(&r, 400);
        assert!(r.body["errors"]["idempotency_key"].is_string());
    }
    let (unknown, _) = redeem(app, &t, Some("key-two"), "yacht").await;
    assert_error_shape(&unknown, 422);
    assert!(unknown.body["errors"]["catalogue_id"].is_string());

    // Not enough points: refused, and the retry gets the same refusal.
    let (poor, _) = redeem(app, &t, Some("key-three"), "styling").await;
    assert_error_shape(&poor, 409);
    assert_eq!(poor.body["message"], "You don't have enough points for this reward");
    assert_eq!(redeem(app, &t, Some("key-three"), "styling").await.0.status, 409);

    // Ten retries of one new key at once: one voucher, one debit.
    let keyed: Vec<_> = (0..10).map(|_| redeem(app, &t, Some("key-four"), "coffee")).collect();
    let answers = futures::future::join_all(keyed).await;
    let ids: std::collections::BTreeSet<String> = answers.iter().map(|(r, _)| r.body["data"]["reward"]["id"].to_string()).collect();
    assert!(answers.iter().all(|(r, _)| r.status == 201));
    assert_eq!(ids.len(), 1, "one voucher for one key");
    assert_eq!(balance(app, &t).await, before - 600);

    // The vouchers are among the member's rewards; the ledger has one debit each, oldest points first.
    let rewards = app.get("/api/profile/rewards", Some(&t)).await.body;
    assert_eq!(
        rewards["data"].as_array().unwrap().iter().filter(|r| r["catalogue_id"] == "coffee" && r["status"] == "available").count(),
        2
    );
    let ledger = app.get("/api/profile/points?sort=-issued_at", Some(&t)).await.body;
    assert_eq!(ledger["data"][0]["source"], "redemption");
    assert_eq!(ledger["data"][0]["reason"], "Free coffee");
    let expiring = app.get("/api/profile/points/expiring", Some(&t)).await.body;
    assert_eq!(expiring["data"][0]["points"], 600, "the 600 came out of the oldest points, those expiring next");
    assert_eq!(ledger_sum(app, &pid).await, (before - 600, before - 600));
}

async fn fifty_concurrent_redemptions_against_points_for_three(app: &TestApp) {
    let t = app.sign_in("other@example.com").await;
    let pid = TestApp::pid(&t);
    // 500 + 3,499 = 3,999: three $10 vouchers (1,000 each), not four.
    let adj = app
        .loyalty()
        .adjust_points(pb::AdjustPointsRequest {
            profile_id: pid.clone(),
            points: 3499,
            source: "staff".into(),
            reason: "Goodwill".into(),
            reference: "test:goodwill".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((adj.balance, adj.created), (3999, true));

    let tasks: Vec<_> = (0..50)
        .map(|i| {
            let (http, url, t) = (app.http.clone(), app.url("/api/profile/rewards/redeem"), t.clone());
            tokio::spawn(async move {
                let res = http
                    .post(url)
                    .bearer_auth(t)
                    .header("Idempotency-Key", format!("race-{i}"))
                    .json(&json!({"catalogue_id": "voucher-10"}))
                    .send()
                    .await
                    .unwrap();
                let status = res.status().as_u16();
                (status, res.json::<Value>().await.unwrap())
            })
        })
        .collect();
    let mut statuses = std::collections::BTreeMap::new();
    for task in tasks {
        let (status, body) = task.await.unwrap();
        *statuses.entry(status).or_insert(0) += 1;
        if status == 201 {
            assert!(body["data"]["balance"].as_i64().unwrap() >= 0);
        } else {
            assert_eq!(body["message"], "You don't have enough points for this reward");
        }
    }
    assert_eq!(statuses, [(201, 3), (409, 47)].into(), "exactly three succeed");
    assert_eq!(balance(app, &t).await, 999);
    assert_eq!(ledger_sum(app, &pid).await, (999, 999), "the balance is the ledger's sum, and the lots hold it");
    let vouchers = app.get("/api/profile/rewards", Some(&t)).await.body;
    assert_eq!(vouchers["data"].as_array().unwrap().len(), 3);
    // An adjustment posted again under its reference changes nothing; one larger than the balance is refused.
    let again = app
        .loyalty()
        .adjust_points(pb::AdjustPointsRequest {
            profile_id: pid.clone(),
            points: 3499,
            source: "staff".into(),
            reason: "Goodwill".into(),
            reference: "test:goodwill".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!((again.balance, again.created), (999, false));
    let too_much = app
        .loyalty()
        .adjust_points(pb::AdjustPointsRequest {
            profile_id: pid.clone(),
            points: -1000,
            source: "import".into(),
            reason: "Correction".into(),
            reference: "test:corr".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(too_much.code(), tonic::Code::FailedPrecondition);
    assert_eq!(balance(app, &t).await, 999);
}

async fn staff_viewing_an_account_cannot_spend_its_points(app: &TestApp) {
    let staff = app.sign_in("staff@example.com").await;
    let target = TestApp::pid(&app.sign_in("demo@example.com").await);
    let staff_id = crate::helpers::payload(&staff)["pid"].as_str().unwrap().to_string();
    let imp =
        app.post(&format!("/api/auth/impersonate/{target}"), Some(&staff), json!({"staffId": staff_id, "reason": "Points question"})).await;
    let t = imp.body["token"].as_str().unwrap().to_string();
    let before = balance(app, &t).await;
    let (r, _) = redeem(app, &t, Some("staff-1"), "coffee").await;
    assert_error_shape(&r, 403);
    assert_error_shape(&app.post("/api/profile/benefits/201/activate", Some(&t), json!({})).await, 403);
    assert_eq!(balance(app, &t).await, before, "staff can read the balance; it did not move");
}

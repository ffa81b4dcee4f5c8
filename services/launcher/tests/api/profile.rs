//! GET /api/profile and what hangs off it: each member sees only their own data.
use crate::helpers::{assert_error_shape, TestApp};
use serde_json::json;

crate::both!(members_read_only_their_own_data);

async fn members_read_only_their_own_data(app: &TestApp) {
    let a = app.sign_in("demo@example.com").await;
    let b = app.sign_in("other@example.com").await;

    let pa = app.get("/api/profile", Some(&a)).await.body;
    let pb = app.get("/api/profile", Some(&b)).await.body;
    assert_eq!(pa["email"], "demo@example.com");
    assert_eq!(pa["first_name"], "Dana");
    assert_eq!(pa["tier_handle"], "gold");
    assert_eq!(pa["region"]["handle"], "au");
    assert_eq!(pa["custom_attributes"]["locale"]["language"], "en");
    assert_eq!(pa["attributes"]["comms"]["email"], true);
    assert_eq!(pa["identities"][0]["handle"], "email");
    assert_eq!(pb["email"], "other@example.com");
    assert_ne!(pa["id"], pb["id"]);

    // Transactions: newest first, with items; B has none of A's.
    let ta = app.get("/api/profile/transactions?include=product", Some(&a)).await.body;
    let data = ta["data"].as_array().unwrap();
    assert_eq!(data.len(), 3);
    assert_eq!(ta["meta"]["total"], 3);
    let times: Vec<&str> = data.iter().map(|t| t["transacted_at"].as_str().unwrap()).collect();
    let mut sorted = times.clone();
    sorted.sort_by(|x, y| y.cmp(x));
    assert_eq!(times, sorted, "newest first");
    assert_eq!(data[0]["total_cents"], 12990);
    assert_eq!(data[0]["items"].as_array().unwrap().len(), 2);
    assert_eq!(data[0]["items"][0]["product"]["id"], "prd_linen_shirt");
    // A refund stays an exact negative amount.
    assert_eq!(data[2]["items"][1]["amount_cents"], -6995);

    let page2 = app.get("/api/profile/transactions?page=2&per_page=2", Some(&a)).await.body;
    assert_eq!(page2["data"].as_array().unwrap().len(), 1);
    assert_eq!(page2["data"][0]["id"], data[2]["id"]);

    let tb = app.get("/api/profile/transactions", Some(&b)).await.body;
    assert_eq!(tb["data"].as_array().unwrap().len(), 0);

    for path in ["/api/profile/rewards", "/api/profile/benefits", "/api/profile/points"] {
        let ra = app.get(path, Some(&a)).await;
        assert_eq!(ra.status, 200, "{path}");
        assert!(!ra.body["data"].as_array().unwrap().is_empty(), "{path}");
        let rb = app.get(path, Some(&b)).await.body;
        let ids_a: Vec<_> = ra.body["data"].as_array().unwrap().iter().map(|x| x["id"].clone()).collect();
        assert!(rb["data"].as_array().unwrap().iter().all(|x| !ids_a.contains(&x["id"])), "{path}: B sees none of A's");
    }
    assert_eq!(app.get("/api/profile/balances", Some(&a)).await.body["data"]["points"], 3049);
    assert_eq!(app.get("/api/profile/balances", Some(&b)).await.body["data"]["points"], 500);
    assert_eq!(app.get("/api/profile/tiers", Some(&a)).await.body["data"][0]["handle"], "silver");

    // The demo member links their airline account themselves; the other member's is linked.
    assert_eq!(app.get("/api/qff/points", Some(&a)).await.body["linked"], false);
    let qb = app.get("/api/qff/points", Some(&b)).await.body;
    assert_eq!((&qb["linked"], &qb["qff_number"], &qb["points"]), (&json!(true), &json!("1900654321"), &json!(12000)));

    assert_eq!(app.get("/api/connections", Some(&a)).await.body["data"][0]["connector"], "shopify");
    assert_eq!(app.get("/api/connections", Some(&b)).await.body["data"].as_array().unwrap().len(), 0);

    // Every member route refuses a visitor.
    for path in ["/api/profile", "/api/profile/transactions", "/api/profile/rewards", "/api/qff/points", "/api/connections"] {
        assert_error_shape(&app.get(path, None).await, 401);
    }
}

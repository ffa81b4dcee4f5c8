//! Issue 22, finding 9: a loyalty card (`PUT /api/profile` identity `loyalty_card`) is the
//! brand's. Only a card in its record, active and held by nobody else, can be linked; a number is
//! one card however it is typed (case, spaces, hyphens); and every refusal (another member's
//! card, an unknown or a blocked number) reads the same, naming no other account. The demo record
//! holds LC1001 to LC1005, free, and LC1099, blocked.
use crate::helpers::{assert_error_shape, Reply, TestApp};
use serde_json::{json, Value};

crate::both!(a_card_links_only_from_the_brands_record, two_members_racing_for_a_card);

async fn link(app: &TestApp, t: &str, number: &str) -> Reply {
    app.call("PUT", "/api/profile", Some(t), Some(json!({"identities": [{"handle": "loyalty_card", "identifier": number}]}))).await
}

fn card(profile: &Value) -> Option<String> {
    profile["identities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["handle"] == "loyalty_card")
        .map(|i| i["identifier"].as_str().unwrap().to_string())
}

const CANNOT_LINK: &str = "We couldn't link this card. Check the number, or ask in store.";

async fn a_card_links_only_from_the_brands_record(app: &TestApp) {
    let a = app.sign_in("demo@example.com").await;
    let b = app.sign_in("other@example.com").await;
    let r = link(app, &a, " lc-1001 ").await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(card(&r.body).as_deref(), Some("LC1001"), "stored in its one form");

    // Squatting it, as typed or in any other spelling; an unknown number; a blocked card: all
    // refused alike, on the field, without a word about whose it is.
    let refusals: Vec<Reply> =
        futures::future::join_all(["LC1001", "lc1001", "LC-1001", "Lc 10-01", "LC9999", "ZZ00000001", "LC1099"].map(|n| link(app, &b, n)))
            .await;
    for r in &refusals {
        assert_error_shape(r, 422);
        assert_eq!(r.body["errors"], json!({"identities.0.identifier": CANNOT_LINK}));
    }
    assert!(refusals.windows(2).all(|w| w[0].body == w[1].body), "one answer for every reason");
    assert_eq!(card(&app.get("/api/profile", Some(&b)).await.body), None);
    assert_eq!(card(&app.get("/api/profile", Some(&a)).await.body).as_deref(), Some("LC1001"), "still the holder's");

    // A free card links.
    let r = link(app, &b, "lc1002").await;
    assert_eq!((r.status, card(&r.body).as_deref()), (200, Some("LC1002")), "{:?}", r.body);
    // Linking another card frees the first; unlinking frees the card.
    assert_eq!(link(app, &a, "LC1003").await.status, 200);
    let r = link(app, &b, "LC1001").await;
    assert_eq!((r.status, card(&r.body).as_deref()), (200, Some("LC1001")), "{:?}", r.body);
    assert_eq!(link(app, &b, "").await.status, 200);
    assert_eq!(link(app, &a, "lc-1002").await.status, 200, "freed when its holder moved to another card");
    assert_eq!(link(app, &a, "LC1001").await.status, 200, "freed by unlinking");
}

async fn two_members_racing_for_a_card(app: &TestApp) {
    let a = app.sign_in("demo@example.com").await;
    let b = app.sign_in("other@example.com").await;
    let tries = (0..6).map(|i| link(app, if i % 2 == 0 { &a } else { &b }, if i % 3 == 0 { "LC1004" } else { "lc-1004" }));
    let replies = futures::future::join_all(tries).await;
    let mut winners = Vec::new();
    for t in [&a, &b] {
        winners.extend(card(&app.get("/api/profile", Some(t)).await.body));
    }
    assert_eq!(winners, ["LC1004"], "exactly one member holds it");
    assert!(
        replies.iter().all(|r| r.status == 200 || r.status == 422),
        "{:?}",
        replies.iter().map(|r| (r.status, &r.body)).collect::<Vec<_>>()
    );
}

//! The wish list screen's writes (issue 24): removing a list item and moving it to another list,
//! the member's own only (another member's ids: 404 in the error shape), a staff view refused
//! (403); and the links from purchases following what happened to the item.
use crate::helpers::{assert_error_shape, payload, TestApp};
use serde_json::{json, Value};
use std::collections::BTreeMap;

crate::both!(items_are_removed_and_moved, another_members_items_and_a_staff_view_are_refused);

/// A new `wishlist` connection with lists `wishlist` and `later`: (connection, wish list, later).
async fn two_lists(app: &TestApp, t: &str) -> (String, String, String) {
    let r = app.post("/api/connections", Some(t), json!({"definition_id": "wishlist"})).await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    let con = r.body["data"]["id"].as_str().unwrap().to_string();
    let mut ids = vec![];
    for handle in ["wishlist", "later"] {
        let r = app.post(&format!("/api/connections/{con}/lists"), Some(t), json!({"handle": handle})).await;
        assert_eq!(r.status, 201, "{:?}", r.body);
        ids.push(r.body["data"]["id"].as_str().unwrap().to_string());
    }
    (con, ids[0].clone(), ids[1].clone())
}

async fn add(app: &TestApp, t: &str, con: &str, list: &str, body: Value) -> String {
    let r = app.post(&format!("/api/connections/{con}/lists/{list}/items"), Some(t), body).await;
    assert_eq!(r.status, 201, "{:?}", r.body);
    r.body["data"]["id"].as_str().unwrap().to_string()
}

/// The list items of each list of the connection, by list id.
async fn items_by_list(app: &TestApp, t: &str, con: &str) -> BTreeMap<String, Vec<String>> {
    let r = app.get(&format!("/api/connections/{con}/lists"), Some(t)).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let lists = r.body["data"].as_array().unwrap();
    let ids = |l: &Value| l["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap().to_string()).collect();
    lists.iter().map(|l| (l["id"].as_str().unwrap().to_string(), ids(l))).collect()
}

/// The purchased item's link as My Orders reads it.
async fn link_of(app: &TestApp, t: &str, item: &str) -> Value {
    let txs = app.get("/api/profile/transactions?per_page=100&include_list_item=1", Some(t)).await;
    assert_eq!(txs.status, 200, "{:?}", txs.body);
    let all = txs.body["data"].as_array().unwrap().iter().flat_map(|t| t["items"].as_array().unwrap().clone()).collect::<Vec<_>>();
    all.into_iter().find(|i| i["id"] == item).expect("the purchased item")["list_item"].clone()
}

async fn items_are_removed_and_moved(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let (con, wish, later) = two_lists(app, &t).await;
    let shirt = add(app, &t, &con, &wish, json!({"product_variant_id": "var_linen_shirt_m"})).await;
    let belt = add(app, &t, &con, &wish, json!({"product_id": "prd_canvas_belt"})).await;
    let link = "/api/profile/transactions/items/txn_demo_1_item0/list-item";
    let r = app.post(link, Some(&t), json!({"product_list_item_id": shirt, "type": "link"})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);

    // Moved: the same item, in the other list; the purchase's link names where it is now.
    let moved = app.post(&format!("/api/connections/{con}/lists/{wish}/items/{shirt}/move"), Some(&t), json!({"list_id": later})).await;
    assert_eq!(moved.status, 200, "{:?}", moved.body);
    assert_eq!((moved.body["data"]["id"].as_str(), moved.body["data"]["list_id"].as_str()), (Some(shirt.as_str()), Some(later.as_str())));
    assert_eq!(moved.body["data"]["product_variant_id"], "var_linen_shirt_m");
    assert_eq!(
        items_by_list(app, &t, &con).await,
        BTreeMap::from([(wish.clone(), vec![belt.clone()]), (later.clone(), vec![shirt.clone()])])
    );
    assert_eq!(link_of(app, &t, "txn_demo_1_item0").await, json!({"id": shirt, "list_id": later, "connection_id": con}));
    // Named through the list it was in: 404 now; a move needs somewhere to go.
    let stale = app.post(&format!("/api/connections/{con}/lists/{wish}/items/{shirt}/move"), Some(&t), json!({"list_id": later})).await;
    assert_error_shape(&stale, 404);
    for body in [json!({}), json!({"list_id": " "})] {
        let r = app.post(&format!("/api/connections/{con}/lists/{later}/items/{shirt}/move"), Some(&t), body).await;
        assert_error_shape(&r, 422);
        assert!(r.body["errors"]["list_id"].is_string(), "{:?}", r.body);
    }
    let nowhere =
        app.post(&format!("/api/connections/{con}/lists/{later}/items/{shirt}/move"), Some(&t), json!({"list_id": "lst_nope"})).await;
    assert_error_shape(&nowhere, 404);

    // Removed: gone from the list, and the purchase is no longer shown as on a list.
    let path = format!("/api/connections/{con}/lists/{later}/items/{shirt}");
    let r = app.call("DELETE", &path, Some(&t), None).await;
    assert_eq!(r.status, 204, "{:?}", r.body);
    assert_eq!(items_by_list(app, &t, &con).await, BTreeMap::from([(wish.clone(), vec![belt.clone()]), (later.clone(), vec![])]));
    assert!(link_of(app, &t, "txn_demo_1_item0").await.is_null(), "a removed item's link is not shown");
    assert_error_shape(&app.call("DELETE", &path, Some(&t), None).await, 404);
    // Added again from the order: on the list again, with the link shown.
    let again = add(app, &t, &con, &wish, json!({"product_variant_id": "var_linen_shirt_m"})).await;
    let r = app.post(link, Some(&t), json!({"product_list_item_id": again, "type": "link"})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(link_of(app, &t, "txn_demo_1_item0").await["id"], again.as_str());
}

async fn another_members_items_and_a_staff_view_are_refused(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let o = app.sign_in("other@example.com").await;
    let (con, wish, later) = two_lists(app, &t).await;
    let item = add(app, &t, &con, &wish, json!({"product_id": "prd_canvas_belt"})).await;
    let (his_con, his_list, _) = two_lists(app, &o).await;
    let path = format!("/api/connections/{con}/lists/{wish}/items/{item}");

    assert_error_shape(&app.call("DELETE", &path, Some(&o), None).await, 404);
    assert_error_shape(&app.post(&format!("{path}/move"), Some(&o), json!({"list_id": his_list})).await, 404);
    // Nor can Dana's item go into Omar's list, or his item be named through her connection.
    assert_error_shape(&app.post(&format!("{path}/move"), Some(&t), json!({"list_id": his_list})).await, 404);
    let his_item = add(app, &o, &his_con, &his_list, json!({"product_id": "prd_wool_socks"})).await;
    let r = app.call("DELETE", &format!("/api/connections/{con}/lists/{wish}/items/{his_item}"), Some(&t), None).await;
    assert_error_shape(&r, 404);
    assert_eq!(items_by_list(app, &o, &his_con).await[&his_list], vec![his_item]);

    // A staff view of Dana's account sees her lists and changes nothing.
    let staff = app.sign_in("staff@example.com").await;
    let pid = TestApp::pid(&t);
    let r = app
        .post(
            &format!("/api/auth/impersonate/{pid}"),
            Some(&staff),
            json!({"staffId": payload(&staff)["pid"], "reason": "Customer called"}),
        )
        .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let view = r.body["token"].as_str().unwrap().to_string();
    assert_eq!(items_by_list(app, &view, &con).await[&wish], vec![item.clone()]);
    assert_error_shape(&app.call("DELETE", &path, Some(&view), None).await, 403);
    assert_error_shape(&app.post(&format!("{path}/move"), Some(&view), json!({"list_id": later})).await, 403);
    assert_eq!(items_by_list(app, &t, &con).await, BTreeMap::from([(wish.clone(), vec![item]), (later, vec![])]));
}

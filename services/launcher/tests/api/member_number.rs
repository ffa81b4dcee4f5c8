//! The member number (issue 24): GET /api/profile answers it, a registration gets one, and staff
//! find a member by any run of its digits through POST /api/auth/searchById, which a member can't.
use crate::helpers::{assert_error_shape, TestApp};
use portal_profile::member_number::is_valid;
use serde_json::json;

crate::both!(every_member_has_a_member_number, staff_find_a_member_by_part_of_their_number);

async fn every_member_has_a_member_number(app: &TestApp) {
    let demo = app.sign_in("demo@example.com").await;
    let p = app.get("/api/profile", Some(&demo)).await;
    assert_eq!(p.status, 200, "{:?}", p.body);
    let number = p.body["memberNumber"].as_str().unwrap().to_string();
    assert!(is_valid(&number), "{number}");
    assert_ne!(number, p.body["id"].as_str().unwrap(), "not the internal id");

    let other = app.sign_in("other@example.com").await;
    let o = app.get("/api/profile", Some(&other)).await.body["memberNumber"].as_str().unwrap().to_string();
    assert!(is_valid(&o) && o != number, "each their own");

    let created = app.post("/api/auth/create", None, json!({"email": "nia@example.com", "first_name": "Nia", "last_name": "New"})).await;
    assert_eq!(created.status, 202, "{:?}", created.body);
    let nia = app.sign_in("nia@example.com").await;
    let n = app.get("/api/profile", Some(&nia)).await.body["memberNumber"].as_str().unwrap().to_string();
    assert!(is_valid(&n) && n != number && n != o, "{n}");
}

async fn staff_find_a_member_by_part_of_their_number(app: &TestApp) {
    let other = app.sign_in("other@example.com").await;
    let number = app.get("/api/profile", Some(&other)).await.body["memberNumber"].as_str().unwrap().to_string();
    let staff = app.sign_in("staff@example.com").await;
    let search = |q: String| json!({"type": "member_number", "id": q});

    let whole = app.post("/api/auth/searchById", Some(&staff), search(number.clone())).await;
    assert_eq!(whole.status, 200, "{:?}", whole.body);
    assert_eq!(whole.body["data"].as_array().unwrap().len(), 1);
    assert_eq!(whole.body["data"][0]["email"], "other@example.com");
    let spaced = format!("{} {} {}", &number[..4], &number[4..8], &number[8..]);
    let as_printed = app.post("/api/auth/searchById", Some(&staff), search(spaced)).await;
    assert_eq!(as_printed.body["data"][0]["email"], "other@example.com");
    let part = app.post("/api/auth/searchById", Some(&staff), search(number[6..].to_string())).await;
    assert!(part.body["data"].as_array().unwrap().iter().any(|m| m["email"] == "other@example.com"), "{:?}", part.body);

    let by_name = app.post("/api/auth/searchById", Some(&staff), json!({"type": "name", "id": "oliver oth"})).await;
    assert_eq!(by_name.body["data"][0]["email"], "other@example.com", "{:?}", by_name.body);
    let by_email = app.post("/api/auth/searchById", Some(&staff), json!({"type": "email", "id": "OTHER@"})).await;
    assert_eq!(by_email.body["data"][0]["email"], "other@example.com", "{:?}", by_email.body);
    let by_phone = app.post("/api/auth/searchById", Some(&staff), json!({"type": "phone", "id": "400 000 001"})).await;
    assert_eq!(by_phone.body["data"][0]["email"], "demo@example.com", "{:?}", by_phone.body);

    // A member can't search, not even for their own number.
    assert_error_shape(&app.post("/api/auth/searchById", Some(&other), search(number.clone())).await, 403);
    assert_error_shape(&app.post("/api/auth/searchById", None, search(number)).await, 401);
}

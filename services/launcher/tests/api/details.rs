//! Issue 4: the member's own profile edits, custom attributes, messaging consent and its history,
//! and the reference data behind the pickers (countries, locations).
use crate::helpers::{assert_error_shape, TestApp};
use serde_json::{json, Value};

crate::both!(
    edits_persist_and_are_normalised,
    phone_numbers_are_read_in_the_members_country,
    invalid_input_writes_nothing,
    identities_are_linked_once,
    custom_attributes_are_checked,
    comms_changes_are_kept_as_consent_history,
    concurrent_edits_of_different_fields_both_stick,
    reference_data_for_the_pickers,
);

async fn put(app: &TestApp, path: &str, token: &str, body: Value) -> crate::helpers::Reply {
    app.call("PUT", path, Some(token), Some(body)).await
}

async fn edits_persist_and_are_normalised(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    // Read first, so the profile is in the cache: the write must not leave it stale.
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["first_name"], "Dana");
    let r = put(
        app,
        "/api/profile",
        &t,
        json!({"first_name": "  Danielle ", "phone": "+61 400 111 222", "birth_date": "1991-02-03",
               "address": {"line1": "10 Collins St", "line2": "Level 2", "city": "Melbourne", "state": "victoria", "postcode": "3000", "country": "australia"}}),
    )
    .await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["first_name"], "Danielle");
    assert_eq!(r.body["phone"], "+61400111222");
    assert_eq!(
        r.body["address"],
        json!({"line1": "10 Collins St", "line2": "Level 2", "city": "Melbourne", "state": "VIC", "postcode": "3000", "country": "AU"})
    );
    let p = app.get("/api/profile", Some(&t)).await.body;
    assert_eq!(p["first_name"], "Danielle", "the cached copy was dropped");
    assert_eq!(p["last_name"], "Demo", "fields not sent are unchanged");
    assert_eq!(p["birth_date"], "1991-02-03");
    assert_eq!(p["address"]["state"], "VIC");

    // Only the keys sent change; an all-empty address clears it.
    let r = put(app, "/api/profile", &t, json!({"address": {"line1": "", "city": "", "postcode": "", "country": ""}})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["address"]["country"], "");
    assert_eq!(r.body["first_name"], "Danielle");

    // Another member's profile is untouched.
    let o = app.sign_in("other@example.com").await;
    assert_eq!(app.get("/api/profile", Some(&o)).await.body["first_name"], "Oliver");
}

/// A number written as it is dialled in the member's country (the address's, else the region's,
/// else the tenant's `defaultCountry`) is kept in E.164; one that can't be that country's is
/// refused on the field.
async fn phone_numbers_are_read_in_the_members_country(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let r = put(app, "/api/profile", &t, json!({"phone": "0400 123 456"})).await;
    assert_eq!((r.status, r.body["phone"].as_str()), (200, Some("+61400123456")), "{:?}", r.body);
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["phone"], "+61400123456");

    let r = put(app, "/api/profile", &t, json!({"phone": "0400 123"})).await;
    assert_error_shape(&r, 422);
    let message = r.body["errors"]["phone"].as_str().unwrap_or_default();
    assert!(message.contains("Australia"), "{message}");
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["phone"], "+61400123456", "nothing written");

    // With a UK address, sent with it or already kept, a UK number is read as one.
    let uk = json!({"line1": "1 High St", "city": "London", "postcode": "SW1A 1AA", "country": "GB"});
    let r = put(app, "/api/profile", &t, json!({"address": uk, "phone": "07400 123456"})).await;
    assert_eq!((r.status, r.body["phone"].as_str()), (200, Some("+447400123456")), "{:?}", r.body);
    let r = put(app, "/api/profile", &t, json!({"phone": "0400 123 456"})).await;
    assert_error_shape(&r, 422);
    assert!(r.body["errors"]["phone"].as_str().unwrap_or_default().contains("United Kingdom"), "{:?}", r.body);
    let r = put(app, "/api/profile", &t, json!({"phone": "+61 400 123 456"})).await;
    assert_eq!((r.status, r.body["phone"].as_str()), (200, Some("+61400123456")), "with + any country's number");
    let r = put(app, "/api/profile", &t, json!({"phone": ""})).await;
    assert_eq!((r.status, r.body["phone"].as_str()), (200, Some("")), "empty removes it");
}

async fn invalid_input_writes_nothing(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let before = app.get("/api/profile", Some(&t)).await.body;
    let r = put(
        app,
        "/api/profile",
        &t,
        json!({"first_name": "Valid", "email": "not-an-email", "last_name": "<script>", "phone": "0400",
               "birth_date": "2999-01-01", "address": {"line1": "1 Main St", "city": "X", "state": "Texas", "postcode": "3000", "country": "AU"}}),
    )
    .await;
    assert_error_shape(&r, 422);
    let errors = r.body["errors"].as_object().unwrap();
    for field in ["email", "last_name", "phone", "birth_date", "address.state"] {
        assert!(errors.contains_key(field), "{field} in {errors:?}");
    }
    assert!(!errors.contains_key("first_name"));
    assert_eq!(app.get("/api/profile", Some(&t)).await.body, before, "nothing written");

    let r =
        put(app, "/api/profile", &t, json!({"address": {"line1": "1 Main St", "city": "Town", "postcode": "1", "country": "Atlantis"}}))
            .await;
    assert_error_shape(&r, 422);
    assert_eq!(r.body["errors"]["address.country"], "Choose a country from the list");

    // Not JSON, or the wrong types: the error shape, and nothing written.
    let r = app.call("PUT", "/api/profile", Some(&t), Some(json!({"first_name": 5}))).await;
    assert!(r.status == 400 || r.status == 422, "{}", r.status);
    assert_eq!(r.body["error"], true);
    assert_eq!(app.get("/api/profile", Some(&t)).await.body, before);

    // Signed out: 401.
    assert_error_shape(&app.call("PUT", "/api/profile", None, Some(json!({"first_name": "X"}))).await, 401);
}

async fn identities_are_linked_once(app: &TestApp) {
    let a = app.sign_in("demo@example.com").await;
    let b = app.sign_in("other@example.com").await;
    let r = put(app, "/api/profile", &a, json!({"identities": [{"handle": "loyalty_card", "identifier": "LC-1001"}]})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    // A card of the brand's record (crate::loyalty_cards), stored in its one form.
    assert!(r.body["identities"].as_array().unwrap().iter().any(|i| i["handle"] == "loyalty_card" && i["identifier"] == "LC1001"));

    // The same card cannot be linked to another account; a frequent-flyer number only through
    // the airline's check (/api/qff/link).
    let r = put(app, "/api/profile", &b, json!({"identities": [{"handle": "loyalty_card", "identifier": "LC-1001"}]})).await;
    assert_error_shape(&r, 422);
    assert!(r.body["errors"]["identities.0.identifier"].is_string());
    let r = put(app, "/api/profile", &b, json!({"identities": [{"handle": "qff_number", "identifier": "1900123456"}]})).await;
    assert_error_shape(&r, 422);
    // Unknown handles and the email identity are refused.
    let r = put(
        app,
        "/api/profile",
        &b,
        json!({"identities": [{"handle": "email", "identifier": "x@example.com"}, {"handle": "passport", "identifier": "P1"}]}),
    )
    .await;
    assert_error_shape(&r, 422);
    assert!(r.body["errors"]["identities.0.handle"].is_string() && r.body["errors"]["identities.1.handle"].is_string());
    assert!(!app.get("/api/profile", Some(&b)).await.body["identities"].as_array().unwrap().iter().any(|i| i["handle"] == "loyalty_card"));

    // Unlinking frees the card for someone else.
    let r = put(app, "/api/profile", &a, json!({"identities": [{"handle": "loyalty_card", "identifier": ""}]})).await;
    assert_eq!(r.status, 200);
    assert!(!r.body["identities"].as_array().unwrap().iter().any(|i| i["handle"] == "loyalty_card"));
    let r = put(app, "/api/profile", &b, json!({"identities": [{"handle": "loyalty_card", "identifier": "LC-1001"}]})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
}

async fn custom_attributes_are_checked(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let base = "/api/profile/attributes/custom";
    let r = put(app, &format!("{base}/locale:language"), &t, json!({"value": "ar"})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["custom_attributes"]["locale"]["language"], "ar");

    let r = put(app, &format!("{base}/size:shoes"), &t, json!({"value": r#"{"fit":"wide","size":"9.5","system":"AU"}"#})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    let stored: Value = serde_json::from_str(r.body["custom_attributes"]["size"]["shoes"].as_str().unwrap()).unwrap();
    assert_eq!(stored, json!({"system": "AU", "size": "9.5", "fit": "wide"}));

    let r = put(app, &format!("{base}/preference:store"), &t, json!({"value": "chadstone"})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["custom_attributes"]["preference"]["store"], "chadstone");

    for (key, value, field) in [
        ("locale:language", "xx", "value"),
        ("size:shoes", r#"{"system":"AU","size":"99","fit":"wide"}"#, "value"),
        ("size:tops", "10", "value"),
        ("size:hats", "", "key"),
        ("preference:store", "nowhere", "value"),
        ("qantas:qff_last_name", "Demo", "key"),
        ("admin:role", "staff", "key"),
        ("language", "en", "key"),
    ] {
        let r = put(app, &format!("{base}/{key}"), &t, json!({"value": value})).await;
        assert_error_shape(&r, 422);
        assert!(r.body["errors"][field].is_string(), "{key}: {:?}", r.body);
    }
    let p = app.get("/api/profile", Some(&t)).await.body;
    assert_eq!(p["custom_attributes"]["locale"]["language"], "ar", "refused writes changed nothing");
    assert!(p["custom_attributes"].get("admin").is_none() && p["custom_attributes"].get("qantas").is_none());

    // An empty value removes the attribute.
    let r = put(app, &format!("{base}/size:shoes"), &t, json!({"value": ""})).await;
    assert_eq!(r.status, 200);
    assert!(r.body["custom_attributes"].get("size").is_none());
}

async fn comms_changes_are_kept_as_consent_history(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let path = "/api/profile/attributes/comms";
    let history = |b: &Value| b["data"].as_array().unwrap().clone();
    let before = history(&app.get("/api/profile/attributes/comms/history", Some(&t)).await.body);
    assert!(before.iter().all(|r| r["source"] == "import"), "demo preferences were imported: {before:?}");

    let r = put(app, path, &t, json!({"sms": true, "offers": false, "email": true})).await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert_eq!(r.body["attributes"]["comms"]["sms"], true);
    assert_eq!(r.body["attributes"]["comms"]["offers"], false);
    let h = history(&app.get("/api/profile/attributes/comms/history", Some(&t)).await.body);
    assert_eq!(h.len(), before.len() + 2, "email did not change, so it is not recorded");
    let newest: Vec<(&str, bool, &str)> =
        h[..2].iter().map(|r| (r["channel"].as_str().unwrap(), r["value"].as_bool().unwrap(), r["source"].as_str().unwrap())).collect();
    assert!(newest.contains(&("sms", true, "member")) && newest.contains(&("offers", false, "member")), "{newest:?}");

    // Later changes come first.
    let r = put(app, path, &t, json!({"sms": false})).await;
    assert_eq!(r.status, 200);
    let h = history(&app.get("/api/profile/attributes/comms/history", Some(&t)).await.body);
    assert_eq!((h[0]["channel"].as_str(), h[0]["value"].as_bool()), (Some("sms"), Some(false)));

    // An unknown key refuses the whole update.
    let r = put(app, path, &t, json!({"sms": true, "fax": true})).await;
    assert_error_shape(&r, 422);
    assert!(r.body["errors"]["fax"].is_string());
    assert_eq!(app.get("/api/profile", Some(&t)).await.body["attributes"]["comms"]["sms"], false);
    assert_eq!(history(&app.get("/api/profile/attributes/comms/history", Some(&t)).await.body).len(), h.len());

    // Another member sees only their own history.
    let o = app.sign_in("other@example.com").await;
    let oh = history(&app.get("/api/profile/attributes/comms/history", Some(&o)).await.body);
    assert!(oh.iter().all(|r| r["source"] == "import"));
    assert_error_shape(&app.get("/api/profile/attributes/comms/history", None).await, 401);
}

async fn concurrent_edits_of_different_fields_both_stick(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    for i in 0..5 {
        let first = format!("Dana{}", "a".repeat(i));
        let phone = format!("+6140000010{i}");
        let (a, b) = tokio::join!(
            put(app, "/api/profile", &t, json!({"first_name": first})),
            put(app, "/api/profile", &t, json!({"phone": phone})),
        );
        assert_eq!((a.status, b.status), (200, 200));
        let p = app.get("/api/profile", Some(&t)).await.body;
        assert_eq!((p["first_name"].as_str(), p["phone"].as_str()), (Some(first.as_str()), Some(phone.as_str())), "round {i}");
    }
}

async fn reference_data_for_the_pickers(app: &TestApp) {
    let age = app.get("/api/countries/age", None).await;
    assert_eq!(age.status, 200);
    assert!(age.body["age"].as_i64().unwrap() > 1_700_000_000);
    let c = app.get("/api/countries", None).await.body;
    let countries = c["countries"].as_array().unwrap();
    assert!(countries.len() >= 249, "every ISO 3166-1 country: {}", countries.len());
    let au = countries.iter().find(|c| c["iso_2"] == "AU").unwrap();
    assert_eq!(au["iso_3"], "AUS");
    assert_eq!(au["name"], "Australia");
    let vic = au["states"].as_array().unwrap().iter().find(|s| s["iso"] == "VIC").unwrap();
    assert_eq!(vic["iso_2_country_state_code"], "AU-VIC");
    assert_eq!(vic["name"], "Victoria");
    let names: Vec<&str> = countries.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert!(names.windows(2).all(|w| w[0] <= w[1]), "sorted by name");
    assert_eq!(app.get("/api/countries/age", None).await.body, age.body, "the age moves only when the data does");

    // Large enough to be worth compressing.
    let res = app.http.get(app.url("/api/countries")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(res.headers().get("content-encoding").map(|v| v.to_str().unwrap()), Some("gzip"));

    // Locations, nearest first from a point in Sydney.
    let g = app.get("/api/geolocation?latitude=-33.87&longitude=151.21", None).await.body;
    assert_eq!(g["latitude"], -33.87);
    let locs = g["locations"].as_array().unwrap();
    assert_eq!(locs[0]["handle"], "sydney-pitt-street");
    assert!(locs[0]["distance"].as_i64().unwrap() < 1_000);
    let d: Vec<i64> = locs.iter().map(|l| l["distance"].as_i64().unwrap()).collect();
    assert!(d.windows(2).all(|w| w[0] <= w[1]));
    let g = app.get("/api/geolocation", None).await.body;
    assert!(g["latitude"].is_null() && g["locations"][0]["distance"].is_null());
    assert_eq!(g["locations"].as_array().unwrap().len(), locs.len());
    let bad = app.get("/api/geolocation?latitude=123&longitude=abc", None).await;
    assert_error_shape(&bad, 422);
    assert!(bad.body["errors"]["latitude"].is_string() && bad.body["errors"]["longitude"].is_string());
    assert!(app.get("/api/geolocation/age", None).await.body["age"].as_i64().unwrap() > 1_700_000_000);
}

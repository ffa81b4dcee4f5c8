//! Issue 24, "In every language": the loyalty answers carry each tenant text in its default
//! language with the item's `translations` (language → field → text) beside it, from the tenant
//! file's per-language texts (catalogue, tiers) and its `translations` block (offers, gifts, bonus
//! names). The browser picks the member's language, so the answer is the same for every language:
//! no `Vary`. An edit of the tenant file applies at once.
use crate::helpers::TestApp;
use serde_json::{json, Value};

crate::both!(the_tenants_content_comes_with_its_translations);

/// The demo's `translations` block (config/tenant.json), which the test tenant leaves out.
fn write_translations(app: &TestApp, translations: &Value) {
    let path = &app.settings.tenant_config;
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["translations"] = translations.clone();
    doc["lastUpdated"] = json!(doc["lastUpdated"].as_i64().unwrap() + 1);
    std::fs::write(path, doc.to_string()).unwrap();
}

fn find<'a>(list: &'a Value, key: &str, value: &str) -> &'a Value {
    list["data"].as_array().unwrap().iter().find(|x| x[key] == value).unwrap_or_else(|| panic!("no {key} = {value} in {list}"))
}

async fn the_tenants_content_comes_with_its_translations(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;

    // The catalogue: per-language texts in the tenant file, the default text as before.
    let catalogue = app.get("/api/profile/rewards/catalogue", Some(&t)).await.body;
    let coffee = find(&catalogue, "id", "coffee");
    assert_eq!(coffee["name"], "Free coffee");
    assert_eq!(coffee["translations"]["ar"]["name"], "قهوة مجانية");
    assert_eq!(coffee["translations"]["ar"]["terms"], "قهوة واحدة لكل قسيمة في المقاهي المشاركة. غير قابلة للاستبدال نقدًا.");
    assert_eq!(coffee["translations"]["th"]["name"], "กาแฟฟรี");
    assert!(coffee["translations"].get("en").is_none(), "the default is the item's own field");

    // Tiers, in the list and in the progress.
    let tiers = app.get("/api/profile/tiers", Some(&t)).await.body;
    assert_eq!(find(&tiers, "handle", "gold")["translations"]["ar"]["name"], "ذهبي");
    let progress = app.get("/api/profile/tiers/progress", Some(&t)).await.body;
    assert_eq!(progress["data"]["current"]["translations"]["de"]["name"], "Gold");
    assert_eq!(progress["data"]["next"]["translations"]["fr"]["name"], "Platine");

    // A voucher redeemed from the catalogue and its ledger entry are translated as the catalogue
    // is; text from elsewhere (gifts, offers, bonuses) has none until the tenant writes them.
    let rewards = app.get("/api/profile/rewards", Some(&t)).await.body;
    assert_eq!(rewards["data"].as_array().unwrap().iter().find(|r| r["id"] == 103).unwrap()["translations"]["ar"]["name"], "قهوة مجانية");
    let shipping = rewards["data"].as_array().unwrap().iter().find(|r| r["name"] == "Free shipping").unwrap().clone();
    assert_eq!(shipping["translations"], json!({}));
    let offers = app.get("/api/profile/benefits", Some(&t)).await.body;
    assert!(offers["data"].as_array().unwrap().iter().all(|o| o["translations"] == json!({})), "{offers}");

    // The tenant adds its translations: they apply at once, field by field, with the fallback
    // (no Thai for the bonus: the default shows).
    let repo: Value =
        serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json")).unwrap()).unwrap();
    let mut translations = repo["translations"].clone();
    translations["Birthday bonus"].as_object_mut().unwrap().remove("th");
    write_translations(app, &translations);

    let res = app.http.get(app.url("/api/profile/benefits")).bearer_auth(&t).send().await.unwrap();
    assert!(res.headers().get("vary").is_none_or(|v| !v.to_str().unwrap().to_ascii_lowercase().contains("accept-language")));
    let offers: Value = res.json().await.unwrap();
    let double = find(&offers, "name", "Double points this weekend");
    assert_eq!(double["translations"]["ar"]["name"], "نقاط مضاعفة في عطلة نهاية هذا الأسبوع");
    assert_eq!(double["translations"]["ar"]["banner_mobile"], "نقاط 2× من الجمعة إلى الأحد");
    assert_eq!(
        double["translations"]["it"]["banner_desktop"],
        "Attiva ora e guadagna punti 2× su tutti gli acquisti, da venerdì a domenica."
    );
    let rewards = app.get("/api/profile/rewards", Some(&t)).await.body;
    let shipping = rewards["data"].as_array().unwrap().iter().find(|r| r["name"] == "Free shipping").unwrap();
    assert_eq!(shipping["translations"]["ar"]["name"], "شحن مجاني");
    assert_eq!(shipping["translations"]["ar"]["terms"], "الطلبات عبر الإنترنت داخل أستراليا.");

    let ledger = app.get("/api/profile/points?per_page=100", Some(&t)).await.body;
    let birthday = find(&ledger, "reason", "Birthday bonus");
    assert_eq!(birthday["translations"]["ar"]["reason"], "مكافأة عيد الميلاد");
    assert!(birthday["translations"].get("th").is_none(), "no Thai: the default shows");
    assert_eq!(find(&ledger, "reason", "Free coffee")["translations"]["el"]["reason"], "Δωρεάν καφές");
    assert_eq!(find(&ledger, "reason", "Chadstone")["translations"], json!({}), "a store's name is not translated");

    // The answer is the same whatever language the browser prefers.
    let ar = app.http.get(app.url("/api/profile/rewards/catalogue")).bearer_auth(&t).header("Accept-Language", "ar").send().await.unwrap();
    assert_eq!(ar.json::<Value>().await.unwrap(), app.get("/api/profile/rewards/catalogue", Some(&t)).await.body);
}

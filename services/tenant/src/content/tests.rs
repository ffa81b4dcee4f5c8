//! The tenant's texts in every language: the file's forms, the fallback to the default, the
//! phrasebook the API's `translations` come from, and the start-up checks naming the field.
use super::*;
use serde_json::{json, Value};

const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json");

fn repo() -> Tenant {
    crate::load(std::path::Path::new(REPO)).unwrap()
}

fn tenant(doc: Value) -> Result<Tenant, ConfigError> {
    Tenant::from_json(&doc.to_string())
}

fn with_catalogue_name(name: Value) -> Value {
    json!({"general": {"tenant": "t"}, "components": {"loyalty": {"catalogue": [{"id": "coffee", "name": name, "points": 300}]}}})
}

#[test]
fn a_text_is_one_string_or_one_per_language_with_the_default_as_fallback() {
    let t = tenant(with_catalogue_name(json!({"en": "Free coffee", "ar": "قهوة مجانية"}))).unwrap();
    let name = &t.components.loyalty.catalogue[0].name;
    assert_eq!((name.default_text(), name.get("ar"), name.get("th")), ("Free coffee", "قهوة مجانية", "Free coffee"));
    let t = tenant(with_catalogue_name(json!("Free coffee"))).unwrap();
    let name = &t.components.loyalty.catalogue[0].name;
    assert_eq!((name.default_text(), name.get("ar")), ("Free coffee", "Free coffee"));
}

#[test]
fn the_demo_content_comes_in_all_eight_languages() {
    let t = repo();
    let book = Phrasebook::new(&t);
    let l = &t.components.loyalty;
    let mut texts: Vec<&Text> = l.tiers.levels.iter().map(|t| &t.name).collect();
    for c in &l.catalogue {
        texts.extend([&c.name, &c.description, &c.terms]);
    }
    let meta = t.general.site_meta.as_ref().unwrap();
    texts.extend(meta.title.iter().chain(meta.description.iter()));
    for text in texts {
        for lang in LANGUAGES {
            let Text::ByLanguage(m) = text else { panic!("{text:?} is one string") };
            assert!(m.contains_key(lang), "{:?} has no {lang}", text.default_text());
        }
    }
    // Text from the loyalty platform: offers, gifts, bonus names, "Online".
    for phrase in
        ["Double points this weekend", "Happy birthday!", "Free alterations", "Free shipping", "Birthday bonus", "Welcome bonus", "Online"]
    {
        let m = book.of(phrase).unwrap_or_else(|| panic!("{phrase:?} is not translated"));
        assert_eq!(m.len(), 7, "{phrase:?}: {m:?}");
    }
    assert_eq!(book.of("Free coffee").unwrap()["ar"], "قهوة مجانية");
    assert_eq!(book.of("Birthday bonus").unwrap()["ar"], "مكافأة عيد الميلاد");
}

#[test]
fn an_item_s_translations_are_by_language_then_field() {
    let book = Phrasebook::new(&repo());
    let tr = book.fields(&[("name", "Free coffee"), ("description", "Not a text the tenant translates"), ("terms", "")]);
    assert_eq!(tr.len(), 7, "every language but the default");
    assert_eq!(tr["ar"].keys().collect::<Vec<_>>(), ["name"], "a field without a translation is left out: the default shows");
    assert_eq!(tr["it"]["name"], "Caffè omaggio");
    assert!(book.fields(&[("reason", "Chadstone")]).is_empty(), "a store's name is not translated");
}

#[test]
fn the_translations_block_translates_text_from_elsewhere() {
    let doc =
        json!({"general": {"tenant": "t"}, "translations": {"Birthday bonus": {"ar": "مكافأة عيد الميلاد", "fr": "Bonus anniversaire"}}});
    let book = Phrasebook::new(&tenant(doc).unwrap());
    let tr = book.fields(&[("reason", "Birthday bonus")]);
    assert_eq!(tr["fr"]["reason"], "Bonus anniversaire");
    assert!(!tr.contains_key("de"));
}

#[test]
fn a_bad_translation_stops_the_portal_naming_the_field() {
    let cases: [(Value, &str); 7] = [
        (with_catalogue_name(json!({"en": "Coffee", "xx": "?"})), "components.loyalty.catalogue[0].name.xx"),
        (with_catalogue_name(json!({"ar": "قهوة"})), "components.loyalty.catalogue[0].name"),
        (with_catalogue_name(json!({"en": "Coffee", "fr": "  "})), "components.loyalty.catalogue[0].name.fr"),
        (json!({"general": {"tenant": "t", "siteMeta": {"title": {"en": "My account", "kl": "?"}}}}), "general.siteMeta.title.kl"),
        (json!({"general": {"tenant": "t"}, "translations": {"Online": {"en": "Online"}}}), "translations[\"Online\"].en"),
        (json!({"general": {"tenant": "t"}, "translations": {"Online": {"de": ""}}}), "translations[\"Online\"].de"),
        (
            json!({"general": {"tenant": "t"}, "components": {"loyalty": {"tiers": {"levels": [{"handle": "g", "name": {"en": "Gold", "it": "Oro"}, "threshold": 0}]}}},
                   "translations": {"Gold": {"it": "Dorato"}}}),
            "translations[\"Gold\"].it",
        ),
    ];
    for (doc, path) in cases {
        let e = tenant(doc.clone()).err().unwrap_or_else(|| panic!("accepted: {doc}"));
        assert_eq!(e.path, path, "{e}");
    }
    let clash = tenant(cases_clash()).unwrap_err();
    assert!(clash.message.contains("components.loyalty.tiers.levels[0].name.it"), "names the other place: {clash}");
}

fn cases_clash() -> Value {
    json!({"general": {"tenant": "t"}, "components": {"loyalty": {"tiers": {"levels": [{"handle": "g", "name": {"en": "Gold", "it": "Oro"}, "threshold": 0}]}}},
           "translations": {"Gold": {"it": "Dorato"}}})
}

#[test]
fn the_same_translation_twice_is_fine() {
    let doc = json!({"general": {"tenant": "t"}, "components": {"loyalty": {"tiers": {"levels": [{"handle": "g", "name": {"en": "Gold", "it": "Oro"}, "threshold": 0}]}}},
                     "translations": {"Gold": {"it": "Oro", "fr": "Or"}}});
    let book = Phrasebook::new(&tenant(doc).unwrap());
    assert_eq!(book.of("Gold").unwrap().len(), 2);
}

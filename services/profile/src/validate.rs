//! Profile field rules, applied before anything is written. Each function returns the cleaned
//! value or the message shown under the field.
use crate::rules::{ProfileRules, SizeChart};
use chrono::{Datelike, NaiveDate};
use portal_geo::countries;
use portal_proto::profile::v1 as pb;
use std::collections::BTreeMap;

/// Field problems gathered across a whole request, so the member sees all of them at once.
#[derive(Debug, Default)]
pub struct Fields(pub BTreeMap<String, String>);

impl Fields {
    /// The cleaned value, or records the problem under `field`.
    pub fn check<T: Default>(&mut self, field: &str, v: Result<T, &str>) -> T {
        v.unwrap_or_else(|m| {
            self.add(field, m);
            T::default()
        })
    }

    pub fn add(&mut self, field: &str, message: &str) {
        self.0.entry(field.to_string()).or_insert_with(|| message.to_string());
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The answer to a new address sent with the other profile fields.
pub const EMAIL_CHANGE_NEEDS_CODE: &str =
    "To change your email address, use Change email: we'll send a code to the new address to confirm it";

impl Fields {
    /// One problem on one field.
    pub fn one(field: &str, message: &str) -> Fields {
        let mut f = Fields::default();
        f.add(field, message);
        f
    }
}

/// The member's email address, trimmed and lower-cased.
pub fn email(raw: &str) -> Result<String, &'static str> {
    portal_common::email::Email::parse(raw).map(|e| e.as_str().to_string())
}

/// Free text on one line: trimmed, at most `max` characters, no control characters.
fn line(raw: &str, max: usize, required: bool) -> Result<String, &'static str> {
    let s = raw.trim();
    if s.is_empty() {
        return if required { Err("Required") } else { Ok(String::new()) };
    }
    if s.chars().any(char::is_control) {
        return Err("Use letters, numbers and punctuation only");
    }
    if s.chars().count() > max {
        return Err(if max <= 60 { "Use 60 characters or fewer" } else { "Use 100 characters or fewer" });
    }
    Ok(s.to_string())
}

/// Countries whose addresses always name a state.
const STATE_REQUIRED: &[&str] = &["AU", "US", "CA"];

/// A postal address: all fields empty clears it; otherwise line 1, city, postcode and country are
/// required, the country is matched on iso_2, iso_3 or name and the state within that country.
/// Problems are recorded under `address.<field>`.
pub fn address(a: &pb::Address, f: &mut Fields) -> pb::Address {
    let all = [&a.line1, &a.line2, &a.city, &a.state, &a.postcode, &a.country];
    if all.iter().all(|v| v.trim().is_empty()) {
        return pb::Address::default();
    }
    let mut out = pb::Address {
        line1: f.check("address.line1", line(&a.line1, 100, true)),
        line2: f.check("address.line2", line(&a.line2, 100, false)),
        city: f.check("address.city", line(&a.city, 60, true)),
        ..Default::default()
    };
    let country = if a.country.trim().is_empty() {
        f.add("address.country", "Required");
        None
    } else {
        let c = countries::find_country(&a.country);
        if c.is_none() {
            f.add("address.country", "Choose a country from the list");
        }
        c
    };
    if let Some(c) = country {
        out.country = c.alpha2.to_string();
        if a.state.trim().is_empty() {
            if STATE_REQUIRED.contains(&c.alpha2) {
                f.add("address.state", "Required");
            }
        } else {
            match countries::find_state(c, &a.state) {
                Some(s) => out.state = countries::state_iso(s).to_string(),
                None => f.add("address.state", "Choose a state from the list"),
            }
        }
    }
    out.postcode = f.check("address.postcode", postcode(&a.postcode, country.map(|c| c.alpha2)));
    out
}

fn postcode(raw: &str, country: Option<&str>) -> Result<String, &'static str> {
    let s = raw.trim().to_uppercase();
    if s.is_empty() {
        return Err("Required");
    }
    let digits = |n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_digit());
    let ok = match country {
        Some("AU") => digits(4),
        Some("US") => {
            let (five, plus4) = s.split_once('-').unwrap_or((&s, ""));
            five.len() == 5
                && five.chars().all(|c| c.is_ascii_digit())
                && (plus4.is_empty() || plus4.len() == 4 && plus4.chars().all(|c| c.is_ascii_digit()))
        }
        _ => s.len() <= 10 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-'),
    };
    if ok {
        Ok(s)
    } else {
        Err("Enter a valid postcode")
    }
}

/// Identities the member links themselves. The email identity follows the email field; the
/// frequent-flyer number is linked only after the airline checked it (the qff service); other
/// handles must be among the tenant's. An empty identifier removes that identity.
pub fn identities(list: &[pb::Identity], rules: &ProfileRules, f: &mut Fields) -> Vec<pb::Identity> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (i, id) in list.iter().enumerate() {
        let handle = id.handle.trim();
        if handle == "email" {
            f.add(&format!("identities.{i}.handle"), "Change your email address instead");
            continue;
        }
        if PARTNER_CHECKED.contains(&handle) {
            f.add(&format!("identities.{i}.handle"), "Link your Frequent Flyer account from the Rewards tab, where the airline checks it");
            continue;
        }
        if !rules.identities.iter().any(|h| h == handle) {
            f.add(&format!("identities.{i}.handle"), "This kind of account cannot be linked here");
            continue;
        }
        if !seen.insert(handle.to_string()) {
            f.add(&format!("identities.{i}.handle"), "Listed more than once");
            continue;
        }
        let checked = if handle == crate::cards::HANDLE { crate::cards::normalise(&id.identifier) } else { identifier(&id.identifier) };
        match checked {
            Ok(v) => out.push(pb::Identity { handle: handle.to_string(), identifier: v }),
            Err(m) => f.add(&format!("identities.{i}.identifier"), m),
        }
    }
    out
}

/// Identities linked only through the partner's own check, never written directly by a member.
pub const PARTNER_CHECKED: &[&str] = &["qff_number"];

/// An identifier without its spaces, or why it can't be one. (A frequent-flyer number never
/// gets here: the qff service checks it, with the airline.)
fn identifier(raw: &str) -> Result<String, &'static str> {
    let s: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    if s.len() > 32 || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err("Use up to 32 letters, digits and hyphens");
    }
    Ok(s)
}

/// The display languages of the spec.
pub const LANGUAGES: &[&str] = &["en", "it", "es", "fr", "ar", "de", "el", "th"];

/// What a custom attribute write may store.
pub enum AttributeCheck {
    /// Store this (already cleaned) value; empty removes the attribute.
    Value(String),
    /// A store handle that must be one of the tenant's locations.
    Store(String),
}

fn slug(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some('a'..='z')) && s.len() <= 32 && c.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The rules for one custom attribute. Problems are recorded under `key` (which attribute) or
/// `value` (what was sent).
pub fn custom_attribute(namespace: &str, handle: &str, value: &str, rules: &ProfileRules, f: &mut Fields) -> Option<AttributeCheck> {
    if !slug(namespace) || !slug(handle) {
        f.add("key", "Unknown attribute");
        return None;
    }
    let value = value.trim();
    if value.len() > 1024 {
        f.add("value", "Too long");
        return None;
    }
    match (namespace, handle) {
        ("locale", "language") => {
            if value.is_empty() || LANGUAGES.contains(&value) {
                Some(AttributeCheck::Value(value.to_string()))
            } else {
                f.add("value", "Choose one of the offered languages");
                None
            }
        }
        ("size", garment) => match rules.sizes.get(garment) {
            None => {
                f.add("key", "Unknown attribute");
                None
            }
            Some(_) if value.is_empty() => Some(AttributeCheck::Value(String::new())),
            Some(chart) => match size(value, chart) {
                Ok(v) => Some(AttributeCheck::Value(v)),
                Err(m) => {
                    f.add("value", m);
                    None
                }
            },
        },
        ("preference", "store") => Some(AttributeCheck::Store(value.to_string())),
        ("qantas", _) => {
            f.add("key", "This attribute is set by linking your Qantas Frequent Flyer account");
            None
        }
        _ => {
            f.add("key", "Unknown attribute");
            None
        }
    }
}

#[derive(serde::Deserialize, serde::Serialize)]
struct SizeValue {
    system: String,
    size: String,
    fit: String,
}

/// A size preference `{"system","size","fit"}` checked against the garment's chart; answers the
/// canonical JSON text.
fn size(value: &str, chart: &SizeChart) -> Result<String, &'static str> {
    let v: SizeValue = serde_json::from_str(value).map_err(|_| "Choose a size system, a size and a fit")?;
    let sizes = chart.systems.get(&v.system).ok_or("Choose one of the offered size systems")?;
    if !sizes.contains(&v.size) {
        return Err("Choose one of the offered sizes");
    }
    if !chart.fits.contains(&v.fit) {
        return Err("Choose one of the offered fits");
    }
    serde_json::to_string(&v).map_err(|_| "Choose a size system, a size and a fit")
}

pub fn name(raw: &str) -> Result<String, &'static str> {
    let s = raw.trim();
    if s.is_empty() {
        return Err("Required");
    }
    if s.chars().count() > 50 {
        return Err("Use 50 characters or fewer");
    }
    if !s.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '\'' || c == '.' || c == '’') {
        return Err("Use letters, spaces, hyphens and apostrophes only");
    }
    Ok(s.to_string())
}

/// Optional birth date `YYYY-MM-DD`, a real date in the past, at most 120 years ago.
pub fn birth_date(raw: &str, today: NaiveDate) -> Result<String, &'static str> {
    let s = raw.trim();
    if s.is_empty() {
        return Ok(String::new());
    }
    let bad = "Use a real date in the form YYYY-MM-DD";
    // The exact shape first: chrono alone would also take one-digit months and days.
    let shaped = s.len() == 10 && s.char_indices().all(|(i, c)| if i == 4 || i == 7 { c == '-' } else { c.is_ascii_digit() });
    if !shaped {
        return Err(bad);
    }
    let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| bad)?;
    if d >= today {
        return Err("The date must be in the past");
    }
    if d.year() < today.year() - 120 {
        return Err(bad);
    }
    Ok(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo_rules() -> ProfileRules {
        let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json")).unwrap();
        ProfileRules::from_config_json(&json).unwrap()
    }

    fn addr(line1: &str, city: &str, state: &str, postcode: &str, country: &str) -> pb::Address {
        pb::Address {
            line1: line1.into(),
            line2: String::new(),
            city: city.into(),
            state: state.into(),
            postcode: postcode.into(),
            country: country.into(),
        }
    }

    #[test]
    fn addresses_normalise_country_and_state() {
        let mut f = Fields::default();
        let a = address(&addr(" 1 Swanston St ", "Melbourne", "victoria", "3000", "australia"), &mut f);
        assert!(f.is_empty(), "{f:?}");
        assert_eq!((a.line1.as_str(), a.state.as_str(), a.country.as_str()), ("1 Swanston St", "VIC", "AU"));
        let mut f = Fields::default();
        let a = address(&addr("1 Main St", "Springfield", "US-IL", "62701-1234", "USA"), &mut f);
        assert!(f.is_empty(), "{f:?}");
        assert_eq!((a.state.as_str(), a.country.as_str()), ("IL", "US"));
        let mut f = Fields::default();
        address(&addr("", "", "", "", ""), &mut f);
        assert!(f.is_empty(), "an empty address clears it");
    }

    #[test]
    fn addresses_report_every_bad_field() {
        let mut f = Fields::default();
        address(&addr("", "Melbourne", "California", "30000", "AU"), &mut f);
        assert_eq!(f.0.keys().map(String::as_str).collect::<Vec<_>>(), ["address.line1", "address.postcode", "address.state"]);
        let mut f = Fields::default();
        address(&addr("1 Main St", "Town", "", "12345", "Atlantis"), &mut f);
        assert_eq!(f.0["address.country"], "Choose a country from the list");
        let mut f = Fields::default();
        address(&addr("1 Main St", "Melbourne", "", "3000", "AU"), &mut f);
        assert_eq!(f.0["address.state"], "Required");
        let mut f = Fields::default();
        address(&addr("1 Rue de Rivoli", "Paris", "", "75001", "FR"), &mut f);
        assert!(f.is_empty(), "a state is optional where addresses do not use one: {f:?}");
    }

    #[test]
    fn identities_follow_the_tenant_rules() {
        let rules = demo_rules();
        let id = |h: &str, v: &str| pb::Identity { handle: h.into(), identifier: v.into() };
        let mut f = Fields::default();
        let out = identities(&[id("loyalty_card", " ab-12 3")], &rules, &mut f);
        assert!(f.is_empty());
        assert_eq!(out[0].identifier, "AB123", "a card number in its one form");
        let mut f = Fields::default();
        let out = identities(&[id("loyalty_card", "")], &rules, &mut f);
        assert!(f.is_empty());
        assert_eq!(out[0].identifier, "", "empty removes");
        let mut f = Fields::default();
        identities(
            &[
                id("email", "x@example.com"),
                id("passport", "X1"),
                id("qff_number", "1900123456"),
                id("loyalty_card", "A 1!"),
                id("loyalty_card", "A2"),
            ],
            &rules,
            &mut f,
        );
        assert_eq!(
            f.0.keys().map(String::as_str).collect::<Vec<_>>(),
            ["identities.0.handle", "identities.1.handle", "identities.2.handle", "identities.3.identifier", "identities.4.handle"]
        );
        assert!(f.0["identities.2.handle"].contains("Rewards tab"), "the airline checks a frequent-flyer number first");
    }

    #[test]
    fn custom_attributes_are_known_and_checked() {
        let rules = demo_rules();
        let ok = |ns: &str, h: &str, v: &str| {
            let mut f = Fields::default();
            let r = custom_attribute(ns, h, v, &rules, &mut f);
            (
                r.map(|c| match c {
                    AttributeCheck::Value(v) | AttributeCheck::Store(v) => v,
                }),
                f.0,
            )
        };
        assert_eq!(ok("locale", "language", "ar").0.as_deref(), Some("ar"));
        assert_eq!(ok("locale", "language", "xx").1["value"], "Choose one of the offered languages");
        assert_eq!(
            ok("size", "shoes", r#"{ "fit": "wide", "size": "9.5", "system": "AU" }"#).0.as_deref(),
            Some(r#"{"system":"AU","size":"9.5","fit":"wide"}"#)
        );
        assert_eq!(ok("size", "shoes", r#"{"system":"AU","size":"99","fit":"wide"}"#).1["value"], "Choose one of the offered sizes");
        assert_eq!(ok("size", "tops", r#"{"system":"JP","size":"9","fit":"slim"}"#).1["value"], "Choose one of the offered size systems");
        assert_eq!(ok("size", "tops", "10").1["value"], "Choose a size system, a size and a fit");
        assert_eq!(ok("size", "hats", "").1["key"], "Unknown attribute");
        assert!(ok("qantas", "qff_last_name", "Demo").1["key"].contains("Qantas"));
        assert_eq!(ok("secret", "admin", "1").1["key"], "Unknown attribute");
        assert_eq!(ok("Locale", "language", "en").1["key"], "Unknown attribute");
        assert_eq!(ok("size", "tops", "").0.as_deref(), Some(""), "empty removes");
    }

    #[test]
    fn emails_are_normalised() {
        assert_eq!(email(" New@Example.COM ").unwrap(), "new@example.com");
        assert!(email("not-an-email").is_err());
    }

    #[test]
    fn names() {
        assert_eq!(name("  Zoë O'Brien-Smith ").unwrap(), "Zoë O'Brien-Smith");
        assert!(name("").is_err());
        assert!(name("Robert'); DROP TABLE").is_err());
        assert!(name(&"a".repeat(51)).is_err());
    }

    #[test]
    fn birth_dates() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
        assert_eq!(birth_date("1990-02-28", today).unwrap(), "1990-02-28");
        assert!(birth_date("1990-02-30", today).is_err());
        assert!(birth_date("2023-02-29", today).is_err());
        assert!(birth_date("2024-02-29", today).is_ok());
        assert!(birth_date("2026-11-21", today).is_err());
        assert!(birth_date("21/11/1990", today).is_err());
        assert!(birth_date("1800-01-01", today).is_err());
    }
}

//! Countries (ISO 3166-1) and their subdivisions (ISO 3166-2), from the maintained
//! `rust_iso3166` data package, with the spec's matching rules (section 5): a country matches
//! case-insensitively on iso_2, iso_3 or name; a state on its code (`AU-VIC`), iso (`VIC`) or name.
use rust_iso3166::{iso3166_2::Subdivision, CountryCode};

/// A subdivision's short code: the part after the country prefix (`AU-VIC` → `VIC`).
pub fn state_iso(s: &Subdivision) -> &'static str {
    s.code.split_once('-').map_or(s.code, |(_, iso)| iso)
}

/// Every country.
pub fn all() -> &'static [CountryCode] {
    rust_iso3166::ALL
}

/// A country's subdivisions (empty when it has none).
pub fn states(c: &CountryCode) -> &'static [Subdivision] {
    rust_iso3166::iso3166_2::SUBDIVISION_COUNTRY_MAP.get(c.alpha2).copied().unwrap_or(&[])
}

/// The country named by `q`: its alpha-2 or alpha-3 code or its name, in any case.
pub fn find_country(q: &str) -> Option<&'static CountryCode> {
    let q = q.trim();
    if q.is_empty() {
        return None;
    }
    all().iter().find(|c| c.alpha2.eq_ignore_ascii_case(q) || c.alpha3.eq_ignore_ascii_case(q) || eq_fold(c.name, q))
}

/// The state of `country` named by `q`: its full code, its short code or its name, in any case.
pub fn find_state(country: &CountryCode, q: &str) -> Option<&'static Subdivision> {
    let q = q.trim();
    if q.is_empty() {
        return None;
    }
    states(country).iter().find(|s| s.code.eq_ignore_ascii_case(q) || state_iso(s).eq_ignore_ascii_case(q) || eq_fold(s.name, q))
}

/// Case-insensitive comparison that also folds non-ASCII letters (`Västra` = `VÄSTRA`).
fn eq_fold(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b) || a.to_lowercase() == b.to_lowercase()
}

/// A digest of the whole data set, so a deployment can tell when a new package changed it.
pub fn digest() -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for c in all() {
        h.update(c.alpha2);
        h.update(c.alpha3);
        h.update(c.name);
        for s in states(c) {
            h.update(s.code);
            h.update(s.name);
        }
        h.update([0]);
    }
    portal_common::hex(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countries_match_on_codes_and_name_in_any_case() {
        for q in ["AU", "au", "AUS", "aus", "Australia", "AUSTRALIA", " australia "] {
            assert_eq!(find_country(q).map(|c| c.alpha2), Some("AU"), "{q}");
        }
        assert!(find_country("Atlantis").is_none());
        assert!(find_country("").is_none());
        assert!(all().len() >= 249, "every ISO 3166-1 country");
    }

    #[test]
    fn states_match_on_code_iso_and_name_within_their_country() {
        let au = find_country("AU").unwrap();
        for q in ["AU-VIC", "au-vic", "VIC", "vic", "Victoria", "VICTORIA"] {
            assert_eq!(find_state(au, q).map(|s| s.code), Some("AU-VIC"), "{q}");
        }
        assert_eq!(state_iso(find_state(au, "nsw").unwrap()), "NSW");
        assert!(find_state(au, "CA").is_none(), "California is not in Australia");
        let us = find_country("usa").unwrap();
        assert_eq!(find_state(us, "california").map(|s| s.code), Some("US-CA"));
        let se = find_country("SE").unwrap();
        assert!(find_state(se, "VÄSTRA GÖTALANDS LÄN").is_some(), "non-ASCII names fold case");
    }

    #[test]
    fn digest_is_stable() {
        assert_eq!(digest(), digest());
        assert_eq!(digest().len(), 64);
    }
}

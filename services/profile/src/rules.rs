//! The tenant's profile rules, read from its configuration (`components.profile`): which
//! identities a member may link, the messaging channels and topics, and the size chart.
use portal_tenant::Tenant;
use std::collections::BTreeMap;

pub use portal_tenant::{Claims as ClaimRules, Comms as CommsRules, SizeChart};

/// What this service needs of the typed tenant config (`portal_tenant`), built once per config
/// version; the checks (a known time zone, aligned size systems, positive quotas) were done when
/// the config was loaded.
#[derive(Debug, Default)]
pub struct ProfileRules {
    /// Identity handles a member may link themselves, e.g. `loyalty_card`.
    pub identities: Vec<String>,
    pub comms: CommsRules,
    /// Size chart by garment (`tops`, `bottoms`, `dresses`, `shoes`).
    pub sizes: BTreeMap<String, SizeChart>,
    /// `components.claims`.
    pub claims: ClaimRules,
    /// `general.timeZone`: where "today" and a purchase's date are reckoned.
    pub zone: chrono_tz::Tz,
    /// `components.loyalty`: when the points a claim earns expire.
    pub loyalty: crate::loyalty::rules::LoyaltyRules,
    /// `general.defaultCountry` (ISO 3166-1 alpha-2): where a phone number is read when the
    /// profile names no country.
    pub country: String,
}

impl ProfileRules {
    pub fn from_tenant(t: &Tenant) -> ProfileRules {
        let p = &t.components.profile;
        ProfileRules {
            identities: p.identities.clone(),
            comms: p.comms.clone(),
            sizes: p.sizes.clone(),
            claims: t.components.claims.clone(),
            zone: t.zone(),
            loyalty: crate::loyalty::rules::LoyaltyRules::from_tenant(t),
            country: t.default_country().to_string(),
        }
    }

    /// The rules in a tenant document's text (tests).
    #[cfg(test)]
    pub fn from_config_json(json: &str) -> anyhow::Result<ProfileRules> {
        Ok(Self::from_tenant(&Tenant::from_json(json)?))
    }

    pub fn is_comms_key(&self, key: &str) -> bool {
        self.comms.channels.iter().chain(&self.comms.topics).any(|k| k == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_demo_tenant() {
        let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json")).unwrap();
        let r = ProfileRules::from_config_json(&json).unwrap();
        assert!(r.identities.iter().any(|h| h == "loyalty_card"));
        assert!(r.is_comms_key("sms") && r.is_comms_key("offers") && !r.is_comms_key("fax"));
        let shoes = &r.sizes["shoes"];
        let n = shoes.systems["AU"].len();
        assert!(shoes.systems.values().all(|v| v.len() == n), "shoe systems are index-aligned");
        for g in ["tops", "bottoms", "dresses"] {
            let c = &r.sizes[g];
            assert!(c.systems.values().all(|v| v.len() == c.systems["AU"].len()), "{g} systems are index-aligned");
        }
    }

    #[test]
    fn no_profile_section_allows_nothing() {
        let r = ProfileRules::from_config_json(r#"{"general": {"tenant": "t"}, "components": {}}"#).unwrap();
        assert!(r.identities.is_empty() && r.sizes.is_empty() && !r.is_comms_key("email"));
        assert_eq!((r.zone, r.claims.window_days), (portal_tenant::DEFAULT_ZONE, 30));
        assert_eq!(r.country, "AU", "the default country when the tenant names none");
        assert_eq!((r.claims.max_pending, r.claims.max_per_day), (5, 10), "quotas even when the tenant sets none");
        assert!(ProfileRules::from_config_json(r#"{"general": {"tenant": "t", "timeZone": "Mars/Olympus"}}"#).is_err());
    }
}

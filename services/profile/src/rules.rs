//! The tenant's profile rules, read from its configuration (`components.profile`): which
//! identities a member may link, the messaging channels and topics, and the size chart.
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Default, Deserialize)]
pub struct ProfileRules {
    /// Identity handles a member may link themselves, e.g. `loyalty_card`.
    #[serde(default)]
    pub identities: Vec<String>,
    #[serde(default)]
    pub comms: CommsRules,
    /// Size chart by garment (`tops`, `bottoms`, `dresses`, `shoes`).
    #[serde(default)]
    pub sizes: BTreeMap<String, SizeChart>,
    /// `components.claims`.
    #[serde(skip)]
    pub claims: ClaimRules,
    /// `general.timeZone`: where "today" and a purchase's date are reckoned.
    #[serde(skip)]
    pub zone: chrono_tz::Tz,
    /// `components.loyalty`: when the points a claim earns expire.
    #[serde(skip)]
    pub loyalty: crate::loyalty::rules::LoyaltyRules,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimRules {
    /// How many days back a purchase may be claimed.
    #[serde(default = "default_window")]
    pub window_days: i64,
    #[serde(default = "default_points_per_dollar")]
    pub points_per_dollar: i64,
    /// Claims a member may have waiting (pending) at once; past it a new claim is refused (422)
    /// until one is matched or rejected. A member with a real missing receipt rarely has more
    /// than one or two; the cap stops one account from filing claims for a run of receipts.
    #[serde(default = "default_max_pending")]
    pub max_pending: i64,
    /// Claims a member may file in any 24 hours; past it 429 with `Retry-After` (when the oldest
    /// of them is a day old).
    #[serde(default = "default_max_per_day")]
    pub max_per_day: i64,
}

fn default_window() -> i64 {
    30
}
fn default_points_per_dollar() -> i64 {
    1
}
fn default_max_pending() -> i64 {
    5
}
fn default_max_per_day() -> i64 {
    10
}

impl Default for ClaimRules {
    fn default() -> Self {
        ClaimRules {
            window_days: default_window(),
            points_per_dollar: default_points_per_dollar(),
            max_pending: default_max_pending(),
            max_per_day: default_max_per_day(),
        }
    }
}

/// The spec's default time zone.
pub const DEFAULT_ZONE: chrono_tz::Tz = chrono_tz::Australia::Melbourne;

#[derive(Debug, Default, Deserialize)]
pub struct CommsRules {
    #[serde(default)]
    pub channels: Vec<String>,
    #[serde(default)]
    pub topics: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct SizeChart {
    /// Sizes by system (`AU`, `US`, `EU`), index-aligned across systems.
    pub systems: BTreeMap<String, Vec<String>>,
    pub fits: Vec<String>,
    // `convertible` (show the size in the other systems) is for the screen only.
}

impl ProfileRules {
    /// The rules inside a tenant configuration document; absent means nothing is allowed.
    pub fn from_config_json(json: &str) -> anyhow::Result<ProfileRules> {
        let doc: serde_json::Value = serde_json::from_str(json)?;
        let mut rules: ProfileRules = match doc.pointer("/components/profile") {
            Some(v) if !v.is_null() => serde_json::from_value(v.clone())?,
            _ => ProfileRules::default(),
        };
        if let Some(v) = doc.pointer("/components/claims").filter(|v| !v.is_null()) {
            rules.claims = serde_json::from_value(v.clone())?;
        }
        rules.loyalty = crate::loyalty::rules::LoyaltyRules::from_config(&doc)?;
        rules.zone = match doc.pointer("/general/timeZone").and_then(|v| v.as_str()) {
            Some(z) => z.parse().map_err(|_| anyhow::anyhow!("general.timeZone {z:?} is not an IANA zone"))?,
            None => DEFAULT_ZONE,
        };
        Ok(rules)
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
        let r = ProfileRules::from_config_json(r#"{"components": {}}"#).unwrap();
        assert!(r.identities.is_empty() && r.sizes.is_empty() && !r.is_comms_key("email"));
        assert_eq!((r.zone, r.claims.window_days), (DEFAULT_ZONE, 30));
        assert_eq!((r.claims.max_pending, r.claims.max_per_day), (5, 10), "quotas even when the tenant sets none");
        assert!(ProfileRules::from_config_json(r#"{"general": {"timeZone": "Mars/Olympus"}}"#).is_err());
    }
}

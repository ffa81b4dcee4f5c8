//! The tenant's loyalty rules, read from its configuration (`components.loyalty`): when points
//! expire, how tiers are earned, and the catalogue of rewards members can redeem points for.
use portal_tenant::Tenant;

pub use portal_tenant::{CatalogueEntry, Measure, TierLevel, Tiers as TierRules};

/// What this service needs of the typed tenant config, built once per config version; the
/// checks (no negative days, tiers rising from 0, rewards costing points) were done when the
/// config was loaded.
#[derive(Debug, Clone)]
pub struct LoyaltyRules {
    /// Points expire this many days after they were earned; 0: never.
    pub points_expire_days: i64,
    /// How often the expiry job runs, after its run at start.
    pub expiry_job_seconds: u64,
    pub tiers: TierRules,
    /// Cheapest first.
    pub catalogue: Vec<CatalogueEntry>,
    /// `general.timeZone`: the day on which points expire is reckoned there.
    pub zone: chrono_tz::Tz,
}

impl Default for LoyaltyRules {
    fn default() -> Self {
        Self::from_loyalty(&portal_tenant::Loyalty::default(), portal_tenant::DEFAULT_ZONE)
    }
}

impl LoyaltyRules {
    pub fn from_tenant(t: &Tenant) -> LoyaltyRules {
        let mut rules = Self::from_loyalty(&t.components.loyalty, t.zone());
        rules.catalogue = t.catalogue_by_points();
        rules
    }

    fn from_loyalty(l: &portal_tenant::Loyalty, zone: chrono_tz::Tz) -> LoyaltyRules {
        LoyaltyRules {
            points_expire_days: l.points_expire_days,
            expiry_job_seconds: l.expiry_job_seconds,
            tiers: l.tiers.clone(),
            catalogue: l.catalogue.clone(),
            zone,
        }
    }

    /// The rules in a tenant document's text (tests).
    #[cfg(test)]
    pub fn from_config_json(json: &str) -> anyhow::Result<LoyaltyRules> {
        Ok(Self::from_tenant(&Tenant::from_json(json)?))
    }

    /// When points earned at `at` expire, if they do.
    pub fn expiry_for(&self, at: i64) -> Option<i64> {
        (self.points_expire_days > 0).then(|| at + self.points_expire_days * super::DAY)
    }

    pub fn catalogue_item(&self, id: &str) -> Option<&CatalogueEntry> {
        self.catalogue.iter().find(|c| c.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_demo_tenant() {
        let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json")).unwrap();
        let r = LoyaltyRules::from_config_json(&json).unwrap();
        assert_eq!(r.points_expire_days, 365);
        assert_eq!(r.tiers.levels.iter().map(|l| l.handle.as_str()).collect::<Vec<_>>(), ["silver", "gold", "platinum"]);
        assert!(r.catalogue.windows(2).all(|w| w[0].points <= w[1].points), "cheapest first");
        assert_eq!(r.expiry_for(0), Some(365 * 86_400));
    }

    #[test]
    fn absent_means_nothing_expires_and_no_tiers() {
        let r = LoyaltyRules::from_config_json(r#"{"general": {"tenant": "t"}, "components": {}}"#).unwrap();
        assert_eq!(r.expiry_for(100), None);
        assert!(r.tiers.levels.is_empty() && r.catalogue.is_empty());
    }

    #[test]
    fn refuses_rules_that_cannot_be_right() {
        for bad in [
            r#"{"general": {"tenant": "t"}, "components": {"loyalty": {"pointsExpireDays": -1}}}"#,
            r#"{"general": {"tenant": "t"}, "components": {"loyalty": {"tiers": {"levels": [{"handle": "a", "name": "A", "threshold": 5}]}}}}"#,
            r#"{"general": {"tenant": "t"}, "components": {"loyalty": {"tiers": {"levels": [{"handle": "a", "name": "A", "threshold": 0}, {"handle": "b", "name": "B", "threshold": 0}]}}}}"#,
            r#"{"general": {"tenant": "t"}, "components": {"loyalty": {"catalogue": [{"id": "x", "name": "X", "points": 0}]}}}"#,
        ] {
            assert!(LoyaltyRules::from_config_json(bad).is_err(), "{bad}");
        }
    }
}

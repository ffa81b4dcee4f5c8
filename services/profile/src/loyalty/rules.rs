//! The tenant's loyalty rules, read from its configuration (`components.loyalty`): when points
//! expire, how tiers are earned, and the catalogue of rewards members can redeem points for.
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LoyaltyRules {
    /// Points expire this many days after they were earned; 0: never.
    #[serde(default)]
    pub points_expire_days: i64,
    /// How often the expiry job runs, after its run at start.
    #[serde(default = "default_job_seconds")]
    pub expiry_job_seconds: u64,
    #[serde(default)]
    pub tiers: TierRules,
    #[serde(default)]
    pub catalogue: Vec<CatalogueEntry>,
    /// `general.timeZone`: the day on which points expire is reckoned there.
    #[serde(skip, default = "default_zone")]
    pub zone: chrono_tz::Tz,
}

fn default_job_seconds() -> u64 {
    3600
}

fn default_zone() -> chrono_tz::Tz {
    crate::rules::DEFAULT_ZONE
}

impl Default for LoyaltyRules {
    fn default() -> Self {
        LoyaltyRules {
            points_expire_days: 0,
            expiry_job_seconds: default_job_seconds(),
            tiers: TierRules::default(),
            catalogue: vec![],
            zone: default_zone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    /// Points earned in the window (not reduced by spending or expiry).
    #[default]
    Points,
    /// Money spent in the window, in cents.
    Spend,
}

impl Measure {
    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Points => "points",
            Measure::Spend => "spend",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TierRules {
    #[serde(default)]
    pub measure: Measure,
    #[serde(default = "default_window")]
    pub window_days: i64,
    /// Lowest first; the first one's threshold is 0.
    #[serde(default)]
    pub levels: Vec<TierLevel>,
}

fn default_window() -> i64 {
    365
}

impl Default for TierRules {
    fn default() -> Self {
        TierRules { measure: Measure::Points, window_days: default_window(), levels: vec![] }
    }
}

#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct TierLevel {
    pub handle: String,
    pub name: String,
    /// Points, or cents when measured by spend.
    pub threshold: i64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueEntry {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub terms: String,
    pub points: i64,
    /// How long the voucher is valid after redemption; 0: no end.
    #[serde(default)]
    pub valid_days: i64,
}

impl LoyaltyRules {
    /// The rules inside a tenant configuration document. Absent: nothing expires, no tiers, an
    /// empty catalogue. Rules that cannot be right (negative points, unordered tiers) are refused.
    pub fn from_config_json(json: &str) -> anyhow::Result<LoyaltyRules> {
        Self::from_config(&serde_json::from_str(json)?)
    }

    /// The same, from a configuration document already parsed.
    pub fn from_config(doc: &serde_json::Value) -> anyhow::Result<LoyaltyRules> {
        let mut rules: LoyaltyRules = match doc.pointer("/components/loyalty") {
            Some(v) if !v.is_null() => serde_json::from_value(v.clone())?,
            _ => LoyaltyRules::default(),
        };
        if let Some(z) = doc.pointer("/general/timeZone").and_then(|v| v.as_str()) {
            rules.zone = z.parse().map_err(|_| anyhow::anyhow!("general.timeZone {z:?} is not an IANA zone"))?;
        }
        anyhow::ensure!(rules.points_expire_days >= 0, "loyalty.pointsExpireDays must not be negative");
        anyhow::ensure!(rules.expiry_job_seconds > 0, "loyalty.expiryJobSeconds must be positive");
        anyhow::ensure!(rules.tiers.window_days > 0, "loyalty.tiers.windowDays must be positive");
        let levels = &rules.tiers.levels;
        anyhow::ensure!(levels.first().is_none_or(|l| l.threshold == 0), "the lowest tier's threshold must be 0");
        anyhow::ensure!(levels.windows(2).all(|w| w[0].threshold < w[1].threshold), "tier thresholds must rise");
        for item in &rules.catalogue {
            anyhow::ensure!(item.points > 0, "catalogue item {:?} must cost points", item.id);
            anyhow::ensure!(item.valid_days >= 0, "catalogue item {:?}: validDays must not be negative", item.id);
        }
        rules.catalogue.sort_by(|a, b| a.points.cmp(&b.points).then_with(|| a.id.cmp(&b.id)));
        Ok(rules)
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
        let r = LoyaltyRules::from_config_json(r#"{"components": {}}"#).unwrap();
        assert_eq!(r.expiry_for(100), None);
        assert!(r.tiers.levels.is_empty() && r.catalogue.is_empty());
    }

    #[test]
    fn refuses_rules_that_cannot_be_right() {
        for bad in [
            r#"{"components": {"loyalty": {"pointsExpireDays": -1}}}"#,
            r#"{"components": {"loyalty": {"tiers": {"levels": [{"handle": "a", "name": "A", "threshold": 5}]}}}}"#,
            r#"{"components": {"loyalty": {"tiers": {"levels": [{"handle": "a", "name": "A", "threshold": 0}, {"handle": "b", "name": "B", "threshold": 0}]}}}}"#,
            r#"{"components": {"loyalty": {"catalogue": [{"id": "x", "name": "X", "points": 0}]}}}"#,
        ] {
            assert!(LoyaltyRules::from_config_json(bad).is_err(), "{bad}");
        }
    }
}

//! Parsing a tenant document and the checks beyond its types (ranges, order, uniqueness,
//! references). Every failure is a [`ConfigError`] naming the field's path as written in the
//! file, so a bad file is fixed from the first message.
use std::collections::BTreeSet;

use crate::{FieldKind, RedemptionKind, Tenant, TEXT_MAX};

/// What is wrong with a tenant configuration, and where: `path` is the field's, as in the file
/// (`general.timeZone`, `components.loyalty.tiers.levels[1].threshold`), `.` for the whole document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ConfigError {}

fn bad(path: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError { path: path.into(), message: message.into() }
}

impl Tenant {
    /// Parses a tenant document and checks it; the error names the field.
    pub fn from_json(text: &str) -> Result<Tenant, ConfigError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let tenant: Tenant = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
            // `?`: where in the text serde could not tell (a syntax error before any field).
            let path = Some(e.path().to_string()).filter(|p| p != "?").unwrap_or_else(|| ".".into());
            bad(path, e.into_inner().to_string())
        })?;
        de.end().map_err(|e| bad(".", e.to_string()))?;
        tenant.validate()?;
        Ok(tenant)
    }

    /// The checks beyond the types: ranges, order, uniqueness and references. The first
    /// problem found, with its field's path.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let g = &self.general;
        if g.tenant.trim().is_empty() {
            return Err(bad("general.tenant", "must not be empty"));
        }
        if let Some(z) = &g.time_zone {
            z.parse::<chrono_tz::Tz>().map_err(|_| bad("general.timeZone", format!("{z:?} is not an IANA time zone")))?;
        }
        if let Some(c) = &g.default_country {
            if c.len() != 2 || c.to_ascii_uppercase() != *c || rust_iso3166::from_alpha2(c).is_none() {
                return Err(bad("general.defaultCountry", format!("{c:?} is not an ISO 3166-1 alpha-2 country code, e.g. \"AU\"")));
            }
        }
        if let Some(p) = &g.default_position {
            if !(-90.0..=90.0).contains(&p.latitude) {
                return Err(bad("general.defaultPosition.latitude", "must be between -90 and 90"));
            }
            if !(-180.0..=180.0).contains(&p.longitude) {
                return Err(bad("general.defaultPosition.longitude", "must be between -180 and 180"));
            }
        }
        for (i, o) in g.allowed_origins.iter().enumerate() {
            check_origin(o).map_err(|m| bad(format!("general.allowedOrigins[{i}]"), format!("{o:?} {m}")))?;
        }
        for (key, e) in &self.events {
            let at = format!("events.{key}");
            for (name, v) in [("startsAt", &e.starts_at), ("endsAt", &e.ends_at)] {
                if let Some(s) = v {
                    chrono::DateTime::parse_from_rfc3339(s)
                        .map_err(|_| bad(format!("{at}.{name}"), format!("{s:?} is not an RFC 3339 time")))?;
                }
            }
            let mut names = BTreeSet::new();
            for (i, f) in e.custom_fields.iter().enumerate() {
                let fat = format!("{at}.customFields[{i}]");
                if f.name.trim().is_empty() {
                    return Err(bad(format!("{fat}.name"), "must not be empty"));
                }
                if !names.insert(f.name.as_str()) {
                    return Err(bad(format!("{fat}.name"), format!("{:?} is asked twice", f.name)));
                }
                if f.kind == FieldKind::Select && f.options.is_empty() {
                    return Err(bad(format!("{fat}.options"), "a select needs options"));
                }
                if f.max_length.is_some_and(|m| m == 0 || m > TEXT_MAX) {
                    return Err(bad(format!("{fat}.maxLength"), format!("must be 1 to {TEXT_MAX}")));
                }
            }
        }
        let c = &self.components;
        let r = &c.qantas.redemption;
        if r.kind == RedemptionKind::Points {
            if r.block_size <= 0 {
                return Err(bad("components.qantas.redemption.blockSize", "must be over 0 when type is points"));
            }
            if r.airline_points_per_block <= 0 {
                return Err(bad("components.qantas.redemption.airlinePointsPerBlock", "must be over 0 when type is points"));
            }
        }
        for (garment, chart) in &c.profile.sizes {
            let mut lens = chart.systems.iter().map(|(s, v)| (s, v.len()));
            if let Some((_, n)) = lens.next() {
                if let Some((s, _)) = lens.find(|(_, m)| *m != n) {
                    return Err(bad(
                        format!("components.profile.sizes.{garment}.systems.{s}"),
                        "must have as many sizes as the other systems",
                    ));
                }
            }
        }
        let claims = &c.claims;
        for (name, v, min) in [
            ("windowDays", claims.window_days, 1),
            ("pointsPerDollar", claims.points_per_dollar, 0),
            ("maxPending", claims.max_pending, 1),
            ("maxPerDay", claims.max_per_day, 1),
        ] {
            if v < min {
                return Err(bad(format!("components.claims.{name}"), format!("must be at least {min}")));
            }
        }
        let conn = &c.connections;
        if conn.max_lists_per_connection < 1 {
            return Err(bad("components.connections.maxListsPerConnection", "must be at least 1"));
        }
        if conn.max_items_per_list < 1 {
            return Err(bad("components.connections.maxItemsPerList", "must be at least 1"));
        }
        for (name, url) in [("productUrl", &conn.product_url), ("variantUrl", &conn.variant_url)] {
            if let Some(u) = url {
                if !u.starts_with("https://") || !u.contains("{id}") || u.chars().any(|c| c.is_whitespace() || c.is_control()) {
                    return Err(bad(format!("components.connections.{name}"), "must be an https:// URL with {id} in it, no spaces"));
                }
            }
        }
        let mut ids = BTreeSet::new();
        for (i, d) in conn.definitions.iter().enumerate() {
            if d.id.trim().is_empty() || !ids.insert(d.id.as_str()) {
                return Err(bad(format!("components.connections.definitions[{i}].id"), format!("{:?} must be unique and not empty", d.id)));
            }
        }
        let l = &c.loyalty;
        if l.points_expire_days < 0 {
            return Err(bad("components.loyalty.pointsExpireDays", "must not be negative"));
        }
        if l.expiry_job_seconds == 0 {
            return Err(bad("components.loyalty.expiryJobSeconds", "must be over 0"));
        }
        if l.tiers.window_days <= 0 {
            return Err(bad("components.loyalty.tiers.windowDays", "must be over 0"));
        }
        let mut handles = BTreeSet::new();
        for (i, t) in l.tiers.levels.iter().enumerate() {
            let at = format!("components.loyalty.tiers.levels[{i}]");
            if i == 0 && t.threshold != 0 {
                return Err(bad(format!("{at}.threshold"), "the lowest tier's threshold must be 0"));
            }
            if i > 0 && t.threshold <= l.tiers.levels[i - 1].threshold {
                return Err(bad(format!("{at}.threshold"), "tier thresholds must rise"));
            }
            if !handles.insert(t.handle.as_str()) {
                return Err(bad(format!("{at}.handle"), format!("{:?} is used twice", t.handle)));
            }
        }
        let mut ids = BTreeSet::new();
        for (i, item) in l.catalogue.iter().enumerate() {
            let at = format!("components.loyalty.catalogue[{i}]");
            if !ids.insert(item.id.as_str()) {
                return Err(bad(format!("{at}.id"), format!("{:?} is used twice", item.id)));
            }
            if item.points <= 0 {
                return Err(bad(format!("{at}.points"), "must be over 0"));
            }
            if item.valid_days < 0 {
                return Err(bad(format!("{at}.validDays"), "must not be negative"));
            }
        }
        crate::content::check(self)
    }
}

/// An origin as a browser serialises it: `http(s)://host[:port]`, nothing after.
fn check_origin(o: &str) -> Result<(), &'static str> {
    let rest = o.strip_prefix("https://").or_else(|| o.strip_prefix("http://")).ok_or("must start with https:// or http://")?;
    if rest.is_empty() || rest.contains(['/', '?', '#', ' ', '@']) {
        return Err("must be scheme, host and port only");
    }
    Ok(())
}

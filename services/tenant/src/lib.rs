//! The tenant configuration (`config/tenant.json`, `PORTAL_TENANT_CONFIG`) as one Rust type
//! (issue 23). Every process loads it at start-up with [`load`], which names the field that is
//! wrong (`components.loyalty.tiers.levels[1].threshold: ...`) so a bad file stops the process
//! there instead of failing the first request that reads that part; the services then hold the
//! typed value ([`Cache`] parses the refdata service's JSON text once per version). The checks
//! that are more than a type (ranges, order, references) are all in [`Tenant::validate`], and the
//! JSON Schema committed at `config/tenant.schema.json` is derived from these types ([`schema_json`]).
//!
//! Fields the services do not read (the front end's own settings) are accepted as they are: the
//! front end gets the file itself, secrets removed, from the refdata service.
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The time zone when the tenant names none (spec 9).
pub const DEFAULT_ZONE: chrono_tz::Tz = chrono_tz::Australia::Melbourne;

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

/// The whole tenant file.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(title = "Tenant configuration")]
pub struct Tenant {
    pub general: General,
    /// Events by key (the `m` of `/event/{m}`): what the sign-up page shows and asks.
    #[serde(default)]
    pub events: BTreeMap<String, Event>,
    #[serde(default)]
    pub components: Components,
    /// Display languages offered, from en, it, es, fr, ar, de, el, th.
    #[serde(default)]
    pub languages: Vec<String>,
    /// Secrets for the services only; never leaves the refdata service.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets: Option<BTreeMap<String, Value>>,
    /// Unix seconds of the last change; the file's modification time when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_updated: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct General {
    /// The tenant's handle, e.g. `demo`.
    pub tenant: String,
    #[serde(default)]
    pub site_meta: Option<SiteMeta>,
    /// A stylesheet of the tenant's, allowed by the Content-Security-Policy.
    #[serde(default)]
    pub style_url: Option<String>,
    #[serde(default)]
    pub public_asset_url: Option<String>,
    #[serde(default)]
    pub background: Option<Background>,
    #[serde(default)]
    pub logo: Option<String>,
    #[serde(default)]
    pub cover_header: Option<CoverHeader>,
    #[serde(default)]
    pub theme: Option<Theme>,
    /// IANA zone where "today" is reckoned (Australia/Melbourne when absent).
    #[serde(default)]
    pub time_zone: Option<String>,
    /// Where a member is taken to be when nothing better is known.
    #[serde(default)]
    pub default_position: Option<Position>,
    /// ISO 4217 code, e.g. `AUD`.
    #[serde(default)]
    pub currency: Option<String>,
    /// Origins besides the portal's own that links may lead to and that may frame the portal
    /// (`https://partner.example`: scheme, host and port only).
    #[serde(default)]
    pub allowed_origins: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteMeta {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub og_image_url: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Background {
    #[serde(default)]
    pub desktop: Option<BackgroundImage>,
    #[serde(default)]
    pub color: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct BackgroundImage {
    #[serde(default)]
    pub url: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct CoverHeader {
    #[serde(default)]
    pub sticky: bool,
}

/// Colours (CSS) and shapes of the portal's screens.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Theme {
    pub primary: Option<String>,
    pub on_primary: Option<String>,
    pub accent: Option<String>,
    pub background: Option<String>,
    pub surface: Option<String>,
    pub text: Option<String>,
    pub muted: Option<String>,
    pub font_family: Option<String>,
    pub radius: Option<String>,
    pub spacing: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Position {
    /// Degrees, -90 to 90.
    pub latitude: f64,
    /// Degrees, -180 to 180.
    pub longitude: f64,
    #[serde(default)]
    pub label: Option<String>,
}

/// A text shown to members: one string, or one per language (`{"en": ..., "it": ...}`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Text {
    Plain(String),
    ByLanguage(BTreeMap<String, String>),
}

impl Text {
    /// The English text (the plain one, or `en`).
    pub fn english(&self) -> Option<&str> {
        match self {
            Text::Plain(s) => Some(s),
            Text::ByLanguage(m) => m.get("en").map(String::as_str),
        }
    }
}

/// An event members sign up to at `/event/{key}`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub title: Text,
    #[serde(default)]
    pub description: Option<Text>,
    /// The store's location handle, when it is held in one.
    #[serde(default)]
    pub location: Option<String>,
    /// RFC 3339.
    #[serde(default)]
    pub starts_at: Option<String>,
    /// RFC 3339; sign-ups close then. None: open.
    #[serde(default)]
    pub ends_at: Option<String>,
    /// What the sign-up asks, in order.
    #[serde(default)]
    pub custom_fields: Vec<CustomField>,
}

impl Event {
    /// `endsAt`, parsed (validated at load).
    pub fn ends_at(&self) -> Option<chrono::DateTime<chrono::FixedOffset>> {
        self.ends_at.as_deref().and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
    }

    /// Whether sign-ups have closed at `now`.
    pub fn is_over(&self, now: chrono::DateTime<chrono::Utc>) -> bool {
        self.ends_at().is_some_and(|end| end <= now)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomField {
    /// The key the answer is kept under.
    pub name: String,
    #[serde(default, rename = "type")]
    pub kind: FieldKind,
    #[serde(default)]
    pub required: bool,
    /// A select's choices: values, or `{value, label}`.
    #[serde(default)]
    pub options: Vec<SelectOption>,
    /// A text's longest answer (at most 500).
    #[serde(default)]
    pub max_length: Option<u64>,
    #[serde(default)]
    pub label: Option<Text>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FieldKind {
    #[default]
    Text,
    Email,
    Select,
    Checkbox,
    Date,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SelectOption {
    Value(String),
    Labelled {
        value: String,
        #[serde(default)]
        label: Option<Text>,
    },
}

impl SelectOption {
    pub fn value(&self) -> &str {
        match self {
            SelectOption::Value(v) | SelectOption::Labelled { value: v, .. } => v,
        }
    }
}

/// Component settings. Those the services read are typed; the front end's own (`index`,
/// `logout`) are kept as written.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Components {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logout: Option<Value>,
    #[serde(default)]
    pub qantas: Qantas,
    #[serde(default)]
    pub profile: Profile,
    #[serde(default)]
    pub claims: Claims,
    #[serde(default)]
    pub connections: Connections,
    #[serde(default)]
    pub loyalty: Loyalty,
}

/// The airline partner (`components.qantas`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Qantas {
    #[serde(default)]
    pub redemption: Redemption,
    /// The partner's key (a secret: removed before the config leaves the refdata service).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
}

/// Converting points to airline points, in blocks.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Redemption {
    #[serde(default, rename = "type")]
    pub kind: RedemptionKind,
    /// Points per block (over 0 when `type` is `points`).
    #[serde(default)]
    pub block_size: i64,
    /// Airline points a block buys (over 0 when `type` is `points`).
    #[serde(default)]
    pub airline_points_per_block: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RedemptionKind {
    Points,
    #[default]
    Off,
}

/// The profile tab's rules (`components.profile`). Absent: nothing may be linked or chosen.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Profile {
    /// Identity handles a member may link themselves, e.g. `loyalty_card`.
    #[serde(default)]
    pub identities: Vec<String>,
    #[serde(default)]
    pub comms: Comms,
    /// Size chart by garment (`tops`, `bottoms`, `dresses`, `shoes`).
    #[serde(default)]
    pub sizes: BTreeMap<String, SizeChart>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Comms {
    /// e.g. `email`, `sms`, `push`, `post`
    #[serde(default)]
    pub channels: Vec<String>,
    /// e.g. `offers`, `news`, `events`
    #[serde(default)]
    pub topics: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct SizeChart {
    /// Sizes by system (`AU`, `US`, `EU`), index-aligned across systems.
    pub systems: BTreeMap<String, Vec<String>>,
    pub fits: Vec<String>,
    /// Show a chosen size in the other systems too (same index).
    #[serde(default)]
    pub convertible: bool,
}

/// Claims for purchases that were not credited (`components.claims`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Claims {
    /// How many days back a purchase may be claimed.
    #[serde(default = "claims_window")]
    pub window_days: i64,
    #[serde(default = "one")]
    pub points_per_dollar: i64,
    /// Claims a member may have waiting at once; past it a new claim is refused.
    #[serde(default = "claims_pending")]
    pub max_pending: i64,
    /// Claims a member may file in any 24 hours.
    #[serde(default = "claims_per_day")]
    pub max_per_day: i64,
}

fn claims_window() -> i64 {
    30
}
fn one() -> i64 {
    1
}
fn claims_pending() -> i64 {
    5
}
fn claims_per_day() -> i64 {
    10
}

impl Default for Claims {
    fn default() -> Self {
        Claims { window_days: claims_window(), points_per_dollar: one(), max_pending: claims_pending(), max_per_day: claims_per_day() }
    }
}

/// The kinds of connection a member may create, and the caps (`components.connections`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Connections {
    /// Lists one connection may hold.
    #[serde(default = "max_lists")]
    pub max_lists_per_connection: i64,
    /// Items one list may hold.
    #[serde(default = "max_items")]
    pub max_items_per_list: i64,
    #[serde(default)]
    pub definitions: Vec<ConnectionDefinition>,
}

fn max_lists() -> i64 {
    20
}
fn max_items() -> i64 {
    200
}

impl Default for Connections {
    fn default() -> Self {
        Connections { max_lists_per_connection: max_lists(), max_items_per_list: max_items(), definitions: vec![] }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ConnectionDefinition {
    /// Unique among the definitions, e.g. `wishlist`.
    pub id: String,
    /// e.g. `shopify`, `portal-lists`
    pub connector: String,
    #[serde(default)]
    pub name: String,
}

/// Points, tiers and rewards (`components.loyalty`). Absent: nothing expires, no tiers, no rewards.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Loyalty {
    /// Points expire this many days after they were earned; 0: never.
    #[serde(default)]
    pub points_expire_days: i64,
    /// How often the expiry job runs, after its run at start.
    #[serde(default = "job_seconds")]
    pub expiry_job_seconds: u64,
    #[serde(default)]
    pub tiers: Tiers,
    /// Rewards to redeem points for.
    #[serde(default)]
    pub catalogue: Vec<CatalogueEntry>,
}

fn job_seconds() -> u64 {
    3600
}

impl Default for Loyalty {
    fn default() -> Self {
        Loyalty { points_expire_days: 0, expiry_job_seconds: job_seconds(), tiers: Tiers::default(), catalogue: vec![] }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
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

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tiers {
    #[serde(default)]
    pub measure: Measure,
    #[serde(default = "tier_window")]
    pub window_days: i64,
    /// Lowest first; the first one's threshold is 0, each next one higher.
    #[serde(default)]
    pub levels: Vec<TierLevel>,
}

fn tier_window() -> i64 {
    365
}

impl Default for Tiers {
    fn default() -> Self {
        Tiers { measure: Measure::Points, window_days: tier_window(), levels: vec![] }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TierLevel {
    pub handle: String,
    pub name: String,
    /// Points, or cents when measured by spend.
    pub threshold: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueEntry {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub terms: String,
    /// What it costs; over 0.
    pub points: i64,
    /// How long the voucher is valid after redemption; 0: no end.
    #[serde(default)]
    pub valid_days: i64,
}

/// The longest text answer an event may ask for.
pub const TEXT_MAX: u64 = 500;

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

    /// `general.timeZone` (validated at load), else [`DEFAULT_ZONE`].
    pub fn zone(&self) -> chrono_tz::Tz {
        self.general.time_zone.as_deref().and_then(|z| z.parse().ok()).unwrap_or(DEFAULT_ZONE)
    }

    /// The rewards catalogue, cheapest first.
    pub fn catalogue_by_points(&self) -> Vec<CatalogueEntry> {
        let mut c = self.components.loyalty.catalogue.clone();
        c.sort_by(|a, b| a.points.cmp(&b.points).then_with(|| a.id.cmp(&b.id)));
        c
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
        Ok(())
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

/// Reads, parses and checks the tenant file at `path`. The error names the file and the field:
/// `tenant config config/tenant.json: components.loyalty.tiers.levels[1].threshold: tier thresholds must rise`.
pub fn load(path: &Path) -> anyhow::Result<Tenant> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("reading tenant config {}: {e}", path.display()))?;
    Tenant::from_json(&text).map_err(|e| anyhow::anyhow!("tenant config {}: {e}", path.display()))
}

/// The JSON Schema of the tenant file, as committed at `config/tenant.schema.json`.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Tenant);
    serde_json::to_string_pretty(&schema).expect("a schema serialises") + "\n"
}

/// The typed config for the JSON text a process is given (the refdata service's answer): parsed
/// once for each new text, the same `Arc` while the text is unchanged.
#[derive(Default)]
pub struct Cache {
    last: Mutex<Option<(String, Arc<Tenant>)>>,
}

impl Cache {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get(&self, text: &str) -> Result<Arc<Tenant>, ConfigError> {
        if let Some((t, cfg)) = self.last.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if t == text {
                return Ok(cfg.clone());
            }
        }
        let cfg = Arc::new(Tenant::from_json(text)?);
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some((text.to_owned(), cfg.clone()));
        Ok(cfg)
    }
}

/// A value a service derives from the tenant config (its rules, a header), rebuilt only when the
/// config changed (another `Arc` from [`Cache`]).
pub struct Derived<T> {
    last: Mutex<Option<(Arc<Tenant>, Arc<T>)>>,
}

impl<T> Default for Derived<T> {
    fn default() -> Self {
        Derived { last: Mutex::new(None) }
    }
}

impl<T> Derived<T> {
    pub fn get(&self, tenant: &Arc<Tenant>, make: impl FnOnce(&Tenant) -> T) -> Arc<T> {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((t, v)) = last.as_ref() {
            if Arc::ptr_eq(t, tenant) {
                return v.clone();
            }
        }
        let v = Arc::new(make(tenant));
        *last = Some((tenant.clone(), v.clone()));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json");
    const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.schema.json");

    fn repo() -> Value {
        serde_json::from_str(&std::fs::read_to_string(REPO).unwrap()).unwrap()
    }

    fn error_of(doc: &Value) -> ConfigError {
        Tenant::from_json(&doc.to_string()).err().unwrap_or_else(|| panic!("accepted: {doc}"))
    }

    #[test]
    fn the_repo_tenant_loads() {
        let t = load(Path::new(REPO)).unwrap();
        assert_eq!(t.general.tenant, "demo");
        assert_eq!(t.zone(), chrono_tz::Australia::Melbourne);
        assert_eq!(t.components.loyalty.tiers.levels.iter().map(|l| l.handle.as_str()).collect::<Vec<_>>(), ["silver", "gold", "platinum"]);
        assert!(t.catalogue_by_points().windows(2).all(|w| w[0].points <= w[1].points));
        assert_eq!(t.components.qantas.redemption.kind, RedemptionKind::Points);
        assert!(t.events["spring-launch"].custom_fields.iter().any(|f| f.kind == FieldKind::Select));
    }

    /// The variants the tests and the e2e run write are accepted too.
    #[test]
    fn the_variants_the_tests_write_load() {
        let r = repo();
        // services/launcher/tests/api/helpers.rs
        let launcher = json!({
            "general": {"tenant": "demo", "siteMeta": {"title": "My account"}, "smtpPassword": "hunter2", "allowedOrigins": ["https://partner.example"],
                        "defaultPosition": r["general"]["defaultPosition"]},
            "events": r["events"],
            "components": {"qantas": {"apiKey": "partner-key", "redemption": r["components"]["qantas"]["redemption"]}, "profile": r["components"]["profile"],
                           "claims": r["components"]["claims"], "connections": r["components"]["connections"],
                           "loyalty": r["components"]["loyalty"]},
            "secrets": {"jwt": "s3cret"},
            "languages": ["en", "ar"],
            "lastUpdated": 1_763_683_200
        });
        let mut variants = vec![launcher.clone()];
        // tests/api/claims.rs set_component
        let mut caps = launcher.clone();
        caps["components"]["claims"]["maxPending"] = json!(2);
        caps["components"]["claims"]["maxPerDay"] = json!(3);
        caps["components"]["connections"]["maxListsPerConnection"] = json!(3);
        caps["components"]["connections"]["maxItemsPerList"] = json!(4);
        variants.push(caps);
        // e2e/run.sh adds the partner page's origin
        let mut e2e = r.clone();
        e2e["general"]["allowedOrigins"].as_array_mut().unwrap().push(json!("http://127.0.0.1:40123"));
        variants.push(e2e);
        // The smallest file: a tenant handle.
        variants.push(json!({"general": {"tenant": "demo"}}));
        // The config as the refdata service passes it on: secrets removed.
        let mut public = r.clone();
        public.as_object_mut().unwrap().remove("secrets");
        public["components"]["qantas"].as_object_mut().unwrap().remove("apiKey");
        variants.push(public);
        for v in variants {
            Tenant::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}: {v}"));
        }
    }

    #[test]
    fn a_wrong_type_is_named_by_its_path() {
        let mut doc = repo();
        doc["components"]["loyalty"]["tiers"]["levels"][1]["threshold"] = json!("lots");
        let e = error_of(&doc);
        assert_eq!(e.path, "components.loyalty.tiers.levels[1].threshold");
        assert!(e.to_string().starts_with("components.loyalty.tiers.levels[1].threshold: invalid type"), "{e}");
        let e = error_of(&json!({"general": {"tenant": "demo", "allowedOrigins": "https://a.example"}}));
        assert_eq!(e.path, "general.allowedOrigins");
        let e = error_of(&json!({"components": {}}));
        assert_eq!((e.path.as_str(), e.message.contains("general")), (".", true), "{e}");
        assert_eq!(Tenant::from_json("{not json").unwrap_err().path, ".");
    }

    #[test]
    fn the_semantic_checks_name_the_field() {
        let cases: [(&str, Value, &str); 12] = [
            ("general.timeZone", json!("Mars/Olympus"), "general.timeZone"),
            ("general.defaultPosition", json!({"latitude": 95.0, "longitude": 0.0}), "general.defaultPosition.latitude"),
            ("general.allowedOrigins", json!(["https://ok.example", "partner.example"]), "general.allowedOrigins[1]"),
            ("components.loyalty.pointsExpireDays", json!(-1), "components.loyalty.pointsExpireDays"),
            (
                "components.loyalty.tiers.levels",
                json!([{"handle": "a", "name": "A", "threshold": 5}]),
                "components.loyalty.tiers.levels[0].threshold",
            ),
            (
                "components.loyalty.tiers.levels",
                json!([{"handle": "a", "name": "A", "threshold": 0}, {"handle": "b", "name": "B", "threshold": 0}]),
                "components.loyalty.tiers.levels[1].threshold",
            ),
            ("components.loyalty.catalogue", json!([{"id": "x", "name": "X", "points": 0}]), "components.loyalty.catalogue[0].points"),
            ("components.qantas.redemption", json!({"type": "points", "blockSize": 0}), "components.qantas.redemption.blockSize"),
            ("components.claims.maxPending", json!(0), "components.claims.maxPending"),
            ("components.connections.maxItemsPerList", json!(0), "components.connections.maxItemsPerList"),
            ("events.x.endsAt", json!("next week"), "events.x.endsAt"),
            ("components.profile.sizes.tops.systems.US", json!(["1"]), "components.profile.sizes.tops.systems.US"),
        ];
        for (at, value, path) in cases {
            let mut doc = repo();
            let mut slot = &mut doc;
            for k in at.split('.') {
                if slot.get(k).is_none() {
                    slot[k] = json!({"title": "X"});
                }
                slot = &mut slot[k];
            }
            *slot = value;
            assert_eq!(error_of(&doc).path, path, "{at}");
        }
    }

    #[test]
    fn the_cache_parses_a_text_once() {
        let c = Cache::new();
        let text = std::fs::read_to_string(REPO).unwrap();
        let a = c.get(&text).unwrap();
        assert!(Arc::ptr_eq(&a, &c.get(&text).unwrap()));
        let b = c.get(r#"{"general": {"tenant": "other"}}"#).unwrap();
        assert_eq!(b.general.tenant, "other");
        assert!(c.get("{}").is_err());
        let d = Derived::default();
        let n = d.get(&a, |t| t.events.len());
        assert!(Arc::ptr_eq(&n, &d.get(&a, |_| unreachable!("the same config: kept"))));
        assert_eq!(*d.get(&b, |t| t.events.len()), 0);
    }

    /// `config/tenant.schema.json` is what the types say: regenerate it with
    /// `cargo run -p portal-launcher -- tenant-schema > config/tenant.schema.json`.
    #[test]
    fn the_committed_schema_is_current() {
        let committed = std::fs::read_to_string(SCHEMA).unwrap_or_default();
        assert!(
            committed == schema_json(),
            "config/tenant.schema.json is stale: run `cargo run -p portal-launcher -- tenant-schema > config/tenant.schema.json`"
        );
    }
}

//! The `components` section: the settings of each part of the portal the services read
//! (airline partner, profile, claims, connections, loyalty), each with the defaults that apply
//! when the tenant leaves it out.
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

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
    #[serde(default)]
    pub login: Login,
}

/// The sign-in page (`components.login`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[schema(as = LoginComponent)]
pub struct Login {
    /// Offer a sign-in code by text message to the phone on the account (`POST /api/auth/sms`);
    /// off: that route refuses, and the page offers email only.
    #[serde(default)]
    pub sms: bool,
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
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = QantasRedemption)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = QantasRedemptionKind)]
pub enum RedemptionKind {
    Points,
    #[default]
    Off,
}

/// The profile tab's rules (`components.profile`). Absent: nothing may be linked or chosen.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[schema(as = ProfileComponent)]
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

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[schema(as = CommsComponent)]
pub struct Comms {
    /// e.g. `email`, `sms`, `push`, `post`
    #[serde(default)]
    pub channels: Vec<String>,
    /// e.g. `offers`, `news`, `events`
    #[serde(default)]
    pub topics: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
pub struct SizeChart {
    /// Sizes by system (`AU`, `US`, `EU`), index-aligned across systems.
    pub systems: BTreeMap<String, Vec<String>>,
    pub fits: Vec<String>,
    /// Show a chosen size in the other systems too (same index).
    #[serde(default)]
    pub convertible: bool,
}

/// Claims for purchases that were not credited (`components.claims`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ClaimsComponent)]
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
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConnectionsComponent)]
pub struct Connections {
    /// Lists one connection may hold.
    #[serde(default = "max_lists")]
    pub max_lists_per_connection: i64,
    /// Items one list may hold.
    #[serde(default = "max_items")]
    pub max_items_per_list: i64,
    #[serde(default)]
    pub definitions: Vec<ConnectionDefinition>,
    /// Where a list item's product opens (the wish list's "View product"): an https URL with
    /// `{id}` for the product id, e.g. `https://shop.example/products/{id}`. Absent: not linked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_url: Option<String>,
    /// The same for an item that names a variant, `{id}` being the variant id. Absent: such an
    /// item opens its product (`productUrl`) when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_url: Option<String>,
}

fn max_lists() -> i64 {
    20
}
fn max_items() -> i64 {
    200
}

impl Default for Connections {
    fn default() -> Self {
        Connections {
            max_lists_per_connection: max_lists(),
            max_items_per_list: max_items(),
            definitions: vec![],
            product_url: None,
            variant_url: None,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
pub struct ConnectionDefinition {
    /// Unique among the definitions, e.g. `wishlist`.
    pub id: String,
    /// e.g. `shopify`, `portal-lists`
    pub connector: String,
    #[serde(default)]
    pub name: String,
}

/// Points, tiers and rewards (`components.loyalty`). Absent: nothing expires, no tiers, no rewards.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = LoyaltyComponent)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = TierMeasure)]
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

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = LoyaltyTiers)]
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
pub struct TierLevel {
    pub handle: String,
    pub name: crate::Text,
    /// Points, or cents when measured by spend.
    pub threshold: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueEntry {
    pub id: String,
    pub name: crate::Text,
    #[serde(default)]
    pub description: crate::Text,
    #[serde(default)]
    pub terms: crate::Text,
    /// What it costs; over 0.
    pub points: i64,
    /// How long the voucher is valid after redemption; 0: no end.
    #[serde(default)]
    pub valid_days: i64,
}

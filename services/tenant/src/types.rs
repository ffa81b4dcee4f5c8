//! The tenant file's own parts as Rust types: the document, its `general` section and its events.
//! serde reads them, schemars derives the committed JSON Schema from them (doc comments become
//! the schema's descriptions), so a field changes here and nowhere else.
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

use crate::components::{CatalogueEntry, Components};
use crate::{DEFAULT_COUNTRY, DEFAULT_ZONE};

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
    /// Translations of text that comes from elsewhere (the loyalty platform's offers, gifts and
    /// bonus names), keyed by the text as it comes (in `en`): `{"Birthday bonus": {"ar": "…"}}`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub translations: crate::content::Translations,
    /// Secrets for the services only; never leaves the refdata service.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets: Option<BTreeMap<String, Value>>,
    /// Unix seconds of the last change; the file's modification time when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_updated: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = GeneralConfig)]
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
    /// ISO 3166-1 alpha-2 code of the country a member is taken to live in when their profile
    /// names none (`AU` when absent): how a phone number written without `+` is read.
    #[serde(default)]
    pub default_country: Option<String>,
    /// Origins besides the portal's own that links may lead to and that may frame the portal
    /// (`https://partner.example`: scheme, host and port only).
    #[serde(default)]
    pub allowed_origins: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteMeta {
    /// The site's name, in the header and the page title ("Rewards · My account").
    #[serde(default)]
    pub title: Option<Text>,
    #[serde(default)]
    pub description: Option<Text>,
    #[serde(default)]
    pub og_image_url: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
pub struct Background {
    #[serde(default)]
    pub desktop: Option<BackgroundImage>,
    #[serde(default)]
    pub color: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
pub struct BackgroundImage {
    #[serde(default)]
    pub url: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
pub struct CoverHeader {
    #[serde(default)]
    pub sticky: bool,
}

/// Colours (CSS) and shapes of the portal's screens.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
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

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
pub struct Position {
    /// Degrees, -90 to 90.
    pub latitude: f64,
    /// Degrees, -180 to 180.
    pub longitude: f64,
    #[serde(default)]
    pub label: Option<String>,
}

/// A text shown to members: one string, or one per language (`{"en": ..., "it": ...}`, the
/// default under `en`; a language left out shows the default). See `content`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(as = LocalText)]
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
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EventConfig)]
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

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EventField)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = EventFieldKind)]
pub enum FieldKind {
    #[default]
    Text,
    Email,
    Select,
    Checkbox,
    Date,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(as = EventOption)]
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

/// The longest text answer an event may ask for.
pub const TEXT_MAX: u64 = 500;
impl Tenant {
    /// `general.timeZone` (validated at load), else [`DEFAULT_ZONE`].
    pub fn zone(&self) -> chrono_tz::Tz {
        self.general.time_zone.as_deref().and_then(|z| z.parse().ok()).unwrap_or(DEFAULT_ZONE)
    }

    /// `general.defaultCountry` (validated at load), else [`DEFAULT_COUNTRY`].
    pub fn default_country(&self) -> &str {
        self.general.default_country.as_deref().unwrap_or(DEFAULT_COUNTRY)
    }

    /// The rewards catalogue, cheapest first.
    pub fn catalogue_by_points(&self) -> Vec<CatalogueEntry> {
        let mut c = self.components.loyalty.catalogue.clone();
        c.sort_by(|a, b| a.points.cmp(&b.points).then_with(|| a.id.cmp(&b.id)));
        c
    }
}

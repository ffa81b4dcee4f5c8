//! The typed `eventData` and `customFields` of an event sign-up (spec 7): what the browser sends
//! to `/api/auth` (and the code routes) and what the data export answers, as the same JSON as
//! ever (strings, booleans and numbers as they are), mapped to and from the auth contract here.
use pb::custom_field_value::Kind;
use portal_proto::auth::v1 as pb;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use utoipa::ToSchema;

/// Which event a sign-up is for.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct EventData {
    /// The event's key (the `m` of `/event/{m}`).
    #[serde(default)]
    pub m: String,
}

/// One answer to an event's custom field: text (text, email, select, date), a flag (checkbox),
/// or a number (kept as its text). `null` counts as no answer.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum CustomFieldValue {
    Text(String),
    Flag(bool),
    /// Whole or not, as JSON has it (one schema type, so `oneOf` stays disjoint).
    #[schema(value_type = f64)]
    Number(serde_json::Number),
    Null,
}

/// An event sign-up's answers by field name.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq, Default)]
#[serde(transparent)]
pub struct CustomFields(pub BTreeMap<String, CustomFieldValue>);

impl From<EventData> for pb::EventData {
    fn from(e: EventData) -> Self {
        pb::EventData { m: e.m }
    }
}

impl From<pb::EventData> for EventData {
    fn from(e: pb::EventData) -> Self {
        EventData { m: e.m }
    }
}

/// The answers for the auth service; none sent is no answers.
pub fn to_pb(fields: Option<CustomFields>) -> HashMap<String, pb::CustomFieldValue> {
    let kind = |v: CustomFieldValue| match v {
        CustomFieldValue::Text(s) => Some(Kind::Text(s)),
        CustomFieldValue::Flag(b) => Some(Kind::Flag(b)),
        CustomFieldValue::Number(n) => Some(n.as_i64().map_or_else(|| Kind::Number(n.as_f64().unwrap_or_default()), Kind::Integer)),
        CustomFieldValue::Null => None,
    };
    fields.unwrap_or_default().0.into_iter().map(|(k, v)| (k, pb::CustomFieldValue { kind: kind(v) })).collect()
}

/// The answers a recorded sign-up kept, as the export shows them.
pub fn from_pb(fields: pb::CustomFields) -> CustomFields {
    let value = |v: pb::CustomFieldValue| match v.kind {
        Some(Kind::Text(s)) => CustomFieldValue::Text(s),
        Some(Kind::Flag(b)) => CustomFieldValue::Flag(b),
        Some(Kind::Integer(n)) => CustomFieldValue::Number(n.into()),
        Some(Kind::Number(n)) => serde_json::Number::from_f64(n).map_or(CustomFieldValue::Null, CustomFieldValue::Number),
        None => CustomFieldValue::Null,
    };
    CustomFields(fields.values.into_iter().map(|(k, v)| (k, value(v))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_browsers_json_parses_as_it_is_and_goes_back_the_same() {
        let sent = json!({"guests": 2, "ratio": 2.5, "dietary": "vegan", "terms": true, "note": null});
        let fields: CustomFields = serde_json::from_value(sent.clone()).unwrap();
        assert_eq!(to_pb(Some(fields.clone()))["guests"].kind, Some(Kind::Integer(2)));
        assert_eq!(to_pb(Some(fields.clone()))["ratio"].kind, Some(Kind::Number(2.5)));
        assert_eq!(fields.0["note"], CustomFieldValue::Null);
        let back = from_pb(pb::CustomFields { values: to_pb(Some(fields)) });
        assert_eq!(serde_json::to_value(back).unwrap(), sent);
        assert!(serde_json::from_value::<CustomFields>(json!({"guests": [1]})).is_err(), "a list is no answer");
        assert!(serde_json::from_value::<CustomFields>(json!("x")).is_err());
        let event: EventData = serde_json::from_value(json!({"m": "spring-launch", "other": 1})).unwrap();
        assert_eq!(serde_json::to_value(event).unwrap(), json!({"m": "spring-launch"}));
    }
}

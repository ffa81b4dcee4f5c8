//! Check-ins and event sign-ups brought by a sign-in (spec 7: `POST /api/auth` with `location`
//! and mode `visit`, or mode `event` with `eventData` and `customFields`). Everything is checked
//! when the link or code is asked for, before anything is sent: the store must exist, the event
//! must be in the tenant's config and not over, and the fields must match the event's
//! definition. The activity is recorded when the member proves who they are, once: a visit once
//! per store per local day (in the store's time zone), an attendance once per event.
use crate::error::AuthError;
use crate::state::Inner;
use crate::store;
use pb::custom_field_value::Kind;
use portal_common::email::Email;
use portal_proto::auth::v1 as pb;
use portal_proto::refdata::v1::ListLocationsRequest;
use portal_tenant::{CustomField, FieldKind, TEXT_MAX};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// An event sign-up's answers by field name, as the request brings them.
pub type Given = HashMap<String, pb::CustomFieldValue>;
/// The answers kept (text or flags), by field name.
pub type Kept = BTreeMap<String, pb::CustomFieldValue>;

/// What a one-time link or code carries besides the account: a check-in or event attendance to
/// record once the member has proved who they are.
#[derive(Serialize, Deserialize, Default, Clone, Debug)]
pub struct Pending {
    #[serde(default)]
    pub mode: String,
    /// The store's handle (visit).
    #[serde(default)]
    pub location: String,
    /// The event data and the kept answers (event) in their stored form, JSON text
    /// (`stored::event_json`, `stored::fields_json`): a link or code in flight keeps it as it was.
    #[serde(default)]
    pub event_data: String,
    #[serde(default)]
    pub custom_fields: String,
    /// The store's name or the event's title.
    #[serde(default)]
    pub name: String,
    /// The store's IANA time zone (visit): the day a visit counts for is the store's.
    #[serde(default)]
    pub time_zone: String,
    /// The event's key (event).
    #[serde(default)]
    pub event: String,
}

/// The default time zone (spec 9) for a store without one.
const DEFAULT_TIME_ZONE: &str = "Australia/Melbourne";

impl Inner {
    /// Checks a sign-in's `mode`, `location`, `eventData` and `customFields` and says what to
    /// record when the member signs in. A plain sign-in (no mode) records nothing.
    pub(crate) async fn pending(
        &self,
        mode: &str,
        location: &str,
        event_data: Option<&pb::EventData>,
        custom_fields: &Given,
    ) -> Result<Pending, AuthError> {
        match mode.trim() {
            "" => Ok(Pending::default()),
            "visit" => self.visit(location.trim()).await,
            "event" => self.event(event_data, custom_fields).await,
            _ => Err(AuthError::field("mode", "Use visit or event")),
        }
    }

    async fn visit(&self, handle: &str) -> Result<Pending, AuthError> {
        if handle.is_empty() {
            return Err(AuthError::field("location", "A check-in needs a store"));
        }
        let stores = self.refdata.clone().list_locations(ListLocationsRequest {}).await?.into_inner().locations;
        let store = stores
            .into_iter()
            .find(|l| l.handle.eq_ignore_ascii_case(handle))
            .ok_or_else(|| AuthError::field("location", "We couldn't find that store"))?;
        Ok(Pending { mode: "visit".into(), location: store.handle, name: store.name, time_zone: store.time_zone, ..Pending::default() })
    }

    async fn event(&self, event_data: Option<&pb::EventData>, given: &Given) -> Result<Pending, AuthError> {
        let key = event_data.map(|d| d.m.trim()).unwrap_or_default().to_string();
        if key.is_empty() {
            return Err(AuthError::field("eventData.m", "Say which event"));
        }
        let tenant = self.tenant().await?;
        let def = tenant.events.get(&key).ok_or_else(|| AuthError::field("eventData.m", "We couldn't find that event"))?;
        if def.is_over(chrono::Utc::now()) {
            return Err(AuthError::field("eventData.m", "This event has finished"));
        }
        let fields = check_fields(&def.custom_fields, given).map_err(AuthError::Fields)?;
        Ok(Pending {
            mode: "event".into(),
            event_data: stored::event_json(&pb::EventData { m: key.clone() }),
            custom_fields: stored::fields_json(&fields),
            name: def.title.english().map(str::to_owned).unwrap_or_else(|| key.clone()),
            event: key,
            ..Pending::default()
        })
    }

    /// Records the activity a redeemed link or code brought, once; says what happened.
    pub(crate) async fn record_activity(&self, pid: &str, p: &Pending) -> Result<Option<pb::Activity>, AuthError> {
        // What the member sees it by (the store's handle, the event's key), and what makes it once.
        let (key, once_key) = match p.mode.as_str() {
            "visit" => (&p.location, format!("{}:{}", p.location, local_date(&p.time_zone, chrono::Utc::now()))),
            "event" => (&p.event, p.event.clone()),
            _ => return Ok(None),
        };
        let recorded = store::activity::record(&self.db, pid, p, Self::now(), &once_key).await?;
        Ok(Some(pb::Activity { kind: p.mode.clone(), key: key.clone(), name: p.name.clone(), recorded }))
    }

    /// A signed-in member's check-in or sign-up in one tap: the same checks as a link or code
    /// asks for, then the same record a redeemed one makes, for the caller.
    pub(crate) async fn record_now(&self, pid: &str, r: pb::RecordActivityRequest) -> Result<pb::Activity, AuthError> {
        if r.mode.trim().is_empty() {
            return Err(AuthError::field("mode", "Use visit or event"));
        }
        let p = self.pending(&r.mode, &r.location, r.event_data.as_ref(), &r.custom_fields).await?;
        Ok(self.record_activity(pid, &p).await?.unwrap_or_default())
    }

    /// The caller's sign-up for event `key`, with the answers kept.
    pub(crate) async fn event_sign_up(&self, pid: &str, key: &str) -> Result<pb::EventSignUp, AuthError> {
        Ok(store::activity::event(&self.db, pid, key.trim()).await?.unwrap_or_default())
    }
}

/// The date at `now` in the store's time zone (the default zone when it has none or a bad one).
pub fn local_date(zone: &str, now: chrono::DateTime<chrono::Utc>) -> chrono::NaiveDate {
    let tz: chrono_tz::Tz = zone.parse().unwrap_or_else(|_| DEFAULT_TIME_ZONE.parse().expect("a known zone"));
    now.with_timezone(&tz).date_naive()
}

/// Checks `given` against the event's `customFields` definition (types text, email, select,
/// checkbox, date; checked when the tenant config loaded). Answers the values to keep (trimmed;
/// a checkbox's flag, any other field's text), or every problem keyed `customFields.<name>`. A
/// field the event does not ask for is refused. An answer without a value counts as none.
pub fn check_fields(defs: &[CustomField], given: &Given) -> Result<Kept, BTreeMap<String, String>> {
    let mut errors = BTreeMap::new();
    for k in given.keys() {
        if !defs.iter().any(|d| d.name == *k) {
            errors.insert(format!("customFields.{k}"), "This event doesn't ask for this".into());
        }
    }
    let mut kept = Kept::new();
    for d in defs {
        let name = d.name.as_str();
        let key = format!("customFields.{name}");
        let raw = given.get(name).and_then(|v| v.kind.as_ref());
        if d.kind == FieldKind::Checkbox {
            match raw {
                None | Some(Kind::Flag(false)) if d.required => {
                    errors.insert(key, "Please tick this box to continue".into());
                }
                None => {}
                Some(Kind::Flag(b)) => {
                    kept.insert(name.into(), value(Kind::Flag(*b)));
                }
                Some(_) => {
                    errors.insert(key, "Must be true or false".into());
                }
            }
            continue;
        }
        let text = match raw {
            None => String::new(),
            Some(Kind::Text(s)) => s.trim().to_string(),
            Some(Kind::Integer(n)) => n.to_string(),
            // As JSON writes it (`2.5`): the text the field is checked as.
            Some(Kind::Number(n)) => serde_json::Number::from_f64(*n).map(|n| n.to_string()).unwrap_or_default(),
            Some(Kind::Flag(_)) => {
                errors.insert(key, "Must be text".into());
                continue;
            }
        };
        if text.is_empty() {
            if d.required {
                errors.insert(key, "Required".into());
            }
            continue;
        }
        // The value kept (an email address in its normal form), or what is wrong with it.
        let checked: Result<String, String> = match d.kind {
            FieldKind::Email => Email::parse(&text).map(|e| e.as_str().to_string()).map_err(str::to_owned),
            FieldKind::Date => {
                chrono::NaiveDate::parse_from_str(&text, "%Y-%m-%d").map(|_| text).map_err(|_| "Use a date like 2026-03-01".to_string())
            }
            FieldKind::Select => {
                if d.options.iter().any(|o| o.value() == text) {
                    Ok(text)
                } else {
                    Err("Choose one of the options".to_string())
                }
            }
            FieldKind::Text | FieldKind::Checkbox => {
                let max = d.max_length.unwrap_or(TEXT_MAX).min(TEXT_MAX) as usize;
                if text.chars().count() > max {
                    Err(format!("Use at most {max} characters"))
                } else {
                    Ok(text)
                }
            }
        };
        match checked {
            Ok(v) => {
                kept.insert(name.into(), value(Kind::Text(v)));
            }
            Err(p) => {
                errors.insert(key, p);
            }
        }
    }
    if errors.is_empty() {
        Ok(kept)
    } else {
        Err(errors)
    }
}

fn value(kind: Kind) -> pb::CustomFieldValue {
    pb::CustomFieldValue { kind: Some(kind) }
}

/// The stored form of an event sign-up (the `sign_in_activity` columns, and a pending link or
/// code): JSON text made from the typed values here, and read back into them here only.
pub mod stored {
    use super::{value, Kept, Kind};
    use portal_proto::auth::v1 as pb;
    use serde_json::{Map, Value};

    /// `{"m": "<key>"}`.
    pub fn event_json(e: &pb::EventData) -> String {
        serde_json::json!({ "m": e.m }).to_string()
    }

    /// The kept answers as a JSON object: a text as a string, a flag as a boolean.
    pub fn fields_json(fields: &Kept) -> String {
        let object: Map<String, Value> = fields.iter().map(|(k, v)| (k.clone(), json_of(v))).collect();
        Value::Object(object).to_string()
    }

    pub(crate) fn json_of(v: &pb::CustomFieldValue) -> Value {
        match &v.kind {
            None => Value::Null,
            Some(Kind::Text(s)) => Value::String(s.clone()),
            Some(Kind::Flag(b)) => Value::Bool(*b),
            Some(Kind::Integer(n)) => Value::from(*n),
            Some(Kind::Number(n)) => Value::from(*n),
        }
    }

    /// The event a stored record is for; none for a visit (empty) or a record without a key.
    pub fn event_data(text: &str) -> Option<pb::EventData> {
        let v: Value = serde_json::from_str(text).ok()?;
        v.get("m").and_then(Value::as_str).map(|m| pb::EventData { m: m.to_owned() })
    }

    /// The answers a stored record kept; none for a visit (empty).
    pub fn custom_fields(text: &str) -> Option<pb::CustomFields> {
        let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) else {
            return None;
        };
        Some(pb::CustomFields { values: object.into_iter().map(|(k, v)| (k, typed(v))).collect() })
    }

    /// A JSON value as a typed answer (what `json_of` makes, back).
    pub(crate) fn typed(v: Value) -> pb::CustomFieldValue {
        match v {
            Value::Null => pb::CustomFieldValue { kind: None },
            Value::Bool(b) => value(Kind::Flag(b)),
            Value::String(s) => value(Kind::Text(s)),
            Value::Number(n) => match n.as_i64() {
                Some(i) => value(Kind::Integer(i)),
                None => value(Kind::Number(n.as_f64().unwrap_or_default())),
            },
            other => value(Kind::Text(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Answers as the gateway brings them from the browser's JSON.
    fn given(v: Value) -> Given {
        v.as_object().unwrap().iter().map(|(k, v)| (k.clone(), stored::typed(v.clone()))).collect()
    }

    fn as_json(kept: &Kept) -> Value {
        serde_json::from_str(&stored::fields_json(kept)).unwrap()
    }

    fn def() -> Vec<CustomField> {
        serde_json::from_value(json!([
            {"name": "guests", "type": "select", "options": ["1", "2", {"value": "3", "label": {"en": "Three"}}], "required": true},
            {"name": "dietary", "type": "text", "maxLength": 10},
            {"name": "birthday", "type": "date"},
            {"name": "friend", "type": "email"},
            {"name": "terms", "type": "checkbox", "required": true}
        ]))
        .unwrap()
    }

    #[test]
    fn good_values_are_kept_trimmed() {
        let kept = check_fields(
            &def(),
            &given(json!({"guests": 3, "dietary": " vegan ", "birthday": "1990-02-28", "friend": "Ann@Example.com", "terms": true})),
        )
        .unwrap();
        assert_eq!(
            as_json(&kept),
            json!({"guests": "3", "dietary": "vegan", "birthday": "1990-02-28", "friend": "ann@example.com", "terms": true})
        );
    }

    #[test]
    fn every_problem_is_named_by_its_field() {
        let errors = check_fields(
            &def(),
            &given(
                json!({"guests": "9", "dietary": "x".repeat(11), "birthday": "1990-02-30", "friend": "nope", "terms": false, "shoe": "42"}),
            ),
        )
        .unwrap_err();
        let keys: Vec<&str> = errors.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "customFields.birthday",
                "customFields.dietary",
                "customFields.friend",
                "customFields.guests",
                "customFields.shoe",
                "customFields.terms"
            ]
        );
        let missing = check_fields(&def(), &given(json!({"dietary": null}))).unwrap_err();
        assert_eq!(missing.keys().map(String::as_str).collect::<Vec<_>>(), ["customFields.guests", "customFields.terms"]);
        let kinds = check_fields(&def(), &given(json!({"guests": "1", "dietary": true, "terms": "yes"}))).unwrap_err();
        assert_eq!(kinds["customFields.dietary"], "Must be text");
        assert_eq!(kinds["customFields.terms"], "Must be true or false");
    }

    #[test]
    fn a_number_is_checked_as_the_text_json_writes() {
        let kept = check_fields(&def(), &given(json!({"guests": 2, "dietary": 2.5, "terms": true}))).unwrap();
        assert_eq!(as_json(&kept), json!({"guests": "2", "dietary": "2.5", "terms": true}));
    }

    #[test]
    fn the_stored_form_reads_back_as_it_was_made() {
        let kept = check_fields(&def(), &given(json!({"guests": "2", "terms": true}))).unwrap();
        let text = stored::fields_json(&kept);
        assert_eq!(text, r#"{"guests":"2","terms":true}"#);
        assert_eq!(stored::custom_fields(&text).unwrap().values, kept.into_iter().collect());
        let event = stored::event_json(&pb::EventData { m: "spring-launch".into() });
        assert_eq!(stored::event_data(&event).unwrap().m, "spring-launch");
        assert!(stored::event_data("").is_none() && stored::custom_fields("").is_none(), "a visit has neither");
    }

    #[test]
    fn an_event_is_over_after_its_end() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-06-01T00:00:00Z").unwrap().with_timezone(&chrono::Utc);
        let event = |v: Value| serde_json::from_value::<portal_tenant::Event>(v).unwrap();
        assert!(event(json!({"title": "E", "endsAt": "2026-05-31T23:59:59+00:00"})).is_over(now));
        assert!(!event(json!({"title": "E", "endsAt": "2026-06-01T10:00:01+10:00"})).is_over(now));
        assert!(!event(json!({"title": "E"})).is_over(now), "no end: open");
    }

    #[test]
    fn a_visit_counts_for_the_stores_local_day() {
        // 14:30 UTC on 1 June is 00:30 on 2 June in Melbourne and 07:30 on 1 June in Los Angeles.
        let now = chrono::DateTime::parse_from_rfc3339("2026-06-01T14:30:00Z").unwrap().with_timezone(&chrono::Utc);
        assert_eq!(local_date("Australia/Melbourne", now).to_string(), "2026-06-02");
        assert_eq!(local_date("America/Los_Angeles", now).to_string(), "2026-06-01");
        assert_eq!(local_date("", now).to_string(), "2026-06-02", "the default zone");
    }
}

//! Check-ins and event sign-ups brought by a sign-in (spec 7: `POST /api/auth` with `location`
//! and mode `visit`, or mode `event` with `eventData` and `customFields`). Everything is checked
//! when the link or code is asked for, before anything is sent: the store must exist, the event
//! must be in the tenant's config and not over, and the fields must match the event's
//! definition. The activity is recorded when the member proves who they are, once: a visit once
//! per store per local day (in the store's time zone), an attendance once per event.
use crate::error::AuthError;
use crate::state::Inner;
use crate::store;
use portal_common::email::Email;
use portal_proto::auth::v1 as pb;
use portal_proto::refdata::v1::ListLocationsRequest;
use portal_tenant::{CustomField, FieldKind, TEXT_MAX};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// What a one-time link or code carries besides the account: a check-in or event attendance to
/// record once the member has proved who they are.
#[derive(Serialize, Deserialize, Default, Clone, Debug)]
pub struct Pending {
    #[serde(default)]
    pub mode: String,
    /// The store's handle (visit).
    #[serde(default)]
    pub location: String,
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
    pub(crate) async fn pending(&self, mode: &str, location: &str, event_data: &str, custom_fields: &str) -> Result<Pending, AuthError> {
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

    async fn event(&self, event_data: &str, custom_fields: &str) -> Result<Pending, AuthError> {
        let data: Value = parse_json(event_data, "eventData")?.unwrap_or(Value::Null);
        let key = data.get("m").and_then(Value::as_str).map(str::trim).unwrap_or_default().to_string();
        if key.is_empty() {
            return Err(AuthError::field("eventData.m", "Say which event"));
        }
        let tenant = self.tenant().await?;
        let def = tenant.events.get(&key).ok_or_else(|| AuthError::field("eventData.m", "We couldn't find that event"))?;
        if def.is_over(chrono::Utc::now()) {
            return Err(AuthError::field("eventData.m", "This event has finished"));
        }
        let given = parse_json(custom_fields, "customFields")?.unwrap_or(Value::Object(Map::new()));
        let fields = check_fields(&def.custom_fields, &given).map_err(AuthError::Fields)?;
        Ok(Pending {
            mode: "event".into(),
            event_data: serde_json::json!({ "m": key }).to_string(),
            custom_fields: Value::Object(fields).to_string(),
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
}

fn parse_json(s: &str, field: &str) -> Result<Option<Value>, AuthError> {
    if s.trim().is_empty() {
        return Ok(None);
    }
    serde_json::from_str(s).map(Some).map_err(|_| AuthError::field(field, "Must be valid JSON"))
}

/// The date at `now` in the store's time zone (the default zone when it has none or a bad one).
pub fn local_date(zone: &str, now: chrono::DateTime<chrono::Utc>) -> chrono::NaiveDate {
    let tz: chrono_tz::Tz = zone.parse().unwrap_or_else(|_| DEFAULT_TIME_ZONE.parse().expect("a known zone"));
    now.with_timezone(&tz).date_naive()
}

/// Checks `given` against the event's `customFields` definition (types text, email, select,
/// checkbox, date; checked when the tenant config loaded). Answers the values to keep (trimmed,
/// in the definition's order), or every problem keyed `customFields.<name>`. A field the event
/// does not ask for is refused.
pub fn check_fields(defs: &[CustomField], given: &Value) -> Result<Map<String, Value>, BTreeMap<String, String>> {
    let mut errors = BTreeMap::new();
    let Some(given) = given.as_object() else {
        errors.insert("customFields".into(), "Must be an object of field values".into());
        return Err(errors);
    };
    for k in given.keys() {
        if !defs.iter().any(|d| d.name == *k) {
            errors.insert(format!("customFields.{k}"), "This event doesn't ask for this".into());
        }
    }
    let mut kept = Map::new();
    for d in defs {
        let name = d.name.as_str();
        let key = format!("customFields.{name}");
        let raw = given.get(name).filter(|v| !v.is_null());
        if d.kind == FieldKind::Checkbox {
            match raw {
                None | Some(Value::Bool(false)) if d.required => {
                    errors.insert(key, "Please tick this box to continue".into());
                }
                None => {}
                Some(Value::Bool(b)) => {
                    kept.insert(name.into(), Value::Bool(*b));
                }
                Some(_) => {
                    errors.insert(key, "Must be true or false".into());
                }
            }
            continue;
        }
        let text = match raw {
            None => String::new(),
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Number(n)) => n.to_string(),
            Some(_) => {
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
            Ok(value) => {
                kept.insert(name.into(), Value::String(value));
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
            &json!({"guests": 3, "dietary": " vegan ", "birthday": "1990-02-28", "friend": "Ann@Example.com", "terms": true}),
        )
        .unwrap();
        assert_eq!(
            Value::Object(kept),
            json!({"guests": "3", "dietary": "vegan", "birthday": "1990-02-28", "friend": "ann@example.com", "terms": true})
        );
    }

    #[test]
    fn every_problem_is_named_by_its_field() {
        let errors = check_fields(
            &def(),
            &json!({"guests": "9", "dietary": "x".repeat(11), "birthday": "1990-02-30", "friend": "nope", "terms": false, "shoe": "42"}),
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
        let missing = check_fields(&def(), &json!({})).unwrap_err();
        assert_eq!(missing.keys().map(String::as_str).collect::<Vec<_>>(), ["customFields.guests", "customFields.terms"]);
        assert!(check_fields(&def(), &json!(["guests"])).is_err());
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

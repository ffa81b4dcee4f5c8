//! Offers (benefits). A member's offer may come from one of the tenant's definitions, whose
//! `meta.profileportal` holds the portal's text overrides by key. The spec's rule (section 5):
//! overrides apply only if the benefit has meta, is published and is claimable. A claimable offer
//! is activated by the member, once.
use crate::error::ProfileError;
use crate::store;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;
use serde_json::{Map, Value};

type Result<T> = std::result::Result<T, ProfileError>;

pub const NOT_FOUND: &str = "We couldn't find that offer";
pub const NOT_CLAIMABLE: &str = "This offer doesn't need activating";
pub const ENDED: &str = "This offer has ended";

/// The portal's text overrides of a definition, if the rule lets them apply.
pub fn overrides(meta: Option<&Value>, is_published: bool, is_claimable: bool) -> Option<&Map<String, Value>> {
    let texts = meta?.get("profileportal")?.as_object()?;
    (is_published && is_claimable).then_some(texts)
}

/// The texts a member sees: the offer's own, with the overrides the rule allows.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Texts {
    pub name: String,
    pub description: String,
    pub banner_desktop: String,
    pub banner_mobile: String,
}

/// Known keys: `title` (replaces the name), `description`, `banner_desktop`, `banner_mobile`.
pub fn texts(name: &str, description: &str, over: Option<&Map<String, Value>>) -> Texts {
    let get = |key: &str| over.and_then(|o| o.get(key)).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    Texts {
        name: get("title").unwrap_or(name).to_string(),
        description: get("description").unwrap_or(description).to_string(),
        banner_desktop: get("banner_desktop").unwrap_or_default().to_string(),
        banner_mobile: get("banner_mobile").unwrap_or_default().to_string(),
    }
}

fn meta_of(raw: Option<String>) -> Option<Value> {
    raw.and_then(|m| serde_json::from_str(&m).map_err(|e| tracing::warn!(error = %e, "unreadable benefit meta")).ok())
}

fn benefit(o: store::offers::Offer) -> pb::Benefit {
    let meta = meta_of(o.meta);
    let t = texts(&o.name, &o.description, overrides(meta.as_ref(), o.is_published, o.is_claimable));
    pb::Benefit {
        id: o.id,
        name: t.name,
        description: t.description,
        ends_at: o.ends_at,
        definition_id: o.definition_id,
        banner_desktop: t.banner_desktop,
        banner_mobile: t.banner_mobile,
        is_claimable: o.is_claimable,
        activated_at: o.activated_at,
    }
}

/// The member's offers that have not ended, ending soonest first.
pub async fn list(db: &Db, pid: &str, now: i64) -> Result<Vec<pb::Benefit>> {
    Ok(store::offers::list(db, pid, now).await?.into_iter().map(benefit).collect())
}

/// Every offer of the member, ended ones too (the data export).
pub async fn all(db: &Db, pid: &str) -> Result<Vec<pb::Benefit>> {
    Ok(store::offers::all(db, pid).await?.into_iter().map(benefit).collect())
}

async fn one(db: &Db, pid: &str, id: i64) -> Result<pb::Benefit> {
    store::offers::one(db, pid, id).await?.map(benefit).ok_or(ProfileError::Missing(NOT_FOUND))
}

/// Activates the member's claimable offer. Idempotent: only the first activation sets the time,
/// also when two arrive together; every one answers the activated offer.
pub async fn activate(db: &Db, pid: &str, id: i64, now: i64) -> Result<pb::Benefit> {
    let b = one(db, pid, id).await?;
    if !b.is_claimable {
        return Err(ProfileError::Refused(NOT_CLAIMABLE));
    }
    if b.activated_at != 0 {
        return Ok(b);
    }
    if b.ends_at < now {
        return Err(ProfileError::Refused(ENDED));
    }
    store::offers::activate(db, pid, id, now).await?;
    one(db, pid, id).await
}

/// One of the tenant's definitions, as stored (overrides not applied: the caller has the flags).
pub async fn definition(db: &Db, tenant: &str, id: i64) -> Result<pb::BenefitDefinition> {
    store::offers::definition(db, tenant, id).await?.ok_or(ProfileError::Missing(NOT_FOUND))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The rule's eight cases: meta present or not, published or not, claimable or not. Only
    /// all three together apply the overrides.
    #[test]
    fn overrides_apply_only_with_meta_published_and_claimable() {
        let meta = json!({"profileportal": {"title": "Double points this weekend", "banner_desktop": "Earn 2× points", "banner_mobile": "2× points"}});
        for has_meta in [false, true] {
            for published in [false, true] {
                for claimable in [false, true] {
                    let m = has_meta.then_some(&meta);
                    let t = texts("Double points weekend", "Earn twice the points.", overrides(m, published, claimable));
                    let applies = has_meta && published && claimable;
                    let case = format!("meta {has_meta}, published {published}, claimable {claimable}");
                    if applies {
                        assert_eq!(t.name, "Double points this weekend", "{case}");
                        assert_eq!((t.banner_desktop.as_str(), t.banner_mobile.as_str()), ("Earn 2× points", "2× points"), "{case}");
                    } else {
                        assert_eq!(t.name, "Double points weekend", "{case}");
                        assert_eq!((t.banner_desktop.as_str(), t.banner_mobile.as_str()), ("", ""), "{case}");
                    }
                    assert_eq!(t.description, "Earn twice the points.", "{case}: no description override given");
                }
            }
        }
    }

    #[test]
    fn meta_without_portal_texts_is_no_meta() {
        assert!(overrides(Some(&json!({"pos": {"code": "X"}})), true, true).is_none());
        assert!(overrides(Some(&json!({"profileportal": "not an object"})), true, true).is_none());
        // Empty or non-text values leave the offer's own text.
        let m = json!({"profileportal": {"title": "  ", "description": 5}});
        let t = texts("Name", "Text", overrides(Some(&m), true, true));
        assert_eq!((t.name.as_str(), t.description.as_str()), ("Name", "Text"));
    }
}

//! Members' offers (`benefits`) and the tenant's definitions they may come from, with the
//! definition's meta and flags as stored: whether its texts apply is `loyalty::offers`' rule.
use super::Result;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;
use sqlx::Row;

/// A member's offer with its definition's meta and flags, if it has one.
pub struct Offer {
    pub id: i64,
    pub name: String,
    pub description: String,
    pub ends_at: i64,
    pub definition_id: i64,
    pub activated_at: i64,
    pub meta: Option<String>,
    pub is_published: bool,
    pub is_claimable: bool,
}

const BENEFIT_COLS: &str =
    "b.id, b.name, b.description, b.ends_at, b.definition_id, b.activated_at, d.meta, d.is_published, d.is_claimable";

fn offer(r: &sqlx::any::AnyRow) -> Offer {
    Offer {
        id: r.get("id"),
        name: r.get("name"),
        description: r.get("description"),
        ends_at: r.get("ends_at"),
        definition_id: r.get::<Option<i64>, _>("definition_id").unwrap_or(0),
        activated_at: r.get::<Option<i64>, _>("activated_at").unwrap_or(0),
        meta: r.get("meta"),
        is_published: r.get::<Option<i64>, _>("is_published").unwrap_or(0) != 0,
        is_claimable: r.get::<Option<i64>, _>("is_claimable").unwrap_or(0) != 0,
    }
}

/// The member's offers that have not ended by `now`, ending soonest first.
pub async fn list(db: &Db, pid: &str, now: i64) -> Result<Vec<Offer>> {
    Ok(sqlx::query(&format!(
        "SELECT {BENEFIT_COLS} FROM benefits b LEFT JOIN benefit_definitions d ON d.id = b.definition_id
         WHERE b.profile_id = $1 AND b.ends_at >= $2 ORDER BY b.ends_at, b.id"
    ))
    .bind(pid)
    .bind(now)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(offer)
    .collect())
}

/// Every offer of the member, ended ones too (the data export).
pub async fn all(db: &Db, pid: &str) -> Result<Vec<Offer>> {
    Ok(sqlx::query(&format!(
        "SELECT {BENEFIT_COLS} FROM benefits b LEFT JOIN benefit_definitions d ON d.id = b.definition_id WHERE b.profile_id = $1 ORDER BY b.ends_at, b.id"
    ))
    .bind(pid)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(offer)
    .collect())
}

/// One of the member's offers.
pub async fn one(db: &Db, pid: &str, id: i64) -> Result<Option<Offer>> {
    let row = sqlx::query(&format!(
        "SELECT {BENEFIT_COLS} FROM benefits b LEFT JOIN benefit_definitions d ON d.id = b.definition_id WHERE b.id = $1 AND b.profile_id = $2"
    ))
    .bind(id)
    .bind(pid)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.as_ref().map(offer))
}

/// Sets the offer's activation time, unless it is already set.
pub async fn activate(db: &Db, pid: &str, id: i64, now: i64) -> Result<()> {
    sqlx::query("UPDATE benefits SET activated_at = $3 WHERE id = $1 AND profile_id = $2 AND activated_at IS NULL")
        .bind(id)
        .bind(pid)
        .bind(now)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// One of the tenant's definitions, as stored (overrides not applied).
pub async fn definition(db: &Db, tenant: &str, id: i64) -> Result<Option<pb::BenefitDefinition>> {
    let r = sqlx::query(
        "SELECT id, name, description, meta, is_published, is_claimable, ends_at FROM benefit_definitions WHERE id = $1 AND tenant = $2",
    )
    .bind(id)
    .bind(tenant)
    .fetch_optional(&db.pool)
    .await?;
    Ok(r.map(|r| pb::BenefitDefinition {
        id: r.get("id"),
        name: r.get("name"),
        description: r.get("description"),
        meta_json: r.get::<Option<String>, _>("meta").unwrap_or_default(),
        is_published: r.get::<i64, _>("is_published") != 0,
        is_claimable: r.get::<i64, _>("is_claimable") != 0,
        ends_at: r.get::<Option<i64>, _>("ends_at").unwrap_or(0),
    }))
}

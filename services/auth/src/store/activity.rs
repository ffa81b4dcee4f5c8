//! Check-ins and event attendances recorded at sign-in (`sign_in_activity`), each at most once
//! per member, kind and `once_key`. An event's data and answers are kept as JSON text and read
//! back into their typed form (`activity::stored`).
use super::Result;
use crate::activity::{stored, Pending};
use portal_common::db::Db;
use portal_proto::auth::v1 as pb;
use sqlx::Row;

/// Records the activity unless one with the same `once_key` is there; true if this call did.
pub async fn record(db: &Db, pid: &str, p: &Pending, at: i64, once_key: &str) -> Result<bool> {
    let done = sqlx::query(
        "INSERT INTO sign_in_activity (id, profile_id, kind, location, event_data, custom_fields, at, once_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (profile_id, kind, once_key) DO NOTHING",
    )
    .bind(portal_common::new_id("act_"))
    .bind(pid)
    .bind(&p.mode)
    .bind(&p.location)
    .bind(&p.event_data)
    .bind(&p.custom_fields)
    .bind(at)
    .bind(once_key)
    .execute(&db.pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The member's sign-up for event `key` (its `once_key`), if there is one.
pub async fn event(db: &Db, pid: &str, key: &str) -> Result<Option<pb::EventSignUp>> {
    Ok(sqlx::query("SELECT custom_fields, at FROM sign_in_activity WHERE profile_id = $1 AND kind = 'event' AND once_key = $2")
        .bind(pid)
        .bind(key)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| pb::EventSignUp { signed_up: true, custom_fields: stored::custom_fields(r.get("custom_fields")), at: r.get("at") }))
}

/// Everything recorded for the member, oldest first (the data export).
pub async fn all(db: &Db, pid: &str) -> Result<Vec<pb::SignInActivity>> {
    Ok(sqlx::query("SELECT kind, location, event_data, custom_fields, at FROM sign_in_activity WHERE profile_id = $1 ORDER BY at, id")
        .bind(pid)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| pb::SignInActivity {
            kind: r.get("kind"),
            location: r.get("location"),
            event_data: stored::event_data(r.get("event_data")),
            custom_fields: stored::custom_fields(r.get("custom_fields")),
            at: r.get("at"),
        })
        .collect())
}

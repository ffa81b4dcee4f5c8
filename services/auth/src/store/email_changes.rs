//! Changes of a member's sign-in address (`email_changes`): each with the hash of its undo key
//! and how long that key works, and when (if ever) it was undone.
use super::Result;
use portal_common::db::Db;
use portal_proto::auth::v1 as pb;
use sqlx::Row;

/// A change just made.
pub struct NewChange<'a> {
    pub profile_id: &'a str,
    pub old_email: &'a str,
    pub new_email: &'a str,
    pub changed_at: i64,
    pub undo_hash: &'a str,
    pub undo_until: i64,
}

/// When the member last undid a change, if ever.
pub async fn last_undone(db: &Db, pid: &str) -> Result<Option<i64>> {
    let row = sqlx::query("SELECT MAX(undone_at) AS at FROM email_changes WHERE profile_id = $1").bind(pid).fetch_one(&db.pool).await?;
    Ok(row.get::<Option<i64>, _>("at"))
}

pub async fn insert(db: &Db, c: &NewChange<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO email_changes (id, profile_id, old_email, new_email, changed_at, undo_hash, undo_until) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(portal_common::new_id("emc_"))
    .bind(c.profile_id)
    .bind(c.old_email)
    .bind(c.new_email)
    .bind(c.changed_at)
    .bind(c.undo_hash)
    .bind(c.undo_until)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The change whose undo key hashes to `undo_hash`, while it can still be undone at `now`:
/// (id, member id, old address).
pub async fn undoable(db: &Db, undo_hash: &str, now: i64) -> Result<Option<(String, String, String)>> {
    Ok(sqlx::query("SELECT id, profile_id, old_email FROM email_changes WHERE undo_hash = $1 AND undone_at IS NULL AND undo_until > $2")
        .bind(undo_hash)
        .bind(now)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| (r.get("id"), r.get("profile_id"), r.get("old_email"))))
}

/// Marks change `id` undone at `now`; true if this call did (of two racing, one does).
pub async fn mark_undone(db: &Db, id: &str, now: i64) -> Result<bool> {
    let took = sqlx::query("UPDATE email_changes SET undone_at = $2 WHERE id = $1 AND undone_at IS NULL")
        .bind(id)
        .bind(now)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(took == 1)
}

/// Marks every change of the member not yet undone as undone at `now`.
pub async fn mark_all_undone(db: &Db, pid: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE email_changes SET undone_at = $2 WHERE profile_id = $1 AND undone_at IS NULL")
        .bind(pid)
        .bind(now)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Every change of the member, oldest first (the data export).
pub async fn all(db: &Db, pid: &str) -> Result<Vec<pb::EmailChange>> {
    Ok(sqlx::query("SELECT old_email, new_email, changed_at, undone_at FROM email_changes WHERE profile_id = $1 ORDER BY changed_at, id")
        .bind(pid)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| pb::EmailChange {
            old_email: r.get("old_email"),
            new_email: r.get("new_email"),
            changed_at: r.get("changed_at"),
            undone_at: r.get::<Option<i64>, _>("undone_at").unwrap_or(0),
        })
        .collect())
}

//! Issuing member numbers (`crate::member_number`): the tenant's counter is bumped in the
//! transaction that creates the profile (the row's lock in PostgreSQL, `BEGIN IMMEDIATE` in
//! SQLite, serialise concurrent creates), and profiles still without one get theirs at start.
use super::{Result, Tx};
use crate::error::ProfileError;
use crate::member_number;
use portal_common::db::Db;
use sqlx::Row;

/// The tenant's next member number, taken in `tx` (a rolled-back create leaves a gap, never a
/// duplicate).
pub async fn next(tx: &mut Tx<'_>, tenant: &str) -> Result<String> {
    let seq: i64 = sqlx::query(
        "INSERT INTO member_number_seq (tenant, last) VALUES ($1, 1)
         ON CONFLICT (tenant) DO UPDATE SET last = member_number_seq.last + 1 RETURNING last",
    )
    .bind(tenant)
    .fetch_one(&mut **tx)
    .await?
    .get("last");
    // Past the last number the create fails (logged, opaque to the caller) rather than reuse one.
    member_number::issue(tenant, seq)
        .ok_or_else(|| ProfileError::Upstream(portal_common::error::internal("member numbers used up", format!("sequence {seq}"))))
}

/// Gives every profile of the tenant still without a member number one, oldest first (ties by
/// id, so the demo members get the same numbers on every fresh start). Placeholders left by an
/// erasure get none. Safe to repeat; each profile in its own short transaction. Answers the ids
/// numbered now (their cached copies are stale).
pub async fn backfill(db: &Db, tenant: &str) -> Result<Vec<String>> {
    let ids: Vec<String> =
        sqlx::query("SELECT id FROM profiles WHERE tenant = $1 AND member_number IS NULL AND erased_at IS NULL ORDER BY created_at, id")
            .bind(tenant)
            .fetch_all(&db.pool)
            .await?
            .iter()
            .map(|r| r.get("id"))
            .collect();
    let mut given = Vec::new();
    for id in ids {
        let mut tx = db.begin().await?;
        let number = next(&mut tx, tenant).await?;
        let set = sqlx::query("UPDATE profiles SET member_number = $2 WHERE id = $1 AND member_number IS NULL")
            .bind(&id)
            .bind(&number)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if set == 1 {
            tx.commit().await?;
            given.push(id);
        } else {
            // Another process numbered it meanwhile: keep the counter as it was.
            tx.rollback().await?;
        }
    }
    Ok(given)
}

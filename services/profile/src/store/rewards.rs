//! Rewards issued to members (gifts, and vouchers bought with points) and the kept answers of
//! redemptions by idempotency key (`loyalty_idempotency`). The rules of redeeming and using a
//! voucher are `loyalty::rewards`.
use super::{Result, Tx};
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;
use sqlx::Row;

/// How a reward reads at `now`: used once used, else expired once past its date.
fn status(used_at: Option<i64>, expires_at: i64, now: i64) -> &'static str {
    match used_at {
        Some(_) => "used",
        None if expires_at != 0 && expires_at <= now => "expired",
        None => "available",
    }
}

const REWARD_COLS: &str = "id, name, description, terms, points_cost, issued_at, expires_at, source, catalogue_id, code, used_at";

fn reward(r: &sqlx::any::AnyRow, now: i64) -> pb::Reward {
    let used_at: Option<i64> = r.get("used_at");
    let expires_at: i64 = r.get("expires_at");
    pb::Reward {
        id: r.get("id"),
        name: r.get("name"),
        description: r.get("description"),
        points_cost: r.get("points_cost"),
        issued_at: r.get("issued_at"),
        expires_at,
        terms: r.get("terms"),
        source: r.get("source"),
        catalogue_id: r.get("catalogue_id"),
        code: r.get::<Option<String>, _>("code").unwrap_or_default(),
        status: status(used_at, expires_at, now).into(),
        used_at: used_at.unwrap_or(0),
    }
}

/// The member's latest 500 rewards ($1 member, $2 now).
pub(crate) fn list_sql() -> String {
    format!("SELECT {REWARD_COLS} FROM rewards WHERE profile_id = $1 AND issued_at <= $2 ORDER BY issued_at DESC, id DESC LIMIT 500")
}

/// The member's rewards issued up to `now` (one issued for later stays hidden), newest first.
pub async fn list(db: &Db, pid: &str, now: i64) -> Result<Vec<pb::Reward>> {
    Ok(sqlx::query(&list_sql()).bind(pid).bind(now).fetch_all(&db.pool).await?.iter().map(|r| reward(r, now)).collect())
}

/// Every reward of the member, also those issued for later, newest first (the data export).
pub async fn all(db: &Db, pid: &str, now: i64) -> Result<Vec<pb::Reward>> {
    Ok(sqlx::query(&format!("SELECT {REWARD_COLS} FROM rewards WHERE profile_id = $1 ORDER BY issued_at DESC, id DESC"))
        .bind(pid)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|r| reward(r, now))
        .collect())
}

/// One of the member's rewards issued up to `now`.
pub async fn get<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(ex: E, pid: &str, id: i64, now: i64) -> Result<Option<pb::Reward>> {
    let row = sqlx::query(&format!("SELECT {REWARD_COLS} FROM rewards WHERE id = $1 AND profile_id = $2 AND issued_at <= $3"))
        .bind(id)
        .bind(pid)
        .bind(now)
        .fetch_optional(ex)
        .await?;
    Ok(row.map(|r| reward(&r, now)))
}

/// The answer kept for a member's idempotency key.
pub struct Answer<'a> {
    /// What was asked (`redeem <catalogue id>`): the same key with another request is refused.
    pub request: &'a str,
    /// `ok`, or the refusal's code.
    pub outcome: &'a str,
    pub message: &'a str,
    /// JSON the answer is rebuilt from.
    pub result: &'a str,
}

/// The answer kept for `key`, if any: (request, outcome, result).
pub async fn kept(tx: &mut Tx<'_>, pid: &str, key: &str) -> Result<Option<(String, String, String)>> {
    let kept = sqlx::query("SELECT request, outcome, message, result FROM loyalty_idempotency WHERE profile_id = $1 AND idem_key = $2")
        .bind(pid)
        .bind(key)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(kept.map(|k| (k.get("request"), k.get("outcome"), k.get("result"))))
}

/// Keeps the answer to `key`, in the transaction that made it.
pub async fn keep(tx: &mut Tx<'_>, pid: &str, key: &str, a: &Answer<'_>, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO loyalty_idempotency (profile_id, idem_key, request, outcome, message, result, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(pid)
    .bind(key)
    .bind(a.request)
    .bind(a.outcome)
    .bind(a.message)
    .bind(a.result)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A voucher bought with points.
pub struct Voucher<'a> {
    pub id: i64,
    pub name: &'a str,
    pub description: &'a str,
    pub terms: &'a str,
    pub points: i64,
    pub expires_at: i64,
    pub catalogue_id: &'a str,
    pub code: &'a str,
}

/// Issues a voucher (its points already debited in this transaction).
pub async fn issue(tx: &mut Tx<'_>, pid: &str, v: &Voucher<'_>, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO rewards (id, profile_id, name, description, terms, points_cost, issued_at, expires_at, source, catalogue_id, code)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'redemption', $9, $10)",
    )
    .bind(v.id)
    .bind(pid)
    .bind(v.name)
    .bind(v.description)
    .bind(v.terms)
    .bind(v.points)
    .bind(now)
    .bind(v.expires_at)
    .bind(v.catalogue_id)
    .bind(v.code)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Forgets the answers kept before `before`.
pub async fn forget_answers(db: &Db, before: i64) -> Result<u64> {
    Ok(sqlx::query("DELETE FROM loyalty_idempotency WHERE created_at < $1").bind(before).execute(&db.pool).await?.rows_affected())
}

/// The tenant's voucher with this code: (reward id, profile id).
pub async fn by_code(db: &Db, tenant: &str, code: &str) -> Result<Option<(i64, String)>> {
    let row =
        sqlx::query("SELECT r.id, r.profile_id FROM rewards r JOIN profiles p ON p.id = r.profile_id WHERE r.code = $1 AND p.tenant = $2")
            .bind(code)
            .bind(tenant)
            .fetch_optional(&db.pool)
            .await?;
    Ok(row.map(|r| (r.get("id"), r.get("profile_id"))))
}

/// Marks a voucher used at `now`, once: false if it already was.
pub async fn mark_used(db: &Db, id: i64, now: i64) -> Result<bool> {
    let n = sqlx::query("UPDATE rewards SET used_at = $2 WHERE id = $1 AND used_at IS NULL")
        .bind(id)
        .bind(now)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_reads_used_then_expiry() {
        assert_eq!(status(None, 0, 100), "available");
        assert_eq!(status(None, 200, 100), "available");
        assert_eq!(status(None, 100, 100), "expired");
        assert_eq!(status(Some(50), 100, 200), "used");
    }
}

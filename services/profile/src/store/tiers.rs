//! What a member's tier is worked out from (points earned, or money spent, in the window) and the
//! tier recorded on the profile with its next review. The rule is `loyalty::tiers`.
use super::Result;
use portal_common::db::Db;
use sqlx::Row;

/// What counts towards a tier.
#[derive(Clone, Copy)]
pub enum Counted {
    /// Points earned (spending and expiry do not lower them).
    Earned,
    /// Money spent on purchases.
    Spent,
}

/// The member's qualifying amounts in `(since, until]`: `(amount, at)`.
pub async fn counted(db: &Db, pid: &str, what: Counted, since: i64, until: i64) -> Result<Vec<(i64, i64)>> {
    let sql = match what {
        Counted::Earned => {
            "SELECT points AS amount, issued_at AS at FROM loyalty_ledger WHERE profile_id = $1 AND kind = 'earn' AND issued_at > $2 AND issued_at <= $3"
        }
        Counted::Spent => {
            "SELECT total_cents AS amount, transacted_at AS at FROM transactions WHERE profile_id = $1 AND transacted_at > $2 AND transacted_at <= $3"
        }
    };
    Ok(sqlx::query(sql)
        .bind(pid)
        .bind(since)
        .bind(until)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| (r.get("amount"), r.get("at")))
        .collect())
}

/// Sets the profile's `tier_handle` and the member's next review in one transaction. Returns
/// whether the stored tier changed.
pub async fn record(db: &Db, pid: &str, handle: &str, review_at: Option<i64>) -> Result<bool> {
    let mut tx = db.begin().await?;
    let changed = sqlx::query("UPDATE profiles SET tier_handle = $2 WHERE id = $1 AND tier_handle <> $2")
        .bind(pid)
        .bind(handle)
        .execute(&mut *tx)
        .await?
        .rows_affected()
        == 1;
    sqlx::query("UPDATE loyalty_accounts SET review_at = $2 WHERE profile_id = $1").bind(pid).bind(review_at).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(changed)
}

/// The profile's stored tier and the member's next review, if the profile exists.
pub async fn recorded(db: &Db, pid: &str) -> Result<Option<(String, Option<i64>)>> {
    let row = sqlx::query(
        "SELECT p.tier_handle, a.review_at FROM profiles p LEFT JOIN loyalty_accounts a ON a.profile_id = p.id WHERE p.id = $1",
    )
    .bind(pid)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| (r.get("tier_handle"), r.get("review_at"))))
}

/// Members whose tier is due for a review at `now` (a credit since the last one, or their tier's end).
pub async fn due_for_review(db: &Db, now: i64, limit: i64) -> Result<Vec<String>> {
    let sql = "SELECT profile_id FROM loyalty_accounts WHERE review_at <= $1 ORDER BY review_at, profile_id LIMIT $2";
    super::due_members(db, sql, now, limit).await
}

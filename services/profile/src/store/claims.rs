//! Claims and the stores' own record of sales (`store_receipts`) they are matched against. The
//! rule (what matches, the quotas, what the member is told) is `crate::claims`; filing and
//! crediting run in its transaction, under the member's ledger lock.
use super::{Result, Tx};
use portal_common::db::is_unique_violation;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;
use sqlx::any::AnyRow;
use sqlx::Row;

const CLAIM_COLS: &str =
    "id, store_handle, store_name, purchase_date, receipt_number, amount_cents, status, points, transaction_id, message, created_at_ms, updated_at_ms";

fn claim_row(r: &AnyRow) -> pb::Claim {
    pb::Claim {
        id: r.get("id"),
        store: r.get("store_handle"),
        store_name: r.get("store_name"),
        date: r.get("purchase_date"),
        receipt_number: r.get("receipt_number"),
        amount_cents: r.get("amount_cents"),
        status: r.get("status"),
        points: r.get("points"),
        transaction_id: r.get("transaction_id"),
        message: r.get("message"),
        created_at: r.get::<i64, _>("created_at_ms") / 1000,
        updated_at: r.get::<i64, _>("updated_at_ms") / 1000,
    }
}

/// Whether the member has a claim of their own for this receipt (waiting or closed).
pub async fn claimed_by(tx: &mut Tx<'_>, pid: &str, store: &str, receipt_number: &str) -> Result<bool> {
    let mine = sqlx::query("SELECT id FROM claims WHERE profile_id = $1 AND store_handle = $2 AND receipt_number = $3")
        .bind(pid)
        .bind(store)
        .bind(receipt_number)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(mine.is_some())
}

/// Whether the store's sale with this receipt number is already on the member's account.
pub async fn on_account(tx: &mut Tx<'_>, tenant: &str, pid: &str, store: &str, receipt_number: &str) -> Result<bool> {
    let on_my_account =
        sqlx::query("SELECT id FROM store_receipts WHERE tenant = $1 AND store_handle = $2 AND receipt_number = $3 AND profile_id = $4")
            .bind(tenant)
            .bind(store)
            .bind(receipt_number)
            .bind(pid)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(on_my_account.is_some())
}

/// How many claims the member filed after `since_ms`, and when the oldest of them was filed.
pub async fn filed_since(tx: &mut Tx<'_>, pid: &str, since_ms: i64) -> Result<(i64, Option<i64>)> {
    let recent = sqlx::query("SELECT COUNT(*) AS n, MIN(created_at_ms) AS oldest FROM claims WHERE profile_id = $1 AND created_at_ms > $2")
        .bind(pid)
        .bind(since_ms)
        .fetch_one(&mut **tx)
        .await?;
    Ok((recent.get("n"), recent.try_get("oldest").ok().flatten()))
}

/// A claim as filed, before it is matched.
pub struct NewClaim<'a> {
    pub id: &'a str,
    pub store: &'a str,
    pub store_name: &'a str,
    pub receipt_number: &'a str,
    /// `YYYY-MM-DD`
    pub date: &'a str,
    pub amount_cents: i64,
    pub at_ms: i64,
}

/// Files a pending claim; false when the member already has one for this receipt (the unique
/// index decides, also under concurrent requests).
pub async fn insert(tx: &mut Tx<'_>, tenant: &str, pid: &str, c: &NewClaim<'_>) -> Result<bool> {
    let inserted = sqlx::query(
        "INSERT INTO claims (id, tenant, profile_id, store_handle, store_name, receipt_number, purchase_date, amount_cents, status, created_at_ms, updated_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $9)",
    )
    .bind(c.id)
    .bind(tenant)
    .bind(pid)
    .bind(c.store)
    .bind(c.store_name)
    .bind(c.receipt_number)
    .bind(c.date)
    .bind(c.amount_cents)
    .bind(c.at_ms)
    .execute(&mut **tx)
    .await;
    match inserted {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// How many of the member's claims wait, other than `except`.
pub async fn pending_besides(tx: &mut Tx<'_>, pid: &str, except: &str) -> Result<i64> {
    Ok(sqlx::query("SELECT COUNT(*) AS n FROM claims WHERE profile_id = $1 AND status = 'pending' AND id <> $2")
        .bind(pid)
        .bind(except)
        .fetch_one(&mut **tx)
        .await?
        .get("n"))
}

/// One claim by id.
pub async fn get(tx: &mut Tx<'_>, id: &str) -> Result<pb::Claim> {
    let row = sqlx::query(&format!("SELECT {CLAIM_COLS} FROM claims WHERE id = $1")).bind(id).fetch_one(&mut **tx).await?;
    Ok(claim_row(&row))
}

/// The member's claim `id`, if it is still pending.
pub async fn pending(tx: &mut Tx<'_>, pid: &str, id: &str) -> Result<Option<pb::Claim>> {
    let claim = sqlx::query(&format!("SELECT {CLAIM_COLS} FROM claims WHERE id = $1 AND profile_id = $2 AND status = 'pending'"))
        .bind(id)
        .bind(pid)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(claim.as_ref().map(claim_row))
}

/// A store's sale as its record holds it.
pub struct Receipt {
    pub id: String,
    pub transacted_at: i64,
    pub total_cents: i64,
    pub currency: String,
}

/// The store's sale with this receipt number that is on nobody's account yet.
pub async fn unclaimed_receipt(tx: &mut Tx<'_>, tenant: &str, store: &str, receipt_number: &str) -> Result<Option<Receipt>> {
    let receipt = sqlx::query(
        "SELECT id, transacted_at, total_cents, currency FROM store_receipts
         WHERE tenant = $1 AND store_handle = $2 AND receipt_number = $3 AND profile_id = ''",
    )
    .bind(tenant)
    .bind(store)
    .bind(receipt_number)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(receipt.map(|r| Receipt {
        id: r.get("id"),
        transacted_at: r.get("transacted_at"),
        total_cents: r.get("total_cents"),
        currency: r.get("currency"),
    }))
}

/// Takes the sale for the member, in one statement; false if another request took it first.
pub async fn take_receipt(tx: &mut Tx<'_>, receipt_id: &str, pid: &str) -> Result<bool> {
    let taken = sqlx::query("UPDATE store_receipts SET profile_id = $2 WHERE id = $1 AND profile_id = ''")
        .bind(receipt_id)
        .bind(pid)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    Ok(taken == 1)
}

/// Marks a claim credited with its points and the transaction it became.
pub async fn mark_credited(tx: &mut Tx<'_>, id: &str, points: i64, txn_id: &str, at_ms: i64) -> Result<()> {
    sqlx::query("UPDATE claims SET status = 'credited', points = $2, transaction_id = $3, message = '', updated_at_ms = $4 WHERE id = $1")
        .bind(id)
        .bind(points)
        .bind(txn_id)
        .bind(at_ms)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Rejects a claim that is still pending, with the message the member sees.
pub async fn reject(tx: &mut Tx<'_>, id: &str, message: &str, at_ms: i64) -> Result<()> {
    sqlx::query("UPDATE claims SET status = 'rejected', message = $2, updated_at_ms = $3 WHERE id = $1 AND status = 'pending'")
        .bind(id)
        .bind(message)
        .bind(at_ms)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The member's pending claims: (id, purchase date).
pub async fn pending_dates(db: &Db, pid: &str) -> Result<Vec<(String, String)>> {
    let query = sqlx::query("SELECT id, purchase_date FROM claims WHERE profile_id = $1 AND status = 'pending'").bind(pid);
    super::fetch_map(db, query, |r| (r.get("id"), r.get("purchase_date"))).await
}

/// The member's latest claims, newest first (at most 200).
pub async fn list(db: &Db, pid: &str) -> Result<Vec<pb::Claim>> {
    let sql = format!("SELECT {CLAIM_COLS} FROM claims WHERE profile_id = $1 ORDER BY created_at_ms DESC, id DESC LIMIT 200");
    super::fetch_map(db, sqlx::query(&sql).bind(pid), claim_row).await
}

/// Every claim of the member, newest first (the data export).
pub async fn all(db: &Db, pid: &str) -> Result<Vec<pb::Claim>> {
    let sql = format!("SELECT {CLAIM_COLS} FROM claims WHERE profile_id = $1 ORDER BY created_at_ms DESC, id DESC");
    super::fetch_map(db, sqlx::query(&sql).bind(pid), claim_row).await
}

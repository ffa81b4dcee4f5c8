//! The points ledger's tables: entries (`loyalty_ledger`, credits being lots with what is left in
//! them), what each debit took from which lot (`loyalty_allocations`) and the member's account row
//! (`loyalty_accounts`), whose lock orders a member's writes. The rules are `loyalty::ledger`.
use super::{Result, Tx};
use crate::error::ProfileError;
use portal_common::db::Db;
use sqlx::{Any, Row};

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Locks the member's account for the rest of the transaction (creating it on first use). It is
/// a write, so on SQLite it also takes the database's write lock before anything is read.
pub async fn lock(tx: &mut Tx<'_>, pid: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO loyalty_accounts (profile_id, updated_at_ms) VALUES ($1, $2)
         ON CONFLICT (profile_id) DO UPDATE SET updated_at_ms = excluded.updated_at_ms",
    )
    .bind(pid)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The entry posted under `reference`, if any: (id, profile id, points).
pub async fn by_reference(tx: &mut Tx<'_>, reference: &str) -> Result<Option<(String, String, i64)>> {
    let row = sqlx::query("SELECT id, profile_id, points FROM loyalty_ledger WHERE reference = $1")
        .bind(reference)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(|r| (r.get("id"), r.get("profile_id"), r.get("points"))))
}

/// An entry to post.
pub struct NewEntry<'a> {
    pub id: &'a str,
    pub kind: &'a str,
    pub source: &'a str,
    pub reason: &'a str,
    pub reference: &'a str,
    pub points: i64,
    pub at: i64,
    pub expires_at: Option<i64>,
    /// What a lot holds to be taken (0 for anything but a credit).
    pub remaining: i64,
}

/// Posts an entry as the member's next in sequence. The caller holds the member's lock, so no
/// other entry can take this number meanwhile.
pub async fn insert(tx: &mut Tx<'_>, pid: &str, e: &NewEntry<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO loyalty_ledger (id, profile_id, kind, source, reason, reference, points, issued_at, expires_at, remaining, created_at_ms, seq)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, COALESCE(MAX(seq), 0) + 1 FROM loyalty_ledger WHERE profile_id = $2",
    )
    .bind(e.id)
    .bind(pid)
    .bind(e.kind)
    .bind(e.source)
    .bind(e.reason)
    .bind(e.reference)
    .bind(e.points)
    .bind(e.at)
    .bind(e.expires_at)
    .bind(e.remaining)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Takes `points` from `lot` for `debit`; the lot must still hold them.
pub async fn take(tx: &mut Tx<'_>, debit: &str, lot: &str, points: i64) -> Result<()> {
    let n = sqlx::query("UPDATE loyalty_ledger SET remaining = remaining - $2 WHERE id = $1 AND remaining >= $2")
        .bind(lot)
        .bind(points)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if n != 1 {
        return Err(ProfileError::Db(sqlx::Error::Protocol(format!("lot {lot} no longer holds {points} points"))));
    }
    sqlx::query("INSERT INTO loyalty_allocations (debit_id, lot_id, points) VALUES ($1, $2, $3)")
        .bind(debit)
        .bind(lot)
        .bind(points)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Gives `points` back to `lot` (a released hold).
pub async fn give_back(tx: &mut Tx<'_>, lot: &str, points: i64) -> Result<()> {
    sqlx::query("UPDATE loyalty_ledger SET remaining = remaining + $2 WHERE id = $1").bind(lot).bind(points).execute(&mut **tx).await?;
    Ok(())
}

/// Asks for the member's tier to be worked out again at `at`.
pub async fn review_at(tx: &mut Tx<'_>, pid: &str, at: i64) -> Result<()> {
    sqlx::query("UPDATE loyalty_accounts SET review_at = $2 WHERE profile_id = $1").bind(pid).bind(at).execute(&mut **tx).await?;
    Ok(())
}

/// The member's lots that hold points and are neither in the future nor expired at `at`, oldest
/// first: (id, remaining).
pub async fn open_lots(tx: &mut Tx<'_>, pid: &str, at: i64) -> Result<Vec<(String, i64)>> {
    Ok(sqlx::query(
        "SELECT id, remaining FROM loyalty_ledger
         WHERE profile_id = $1 AND remaining > 0 AND issued_at <= $2 AND (expires_at IS NULL OR expires_at > $2)
         ORDER BY issued_at, seq",
    )
    .bind(pid)
    .bind(at)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .map(|r| (r.get("id"), r.get("remaining")))
    .collect())
}

/// The member's hold posted under `reference`: (id, points, reason).
pub async fn hold(tx: &mut Tx<'_>, pid: &str, reference: &str) -> Result<Option<(String, i64, String)>> {
    let held = sqlx::query("SELECT id, points, reason FROM loyalty_ledger WHERE reference = $1 AND profile_id = $2 AND kind = 'hold'")
        .bind(reference)
        .bind(pid)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(held.map(|r| (r.get("id"), r.get("points"), r.get("reason"))))
}

/// The id of the entry posted under `reference`, whoever's it is.
pub async fn id_of(tx: &mut Tx<'_>, reference: &str) -> Result<Option<String>> {
    let row = sqlx::query("SELECT id FROM loyalty_ledger WHERE reference = $1").bind(reference).fetch_optional(&mut **tx).await?;
    Ok(row.map(|r| r.get("id")))
}

/// What a debit took, lot by lot, oldest lot first: (lot, points, the lot's expiry).
pub async fn allocations(tx: &mut Tx<'_>, debit: &str) -> Result<Vec<(String, i64, Option<i64>)>> {
    Ok(sqlx::query(
        "SELECT a.lot_id, a.points, l.expires_at FROM loyalty_allocations a JOIN loyalty_ledger l ON l.id = a.lot_id
         WHERE a.debit_id = $1 ORDER BY l.issued_at, l.seq",
    )
    .bind(debit)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .map(|r| (r.get("lot_id"), r.get("points"), r.get("expires_at")))
    .collect())
}

/// The member's lots still holding points whose date has passed by `now`, in the order they
/// expired: (id, remaining, expires_at).
pub async fn due_lots(tx: &mut Tx<'_>, pid: &str, now: i64) -> Result<Vec<(String, i64, i64)>> {
    Ok(sqlx::query(
        "SELECT id, remaining, expires_at FROM loyalty_ledger
         WHERE profile_id = $1 AND remaining > 0 AND expires_at IS NOT NULL AND expires_at <= $2 ORDER BY expires_at, seq",
    )
    .bind(pid)
    .bind(now)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .map(|r| (r.get("id"), r.get("remaining"), r.get("expires_at")))
    .collect())
}

/// Whether any of the member's points are due to expire by `now`.
pub async fn has_due(db: &Db, pid: &str, now: i64) -> Result<bool> {
    let due = sqlx::query("SELECT id FROM loyalty_ledger WHERE profile_id = $1 AND remaining > 0 AND expires_at <= $2 LIMIT 1")
        .bind(pid)
        .bind(now)
        .fetch_optional(&db.pool)
        .await?;
    Ok(due.is_some())
}

/// Up to `limit` members with points due to expire by `now`.
pub async fn members_with_due(db: &Db, now: i64, limit: i64) -> Result<Vec<String>> {
    Ok(sqlx::query("SELECT DISTINCT profile_id FROM loyalty_ledger WHERE remaining > 0 AND expires_at <= $1 ORDER BY profile_id LIMIT $2")
        .bind(now)
        .bind(limit)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| r.get("profile_id"))
        .collect())
}

/// Whether the member has any ledger entry.
pub async fn has_entries(db: &Db, pid: &str) -> Result<bool> {
    let row = sqlx::query("SELECT id FROM loyalty_ledger WHERE profile_id = $1 LIMIT 1").bind(pid).fetch_optional(&db.pool).await?;
    Ok(row.is_some())
}

/// The member's balance: the sum of their ledger.
pub async fn balance<'e, E: sqlx::Executor<'e, Database = Any>>(ex: E, pid: &str) -> Result<i64> {
    // SUM of BIGINT is NUMERIC on PostgreSQL: cast so both backends answer a BIGINT.
    let row = sqlx::query("SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS total FROM loyalty_ledger WHERE profile_id = $1")
        .bind(pid)
        .fetch_one(ex)
        .await?;
    Ok(row.try_get("total")?)
}

/// One ledger entry as stored.
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    pub points: i64,
    pub kind: String,
    pub source: String,
    pub reason: String,
    pub reference: String,
    pub issued_at: i64,
    pub expires_at: Option<i64>,
}

/// One page of the member's ledger and how many entries there are in all.
pub async fn entries(db: &Db, pid: &str, page: u32, per_page: u32, newest_first: bool) -> Result<(Vec<Entry>, u64)> {
    let total: i64 =
        sqlx::query("SELECT COUNT(*) AS n FROM loyalty_ledger WHERE profile_id = $1").bind(pid).fetch_one(&db.pool).await?.get("n");
    let dir = if newest_first { "DESC" } else { "ASC" };
    let rows = sqlx::query(&format!(
        "SELECT id, points, kind, source, reason, reference, issued_at, expires_at FROM loyalty_ledger WHERE profile_id = $1
         ORDER BY issued_at {dir}, seq {dir} LIMIT $2 OFFSET $3"
    ))
    .bind(pid)
    .bind(i64::from(per_page))
    .bind(i64::from(page.saturating_sub(1)) * i64::from(per_page))
    .fetch_all(&db.pool)
    .await?;
    let list = rows
        .into_iter()
        .map(|r| Entry {
            id: r.get("id"),
            points: r.get("points"),
            kind: r.get("kind"),
            source: r.get("source"),
            reason: r.get("reason"),
            reference: r.get("reference"),
            issued_at: r.get("issued_at"),
            expires_at: r.get("expires_at"),
        })
        .collect();
    Ok((list, total as u64))
}

/// Points still to expire, by when: (points, expires_at), soonest first, at most `limit` lots.
pub async fn expiring_lots(db: &Db, pid: &str, now: i64, limit: i64) -> Result<Vec<(i64, i64)>> {
    Ok(sqlx::query(
        "SELECT remaining, expires_at FROM loyalty_ledger WHERE profile_id = $1 AND remaining > 0 AND expires_at > $2
         ORDER BY expires_at, seq LIMIT $3",
    )
    .bind(pid)
    .bind(now)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?
    .into_iter()
    .map(|r| (r.get("remaining"), r.get("expires_at")))
    .collect())
}

/// The ledger's own bookkeeping for a member, for audits: (points left in the lots, debits whose
/// allocations don't add up to them).
#[cfg(test)]
pub async fn bookkeeping(db: &Db, pid: &str) -> Result<(i64, i64)> {
    let left: i64 = sqlx::query("SELECT CAST(COALESCE(SUM(remaining), 0) AS BIGINT) AS n FROM loyalty_ledger WHERE profile_id = $1")
        .bind(pid)
        .fetch_one(&db.pool)
        .await?
        .try_get("n")?;
    let unbalanced: i64 = sqlx::query(
        "SELECT COUNT(*) AS n FROM loyalty_ledger d WHERE d.profile_id = $1 AND d.points < 0 AND -d.points <>
           (SELECT CAST(COALESCE(SUM(a.points), 0) AS BIGINT) FROM loyalty_allocations a WHERE a.debit_id = d.id)",
    )
    .bind(pid)
    .fetch_one(&db.pool)
    .await?
    .get("n");
    Ok((left, unbalanced))
}

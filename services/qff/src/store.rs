//! The frequent-flyer service's SQL, portable between SQLite and PostgreSQL: the member's link
//! (with its saga state), past links, and conversions. Everything is scoped to the profile id it
//! is given and answers this service's own types and `QffError`, never a `tonic::Status`.
use crate::error::QffError;
use portal_common::db::{is_unique_violation, Db};
use portal_proto::qff::v1 as pb;
use sqlx::Row;

type Result<T> = std::result::Result<T, QffError>;

/// A link whose profile side is being set or cleared: the profile service holds the truth, and
/// the reconciler settles a pending link that stays so.
pub const PENDING: &str = "pending";
/// A link both sides hold.
pub const LINKED: &str = "linked";

/// A member's link as this service keeps it.
#[derive(Debug, Clone)]
pub struct Link {
    pub qff_number: String,
    pub last_name: String,
    pub linked_at: i64,
    /// `linked`, or `pending` while the profile side is being set or cleared.
    pub state: String,
}

pub async fn link_of(db: &Db, pid: &str) -> Result<Option<Link>> {
    let row = sqlx::query("SELECT qff_number, last_name, linked_at, state FROM qff_links WHERE profile_id = $1")
        .bind(pid)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| Link {
        qff_number: r.get("qff_number"),
        last_name: r.get("last_name"),
        linked_at: r.get("linked_at"),
        state: r.get("state"),
    }))
}

/// Whether another member has linked (or is linking) this airline account.
pub async fn linked_elsewhere(db: &Db, pid: &str, number: &str) -> Result<bool> {
    let row = sqlx::query("SELECT profile_id FROM qff_links WHERE qff_number = $1 AND profile_id <> $2")
        .bind(number)
        .bind(pid)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.is_some())
}

/// The demo member's link, as the demo data has it (already linked on both sides).
pub async fn seed_link(db: &Db, pid: &str, number: &str, last_name: &str, linked_at: i64) -> Result<()> {
    sqlx::query("INSERT INTO qff_links (profile_id, qff_number, last_name, linked_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
        .bind(pid)
        .bind(number)
        .bind(last_name)
        .bind(linked_at)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Records a link as pending, before its profile side is set. False when the member or the
/// number already has a row: the unique number decides between two members linking at once.
pub async fn insert_pending(db: &Db, pid: &str, number: &str, last_name: &str, now: i64) -> Result<bool> {
    let inserted = sqlx::query(
        "INSERT INTO qff_links (profile_id, qff_number, last_name, linked_at, state, updated_at) VALUES ($1, $2, $3, $4, 'pending', $4)",
    )
    .bind(pid)
    .bind(number)
    .bind(last_name)
    .bind(now)
    .execute(&db.pool)
    .await;
    match inserted {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Marks the link linked: the profile holds it. When the row went meanwhile (the reconciler saw
/// the profile before the profile call landed), it is written again. False when neither worked
/// (the number is another member's row now).
pub async fn confirm(db: &Db, pid: &str, number: &str, last_name: &str, linked_at: i64) -> Result<bool> {
    let now = portal_common::now_unix();
    let n = sqlx::query("UPDATE qff_links SET state = 'linked', updated_at = $3 WHERE profile_id = $1 AND qff_number = $2")
        .bind(pid)
        .bind(number)
        .bind(now)
        .execute(&db.pool)
        .await?
        .rows_affected();
    if n == 1 {
        return Ok(true);
    }
    let n = sqlx::query(
        "INSERT INTO qff_links (profile_id, qff_number, last_name, linked_at, state, updated_at) VALUES ($1, $2, $3, $4, 'linked', $5)
         ON CONFLICT DO NOTHING",
    )
    .bind(pid)
    .bind(number)
    .bind(last_name)
    .bind(linked_at)
    .bind(now)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Sets a link's state (`pending` before its profile side is cleared, back to what it was when
/// the profile refused), with the time it changed. Whether the row was there.
pub async fn set_state(db: &Db, pid: &str, number: &str, state: &str) -> Result<bool> {
    let n = sqlx::query("UPDATE qff_links SET state = $3, updated_at = $4 WHERE profile_id = $1 AND qff_number = $2")
        .bind(pid)
        .bind(number)
        .bind(state)
        .bind(portal_common::now_unix())
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

/// Marks a pending link linked (the reconciler found the profile holds it). Whether it was
/// still pending.
pub async fn settle_pending(db: &Db, pid: &str, number: &str) -> Result<bool> {
    let n = sqlx::query(
        "UPDATE qff_links SET state = 'linked', updated_at = $3 WHERE profile_id = $1 AND qff_number = $2 AND state = 'pending'",
    )
    .bind(pid)
    .bind(number)
    .bind(portal_common::now_unix())
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Removes a pending link (its profile side was refused, or the profile doesn't hold it).
pub async fn remove_pending(db: &Db, pid: &str, number: &str) -> Result<()> {
    sqlx::query("DELETE FROM qff_links WHERE profile_id = $1 AND qff_number = $2 AND state = 'pending'")
        .bind(pid)
        .bind(number)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Pending links left alone since `before`: (profile id, number) for the reconciler.
pub async fn pending_links(db: &Db, before: i64) -> Result<Vec<(String, String)>> {
    let rows = sqlx::query(
        "SELECT profile_id, qff_number FROM qff_links WHERE state = 'pending' AND updated_at <= $1 ORDER BY updated_at LIMIT 100",
    )
    .bind(before)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.iter().map(|r| (r.get("profile_id"), r.get("qff_number"))).collect())
}

/// Ends a link whose profile side is cleared: kept in the past links with the member's reason,
/// and the row removed, in one transaction.
pub async fn record_unlink(db: &Db, pid: &str, link: &Link, reason: &str, comment: &str) -> Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO qff_unlinks (id, profile_id, qff_number, reason, comment, linked_at, unlinked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(portal_common::new_id("unl_"))
    .bind(pid)
    .bind(&link.qff_number)
    .bind(reason)
    .bind(comment)
    .bind(link.linked_at)
    .bind(portal_common::now_unix())
    .execute(&mut *tx)
    .await?;
    sqlx::query("DELETE FROM qff_links WHERE profile_id = $1").bind(pid).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(())
}

/// The member's past links, oldest first.
pub async fn past_links(db: &Db, pid: &str) -> Result<Vec<pb::PastLink>> {
    let rows = sqlx::query(
        "SELECT qff_number, reason, comment, linked_at, unlinked_at FROM qff_unlinks WHERE profile_id = $1 ORDER BY unlinked_at, id",
    )
    .bind(pid)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| pb::PastLink {
            qff_number: r.get("qff_number"),
            reason: r.get("reason"),
            comment: r.get("comment"),
            linked_at: r.get("linked_at"),
            unlinked_at: r.get("unlinked_at"),
        })
        .collect())
}

/// The link, past links and conversions, in one transaction. Safe to repeat.
pub async fn erase(db: &Db, pid: &str) -> Result<()> {
    let mut tx = db.begin().await?;
    for sql in [
        "DELETE FROM qff_links WHERE profile_id = $1",
        "DELETE FROM qff_unlinks WHERE profile_id = $1",
        "DELETE FROM qff_conversions WHERE profile_id = $1",
    ] {
        sqlx::query(sql).bind(pid).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

const COLUMNS: &str =
    "id, profile_id, request, qff_number, points, airline_points, status, message, balance, created_at, settled_at, attempts";

/// A conversion as it is stored.
#[derive(Debug, Clone)]
pub struct Stored {
    pub id: String,
    pub profile_id: String,
    pub request: String,
    pub qff_number: String,
    pub points: i64,
    pub airline_points: i64,
    pub status: String,
    pub message: String,
    pub balance: i64,
    pub created_at: i64,
    pub settled_at: Option<i64>,
    pub attempts: i64,
}

impl Stored {
    fn from_row(r: &sqlx::any::AnyRow) -> Stored {
        Stored {
            id: r.get("id"),
            profile_id: r.get("profile_id"),
            request: r.get("request"),
            qff_number: r.get("qff_number"),
            points: r.get("points"),
            airline_points: r.get("airline_points"),
            status: r.get("status"),
            message: r.get("message"),
            balance: r.get("balance"),
            created_at: r.get("created_at"),
            settled_at: r.get("settled_at"),
            attempts: r.get("attempts"),
        }
    }
}

pub async fn conversion(db: &Db, id: &str) -> Result<Stored> {
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM qff_conversions WHERE id = $1")).bind(id).fetch_one(&db.pool).await?;
    Ok(Stored::from_row(&row))
}

/// The conversion that answered this member's key, if any.
pub async fn conversion_by_key(db: &Db, pid: &str, key: &str) -> Result<Option<Stored>> {
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM qff_conversions WHERE profile_id = $1 AND idem_key = $2"))
        .bind(pid)
        .bind(key)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.as_ref().map(Stored::from_row))
}

/// The member's newest conversions, at most `limit`.
pub async fn conversions(db: &Db, pid: &str, limit: i64) -> Result<Vec<Stored>> {
    let rows =
        sqlx::query(&format!("SELECT {COLUMNS} FROM qff_conversions WHERE profile_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2"))
            .bind(pid)
            .bind(limit)
            .fetch_all(&db.pool)
            .await?;
    Ok(rows.iter().map(Stored::from_row).collect())
}

/// A new conversion to claim a key with.
pub struct Claim<'a> {
    pub id: &'a str,
    pub profile_id: &'a str,
    pub key: &'a str,
    pub request: &'a str,
    pub qff_number: &'a str,
    pub points: i64,
    pub airline_points: i64,
    pub now: i64,
}

/// Claims the key with a `running` conversion. False when the member used the key before.
pub async fn claim(db: &Db, c: &Claim<'_>) -> Result<bool> {
    let claimed = sqlx::query(
        "INSERT INTO qff_conversions (id, profile_id, idem_key, request, qff_number, points, airline_points, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', $8, $8)",
    )
    .bind(c.id)
    .bind(c.profile_id)
    .bind(c.key)
    .bind(c.request)
    .bind(c.qff_number)
    .bind(c.points)
    .bind(c.airline_points)
    .bind(c.now)
    .execute(&db.pool)
    .await;
    match claimed {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Drops a claimed key whose request changed nothing.
pub async fn forget(db: &Db, id: &str) -> Result<()> {
    sqlx::query("DELETE FROM qff_conversions WHERE id = $1 AND status = 'running'").bind(id).execute(&db.pool).await?;
    Ok(())
}

pub async fn mark_pending(db: &Db, id: &str, message: &str, balance: i64) -> Result<()> {
    sqlx::query(
        "UPDATE qff_conversions SET status = 'pending', message = $2, balance = $3, updated_at = $4 WHERE id = $1 AND status = 'running'",
    )
    .bind(id)
    .bind(message)
    .bind(balance)
    .bind(portal_common::now_unix())
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Records a conversion's outcome once: whether this call did.
pub async fn record_outcome(
    db: &Db,
    id: &str,
    status: &str,
    message: &str,
    credit_id: Option<String>,
    balance: Option<i64>,
) -> Result<bool> {
    let now = portal_common::now_unix();
    let n = sqlx::query(
        "UPDATE qff_conversions SET status = $2, message = $3, partner_credit_id = $4, settled_at = $5, updated_at = $5,
           balance = COALESCE($6, balance)
         WHERE id = $1 AND status IN ('running', 'pending')",
    )
    .bind(id)
    .bind(status)
    .bind(message)
    .bind(credit_id)
    .bind(now)
    .bind(balance)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Conversions for the reconciler: pending since `pending_before`, or running (a lost request)
/// since `running_before`.
pub async fn open_conversions(db: &Db, pending_before: i64, running_before: i64) -> Result<Vec<Stored>> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM qff_conversions
         WHERE (status = 'pending' AND updated_at <= $1) OR (status = 'running' AND updated_at <= $2)
         ORDER BY updated_at LIMIT 100"
    ))
    .bind(pending_before)
    .bind(running_before)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.iter().map(Stored::from_row).collect())
}

/// Claims a conversion for one reconciler until `until`: of two reading the same row, one moves
/// `attempts` on, and none takes a row another one's claim still holds.
pub async fn take(db: &Db, c: &Stored, holder: &str, now: i64, until: i64) -> Result<bool> {
    let n = sqlx::query(
        "UPDATE qff_conversions SET attempts = attempts + 1, updated_at = $4, claimed_by = $5, claimed_until = $6
         WHERE id = $1 AND status = $2 AND attempts = $3 AND (claimed_until IS NULL OR claimed_until <= $4)",
    )
    .bind(&c.id)
    .bind(&c.status)
    .bind(c.attempts)
    .bind(now)
    .bind(holder)
    .bind(until)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Ends the holder's claim on a conversion (settled, or left for a later pass).
pub async fn release(db: &Db, id: &str, holder: &str) -> Result<()> {
    sqlx::query("UPDATE qff_conversions SET claimed_until = NULL WHERE id = $1 AND claimed_by = $2")
        .bind(id)
        .bind(holder)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Claims a pending link for one reconciler until `until`: false when it is no longer pending or
/// another one's claim still holds it.
pub async fn take_link(db: &Db, pid: &str, number: &str, holder: &str, now: i64, until: i64) -> Result<bool> {
    let n = sqlx::query(
        "UPDATE qff_links SET claimed_by = $3, claimed_until = $5
         WHERE profile_id = $1 AND qff_number = $2 AND state = 'pending' AND (claimed_until IS NULL OR claimed_until <= $4)",
    )
    .bind(pid)
    .bind(number)
    .bind(holder)
    .bind(now)
    .bind(until)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Ends the holder's claim on a link (settled, or left pending for a later pass).
pub async fn release_link(db: &Db, pid: &str, number: &str, holder: &str) -> Result<()> {
    sqlx::query("UPDATE qff_links SET claimed_until = NULL WHERE profile_id = $1 AND qff_number = $2 AND claimed_by = $3")
        .bind(pid)
        .bind(number)
        .bind(holder)
        .execute(&db.pool)
        .await?;
    Ok(())
}

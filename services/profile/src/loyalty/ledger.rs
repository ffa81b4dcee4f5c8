//! The points ledger. Every change to a member's points is one entry with a unique reference,
//! and the balance is the sum of the entries, never a number stored beside them.
//!
//! Credits are lots that expire; debits take from the oldest lots first and record what they
//! took (`loyalty_allocations`), so the points left in the lots always equal the balance. Every
//! write for a member first locks that member's account row: writes for one member happen one
//! after another on both backends, so the points a debit checks are the points it takes, and
//! the balance never goes below zero. A reference posted before is not posted again.
use crate::error::ProfileError;
use portal_common::db::Db;
use sqlx::{Any, Row, Transaction};

type Result<T> = std::result::Result<T, ProfileError>;
pub type Tx<'c> = Transaction<'c, Any>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Earn,
    Spend,
    Expire,
    Adjust,
    /// Points set aside for an operation still under way (a conversion): out of the balance.
    Hold,
    /// A hold made final (0 points: the hold already took them).
    Confirm,
    /// A hold given back (+ what the hold took).
    Release,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Earn => "earn",
            Kind::Spend => "spend",
            Kind::Expire => "expire",
            Kind::Adjust => "adjust",
            Kind::Hold => "hold",
            Kind::Confirm => "confirm",
            Kind::Release => "release",
        }
    }
}

/// Where an entry came from; each source belongs to one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Purchase,
    Claim,
    Bonus,
    Redemption,
    Conversion,
    Expiry,
    Staff,
    Import,
}

impl Source {
    pub fn kind(self) -> Kind {
        match self {
            Source::Purchase | Source::Claim | Source::Bonus => Kind::Earn,
            Source::Redemption | Source::Conversion => Kind::Spend,
            Source::Expiry => Kind::Expire,
            Source::Staff | Source::Import => Kind::Adjust,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Purchase => "purchase",
            Source::Claim => "claim",
            Source::Bonus => "bonus",
            Source::Redemption => "redemption",
            Source::Conversion => "conversion",
            Source::Expiry => "expiry",
            Source::Staff => "staff",
            Source::Import => "import",
        }
    }
    pub fn parse(s: &str) -> Option<Source> {
        [
            Source::Purchase,
            Source::Claim,
            Source::Bonus,
            Source::Redemption,
            Source::Conversion,
            Source::Expiry,
            Source::Staff,
            Source::Import,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

/// Points coming in: a new lot.
pub struct Credit<'a> {
    pub source: Source,
    pub reason: &'a str,
    pub reference: &'a str,
    pub points: i64,
    pub at: i64,
    /// None: they never expire.
    pub expires_at: Option<i64>,
}

/// Points going out, taken from the oldest lots.
pub struct Debit<'a> {
    pub source: Source,
    pub reason: &'a str,
    pub reference: &'a str,
    pub points: i64,
    pub at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    pub id: String,
    /// False when the reference had been posted before (nothing was written).
    pub created: bool,
}

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

/// The entry posted before under `reference`, if any. The same reference for another member or
/// another amount is a programming or integration error, refused rather than ignored.
async fn posted_before(tx: &mut Tx<'_>, pid: &str, reference: &str, points: i64) -> Result<Option<Posted>> {
    let row = sqlx::query("SELECT id, profile_id, points FROM loyalty_ledger WHERE reference = $1")
        .bind(reference)
        .fetch_optional(&mut **tx)
        .await?;
    match row {
        None => Ok(None),
        Some(r) if r.get::<String, _>("profile_id") == pid && r.get::<i64, _>("points") == points => {
            Ok(Some(Posted { id: r.get("id"), created: false }))
        }
        Some(_) => Err(ProfileError::Refused("This reference was already used for another entry")),
    }
}

#[allow(clippy::too_many_arguments)]
async fn insert_entry(
    tx: &mut Tx<'_>,
    pid: &str,
    kind: Kind,
    source: Source,
    reason: &str,
    reference: &str,
    points: i64,
    at: i64,
    expires_at: Option<i64>,
) -> Result<String> {
    let id = portal_common::new_id("led_");
    // Only credits are lots; every other entry has nothing left to take.
    let remaining = if matches!(kind, Kind::Earn | Kind::Adjust) { points.max(0) } else { 0 };
    // The caller holds the member's lock, so no other entry can take this number meanwhile.
    sqlx::query(
        "INSERT INTO loyalty_ledger (id, profile_id, kind, source, reason, reference, points, issued_at, expires_at, remaining, created_at_ms, seq)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, COALESCE(MAX(seq), 0) + 1 FROM loyalty_ledger WHERE profile_id = $2",
    )
    .bind(&id)
    .bind(pid)
    .bind(kind.as_str())
    .bind(source.as_str())
    .bind(reason)
    .bind(reference)
    .bind(points)
    .bind(at)
    .bind(expires_at)
    .bind(remaining)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

/// Takes `points` from `lot` for `debit`; the lot must still hold them.
async fn take(tx: &mut Tx<'_>, debit: &str, lot: &str, points: i64) -> Result<()> {
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

/// Posts a credit (earn, or a positive adjustment) as a new lot. Locks the account.
pub async fn credit(tx: &mut Tx<'_>, pid: &str, c: &Credit<'_>) -> Result<Posted> {
    if c.points <= 0 || !matches!(c.source.kind(), Kind::Earn | Kind::Adjust) {
        return Err(ProfileError::field("points", "A credit adds a positive number of points"));
    }
    lock(tx, pid).await?;
    if let Some(p) = posted_before(tx, pid, c.reference, c.points).await? {
        return Ok(p);
    }
    let id = insert_entry(tx, pid, c.source.kind(), c.source, c.reason, c.reference, c.points, c.at, c.expires_at).await?;
    // New qualifying points: the tier is worked out again.
    sqlx::query("UPDATE loyalty_accounts SET review_at = $2 WHERE profile_id = $1")
        .bind(pid)
        .bind(c.at.min(portal_common::now_unix()))
        .execute(&mut **tx)
        .await?;
    Ok(Posted { id, created: true })
}

/// Posts a debit (spend, or a negative adjustment), taking the points from the oldest lots that
/// are not expired at `d.at`. Refused with `NotEnoughPoints` when they do not hold enough: the
/// balance never goes below zero. Locks the account; lots due to expire are expired first.
pub async fn debit(tx: &mut Tx<'_>, pid: &str, d: &Debit<'_>) -> Result<Posted> {
    if !matches!(d.source.kind(), Kind::Spend | Kind::Adjust) {
        return Err(ProfileError::field("points", "A debit takes a positive number of points"));
    }
    take_points(tx, pid, d.source.kind(), d).await
}

/// Holds points for an operation that finishes later (a conversion to airline points): a `hold`
/// entry that takes them from the oldest lots like a debit, so the balance no longer counts
/// them and can't go below zero. [`settle`] later confirms or releases it, once.
pub async fn hold(tx: &mut Tx<'_>, pid: &str, d: &Debit<'_>) -> Result<Posted> {
    take_points(tx, pid, Kind::Hold, d).await
}

async fn take_points(tx: &mut Tx<'_>, pid: &str, kind: Kind, d: &Debit<'_>) -> Result<Posted> {
    if d.points <= 0 {
        return Err(ProfileError::field("points", "A debit takes a positive number of points"));
    }
    lock(tx, pid).await?;
    if let Some(p) = posted_before(tx, pid, d.reference, -d.points).await? {
        return Ok(p);
    }
    expire_due(tx, pid, d.at).await?;
    let lots: Vec<(String, i64)> = sqlx::query(
        "SELECT id, remaining FROM loyalty_ledger
         WHERE profile_id = $1 AND remaining > 0 AND issued_at <= $2 AND (expires_at IS NULL OR expires_at > $2)
         ORDER BY issued_at, seq",
    )
    .bind(pid)
    .bind(d.at)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .map(|r| (r.get("id"), r.get("remaining")))
    .collect();
    if lots.iter().map(|(_, n)| n).sum::<i64>() < d.points {
        return Err(ProfileError::NotEnoughPoints);
    }
    let id = insert_entry(tx, pid, kind, d.source, d.reason, d.reference, -d.points, d.at, None).await?;
    let mut left = d.points;
    for (lot, remaining) in lots {
        if left == 0 {
            break;
        }
        let n = remaining.min(left);
        take(tx, &id, &lot, n).await?;
        left -= n;
    }
    Ok(Posted { id, created: true })
}

/// How a hold ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settlement {
    Confirmed,
    Released,
}

impl Settlement {
    fn suffix(self) -> &'static str {
        match self {
            Settlement::Confirmed => "confirm",
            Settlement::Released => "release",
        }
    }
}

/// Settles the hold posted under `reference`, once: `Confirmed` posts a `confirm` entry (0
/// points), `Released` a `release` entry giving back what the hold took, to the lots it took
/// them from (what was due to expire meanwhile expires at once). Settling again the same way
/// changes nothing (`created: false`); the other way is refused. Locks the account.
pub async fn settle(tx: &mut Tx<'_>, pid: &str, reference: &str, how: Settlement, at: i64) -> Result<Posted> {
    lock(tx, pid).await?;
    let held = sqlx::query("SELECT id, points, reason FROM loyalty_ledger WHERE reference = $1 AND profile_id = $2 AND kind = 'hold'")
        .bind(reference)
        .bind(pid)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(ProfileError::NotFound)?;
    let (hold_id, points, reason): (String, i64, String) = (held.get("id"), held.get("points"), held.get("reason"));
    for other in [Settlement::Confirmed, Settlement::Released] {
        let r = format!("{reference}:{}", other.suffix());
        if let Some(row) = sqlx::query("SELECT id FROM loyalty_ledger WHERE reference = $1").bind(&r).fetch_optional(&mut **tx).await? {
            return if other == how {
                Ok(Posted { id: row.get("id"), created: false })
            } else {
                Err(ProfileError::Refused("This hold was already settled the other way"))
            };
        }
    }
    let settled_ref = format!("{reference}:{}", how.suffix());
    let (kind, back) = match how {
        Settlement::Confirmed => (Kind::Confirm, 0),
        Settlement::Released => (Kind::Release, -points),
    };
    let id = insert_entry(tx, pid, kind, Source::Conversion, &reason, &settled_ref, back, at, None).await?;
    if how == Settlement::Released {
        // The points go back to the lots they came from (the release entry is not a lot).
        let taken: Vec<(String, i64, Option<i64>)> = sqlx::query(
            "SELECT a.lot_id, a.points, l.expires_at FROM loyalty_allocations a JOIN loyalty_ledger l ON l.id = a.lot_id
             WHERE a.debit_id = $1 ORDER BY l.issued_at, l.seq",
        )
        .bind(&hold_id)
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(|r| (r.get("lot_id"), r.get("points"), r.get("expires_at")))
        .collect();
        for (lot, n, expires_at) in taken {
            sqlx::query("UPDATE loyalty_ledger SET remaining = remaining + $2 WHERE id = $1").bind(&lot).bind(n).execute(&mut **tx).await?;
            if expires_at.is_some_and(|e| e <= at) {
                let expired = insert_entry(tx, pid, Kind::Expire, Source::Expiry, "", &format!("expire:{lot}:{id}"), -n, at, None).await?;
                take(tx, &expired, &lot, n).await?;
            }
        }
    }
    Ok(Posted { id, created: true })
}

/// Expires what is left of the member's lots whose date has passed by `now`: one expiry entry per
/// lot, dated when the lot expired, referenced `expire:<lot>`. The caller holds the lock.
/// Running it again finds nothing left to expire.
async fn expire_due(tx: &mut Tx<'_>, pid: &str, now: i64) -> Result<(i64, i64)> {
    let due: Vec<(String, i64, i64)> = sqlx::query(
        "SELECT id, remaining, expires_at FROM loyalty_ledger
         WHERE profile_id = $1 AND remaining > 0 AND expires_at IS NOT NULL AND expires_at <= $2 ORDER BY expires_at, seq",
    )
    .bind(pid)
    .bind(now)
    .fetch_all(&mut **tx)
    .await?
    .into_iter()
    .map(|r| (r.get("id"), r.get("remaining"), r.get("expires_at")))
    .collect();
    let (mut entries, mut points) = (0, 0);
    for (lot, remaining, expired_at) in due {
        let id = insert_entry(tx, pid, Kind::Expire, Source::Expiry, "", &format!("expire:{lot}"), -remaining, expired_at, None).await?;
        take(tx, &id, &lot, remaining).await?;
        entries += 1;
        points += remaining;
    }
    Ok((entries, points))
}

/// Expires the member's due points in a transaction of its own, if any are due (reads call this
/// first, so what they show never includes points past their date). Returns (entries, points).
pub async fn expire_member(db: &Db, pid: &str, now: i64) -> Result<(i64, i64)> {
    let due = sqlx::query("SELECT id FROM loyalty_ledger WHERE profile_id = $1 AND remaining > 0 AND expires_at <= $2 LIMIT 1")
        .bind(pid)
        .bind(now)
        .fetch_optional(&db.pool)
        .await?;
    if due.is_none() {
        return Ok((0, 0));
    }
    let mut tx = db.begin().await?;
    lock(&mut tx, pid).await?;
    let done = expire_due(&mut tx, pid, now).await?;
    tx.commit().await?;
    Ok(done)
}

/// The expiry job: expires every member's due points, a member per transaction. Idempotent: a
/// second run (or a concurrent one on another instance) finds nothing left to expire.
pub async fn expire_all(db: &Db, now: i64) -> Result<(i64, i64)> {
    let (mut entries, mut points) = (0, 0);
    loop {
        let members: Vec<String> = sqlx::query(
            "SELECT DISTINCT profile_id FROM loyalty_ledger WHERE remaining > 0 AND expires_at <= $1 ORDER BY profile_id LIMIT 200",
        )
        .bind(now)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| r.get("profile_id"))
        .collect();
        if members.is_empty() {
            return Ok((entries, points));
        }
        for pid in members {
            let (e, p) = expire_member(db, &pid, now).await?;
            entries += e;
            points += p;
        }
    }
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

impl From<Entry> for portal_proto::profile::v1::PointsEntry {
    fn from(e: Entry) -> Self {
        Self {
            id: e.id,
            points: e.points,
            kind: e.kind,
            source: e.source,
            reason: e.reason,
            reference: e.reference,
            issued_at: e.issued_at,
            expires_at: e.expires_at.unwrap_or(0),
        }
    }
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

/// Checks the ledger's own bookkeeping for a member: the points left in the lots equal the sum of
/// the entries, and each debit's allocations add up to it. For tests and audits.
#[cfg(test)]
pub async fn audit(db: &Db, pid: &str) -> Result<i64> {
    let sum = balance(&db.pool, pid).await?;
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
    if sum != left || unbalanced != 0 || sum < 0 {
        return Err(ProfileError::Db(sqlx::Error::Protocol(format!(
            "ledger of {pid} does not add up: sum {sum}, left in lots {left}, {unbalanced} debits unallocated"
        ))));
    }
    Ok(sum)
}

//! The points ledger. Every change to a member's points is one entry with a unique reference,
//! and the balance is the sum of the entries, kept as a checkpoint on the member's account row in
//! the transaction that posts each entry (so a read costs one row, however long the history;
//! [`audit`] checks the checkpoint against the entries).
//!
//! Credits are lots that expire; debits take from the oldest lots first and record what they
//! took (`loyalty_allocations`), so the points left in the lots always equal the balance. Every
//! write for a member first locks that member's account row: writes for one member happen one
//! after another on both backends, so the points a debit checks are the points it takes, and
//! the balance never goes below zero. A reference posted before is not posted again.
use crate::error::ProfileError;
use crate::store;
use portal_common::db::Db;

pub use store::ledger::{all_entries, balance, entries, expiring_lots, lock, Entry};
pub use store::Tx;

type Result<T> = std::result::Result<T, ProfileError>;

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

/// The entry posted before under `reference`, if any. The same reference for another member or
/// another amount is a programming or integration error, refused rather than ignored.
async fn posted_before(tx: &mut Tx<'_>, pid: &str, reference: &str, points: i64) -> Result<Option<Posted>> {
    match store::ledger::by_reference(tx, reference).await? {
        None => Ok(None),
        Some((id, owner, posted)) if owner == pid && posted == points => Ok(Some(Posted { id, created: false })),
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
    let entry = store::ledger::NewEntry {
        id: &id,
        kind: kind.as_str(),
        source: source.as_str(),
        reason,
        reference,
        points,
        at,
        expires_at,
        remaining,
    };
    store::ledger::insert(tx, pid, &entry).await?;
    Ok(id)
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
    store::ledger::review_at(tx, pid, c.at.min(portal_common::now_unix())).await?;
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
    // The lots hold at most the balance: the checkpoint refuses at once what they can't cover.
    if balance(&mut **tx, pid).await? < d.points {
        return Err(ProfileError::NotEnoughPoints);
    }
    let lots = lots_for(tx, pid, d.at, d.points).await?;
    let id = insert_entry(tx, pid, kind, d.source, d.reason, d.reference, -d.points, d.at, None).await?;
    for (lot, n) in lots {
        store::ledger::take(tx, &id, &lot, n).await?;
    }
    Ok(Posted { id, created: true })
}

/// How many lots a debit reads at a time.
const LOT_BATCH: i64 = 100;

/// What a debit of `points` takes from the member's open lots at `at`, oldest first: (lot,
/// points). The lots are read a batch at a time until they hold enough, so a debit reads about
/// as many lots as it takes from; `NotEnoughPoints` when they run out first.
async fn lots_for(tx: &mut Tx<'_>, pid: &str, at: i64, points: i64) -> Result<Vec<(String, i64)>> {
    let (mut out, mut left, mut after) = (Vec::new(), points, None);
    while left > 0 {
        let batch = store::ledger::open_lots(tx, pid, at, after, LOT_BATCH).await?;
        let Some(last) = batch.last() else { return Err(ProfileError::NotEnoughPoints) };
        after = Some((last.issued_at, last.seq));
        for lot in batch {
            if left == 0 {
                break;
            }
            let n = lot.remaining.min(left);
            out.push((lot.id, n));
            left -= n;
        }
    }
    Ok(out)
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
    let (hold_id, points, reason) = store::ledger::hold(tx, pid, reference).await?.ok_or(ProfileError::NotFound)?;
    for other in [Settlement::Confirmed, Settlement::Released] {
        let r = format!("{reference}:{}", other.suffix());
        if let Some(id) = store::ledger::id_of(tx, &r).await? {
            return if other == how {
                Ok(Posted { id, created: false })
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
        let taken = store::ledger::allocations(tx, &hold_id).await?;
        for (lot, n, expires_at) in taken {
            store::ledger::give_back(tx, &lot, n).await?;
            if expires_at.is_some_and(|e| e <= at) {
                let expired = insert_entry(tx, pid, Kind::Expire, Source::Expiry, "", &format!("expire:{lot}:{id}"), -n, at, None).await?;
                store::ledger::take(tx, &expired, &lot, n).await?;
            }
        }
    }
    Ok(Posted { id, created: true })
}

/// Expires what is left of the member's lots whose date has passed by `now`: one expiry entry per
/// lot, dated when the lot expired, referenced `expire:<lot>`. The caller holds the lock.
/// Running it again finds nothing left to expire.
async fn expire_due(tx: &mut Tx<'_>, pid: &str, now: i64) -> Result<(i64, i64)> {
    let (mut entries, mut points) = (0, 0);
    loop {
        // A batch at a time: each lot expired is empty, so the next read starts after it.
        let due = store::ledger::due_lots(tx, pid, now, EXPIRY_BATCH).await?;
        if due.is_empty() {
            return Ok((entries, points));
        }
        for (lot, remaining, expired_at) in due {
            let reference = format!("expire:{lot}");
            let id = insert_entry(tx, pid, Kind::Expire, Source::Expiry, "", &reference, -remaining, expired_at, None).await?;
            store::ledger::take(tx, &id, &lot, remaining).await?;
            entries += 1;
            points += remaining;
        }
    }
}

/// How many lots (or members) the expiry reads at a time: its memory stays this size whatever
/// the number of members or entries.
const EXPIRY_BATCH: i64 = 500;

/// Expires the member's due points in a transaction of its own, if any are due (reads call this
/// first, so what they show never includes points past their date). Returns (entries, points).
pub async fn expire_member(db: &Db, pid: &str, now: i64) -> Result<(i64, i64)> {
    // An index probe of the member's open lots by expiry: nothing due is the usual answer.
    if !store::ledger::has_due(db, pid, now).await? {
        return Ok((0, 0));
    }
    let mut tx = db.begin().await?;
    lock(&mut tx, pid).await?;
    let done = expire_due(&mut tx, pid, now).await?;
    tx.commit().await?;
    Ok(done)
}

/// The expiry job: expires every member's due points, a member per transaction, the members a
/// batch at a time (bounded memory and a bounded read per batch, whatever the number of members).
/// Idempotent: a second run (or a concurrent one on another instance) finds nothing left to expire.
pub async fn expire_all(db: &Db, now: i64) -> Result<(i64, i64)> {
    let (mut entries, mut points) = (0, 0);
    loop {
        let members = store::ledger::members_with_due(db, now, EXPIRY_BATCH).await?;
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

/// Makes the checkpoint of the accounts from before it (migration 0011), a batch of accounts at
/// a time, each folded under its lock in a transaction of its own: bounded memory, and safe beside
/// posts (which fold too) and on several instances. Returns how many it folded.
pub async fn fold_unfolded(db: &Db) -> Result<u64> {
    let (mut after, mut folded) = (String::new(), 0);
    loop {
        let batch = store::ledger::unfolded(db, &after, EXPIRY_BATCH).await?;
        let Some(last) = batch.last() else { return Ok(folded) };
        after = last.clone();
        for pid in &batch {
            let mut tx = db.begin().await?;
            lock(&mut tx, pid).await?;
            store::ledger::fold(&mut tx, pid).await?;
            tx.commit().await?;
            folded += 1;
        }
    }
}

/// The member's balance now: what is due expires first (when nothing is, one index probe), then
/// the checkpoint. Two reads, whatever the length of the member's history.
pub async fn balance_now(db: &Db, pid: &str, now: i64) -> Result<i64> {
    expire_member(db, pid, now).await?;
    balance(&db.pool, pid).await
}

/// Checks the ledger's own bookkeeping for a member: the checkpoint (balance, number of entries,
/// last seq) equals what the entries say, the points left in the lots equal the sum of the
/// entries, each debit's allocations add up to it, and nothing is below zero. For tests and
/// audits (a full read of the member's ledger). Answers the balance.
#[cfg(test)]
pub async fn audit(db: &Db, pid: &str) -> Result<i64> {
    let ([kept, entries, last_seq], [sum, left, n, max_seq, unbalanced]) = store::ledger::checkpoint_and_count(db, pid).await?;
    if kept != sum || sum != left || entries != n || last_seq != max_seq || unbalanced != 0 || sum < 0 {
        return Err(ProfileError::Db(sqlx::Error::Protocol(format!(
            "ledger of {pid} does not add up: checkpoint {kept} over {entries} entries (last seq {last_seq}), \
             sum {sum} over {n} entries (last seq {max_seq}), left in lots {left}, {unbalanced} debits unallocated"
        ))));
    }
    Ok(sum)
}

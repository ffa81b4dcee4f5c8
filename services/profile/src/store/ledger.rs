//! The points ledger's tables: entries (`loyalty_ledger`, credits being lots with what is left in
//! them), what each debit took from which lot (`loyalty_allocations`) and the member's account row
//! (`loyalty_accounts`), whose lock orders a member's writes. The rules are `loyalty::ledger`.
use super::{Result, Tx};
use crate::error::ProfileError;
use portal_common::db::{Db, OnlineIndex};
use sqlx::{Any, Row};

/// The indexes that keep a member's reads flat in their history (migration 0011), built online
/// after start (`Db::build_online_indexes`): pages by key (ledger, orders, rewards), the open lots
/// oldest first (what a debit takes) and by expiry (what is due, what expires next).
pub const ONLINE_INDEXES: &[OnlineIndex] = &[
    OnlineIndex { name: "loyalty_ledger_history", table: "loyalty_ledger", columns: "(profile_id, issued_at, seq)" },
    OnlineIndex { name: "loyalty_ledger_open_lots", table: "loyalty_ledger", columns: "(profile_id, issued_at, seq) WHERE remaining > 0" },
    OnlineIndex {
        name: "loyalty_ledger_lots_by_expiry",
        table: "loyalty_ledger",
        columns: "(profile_id, expires_at, seq) WHERE remaining > 0",
    },
    OnlineIndex { name: "transactions_history", table: "transactions", columns: "(profile_id, transacted_at, id)" },
    OnlineIndex { name: "rewards_history", table: "rewards", columns: "(profile_id, issued_at, id)" },
    // The accounts whose checkpoint is still to be made: the backfill reads only those.
    OnlineIndex { name: "loyalty_accounts_unfolded", table: "loyalty_accounts", columns: "(profile_id) WHERE last_seq IS NULL" },
];

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

/// Posts an entry as the member's next in sequence, then folds it into the member's checkpoint,
/// in the caller's transaction. The caller holds the member's lock (the account row exists), so
/// no other entry can take this number meanwhile. The number is the ledger's own next (an index
/// probe), so entries posted by a release that kept no checkpoint still count: they are the
/// tail the next fold takes in.
pub async fn insert(tx: &mut Tx<'_>, pid: &str, e: &NewEntry<'_>) -> Result<()> {
    let last: Option<i64> = sqlx::query("SELECT seq FROM loyalty_ledger WHERE profile_id = $1 ORDER BY seq DESC LIMIT 1")
        .bind(pid)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| r.get("seq"));
    sqlx::query(
        "INSERT INTO loyalty_ledger (id, profile_id, kind, source, reason, reference, points, issued_at, expires_at, remaining, created_at_ms, seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
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
    .bind(last.unwrap_or(0) + 1)
    .execute(&mut **tx)
    .await?;
    fold(tx, pid).await
}

/// Folds the entries after the member's checkpoint into it (balance, number of entries, last
/// seq): after a post that is the one entry just written, a read of the tail only. The caller
/// holds the member's lock.
pub async fn fold(tx: &mut Tx<'_>, pid: &str) -> Result<()> {
    sqlx::query(
        "UPDATE loyalty_accounts SET
           balance = balance + (SELECT CAST(COALESCE(SUM(l.points), 0) AS BIGINT) FROM loyalty_ledger l
                                WHERE l.profile_id = $1 AND l.seq > COALESCE(loyalty_accounts.last_seq, 0)),
           entries = entries + (SELECT COUNT(*) FROM loyalty_ledger l WHERE l.profile_id = $1 AND l.seq > COALESCE(loyalty_accounts.last_seq, 0)),
           last_seq = (SELECT COALESCE(MAX(l.seq), loyalty_accounts.last_seq, 0) FROM loyalty_ledger l
                       WHERE l.profile_id = $1 AND l.seq > COALESCE(loyalty_accounts.last_seq, 0))
         WHERE profile_id = $1",
    )
    .bind(pid)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// ($1 after, $2 limit): by the partial index of the accounts still to fold.
pub(crate) const UNFOLDED: &str =
    "SELECT profile_id FROM loyalty_accounts WHERE profile_id > $1 AND last_seq IS NULL ORDER BY profile_id LIMIT $2";

/// Up to `limit` members after `after` (by id) whose checkpoint was never made (accounts from
/// before it existed): the backfill's next batch, a range read of the accounts' key.
pub async fn unfolded(db: &Db, after: &str, limit: i64) -> Result<Vec<String>> {
    super::fetch_map(db, sqlx::query(UNFOLDED).bind(after).bind(limit), |r| r.get("profile_id")).await
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

/// A lot still holding points, with its place in the member's order.
#[derive(Debug, Clone)]
pub struct Lot {
    pub id: String,
    pub remaining: i64,
    pub issued_at: i64,
    pub seq: i64,
}

/// ($1 member, $2 at, $3 issued_at and $4 seq of the last lot read, $5 limit)
pub(crate) const OPEN_LOTS: &str = "SELECT id, remaining, issued_at, seq FROM loyalty_ledger
     WHERE profile_id = $1 AND remaining > 0 AND issued_at <= $2 AND (issued_at, seq) > ($3, $4)
       AND (expires_at IS NULL OR expires_at > $2)
     ORDER BY issued_at, seq LIMIT $5";

/// Up to `limit` of the member's lots that hold points and are neither in the future nor expired
/// at `at`, oldest first, after the lot at `after` (issued_at, seq) when given: a debit reads
/// them a batch at a time until it has enough, so it reads what it takes, not the history.
pub async fn open_lots(tx: &mut Tx<'_>, pid: &str, at: i64, after: Option<(i64, i64)>, limit: i64) -> Result<Vec<Lot>> {
    let (after_at, after_seq) = after.unwrap_or((i64::MIN, i64::MIN));
    Ok(sqlx::query(OPEN_LOTS)
        .bind(pid)
        .bind(at)
        .bind(after_at)
        .bind(after_seq)
        .bind(limit)
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(|r| Lot { id: r.get("id"), remaining: r.get("remaining"), issued_at: r.get("issued_at"), seq: r.get("seq") })
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

/// ($1 member, $2 now, $3 limit)
pub(crate) const DUE_LOTS: &str = "SELECT id, remaining, expires_at FROM loyalty_ledger
     WHERE profile_id = $1 AND remaining > 0 AND expires_at <= $2 ORDER BY expires_at, seq LIMIT $3";

/// Up to `limit` of the member's lots still holding points whose date has passed by `now`, in
/// the order they expired: (id, remaining, expires_at). Expiring them empties them, so the next
/// call answers the next ones.
pub async fn due_lots(tx: &mut Tx<'_>, pid: &str, now: i64, limit: i64) -> Result<Vec<(String, i64, i64)>> {
    Ok(sqlx::query(DUE_LOTS)
        .bind(pid)
        .bind(now)
        .bind(limit)
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(|r| (r.get("id"), r.get("remaining"), r.get("expires_at")))
        .collect())
}

/// Whether any of the member's lots holding points is due by `now` ($1 member, $2 now): a probe
/// of the open lots by expiry.
pub(crate) const HAS_DUE: &str = "SELECT id FROM loyalty_ledger WHERE profile_id = $1 AND remaining > 0 AND expires_at <= $2 LIMIT 1";

/// Whether any of the member's points are due to expire by `now`.
pub async fn has_due(db: &Db, pid: &str, now: i64) -> Result<bool> {
    let due = sqlx::query(HAS_DUE).bind(pid).bind(now).fetch_optional(&db.pool).await?;
    Ok(due.is_some())
}

/// ($1 now, $2 limit)
pub(crate) const MEMBERS_WITH_DUE: &str =
    "SELECT profile_id FROM loyalty_ledger WHERE remaining > 0 AND expires_at <= $1 ORDER BY expires_at LIMIT $2";

/// Members with points due to expire by `now`, from the first `limit` due lots in the order
/// they expired (a member once, however many of their lots are among them): a read of at most
/// `limit` index rows, whatever the number of members or entries. The expiry job takes a batch,
/// empties those members' due lots, and asks again until nothing is due.
pub async fn members_with_due(db: &Db, now: i64, limit: i64) -> Result<Vec<String>> {
    let mut members = super::due_members(db, MEMBERS_WITH_DUE, now, limit).await?;
    let mut seen = std::collections::HashSet::new();
    members.retain(|m| seen.insert(m.clone()));
    Ok(members)
}

/// Whether the member has any ledger entry.
pub async fn has_entries(db: &Db, pid: &str) -> Result<bool> {
    let row = sqlx::query("SELECT id FROM loyalty_ledger WHERE profile_id = $1 LIMIT 1").bind(pid).fetch_optional(&db.pool).await?;
    Ok(row.is_some())
}

/// The member's balance ($1 member): the checkpoint plus the entries after it (none, once
/// folded: an index probe of the member's last seq).
pub(crate) const BALANCE: &str = "SELECT a.balance + (SELECT CAST(COALESCE(SUM(l.points), 0) AS BIGINT) FROM loyalty_ledger l
       WHERE l.profile_id = a.profile_id AND l.seq > COALESCE(a.last_seq, 0)) AS balance
     FROM loyalty_accounts a WHERE a.profile_id = $1";

/// The member's balance: their checkpoint (the sum of their ledger, kept by [`insert`]) plus any
/// entries after it, one row however long the ledger. 0 for a member without an account.
pub async fn balance<'e, E: sqlx::Executor<'e, Database = Any>>(ex: E, pid: &str) -> Result<i64> {
    let row = sqlx::query(BALANCE).bind(pid).fetch_optional(ex).await?;
    Ok(row.map(|r| r.try_get("balance")).transpose()?.unwrap_or(0))
}

/// The member's checkpoint beside what the ledger says, for audits: (balance, entries, last seq)
/// as reads see them (the checkpoint with what is after it), and (sum of points, points left in
/// the lots, entries, highest seq, debits whose allocations don't add up to them) as counted. A
/// full read of the member's ledger.
#[cfg(test)]
pub async fn checkpoint_and_count(db: &Db, pid: &str) -> Result<([i64; 3], [i64; 5])> {
    let balance = balance(&db.pool, pid).await?;
    let entries: i64 = sqlx::query(ENTRIES_TOTAL).bind(pid).fetch_optional(&db.pool).await?.map(|r| r.get("entries")).unwrap_or(0);
    let last_seq: i64 = sqlx::query("SELECT COALESCE(last_seq, 0) AS s FROM loyalty_accounts WHERE profile_id = $1")
        .bind(pid)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| r.get("s"))
        .unwrap_or(0);
    // SUM of BIGINT is NUMERIC on PostgreSQL: cast so both backends answer a BIGINT.
    let counted = sqlx::query(
        "SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS total, CAST(COALESCE(SUM(remaining), 0) AS BIGINT) AS left_in_lots,
                COUNT(*) AS n, COALESCE(MAX(seq), 0) AS last_seq,
                (SELECT COUNT(*) FROM loyalty_ledger d WHERE d.profile_id = $1 AND d.points < 0 AND -d.points <>
                   (SELECT CAST(COALESCE(SUM(a.points), 0) AS BIGINT) FROM loyalty_allocations a WHERE a.debit_id = d.id)) AS unbalanced
         FROM loyalty_ledger WHERE profile_id = $1",
    )
    .bind(pid)
    .fetch_one(&db.pool)
    .await?;
    let counted = [counted.get("total"), counted.get("left_in_lots"), counted.get("n"), counted.get("last_seq"), counted.get("unbalanced")];
    Ok(([balance, entries, last_seq], counted))
}

/// Members whose folded checkpoint differs from their ledger, at most `limit`: the audit over
/// everyone (a full read of the ledger, for an operator or a test, never a request;
/// `deploy/bench/data-scale.sh` runs the same check after its run).
#[cfg(test)]
pub async fn drifted(db: &Db, limit: i64) -> Result<Vec<String>> {
    let sql = "SELECT a.profile_id FROM loyalty_accounts a
         LEFT JOIN (SELECT profile_id, CAST(SUM(points) AS BIGINT) AS total, COUNT(*) AS n FROM loyalty_ledger GROUP BY profile_id) l
           ON l.profile_id = a.profile_id
         WHERE a.last_seq IS NOT NULL AND (a.balance <> COALESCE(l.total, 0) OR a.entries <> COALESCE(l.n, 0))
         ORDER BY a.profile_id LIMIT $1";
    super::fetch_map(db, sqlx::query(sql).bind(limit), |r| r.get("profile_id")).await
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
    /// The entry's number in the member's ledger (a page's key, with `issued_at`).
    pub seq: i64,
}

/// How many entries the member has ($1 member): the checkpoint's count plus the entries after it.
pub(crate) const ENTRIES_TOTAL: &str = "SELECT a.entries + (SELECT COUNT(*) FROM loyalty_ledger l
       WHERE l.profile_id = a.profile_id AND l.seq > COALESCE(a.last_seq, 0)) AS entries
     FROM loyalty_accounts a WHERE a.profile_id = $1";

/// A page of the member's ledger: ($1 member, $2 per page) then ($3 offset), or by key ($3
/// issued_at, $4 seq of the last entry before).
pub(crate) fn entries_sql(newest_first: bool, by_key: bool) -> String {
    let (dir, cmp) = if newest_first { ("DESC", "<") } else { ("ASC", ">") };
    let cols = "id, points, kind, source, reason, reference, issued_at, expires_at, seq";
    if by_key {
        format!(
            "SELECT {cols} FROM loyalty_ledger WHERE profile_id = $1 AND (issued_at, seq) {cmp} ($3, $4)
             ORDER BY issued_at {dir}, seq {dir} LIMIT $2"
        )
    } else {
        format!("SELECT {cols} FROM loyalty_ledger WHERE profile_id = $1 ORDER BY issued_at {dir}, seq {dir} LIMIT $2 OFFSET $3")
    }
}

/// Where a page of the ledger starts: after the entry at (issued_at, seq) in the page's order.
pub type After = (i64, i64);

/// One page of the member's ledger and how many entries there are in all (the checkpoint's
/// count). `after` is the last entry of the page before: the page is then a range read of
/// `per_page` rows in the history index however deep it is; without it the page is found by its
/// number (an offset, kept for clients that ask by page).
pub async fn entries(db: &Db, pid: &str, page: u32, per_page: u32, newest_first: bool, after: Option<After>) -> Result<(Vec<Entry>, u64)> {
    let total: i64 = sqlx::query(ENTRIES_TOTAL).bind(pid).fetch_optional(&db.pool).await?.map(|r| r.get("entries")).unwrap_or(0);
    let sql = entries_sql(newest_first, after.is_some());
    let query = sqlx::query(&sql).bind(pid).bind(i64::from(per_page));
    let query = match after {
        Some((at, seq)) => query.bind(at).bind(seq),
        None => query.bind(i64::from(page.saturating_sub(1)) * i64::from(per_page)),
    };
    let list = super::fetch_map(db, query, |r| Entry {
        id: r.get("id"),
        points: r.get("points"),
        kind: r.get("kind"),
        source: r.get("source"),
        reason: r.get("reason"),
        reference: r.get("reference"),
        issued_at: r.get("issued_at"),
        expires_at: r.get("expires_at"),
        seq: r.get("seq"),
    })
    .await?;
    Ok((list, total as u64))
}

/// Every entry of the member, oldest first, read `batch` at a time by key (the data export).
pub async fn all_entries(db: &Db, pid: &str, batch: u32) -> Result<Vec<Entry>> {
    let (mut out, mut after) = (Vec::new(), None);
    loop {
        let (page, _) = entries(db, pid, 1, batch, false, after).await?;
        let Some(last) = page.last() else { return Ok(out) };
        after = Some((last.issued_at, last.seq));
        let full = page.len() == batch as usize;
        out.extend(page);
        if !full {
            return Ok(out);
        }
    }
}

/// ($1 member, $2 now, $3 limit)
pub(crate) const EXPIRING: &str =
    "SELECT remaining, expires_at FROM loyalty_ledger WHERE profile_id = $1 AND remaining > 0 AND expires_at > $2
     ORDER BY expires_at, seq LIMIT $3";

/// Points still to expire, by when: (points, expires_at), soonest first, at most `limit` lots.
pub async fn expiring_lots(db: &Db, pid: &str, now: i64, limit: i64) -> Result<Vec<(i64, i64)>> {
    Ok(sqlx::query(EXPIRING)
        .bind(pid)
        .bind(now)
        .bind(limit)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| (r.get("remaining"), r.get("expires_at")))
        .collect())
}

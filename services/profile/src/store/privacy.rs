//! The privacy centre's SQL: the rows only the export reads, and the member's erasure in one
//! transaction (all of it or nothing; a repeat finds nothing left). The points ledger is kept,
//! anonymised, under a placeholder profile (`erased_at` set) made for this erasure alone.
use super::{Result, Tx};
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;

/// Every row that hangs off the member, deleted child tables first.
const DELETES: &[&str] = &[
    "DELETE FROM transaction_item_links WHERE item_id IN
       (SELECT i.id FROM transaction_items i JOIN transactions t ON t.id = i.transaction_id WHERE t.profile_id = $1)",
    "DELETE FROM transaction_items WHERE transaction_id IN (SELECT id FROM transactions WHERE profile_id = $1)",
    "DELETE FROM transactions WHERE profile_id = $1",
    "DELETE FROM claims WHERE profile_id = $1",
    "DELETE FROM consent_history WHERE profile_id = $1",
    "DELETE FROM comms WHERE profile_id = $1",
    "DELETE FROM custom_attributes WHERE profile_id = $1",
    "DELETE FROM identities WHERE profile_id = $1",
    "DELETE FROM profiles WHERE id = $1",
];

/// The member's whole consent history, oldest first.
pub async fn consent_history(db: &Db, pid: &str) -> Result<Vec<pb::ConsentRecord>> {
    Ok(sqlx::query("SELECT channel, value, source, at_ms FROM consent_history WHERE profile_id = $1 ORDER BY at_ms, id")
        .bind(pid)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(super::profiles::consent_record)
        .collect())
}

/// Erases the member (see the module doc); false when there was nothing left to erase.
pub async fn erase(db: &Db, tenant: &str, pid: &str) -> Result<bool> {
    let mut tx = db.begin().await?;
    let found = sqlx::query("SELECT id FROM profiles WHERE id = $1 AND erased_at IS NULL").bind(pid).fetch_optional(&mut *tx).await?;
    let erased = found.is_some();
    if erased {
        let now = portal_common::now_unix();
        let anonymous = portal_common::new_id("anon_");
        // The placeholder's email is its own id: unique, and no address of anyone.
        sqlx::query(
            "INSERT INTO profiles (id, tenant, email, first_name, last_name, region_handle, tier_handle, created_at, updated_at, erased_at)
             VALUES ($1, $2, $1, '', '', '', '', $3, $3, $3)",
        )
        .bind(&anonymous)
        .bind(tenant)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        erase_loyalty(&mut tx, pid, &anonymous).await?;
        // The member's loyalty card is cancelled: it stays the brand's, held by no one.
        super::cards::cancel(&mut tx, pid).await?;
        // The store's record of a sale stays taken (nobody else can claim it), by no one.
        sqlx::query("UPDATE store_receipts SET profile_id = $2 WHERE profile_id = $1").bind(pid).bind(&anonymous).execute(&mut *tx).await?;
        for sql in DELETES {
            sqlx::query(sql).bind(pid).execute(&mut *tx).await?;
        }
        tx.commit().await?;
    } else {
        tx.rollback().await?;
    }
    Ok(erased)
}

/// The loyalty side of an erasure. The ledger stays, so the books still balance, but owned by
/// `anonymous` (a placeholder profile nothing links to the member) with amounts, kinds, sources
/// and dates kept, and the free text and the references (which name claims, rewards and
/// conversions) replaced. Rewards, offers and kept answers go.
async fn erase_loyalty(tx: &mut Tx<'_>, pid: &str, anonymous: &str) -> Result<()> {
    sqlx::query("UPDATE loyalty_accounts SET profile_id = $2, review_at = NULL WHERE profile_id = $1")
        .bind(pid)
        .bind(anonymous)
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE loyalty_ledger SET profile_id = $2, reason = '', reference = 'erased:' || id WHERE profile_id = $1")
        .bind(pid)
        .bind(anonymous)
        .execute(&mut **tx)
        .await?;
    for sql in [
        "DELETE FROM loyalty_idempotency WHERE profile_id = $1",
        "DELETE FROM rewards WHERE profile_id = $1",
        "DELETE FROM benefits WHERE profile_id = $1",
    ] {
        sqlx::query(sql).bind(pid).execute(&mut **tx).await?;
    }
    Ok(())
}

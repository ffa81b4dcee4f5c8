//! The profile service's part of the privacy centre: everything it holds on a member, for the
//! data export, and the member's erasure. Erasure is one transaction, so it happens entirely or
//! not at all, and a repeat finds nothing left to do. The points ledger is the one thing kept,
//! anonymised (see `loyalty::erase`), under a placeholder profile (`erased_at` set) made for
//! this erasure alone.
use crate::cache::ProfileCache;
use crate::error::ProfileError;
use crate::store;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;

type Result<T> = std::result::Result<T, ProfileError>;

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

pub async fn export(db: &Db, cache: &ProfileCache, pid: &str) -> Result<pb::MemberExport> {
    let profile = cache.profile(db, pid).await.map_err(|s| {
        if s.code() == tonic::Code::NotFound {
            ProfileError::NotFound
        } else {
            ProfileError::Upstream(s)
        }
    })?;
    let consent_history = sqlx::query("SELECT channel, value, source, at_ms FROM consent_history WHERE profile_id = $1 ORDER BY at_ms, id")
        .bind(pid)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(store::consent_record)
        .collect();
    let all = store::TransactionQuery { page: 1, per_page: u32::MAX, oldest_first: false, include_product: true, include_list_item: true };
    let transactions = store::transactions(db, pid, &all).await?.transactions;
    let claims = sqlx::query(&format!(
        "SELECT {} FROM claims WHERE profile_id = $1 ORDER BY created_at_ms DESC, id DESC",
        crate::claims::CLAIM_COLS
    ))
    .bind(pid)
    .fetch_all(&db.pool)
    .await?
    .iter()
    .map(crate::claims::claim_row)
    .collect();
    let (points_ledger, rewards, benefits) = crate::loyalty::export(db, pid, portal_common::now_unix()).await?;
    Ok(pb::MemberExport { profile: Some(profile), consent_history, transactions, claims, points_ledger, rewards, benefits })
}

/// Erases the member (see the module doc); false when there was nothing left to erase. The
/// cached copy goes after the transaction, also on a repeat (a failed first attempt may have
/// committed and then missed the KV).
pub async fn erase(db: &Db, cache: &ProfileCache, tenant: &str, pid: &str) -> Result<bool> {
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
        crate::loyalty::erase(&mut tx, pid, &anonymous).await?;
        // The member's loyalty card is cancelled: it stays the brand's, held by no one.
        sqlx::query("UPDATE loyalty_cards SET profile_id = '', status = 'cancelled' WHERE profile_id = $1")
            .bind(pid)
            .execute(&mut *tx)
            .await?;
        // The store's record of a sale stays taken (nobody else can claim it), by no one.
        sqlx::query("UPDATE store_receipts SET profile_id = $2 WHERE profile_id = $1").bind(pid).bind(&anonymous).execute(&mut *tx).await?;
        for sql in DELETES {
            sqlx::query(sql).bind(pid).execute(&mut *tx).await?;
        }
        tx.commit().await?;
    } else {
        tx.rollback().await?;
    }
    cache.forget(pid).await.map_err(ProfileError::Upstream)?;
    Ok(erased)
}

//! The profile service's part of the privacy centre: everything it holds on a member, for the
//! data export, and the member's erasure. Erasure is one transaction (`store::privacy::erase`),
//! so it happens entirely or not at all, and a repeat finds nothing left to do; the points ledger
//! is the one thing kept, anonymised.
use crate::cache::ProfileCache;
use crate::error::ProfileError;
use crate::store;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;

type Result<T> = std::result::Result<T, ProfileError>;

pub async fn export(db: &Db, cache: &ProfileCache, pid: &str) -> Result<pb::MemberExport> {
    let profile = cache.profile(db, pid).await.map_err(|s| {
        if s.code() == tonic::Code::NotFound {
            ProfileError::NotFound
        } else {
            ProfileError::Upstream(s)
        }
    })?;
    let consent_history = store::privacy::consent_history(db, pid).await?;
    let all = store::transactions::TransactionQuery {
        page: 1,
        per_page: u32::MAX,
        oldest_first: false,
        include_product: true,
        include_list_item: true,
    };
    let transactions = store::transactions::transactions(db, pid, &all).await?.transactions;
    let claims = store::claims::all(db, pid).await?;
    let (points_ledger, rewards, benefits) = crate::loyalty::export(db, pid, portal_common::now_unix()).await?;
    Ok(pb::MemberExport { profile: Some(profile), consent_history, transactions, claims, points_ledger, rewards, benefits })
}

/// Erases the member (see the module doc); false when there was nothing left to erase. The
/// cached copy goes after the transaction, also on a repeat (a failed first attempt may have
/// committed and then missed the KV).
pub async fn erase(db: &Db, cache: &ProfileCache, tenant: &str, pid: &str) -> Result<bool> {
    let erased = store::privacy::erase(db, tenant, pid).await?;
    cache.forget(pid).await.map_err(ProfileError::Upstream)?;
    Ok(erased)
}

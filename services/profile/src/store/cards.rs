//! The brand's loyalty cards (`loyalty_cards`, the card system's record): taken by a member in
//! the profile update's transaction, freed on unlink, cancelled on erasure. The rule of which
//! card may be linked and its one form is `crate::cards`.
use super::{Result, Tx};
use crate::cards::CANNOT_LINK;
use crate::error::ProfileError;

/// Takes the card `number` for `pid` and frees the one they held before; `CANNOT_LINK` on the
/// identity's field when the card is not theirs to take.
pub async fn link(tx: &mut Tx<'_>, tenant: &str, pid: &str, number: &str, field: &str) -> Result<()> {
    let now = portal_common::now_unix();
    let taken = sqlx::query(
        "UPDATE loyalty_cards SET profile_id = $3, linked_at = $4
         WHERE tenant = $1 AND number = $2 AND status = 'active' AND (profile_id = '' OR profile_id = $3)",
    )
    .bind(tenant)
    .bind(number)
    .bind(pid)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if taken != 1 {
        return Err(ProfileError::field(field, CANNOT_LINK));
    }
    sqlx::query("UPDATE loyalty_cards SET profile_id = '', linked_at = $4 WHERE tenant = $1 AND profile_id = $2 AND number <> $3")
        .bind(tenant)
        .bind(pid)
        .bind(number)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Frees every card `pid` holds.
pub async fn unlink(tx: &mut Tx<'_>, tenant: &str, pid: &str) -> Result<()> {
    sqlx::query("UPDATE loyalty_cards SET profile_id = '', linked_at = $3 WHERE tenant = $1 AND profile_id = $2")
        .bind(tenant)
        .bind(pid)
        .bind(portal_common::now_unix())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Cancels the card `pid` holds (their erasure): it stays the brand's, held by no one.
pub async fn cancel(tx: &mut Tx<'_>, pid: &str) -> Result<()> {
    sqlx::query("UPDATE loyalty_cards SET profile_id = '', status = 'cancelled' WHERE profile_id = $1")
        .bind(pid)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Records an issued card, unlinked, unless it is already known (a later start leaves its link).
pub async fn issue(tx: &mut Tx<'_>, tenant: &str, number: &str, status: &str, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO loyalty_cards (tenant, number, status, profile_id, issued_at, linked_at) VALUES ($1, $2, $3, '', $4, 0)
         ON CONFLICT (tenant, number) DO NOTHING",
    )
    .bind(tenant)
    .bind(number)
    .bind(status)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

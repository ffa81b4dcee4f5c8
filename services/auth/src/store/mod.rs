//! The auth service's SQL, portable between SQLite and PostgreSQL, one submodule per table (or
//! pair of tables). Every function answers auth's own types and `AuthError`, never a gRPC
//! `Status`; the capability modules decide, the store only reads and writes.
pub mod activity;
pub mod email_changes;
pub mod keys;
pub mod outbox;
pub mod sessions;
pub mod staff;

use crate::error::AuthError;
use portal_common::db::Db;

pub type Result<T> = std::result::Result<T, AuthError>;

/// Erasure: the member's sign-in activity and address changes go, their access log stays on the
/// staff side under `anon_id` with the reasons staff wrote removed, and the dev outbox forgets
/// the messages sent to `recipients`. One transaction.
pub async fn forget_member(db: &Db, pid: &str, anon_id: &str, recipients: &[&str]) -> Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM sign_in_activity WHERE profile_id = $1").bind(pid).execute(&mut *tx).await?;
    sqlx::query("DELETE FROM email_changes WHERE profile_id = $1").bind(pid).execute(&mut *tx).await?;
    sqlx::query("UPDATE access_log SET profile_id = $2, reason = '' WHERE profile_id = $1")
        .bind(pid)
        .bind(anon_id)
        .execute(&mut *tx)
        .await?;
    for to in recipients.iter().filter(|t| !t.is_empty()) {
        sqlx::query("DELETE FROM outbox WHERE recipient = $1").bind(to).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

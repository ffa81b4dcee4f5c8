//! The profile service's SQL, portable between SQLite and PostgreSQL, one module per table group.
//! Functions answer the service's own types and `ProfileError`, never `tonic::Status`; a write
//! that must stay atomic with others takes the caller's transaction (`&mut Tx`).
pub mod cards;
pub mod claims;
pub mod demo;
pub mod ledger;
pub mod member_numbers;
pub mod offers;
pub mod privacy;
pub mod profiles;
pub mod rewards;
pub mod tiers;
pub mod transactions;

use crate::error::ProfileError;
use portal_common::db::Db;
use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, Row};

pub type Result<T> = std::result::Result<T, ProfileError>;
/// A transaction on either backend; store functions that take one leave the commit to the caller.
pub type Tx<'c> = sqlx::Transaction<'c, sqlx::Any>;

/// Runs `query` on the pool and maps each row: the one fetch-then-map that list reads share.
pub(crate) async fn fetch_map<'q, T>(db: &Db, query: Query<'q, Any, AnyArguments<'q>>, map: impl FnMut(&AnyRow) -> T) -> Result<Vec<T>> {
    Ok(query.fetch_all(&db.pool).await?.iter().map(map).collect())
}

/// The `profile_id`s that `sql` answers for `($1 = now, $2 = limit)`: the members with work due
/// (a tier review, points to expire), for the background sweeps.
pub(crate) async fn due_members(db: &Db, sql: &str, now: i64, limit: i64) -> Result<Vec<String>> {
    fetch_map(db, sqlx::query(sql).bind(now).bind(limit), |r| r.get("profile_id")).await
}

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

pub type Result<T> = std::result::Result<T, ProfileError>;
/// A transaction on either backend; store functions that take one leave the commit to the caller.
pub type Tx<'c> = sqlx::Transaction<'c, sqlx::Any>;

//! A named lease in the service's own database, so a periodic job runs on one replica at a time:
//! each tick the job takes the lease (free, expired, or already its own) or skips. A crashed
//! holder needs no clean-up: its lease expires after the TTL and the next replica takes it.
//!
//! The service's migrations create the table (the same on both backends):
//! `CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at BIGINT NOT NULL)`,
//! `expires_at` in unix milliseconds of the database's clock, so replicas' clocks don't matter.
//! A lease only makes overlap rare (a job outliving its TTL overlaps the next holder): a job
//! whose effect must happen once also claims its rows.
use crate::db::{Backend, Db};
use std::future::Future;
use std::time::Duration;

/// One job's lease as one holder (a service instance) sees it.
#[derive(Clone, Debug)]
pub struct Lease {
    db: Db,
    name: String,
    holder: String,
    ttl: Duration,
}

/// Now in unix milliseconds, by the database's clock.
fn now_ms(backend: Backend) -> &'static str {
    match backend {
        Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        Backend::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
    }
}

impl Lease {
    /// The lease `name` for a new holder (a random id: each instance holds its own leases).
    pub fn new(db: &Db, name: &str, ttl: Duration) -> Lease {
        Lease { db: db.clone(), name: name.to_string(), holder: crate::new_id("hld_"), ttl }
    }

    /// A job whose period can change (a tenant setting) keeps its TTL a few periods long.
    pub fn set_ttl(&mut self, ttl: Duration) {
        self.ttl = ttl;
    }

    /// Who this instance is, as the `leases` table names it.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// Takes the lease when it is free or expired, or renews it when it is already ours: whether
    /// we hold it now (for the TTL from now). Of two instances asking at once, one gets it.
    pub async fn acquire(&self) -> Result<bool, sqlx::Error> {
        let now = now_ms(self.db.backend);
        let sql = format!(
            "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, {now} + $3)
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
             WHERE leases.expires_at <= {now} OR leases.holder = excluded.holder"
        );
        let ttl_ms = i64::try_from(self.ttl.as_millis()).unwrap_or(i64::MAX / 2);
        let n = sqlx::query(&sql).bind(&self.name).bind(&self.holder).bind(ttl_ms).execute(&self.db.pool).await?.rows_affected();
        Ok(n == 1)
    }

    /// Lets the lease go at once (when ours), e.g. at shutdown, rather than at its expiry.
    pub async fn release(&self) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2")
            .bind(&self.name)
            .bind(&self.holder)
            .execute(&self.db.pool)
            .await?;
        Ok(())
    }

    /// Runs `job` when this instance holds the lease (taking or renewing it first): its answer, or
    /// `None` when another instance holds it. The lease is kept afterwards, so the same instance
    /// does the job each period while it lives; give it a TTL of a few periods.
    pub async fn run_if_held<F, Fut, T>(&self, job: F) -> Result<Option<T>, sqlx::Error>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = T>,
    {
        if !self.acquire().await? {
            return Ok(None);
        }
        Ok(Some(job().await))
    }
}

//! One SQL pool per service. SQLite file `<data_dir>/<service>.db` by default; with
//! `DATABASE_URL`, PostgreSQL with the service's own schema (`<schema_prefix><service>`), so
//! services never share tables. Migrations are portable SQL (TEXT, BIGINT, DOUBLE PRECISION,
//! `$n` placeholders) run at start.
//!
//! On PostgreSQL the migrations run on their own connection with a `lock_timeout`: during a
//! rolling deploy the old pods keep serving, and a migration that waits for a busy table's lock
//! must give up (the pod restarts and tries again) rather than queue every query behind it. So
//! that only a table's lock, not another replica's migration, can time out, the replicas take
//! turns first on an advisory lock of their own, without a timeout. The rules a migration must
//! follow (expand, then contract) are in CONTRIBUTING.md; `tools/check-migrations.sh` (squawk)
//! holds new ones to them.
use crate::config::Settings;
use anyhow::Context;
use secrecy::ExposeSecret;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::Migrator;
use sqlx::{AnyPool, ConnectOptions, Connection, Executor};
use std::str::FromStr;
use std::time::Duration;

mod online;
pub use online::OnlineIndex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
}

impl Db {
    /// Connects the service's store and runs its migrations.
    pub async fn connect(settings: &Settings, service: &str, migrator: &Migrator) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let db = match &settings.database_url {
            Some(url) => {
                let url = url.expose_secret().to_string();
                let schema = format!("{}{}", settings.schema_prefix, service);
                anyhow::ensure!(
                    schema.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "schema name {schema:?} may only hold letters, digits and _"
                );
                let mut conn =
                    sqlx::AnyConnection::connect(&url).await.with_context(|| format!("{service}: connecting to DATABASE_URL"))?;
                conn.execute(format!("CREATE SCHEMA IF NOT EXISTS {schema}").as_str()).await?;
                let set_path = format!("SET search_path TO {schema}");
                conn.execute(set_path.as_str()).await?;
                migrate_postgres(&mut conn, &schema, migrator).await.with_context(|| format!("{service}: running migrations"))?;
                conn.close().await?;
                let opts = AnyConnectOptions::from_str(&url)?.disable_statement_logging();
                let pool = AnyPoolOptions::new()
                    .max_connections(pool_size(settings, 8))
                    .min_connections(1)
                    .acquire_timeout(Duration::from_secs(5))
                    .after_connect(move |conn, _| {
                        let q = set_path.clone();
                        Box::pin(async move {
                            conn.execute(q.as_str()).await?;
                            Ok(())
                        })
                    })
                    .connect_with(opts)
                    .await?;
                Db { pool, backend: Backend::Postgres }
            }
            None => {
                std::fs::create_dir_all(&settings.data_dir)
                    .with_context(|| format!("creating data dir {}", settings.data_dir.display()))?;
                let path = settings.data_dir.join(format!("{service}.db"));
                let url = format!("sqlite://{}?mode=rwc", path.display());
                let opts = AnyConnectOptions::from_str(&url)?.disable_statement_logging();
                let pool = AnyPoolOptions::new()
                    .max_connections(pool_size(settings, 4))
                    .min_connections(1)
                    .acquire_timeout(Duration::from_secs(5))
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            conn.execute("PRAGMA journal_mode=WAL; PRAGMA busy_timeout=5000; PRAGMA foreign_keys=ON;").await?;
                            Ok(())
                        })
                    })
                    .connect_with(opts)
                    .await
                    .with_context(|| format!("{service}: opening {}", path.display()))?;
                Db { pool, backend: Backend::Sqlite }
            }
        };
        if db.backend == Backend::Sqlite {
            migrator.run(&db.pool).await.with_context(|| format!("{service}: running migrations"))?;
        }
        crate::metrics::register_pool(service, &db.pool);
        Ok(db)
    }

    /// A transaction that writes. On SQLite it takes the write lock at `BEGIN IMMEDIATE`, waiting
    /// (busy_timeout) for other writers: a deferred transaction that reads and then writes fails
    /// at once with SQLITE_BUSY if another writer committed in between, which no timeout retries.
    /// On PostgreSQL a plain `BEGIN`.
    pub async fn begin(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    /// Drops the service's schema (PostgreSQL test clean-up); a no-op on SQLite.
    pub async fn drop_schema(&self, settings: &Settings, service: &str) -> anyhow::Result<()> {
        if self.backend == Backend::Postgres {
            let schema = format!("{}{}", settings.schema_prefix, service);
            self.pool.execute(format!("DROP SCHEMA IF EXISTS {schema} CASCADE").as_str()).await?;
        }
        Ok(())
    }
}

/// How long a migration waits for a table's lock before it gives up (PostgreSQL).
const MIGRATION_LOCK_TIMEOUT: &str = "5s";
/// How long one migration statement may run (PostgreSQL).
const MIGRATION_STATEMENT_TIMEOUT: &str = "5min";

/// Runs the service's migrations on `conn` (search_path already set): one replica at a time,
/// each statement bounded by [`MIGRATION_LOCK_TIMEOUT`] and [`MIGRATION_STATEMENT_TIMEOUT`].
async fn migrate_postgres(conn: &mut sqlx::AnyConnection, schema: &str, migrator: &Migrator) -> anyhow::Result<()> {
    let key = format!("portal-migrate:{schema}");
    take_turn(conn, &key).await?;
    conn.execute(
        format!("SET lock_timeout = '{MIGRATION_LOCK_TIMEOUT}'; SET statement_timeout = '{MIGRATION_STATEMENT_TIMEOUT}'").as_str(),
    )
    .await?;
    // run_direct: what `run` does on a connection, and keeps this future Send (sqlx's own
    // workaround for `run(&mut conn)`'s "Acquire is not general enough").
    let ran = migrator.run_direct(&mut *conn).await;
    conn.execute("RESET lock_timeout; RESET statement_timeout").await?;
    end_turn(conn, &key).await?;
    Ok(ran?)
}

/// Waits, without a timeout, for the turn named `key` among the replicas doing the same work:
/// PostgreSQL's session advisory lock, held until [`end_turn`] (or the connection closes).
async fn take_turn(conn: &mut sqlx::AnyConnection, key: &str) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_advisory_lock(hashtext($1))").bind(key).execute(conn).await.map(drop)
}

/// Gives back the turn taken by [`take_turn`] on the same connection.
async fn end_turn(conn: &mut sqlx::AnyConnection, key: &str) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_advisory_unlock(hashtext($1))").bind(key).execute(conn).await.map(drop)
}

/// The pool's size: [`Settings::db_pool_size`], or the backend's default when it is 0.
fn pool_size(settings: &Settings, default: u32) -> u32 {
    if settings.db_pool_size == 0 {
        default
    } else {
        settings.db_pool_size
    }
}

/// Whether a storage error is a unique-index violation: a race lost to another writer, on
/// either backend.
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error().is_some_and(|d| d.is_unique_violation())
}

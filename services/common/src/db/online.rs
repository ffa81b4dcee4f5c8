//! Indexes built online: without blocking the table's writes, for rolling deploys.
//!
//! A plain `CREATE INDEX` in a migration holds off every write to the table until it is built:
//! minutes on a ledger of millions of rows, while the old pods are still serving. So a migration
//! creates an index only on a table it creates itself (`tools/check-migrations.sh` holds new
//! migrations to that), and an index on a table that already has rows is declared here instead:
//! built after start, in the background, while the service serves (queries that want it are
//! slower until it is ready). On PostgreSQL it is `CREATE INDEX CONCURRENTLY`, one replica at
//! a time; one left invalid by an interrupted build is dropped and built again. On SQLite (one
//! process, small files) a plain `CREATE INDEX IF NOT EXISTS`.
//!
//! An index that is no longer used is retired the same way (`DROP INDEX CONCURRENTLY`) in a
//! release after the one that stopped using it: expand, then contract.
use super::{Backend, Db};
use sqlx::{Executor, Row};

/// An index declared by a service: `CREATE INDEX <name> ON <table> <columns>`, where `columns`
/// is the rest of the statement, e.g. `(profile_id, seq) WHERE remaining > 0`.
#[derive(Debug, Clone, Copy)]
pub struct OnlineIndex {
    pub name: &'static str,
    pub table: &'static str,
    pub columns: &'static str,
}

impl Db {
    /// Builds the indexes that are missing (or invalid) and drops the retired ones, one replica
    /// at a time. Meant to run in a task of its own after start; returns when all are done.
    pub async fn build_online_indexes(&self, indexes: &[OnlineIndex], retired: &[&str]) -> anyhow::Result<()> {
        if self.backend == Backend::Sqlite {
            for ix in indexes {
                let sql = format!("CREATE INDEX IF NOT EXISTS {} ON {} {}", ix.name, ix.table, ix.columns);
                self.pool.execute(sql.as_str()).await?;
            }
            for name in retired {
                self.pool.execute(format!("DROP INDEX IF EXISTS {name}").as_str()).await?;
            }
            return Ok(());
        }
        let mut conn = self.pool.acquire().await?;
        let schema: String = sqlx::query("SELECT current_schema()::text AS s").fetch_one(&mut *conn).await?.get("s");
        let key = format!("portal-online-index:{schema}");
        super::take_turn(&mut conn, &key).await?;
        let built = async {
            for ix in indexes {
                let valid: Option<bool> = sqlx::query(
                    "SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
                     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = $1 AND n.nspname = $2",
                )
                .bind(ix.name)
                .bind(&schema)
                .fetch_optional(&mut *conn)
                .await?
                .map(|r| r.get("valid"));
                match valid {
                    Some(true) => continue,
                    Some(false) => {
                        tracing::warn!(index = ix.name, "an earlier build of this index was interrupted: building it again");
                        conn.execute(format!("DROP INDEX CONCURRENTLY IF EXISTS {}", ix.name).as_str()).await?;
                    }
                    None => {}
                }
                let started = std::time::Instant::now();
                conn.execute(format!("CREATE INDEX CONCURRENTLY {} ON {} {}", ix.name, ix.table, ix.columns).as_str()).await?;
                tracing::info!(index = ix.name, ms = started.elapsed().as_millis() as u64, "online index built");
            }
            for name in retired {
                conn.execute(format!("DROP INDEX CONCURRENTLY IF EXISTS {name}").as_str()).await?;
            }
            anyhow::Ok(())
        }
        .await;
        super::end_turn(&mut conn, &key).await?;
        built
    }
}

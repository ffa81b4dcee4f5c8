//! Migrations safe for a rolling deploy (portal_common::db): on PostgreSQL, replicas starting
//! together take turns, and a migration that waits for a busy table's lock gives up after the
//! lock timeout instead of queueing every query behind it; indexes on tables with rows are built
//! online, without holding writes off. The pool's size comes from
//! `db_pool_size`, on both backends (the connection budget deploy/check.sh adds up).
use portal_common::config::Settings;
use portal_common::db::{Backend, Db, OnlineIndex};
use secrecy::SecretString;
use sqlx::migrate::Migrator;
use sqlx::{Connection, Executor, Row};
use std::time::{Duration, Instant};

static MIGRATOR: Migrator = sqlx::migrate!("./tests/migrations");

fn settings(dir: &std::path::Path) -> Settings {
    Settings {
        data_dir: dir.to_path_buf(),
        schema_prefix: portal_common::new_id("t") + "_",
        kv_prefix: portal_common::new_id("t_") + ":",
        ..Settings::default()
    }
}

fn postgres(dir: &std::path::Path) -> Option<Settings> {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        portal_common::testing::skip("DATABASE_URL is not set");
        return None;
    };
    Some(Settings { database_url: Some(SecretString::from(url)), ..settings(dir) })
}

#[tokio::test]
async fn the_pool_holds_the_configured_number_of_connections() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings(dir.path());
    let db = Db::connect(&s, "sized", &MIGRATOR).await.unwrap();
    assert_eq!(db.pool.options().get_max_connections(), 4, "SQLite's default");
    s.db_pool_size = 2;
    let db = Db::connect(&s, "sized", &MIGRATOR).await.unwrap();
    assert_eq!(db.pool.options().get_max_connections(), 2);

    let Some(mut s) = postgres(dir.path()) else { return };
    let db = Db::connect(&s, "sized", &MIGRATOR).await.unwrap();
    assert_eq!(db.pool.options().get_max_connections(), 8, "PostgreSQL's default");
    s.db_pool_size = 3;
    let db = Db::connect(&s, "sized", &MIGRATOR).await.unwrap();
    assert_eq!(db.pool.options().get_max_connections(), 3);
    db.drop_schema(&s, "sized").await.unwrap();
}

#[tokio::test]
async fn replicas_starting_together_take_turns_at_the_migrations() {
    let dir = tempfile::tempdir().unwrap();
    let Some(s) = postgres(dir.path()) else { return };
    let starts = (0..4).map(|_| {
        let s = s.clone();
        tokio::spawn(async move { Db::connect(&s, "together", &MIGRATOR).await.map(|_| ()) })
    });
    for start in starts {
        start.await.unwrap().expect("every replica starts");
    }
    let db = Db::connect(&s, "together", &MIGRATOR).await.unwrap();
    db.drop_schema(&s, "together").await.unwrap();
}

#[tokio::test]
async fn a_migration_waiting_for_a_busy_table_gives_up_instead_of_blocking_it() {
    let dir = tempfile::tempdir().unwrap();
    let Some(s) = postgres(dir.path()) else { return };
    let db = Db::connect(&s, "busy", &MIGRATOR).await.unwrap();

    // The next release's migration alters `things` (it needs the table's exclusive lock).
    let next = tempfile::tempdir().unwrap();
    std::fs::copy("tests/migrations/0001_things.sql", next.path().join("0001_things.sql")).unwrap();
    std::fs::write(next.path().join("0002_extra.sql"), "ALTER TABLE things ADD COLUMN extra BIGINT;\n").unwrap();
    let release = Migrator::new(next.path()).await.unwrap();

    // An old pod is in the middle of a transaction that read the table.
    let url = std::env::var("DATABASE_URL").unwrap();
    let mut old_pod = sqlx::PgConnection::connect(&url).await.unwrap();
    old_pod.execute(format!("SET search_path TO {}busy", s.schema_prefix).as_str()).await.unwrap();
    old_pod.execute("BEGIN; SELECT COUNT(*) FROM things").await.unwrap();

    let started = Instant::now();
    let refused = tokio::time::timeout(Duration::from_secs(30), Db::connect(&s, "busy", &release))
        .await
        .expect("the migration gives up on its own; it does not wait for the old pod");
    let error = format!("{:#}", refused.expect_err("the table's lock is held"));
    assert!(error.contains("lock timeout"), "{error}");
    assert!(started.elapsed() < Duration::from_secs(20), "gave up after {:?}", started.elapsed());

    // Once the old pod's transaction ends, the new pod starts and the column is there.
    old_pod.execute("COMMIT").await.unwrap();
    let db2 = Db::connect(&s, "busy", &release).await.unwrap();
    sqlx::query("SELECT extra FROM things").fetch_all(&db2.pool).await.unwrap();
    db.drop_schema(&s, "busy").await.unwrap();
}

const ONLINE: &[OnlineIndex] = &[OnlineIndex { name: "things_by_n", table: "things", columns: "(n, id) WHERE note IS NULL" }];

async fn index_names(db: &Db) -> Vec<String> {
    let sql = match db.backend {
        Backend::Sqlite => "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'things' AND sql IS NOT NULL ORDER BY name",
        Backend::Postgres => "SELECT indexname::text AS name FROM pg_indexes WHERE tablename = 'things' AND schemaname = current_schema() AND indexname <> 'things_pkey' ORDER BY indexname",
    };
    sqlx::query(sql).fetch_all(&db.pool).await.unwrap().iter().map(|r| r.get::<String, _>("name")).collect()
}

#[tokio::test]
async fn online_indexes_are_built_once_and_retired_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    let mut backends = vec![settings(dir.path())];
    backends.extend(postgres(dir.path()));
    for s in backends {
        let db = Db::connect(&s, "online", &MIGRATOR).await.unwrap();
        db.pool.execute("CREATE INDEX things_old ON things (price)").await.unwrap();
        db.build_online_indexes(ONLINE, &["things_old"]).await.unwrap();
        assert_eq!(index_names(&db).await, ["things_by_n"], "{:?}", db.backend);
        db.build_online_indexes(ONLINE, &["things_old"]).await.expect("a restart finds them built");
        assert_eq!(index_names(&db).await, ["things_by_n"]);
        db.drop_schema(&s, "online").await.unwrap();
    }
}

#[tokio::test]
async fn an_online_index_lets_writes_through_while_it_waits_and_replaces_an_invalid_one() {
    let dir = tempfile::tempdir().unwrap();
    let Some(s) = postgres(dir.path()) else { return };
    let db = Db::connect(&s, "writes", &MIGRATOR).await.unwrap();
    for i in 0..3 {
        sqlx::query("INSERT INTO things (id, n, price) VALUES ($1, 7, 1)").bind(format!("t{i}")).execute(&db.pool).await.unwrap();
    }
    // An interrupted build left an invalid index under the declared name (a unique index that
    // failed on the duplicates).
    let failed = db.pool.execute("CREATE UNIQUE INDEX CONCURRENTLY things_by_n ON things (n)").await;
    assert!(failed.is_err());
    assert_eq!(index_names(&db).await, ["things_by_n"]);

    // An old pod's transaction is open on the table: the build waits for it, and meanwhile
    // other writes go through (a blocking CREATE INDEX would hold them off).
    let url = std::env::var("DATABASE_URL").unwrap();
    let mut old_pod = sqlx::PgConnection::connect(&url).await.unwrap();
    old_pod.execute(format!("SET search_path TO {}writes", s.schema_prefix).as_str()).await.unwrap();
    old_pod.execute("BEGIN; UPDATE things SET price = 2 WHERE id = 't0'").await.unwrap();
    let building = {
        let db = db.clone();
        tokio::spawn(async move { db.build_online_indexes(ONLINE, &[]).await })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!building.is_finished(), "the build waits for the old transaction");
    let mut writer = db.pool.acquire().await.unwrap();
    writer.execute("SET statement_timeout = '2s'").await.unwrap();
    sqlx::query("INSERT INTO things (id, n, price) VALUES ('during', 8, 1)").execute(&mut *writer).await.expect("writes are not blocked");
    writer.execute("RESET statement_timeout").await.unwrap();
    drop(writer);
    old_pod.execute("COMMIT").await.unwrap();
    tokio::time::timeout(Duration::from_secs(30), building).await.unwrap().unwrap().unwrap();
    let valid: bool = sqlx::query(
        "SELECT i.indisvalid AS v FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'things_by_n' \
         AND c.relnamespace = current_schema()::regnamespace",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap()
    .get("v");
    assert!(valid, "the invalid index was built again");
    db.drop_schema(&s, "writes").await.unwrap();
}

//! The storage and KV contracts, run on both columns of the architecture table: SQLite +
//! in-process always, PostgreSQL + Redis when `DATABASE_URL` / `REDIS_URL` are set (CI sets both).
use portal_common::config::Settings;
use portal_common::db::{Backend, Db};
use portal_common::kv::Kv;
use secrecy::SecretString;
use sqlx::Row;
use std::sync::Arc;
use std::time::Duration;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./tests/migrations");

fn unique(prefix: &str) -> String {
    portal_common::new_id(prefix)
}

/// Settings for one backend: `external` uses PostgreSQL and Redis from the environment.
fn settings(external: bool, dir: &std::path::Path) -> Option<Settings> {
    let mut s = Settings { data_dir: dir.to_path_buf(), kv_prefix: unique("t_") + ":", schema_prefix: unique("t") + "_", ..Settings::default() };
    if external {
        let (Ok(db), Ok(redis)) = (std::env::var("DATABASE_URL"), std::env::var("REDIS_URL")) else {
            eprintln!("skipped: DATABASE_URL and REDIS_URL are not both set");
            return None;
        };
        s.database_url = Some(SecretString::from(db));
        s.redis_url = Some(SecretString::from(redis));
    }
    Some(s)
}

async fn sql_round_trip(external: bool) {
    let dir = tempfile::tempdir().unwrap();
    let Some(s) = settings(external, dir.path()) else { return };
    let db = Db::connect(&s, "things", &MIGRATOR).await.unwrap();
    assert_eq!(db.backend, if external { Backend::Postgres } else { Backend::Sqlite });
    // Running migrations again (a restart) is a no-op.
    MIGRATOR.run(&db.pool).await.unwrap();

    sqlx::query("INSERT INTO things (id, n, price, note) VALUES ($1, $2, $3, $4)")
        .bind("a")
        .bind(9_007_199_254_740_993i64)
        .bind(12.5f64)
        .bind(Option::<String>::None)
        .execute(&db.pool)
        .await
        .unwrap();
    let r = sqlx::query("SELECT id, n, price, note FROM things WHERE id = $1").bind("a").fetch_one(&db.pool).await.unwrap();
    assert_eq!(r.get::<i64, _>("n"), 9_007_199_254_740_993, "64-bit integers survive exactly");
    assert_eq!(r.get::<f64, _>("price"), 12.5);
    assert_eq!(r.get::<Option<String>, _>("note"), None);

    let dup = sqlx::query("INSERT INTO things (id, n, price) VALUES ($1, 1, 1)").bind("a").execute(&db.pool).await;
    assert!(dup.is_err(), "primary keys are enforced");
    let n = sqlx::query("INSERT INTO things (id, n, price) VALUES ($1, 1, 1) ON CONFLICT (id) DO NOTHING")
        .bind("a")
        .execute(&db.pool)
        .await
        .unwrap()
        .rows_affected();
    assert_eq!(n, 0);

    // A second service gets its own tables.
    let other = Db::connect(&s, "others", &MIGRATOR).await.unwrap();
    let count: i64 = sqlx::query("SELECT COUNT(*) AS c FROM things").fetch_one(&other.pool).await.unwrap().get("c");
    assert_eq!(count, 0, "each service has its own schema or file");

    db.drop_schema(&s, "things").await.unwrap();
    other.drop_schema(&s, "others").await.unwrap();
}

async fn kv_contract(external: bool) {
    let dir = tempfile::tempdir().unwrap();
    let Some(s) = settings(external, dir.path()) else { return };
    let kv = Kv::connect(&s).await.unwrap().scoped("contract");

    assert_eq!(kv.get("missing").await.unwrap(), None);
    kv.set("k", b"v", None).await.unwrap();
    assert_eq!(kv.get("k").await.unwrap().as_deref(), Some(&b"v"[..]));
    kv.set("k2", b"w", None).await.unwrap();
    assert_eq!(kv.get_many(&["k", "missing", "k2"]).await.unwrap(), vec![Some(b"v".to_vec()), None, Some(b"w".to_vec())]);
    assert!(kv.del("k2").await.unwrap());
    assert!(kv.del("k").await.unwrap());
    assert!(!kv.del("k").await.unwrap());

    // Expiry.
    kv.set("short", b"x", Some(Duration::from_millis(150))).await.unwrap();
    assert!(kv.get("short").await.unwrap().is_some());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(kv.get("short").await.unwrap(), None);

    // set_nx sets once.
    assert!(kv.set_nx("once", b"1", Some(Duration::from_secs(10))).await.unwrap());
    assert!(!kv.set_nx("once", b"2", Some(Duration::from_secs(10))).await.unwrap());
    assert_eq!(kv.get("once").await.unwrap().as_deref(), Some(&b"1"[..]));

    // incr counts within a window that starts on the first increment.
    for want in 1..=5 {
        assert_eq!(kv.incr("count", Duration::from_millis(300)).await.unwrap(), want);
    }
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert_eq!(kv.incr("count", Duration::from_millis(300)).await.unwrap(), 1, "the window expired");

    // take: of 50 concurrent takers exactly one gets the value.
    kv.set("ticket", b"t", Some(Duration::from_secs(10))).await.unwrap();
    let kv = Arc::new(kv);
    let takers: Vec<_> = (0..50).map(|_| {
        let kv = kv.clone();
        tokio::spawn(async move { kv.take("ticket").await.unwrap() })
    }).collect();
    let mut got = 0;
    for t in takers {
        if t.await.unwrap().is_some() {
            got += 1;
        }
    }
    assert_eq!(got, 1);

    // Prefixes keep callers apart.
    let a = Kv::connect(&s).await.unwrap().scoped("a");
    let b = Kv::connect(&s).await.unwrap().scoped("b");
    a.set("same", b"A", Some(Duration::from_secs(10))).await.unwrap();
    assert_eq!(b.get("same").await.unwrap(), None);
}

#[tokio::test]
async fn sql_on_sqlite() {
    sql_round_trip(false).await;
}

#[tokio::test]
async fn sql_on_postgres() {
    sql_round_trip(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kv_in_process() {
    kv_contract(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kv_on_redis() {
    kv_contract(true).await;
}

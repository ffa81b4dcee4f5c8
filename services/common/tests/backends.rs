//! The storage and KV contracts, run on both columns of the architecture table: SQLite +
//! in-process always, PostgreSQL + Redis when `DATABASE_URL` / `REDIS_URL` are set (CI sets both).
use portal_common::config::Settings;
use portal_common::db::{Backend, Db};
use portal_common::kv::Kv;
use portal_common::testing::PrivateRedis;
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
    let mut s =
        Settings { data_dir: dir.to_path_buf(), kv_prefix: unique("t_") + ":", schema_prefix: unique("t") + "_", ..Settings::default() };
    if external {
        let (Ok(db), Ok(redis)) = (std::env::var("DATABASE_URL"), std::env::var("REDIS_URL")) else {
            portal_common::testing::skip("DATABASE_URL and REDIS_URL are not both set");
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
    let takers: Vec<_> = (0..50)
        .map(|_| {
            let kv = kv.clone();
            tokio::spawn(async move { kv.take("ticket").await.unwrap() })
        })
        .collect();
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

/// Redis going away makes each call fail quickly with `KvError` (never a hang); when it comes
/// back the store reconnects by itself, before any caller asks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kv_on_a_redis_that_goes_away_fails_fast_and_reconnects_by_itself() {
    let Some(mut redis) = PrivateRedis::start() else { return };
    let dir = tempfile::tempdir().unwrap();
    let s = Settings {
        data_dir: dir.path().to_path_buf(),
        kv_prefix: unique("t_") + ":",
        redis_url: Some(SecretString::from(redis.url())),
        ..Settings::default()
    };
    let kv = Kv::connect(&s).await.unwrap();
    kv.set("k", b"v", None).await.unwrap();

    redis.down();
    for _ in 0..5 {
        let started = std::time::Instant::now();
        let (got, took) = (kv.get("k").await, started.elapsed());
        assert!(got.is_err(), "no answer from a stopped Redis");
        assert!(took <= portal_common::kv::OP_TIMEOUT + Duration::from_millis(200), "no hang: {took:?}");
        let started = std::time::Instant::now();
        assert!(kv.incr("n", Duration::from_secs(60)).await.is_err(), "a rate limit cannot count, so it refuses");
        assert!(started.elapsed() <= portal_common::kv::OP_TIMEOUT + Duration::from_millis(200));
    }
    let status = tonic::Status::from(kv.get("k").await.unwrap_err());
    assert_eq!(status.code(), tonic::Code::Unavailable);
    assert_eq!(status.metadata().get("retry-after").unwrap(), "5");

    // Back, empty (no persistence): nobody calls for a second, then the first call succeeds.
    redis.up();
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let started = std::time::Instant::now();
    assert_eq!(kv.get("k").await.expect("reconnected in the background"), None);
    assert!(started.elapsed() < Duration::from_millis(200), "{:?}", started.elapsed());
    kv.set("k", b"again", None).await.unwrap();
    assert_eq!(kv.get("k").await.unwrap().as_deref(), Some(&b"again"[..]));
}

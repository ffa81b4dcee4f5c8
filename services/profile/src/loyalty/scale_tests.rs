//! Costs flat in a member's history, on both backends (PostgreSQL when `DATABASE_URL` is set).
//! A member with 10 ledger entries and one with 100,000: reading the balance takes the same
//! statements (counted on a pool that counts what it hands out) and, on PostgreSQL, reads the same
//! rows (`EXPLAIN ANALYZE`); every hot read's plan searches an index (PostgreSQL with sequential
//! scans off, SQLite's `EXPLAIN QUERY PLAN`), pages by key match pages by number, and the expiry
//! works through more due lots than one batch holds.
use super::ledger;
use super::tests::{test_db, TestDb};
use super::DAY;
use crate::store;
use portal_common::db::{Backend, Db};
use sqlx::any::AnyPoolOptions;
use sqlx::{Executor, Row};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const NOW: i64 = 1_800_000_000;
const HEAVY: i64 = 100_000;

/// Gives the member `n` credits of 10 points (lots still open, expiring after NOW, one a second)
/// and the checkpoint they make, in two statements: what the ledger's writes would have left.
async fn fill(db: &Db, pid: &str, n: i64) {
    sqlx::query(
        "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $2)
         INSERT INTO loyalty_ledger (id, profile_id, kind, source, reason, reference, points, issued_at, expires_at, remaining, seq, created_at_ms)
         SELECT $1 || ':' || CAST(i AS TEXT), $1, 'earn', 'purchase', 'Store', $1 || ':' || CAST(i AS TEXT), 10,
                $3 + i, $4 + i, 10, i, 0 FROM k",
    )
    .bind(pid)
    .bind(n)
    .bind(NOW - n - 10)
    .bind(NOW + 365 * DAY)
    .execute(&db.pool)
    .await
    .unwrap();
    sqlx::query("INSERT INTO loyalty_accounts (profile_id, updated_at_ms, balance, entries, last_seq) VALUES ($1, 0, $2, $3, $3)")
        .bind(pid)
        .bind(n * 10)
        .bind(n)
        .execute(&db.pool)
        .await
        .unwrap();
}

/// A second pool on the same store, one connection, counting each statement it runs outside a
/// transaction (every acquire of its idle connection: a pool read is one acquire).
async fn counting(t: &TestDb) -> (Db, Arc<AtomicUsize>) {
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    let opts = AnyPoolOptions::new().max_connections(1).min_connections(1).before_acquire(move |_, _| {
        seen.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Ok(true) })
    });
    let (url, search_path) = match t.db.backend {
        Backend::Postgres => {
            (std::env::var("DATABASE_URL").unwrap(), Some(format!("SET search_path TO {}profile", t.settings.schema_prefix)))
        }
        Backend::Sqlite => (format!("sqlite://{}", t.settings.data_dir.join("profile.db").display()), None),
    };
    let opts = opts.after_connect(move |conn, _| {
        let q = search_path.clone();
        Box::pin(async move {
            if let Some(q) = q {
                conn.execute(q.as_str()).await?;
            }
            Ok(())
        })
    });
    let pool = opts.connect_with(sqlx::any::AnyConnectOptions::from_str(&url).unwrap()).await.unwrap();
    sqlx::query("SELECT 1").execute(&pool).await.unwrap();
    (Db { pool, backend: t.db.backend }, n)
}

/// How many statements `read` ran on the counting pool.
async fn statements<F: std::future::Future>(n: &AtomicUsize, read: F) -> (usize, F::Output) {
    let before = n.load(Ordering::SeqCst);
    let out = read.await;
    (n.load(Ordering::SeqCst) - before, out)
}

/// A value bound to a statement.
#[derive(Clone, Debug)]
enum Arg {
    I(i64),
    S(String),
}

fn bind<'q>(
    mut q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    args: &[Arg],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    for a in args {
        q = match a {
            Arg::I(i) => q.bind(*i),
            Arg::S(s) => q.bind(s.clone()),
        };
    }
    q
}

/// The hot reads for `pid`: the balance (expiry probe and checkpoint), the points page (its
/// total, the first page, a page by key), what expires next, a debit's first batch of lots, the
/// due lots, the orders page (total, first page), the rewards, and the expiry job's batch.
fn hot_reads(pid: &str) -> Vec<(&'static str, String, Vec<Arg>)> {
    let p = || Arg::S(pid.to_string());
    vec![
        ("has due", store::ledger::HAS_DUE.into(), vec![p(), Arg::I(NOW)]),
        ("balance", store::ledger::BALANCE.into(), vec![p()]),
        ("points total", store::ledger::ENTRIES_TOTAL.into(), vec![p()]),
        ("points page 1", store::ledger::entries_sql(true, false), vec![p(), Arg::I(20), Arg::I(0)]),
        ("points page by key", store::ledger::entries_sql(true, true), vec![p(), Arg::I(20), Arg::I(NOW - 5_000), Arg::I(HEAVY - 5_000)]),
        (
            "points oldest by key",
            store::ledger::entries_sql(false, true),
            vec![p(), Arg::I(20), Arg::I(NOW - 5_000), Arg::I(HEAVY - 5_000)],
        ),
        ("expiring", store::ledger::EXPIRING.into(), vec![p(), Arg::I(NOW), Arg::I(1000)]),
        ("open lots", store::ledger::OPEN_LOTS.into(), vec![p(), Arg::I(NOW), Arg::I(i64::MIN), Arg::I(i64::MIN), Arg::I(100)]),
        ("due lots", store::ledger::DUE_LOTS.into(), vec![p(), Arg::I(NOW), Arg::I(500)]),
        ("orders total", store::transactions::TOTAL.into(), vec![p()]),
        ("orders page 1", store::transactions::page_sql(false), vec![p(), Arg::I(20), Arg::I(0)]),
        ("rewards", store::rewards::list_sql(), vec![p(), Arg::I(NOW)]),
        ("members with due", store::ledger::MEMBERS_WITH_DUE.into(), vec![Arg::I(NOW), Arg::I(500)]),
        ("unfolded accounts", store::ledger::UNFOLDED.into(), vec![Arg::S(String::new()), Arg::I(500)]),
    ]
}

/// The plan of each hot read searches an index: on SQLite no full SCAN of a table and no sort
/// of its rows; on PostgreSQL no Seq Scan even when the planner may choose (sequential scans
/// priced out, so only a missing index leaves one), and no Sort node.
async fn plans_use_indexes(db: &Db, pid: &str) {
    let mut tx = db.pool.begin().await.unwrap();
    if db.backend == Backend::Postgres {
        for setting in PLANNER_AS_AT_SCALE {
            sqlx::query(&format!("SET LOCAL {setting} = off")).execute(&mut *tx).await.unwrap();
        }
    }
    for (name, sql, args) in hot_reads(pid) {
        let lines: Vec<String> = match db.backend {
            Backend::Sqlite => bind(sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}")), &args)
                .fetch_all(&mut *tx)
                .await
                .unwrap()
                .iter()
                .map(|r| r.get::<String, _>("detail"))
                .collect(),
            Backend::Postgres => bind(sqlx::query(&format!("EXPLAIN {sql}")), &args)
                .fetch_all(&mut *tx)
                .await
                .unwrap()
                .iter()
                .map(|r| r.get::<String, _>(0))
                .collect(),
        };
        let plan = lines.join("\n");
        let bad = match db.backend {
            Backend::Sqlite => lines.iter().any(|l| l.starts_with("SCAN ") || l.contains("TEMP B-TREE")),
            Backend::Postgres => {
                plan.contains("Seq Scan") || plan.contains("Sort  ") || plan.contains("Sort (") || plan.contains("-> Sort")
            }
        };
        assert!(!bad, "{name} does not read by index:\n{plan}");
        assert!(plan.contains("INDEX") || plan.contains("Index"), "{name} names no index:\n{plan}");
    }
}

/// The rows PostgreSQL's scans read when running `sql` (`EXPLAIN ANALYZE`): what they answered
/// and what their filters dropped.
/// PostgreSQL's planner, told to prefer what it would choose on large tables: an index read in
/// the index's order (a sequential scan, a bitmap scan or a sort only where no index serves).
const PLANNER_AS_AT_SCALE: [&str; 4] = ["enable_seqscan", "enable_bitmapscan", "enable_sort", "enable_incremental_sort"];

async fn explain(db: &Db, sql: &str, args: &[Arg]) -> String {
    let mut conn = db.pool.acquire().await.unwrap();
    for setting in PLANNER_AS_AT_SCALE {
        sqlx::query(&format!("SET {setting} = off")).execute(&mut *conn).await.unwrap();
    }
    let plan = bind(sqlx::query(&format!("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) {sql}")), args)
        .fetch_all(&mut *conn)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<String, _>(0))
        .collect::<Vec<_>>()
        .join("\n");
    for setting in PLANNER_AS_AT_SCALE {
        sqlx::query(&format!("RESET {setting}")).execute(&mut *conn).await.unwrap();
    }
    plan
}

async fn rows_read(db: &Db, sql: &str, args: &[Arg]) -> i64 {
    // The plan production gets: its tables are large, so the planner takes the indexes in their
    // order. In the test's small tables a sequential or bitmap scan and a sort can look cheaper,
    // and their row count would measure the table, not the read; so they are priced out here.
    let mut conn = db.pool.acquire().await.unwrap();
    for setting in PLANNER_AS_AT_SCALE {
        sqlx::query(&format!("SET {setting} = off")).execute(&mut *conn).await.unwrap();
    }
    let lines: Vec<String> = bind(sqlx::query(&format!("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) {sql}")), args)
        .fetch_all(&mut *conn)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<String, _>(0))
        .collect();
    for setting in PLANNER_AS_AT_SCALE {
        sqlx::query(&format!("RESET {setting}")).execute(&mut *conn).await.unwrap();
    }
    let number = |l: &str, after: &str| -> Option<i64> {
        let i = l.find(after)? + after.len();
        l[i..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
    };
    // Rows come out of the scans (a Limit or an Aggregate above them passes them on): the scans'
    // rows, and those their filters dropped after reading them.
    let (mut total, mut in_scan) = (0, false);
    for l in &lines {
        if l.contains("(actual rows=") {
            in_scan = l.contains("Scan") && !l.contains("Bitmap Index Scan");
            if let (true, Some(rows), Some(loops)) = (in_scan, number(l, "(actual rows="), number(l, " loops=")) {
                total += rows * loops;
            }
        } else if in_scan {
            total += number(l, "Rows Removed by Filter: ").unwrap_or(0);
            total += number(l, "Rows Removed by Index Recheck: ").unwrap_or(0);
        }
    }
    total
}

async fn flat(external: bool) {
    let Some(t) = test_db(external).await else { return };
    let (light, heavy) = (t.member().await, t.member().await);
    fill(&t.db, &light, 10).await;
    fill(&t.db, &heavy, HEAVY).await;
    // Others beside them, so the planner's statistics say what a member is: a few rows among many
    // members' (with two members in the table, a member is half of it and a scan looks cheap).
    for _ in 0..200 {
        let other = t.member().await;
        fill(&t.db, &other, 10).await;
    }
    t.db.build_online_indexes(store::ledger::ONLINE_INDEXES, &[]).await.unwrap();
    if t.db.backend == Backend::Postgres {
        sqlx::query("ANALYZE").execute(&t.db.pool).await.unwrap();
    }
    assert_eq!(ledger::audit(&t.db, &light).await.unwrap(), 100);
    assert_eq!(ledger::audit(&t.db, &heavy).await.unwrap(), HEAVY * 10);

    // The balance read: the same statements for 10 entries as for 100,000.
    let (db, n) = counting(&t).await;
    let (light_reads, b) = statements(&n, ledger::balance_now(&db, &light, NOW)).await;
    assert_eq!(b.unwrap(), 100);
    let (heavy_reads, b) = statements(&n, ledger::balance_now(&db, &heavy, NOW)).await;
    assert_eq!(b.unwrap(), HEAVY * 10);
    assert_eq!((light_reads, heavy_reads), (2, 2), "the expiry probe and the checkpoint, whatever the history");
    let (pages, page) = statements(&n, ledger::entries(&db, &heavy, 1, 20, true, None)).await;
    assert_eq!((pages, page.unwrap().1), (2, HEAVY as u64), "the points page: its total and its rows");

    // The rows they read (PostgreSQL says, running them): the balance's the same for both
    // members, every other hot read at most its page or batch.
    if t.db.backend == Backend::Postgres {
        for ((name, sql, light_args), (_, _, heavy_args)) in hot_reads(&light).into_iter().zip(hot_reads(&heavy)) {
            let (l, h) = (rows_read(&t.db, &sql, &light_args).await, rows_read(&t.db, &sql, &heavy_args).await);
            if matches!(name, "has due" | "balance" | "points total") {
                assert_eq!(l, h, "{name} reads as many rows for 10 entries as for {HEAVY}");
                assert!(h <= 2, "{name} reads {h} rows: the account and the last of its entries, whatever the history");
            }
            let bound = match name {
                "expiring" => 1000,
                "due lots" | "members with due" | "rewards" | "unfolded accounts" => 500,
                "open lots" => 100,
                _ => 20,
            };
            assert!(
                h <= bound,
                "{name} read {h} rows for a member with {HEAVY} entries (at most {bound})\n{}",
                explain(&t.db, &sql, &heavy_args).await
            );
        }
    }
    plans_use_indexes(&t.db, &heavy).await;

    // Pages by key are the pages by number, without the offset.
    let (first, _) = ledger::entries(&t.db, &heavy, 1, 50, true, None).await.unwrap();
    let last = first.last().unwrap();
    let (by_key, _) = ledger::entries(&t.db, &heavy, 2, 50, true, Some((last.issued_at, last.seq))).await.unwrap();
    let (by_number, _) = ledger::entries(&t.db, &heavy, 2, 50, true, None).await.unwrap();
    assert_eq!(by_key.iter().map(|e| &e.id).collect::<Vec<_>>(), by_number.iter().map(|e| &e.id).collect::<Vec<_>>());
    assert_eq!(ledger::all_entries(&t.db, &light, 3).await.unwrap().len(), 10, "the export reads by key, a batch at a time");

    // A redemption-sized debit on the heavy member reads a batch of lots, not the history.
    let mut tx = t.db.begin().await.unwrap();
    let d = ledger::Debit { source: ledger::Source::Redemption, reason: "Voucher", reference: "scale:redeem", points: 2_505, at: NOW };
    ledger::debit(&mut tx, &heavy, &d).await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(ledger::audit(&t.db, &heavy).await.unwrap(), HEAVY * 10 - 2_505);
    t.drop().await;
}

#[tokio::test]
async fn the_balance_read_is_flat_sqlite() {
    flat(false).await;
}

#[tokio::test]
async fn the_balance_read_is_flat_postgres() {
    flat(true).await;
}

/// More due lots than one batch, over several members: all expire, in batches, once.
async fn expiry_in_batches(external: bool) {
    let Some(t) = test_db(external).await else { return };
    let (big, small) = (t.member().await, t.member().await);
    fill(&t.db, &big, 1_234).await;
    fill(&t.db, &small, 3).await;
    t.db.build_online_indexes(store::ledger::ONLINE_INDEXES, &[]).await.unwrap();
    let later = NOW + 365 * DAY + 2_000;
    assert_eq!(ledger::expire_all(&t.db, later).await.unwrap(), (1_237, 12_370));
    assert_eq!(ledger::expire_all(&t.db, later).await.unwrap(), (0, 0), "a second run finds nothing");
    for pid in [&big, &small] {
        assert_eq!(ledger::audit(&t.db, pid).await.unwrap(), 0);
    }
    assert!(store::ledger::drifted(&t.db, 10).await.unwrap().is_empty(), "every checkpoint is its ledger's sum");
    t.drop().await;
}

#[tokio::test]
async fn expiry_works_in_batches_sqlite() {
    expiry_in_batches(false).await;
}

#[tokio::test]
async fn expiry_works_in_batches_postgres() {
    expiry_in_batches(true).await;
}

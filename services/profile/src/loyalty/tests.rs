//! The ledger against a model, on both storage backends: SQLite always, PostgreSQL when
//! `DATABASE_URL` is set (CI sets it). Random sequences of earn, spend, adjust, time passing and
//! expiry runs are applied to the real tables and to a plain model of lots; after every step the
//! balance is the ledger's sum, matches the model, is never negative, and the lots add up.
use super::ledger::{self, Credit, Debit, Source};
use super::DAY;
use crate::error::ProfileError;
use portal_common::config::Settings;
use portal_common::db::Db;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use sqlx::Row;

pub(super) struct TestDb {
    pub(super) db: Db,
    pub(super) settings: Settings,
    _dir: tempfile::TempDir,
}

pub(super) async fn test_db(external: bool) -> Option<TestDb> {
    let dir = tempfile::tempdir().unwrap();
    let mut settings =
        Settings { data_dir: dir.path().to_path_buf(), schema_prefix: portal_common::new_id("t") + "_", ..Settings::default() };
    if external {
        let Ok(url) = std::env::var("DATABASE_URL") else {
            portal_common::testing::skip("DATABASE_URL is not set");
            return None;
        };
        settings.database_url = Some(secrecy::SecretString::from(url));
    }
    let db = Db::connect(&settings, "profile", &crate::MIGRATOR).await.unwrap();
    Some(TestDb { db, settings, _dir: dir })
}

impl TestDb {
    pub(super) async fn member(&self) -> String {
        let id = portal_common::new_id("prf_");
        sqlx::query(
            "INSERT INTO profiles (id, tenant, email, first_name, last_name, created_at, updated_at) VALUES ($1, 't', $2, 'A', 'B', 0, 0)",
        )
        .bind(&id)
        .bind(format!("{id}@example.com"))
        .execute(&self.db.pool)
        .await
        .unwrap();
        id
    }
    pub(super) async fn drop(self) {
        self.db.drop_schema(&self.settings, "profile").await.unwrap();
    }
}

#[derive(Debug, Clone)]
enum Op {
    /// Earn points that expire after 30 days, or never.
    Earn {
        points: i64,
        expires: bool,
    },
    Spend(i64),
    AdjustUp(i64),
    AdjustDown(i64),
    /// The same reference as the n-th earn before (modulo), posted again: a retry.
    RetryEarn(usize),
    Advance {
        days: i64,
    },
    /// The expiry job, run twice: the second run must find nothing.
    Expire,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1i64..2_000, any::<bool>()).prop_map(|(points, expires)| Op::Earn { points, expires }),
        4 => (1i64..3_000).prop_map(Op::Spend),
        1 => (1i64..500).prop_map(Op::AdjustUp),
        1 => (1i64..800).prop_map(Op::AdjustDown),
        1 => (0usize..50).prop_map(Op::RetryEarn),
        3 => (0i64..45).prop_map(|days| Op::Advance { days }),
        2 => Just(Op::Expire),
    ]
}

/// A lot as the model sees it.
struct Lot {
    remaining: i64,
    expires: Option<i64>,
}

#[derive(Default)]
struct Model {
    lots: Vec<Lot>,
    expired: i64,
}

impl Model {
    fn expire(&mut self, now: i64) -> i64 {
        let mut n = 0;
        for l in &mut self.lots {
            if l.expires.is_some_and(|e| e <= now) && l.remaining > 0 {
                n += l.remaining;
                l.remaining = 0;
            }
        }
        self.expired += n;
        n
    }
    /// Oldest first, as the ledger must; false when there is not enough, and then nothing
    /// changes (the refused debit's transaction, with the expiry it ran first, is rolled back).
    fn spend(&mut self, now: i64, mut points: i64) -> bool {
        let live: i64 = self.lots.iter().filter(|l| l.expires.is_none_or(|e| e > now)).map(|l| l.remaining).sum();
        if live < points {
            return false;
        }
        self.expire(now);
        for l in &mut self.lots {
            let n = l.remaining.min(points);
            l.remaining -= n;
            points -= n;
        }
        true
    }
    fn balance(&self) -> i64 {
        self.lots.iter().map(|l| l.remaining).sum()
    }
}

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

async fn credit(db: &Db, pid: &str, c: &Credit<'_>) -> Result<ledger::Posted, ProfileError> {
    let mut tx = db.begin().await?;
    let p = ledger::credit(&mut tx, pid, c).await?;
    tx.commit().await?;
    Ok(p)
}

async fn debit(db: &Db, pid: &str, d: &Debit<'_>) -> Result<ledger::Posted, ProfileError> {
    let mut tx = db.begin().await?;
    let p = ledger::debit(&mut tx, pid, d).await?;
    tx.commit().await?;
    Ok(p)
}

async fn run_sequence(db: &Db, pid: &str, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut model = Model::default();
    let mut now = 1_800_000_000i64;
    let mut earned: Vec<(String, i64)> = vec![];
    for (step, op) in ops.iter().enumerate() {
        let reference = format!("{pid}:{step}");
        match op {
            Op::Earn { points, expires } => {
                let expires_at = expires.then_some(now + 30 * DAY);
                let c = Credit { source: Source::Purchase, reason: "Store", reference: &reference, points: *points, at: now, expires_at };
                prop_assert!(credit(db, pid, &c).await.map_err(fail)?.created);
                model.lots.push(Lot { remaining: *points, expires: expires_at });
                earned.push((reference.clone(), *points));
            }
            Op::AdjustUp(points) => {
                let c =
                    Credit { source: Source::Staff, reason: "Goodwill", reference: &reference, points: *points, at: now, expires_at: None };
                credit(db, pid, &c).await.map_err(fail)?;
                model.lots.push(Lot { remaining: *points, expires: None });
            }
            Op::Spend(points) | Op::AdjustDown(points) => {
                let source = if matches!(op, Op::Spend(_)) { Source::Redemption } else { Source::Staff };
                let got = debit(db, pid, &Debit { source, reason: "Reward", reference: &reference, points: *points, at: now }).await;
                let expected = model.spend(now, *points);
                match got {
                    Ok(p) => prop_assert!(expected && p.created, "step {step}: spent {points} that the model could not"),
                    Err(ProfileError::NotEnoughPoints) => {
                        prop_assert!(!expected, "step {step}: refused {points} that the model could spend")
                    }
                    Err(e) => return Err(fail(e)),
                }
            }
            Op::RetryEarn(n) => {
                if let Some((r, points)) = earned.get(n % earned.len().max(1)).cloned() {
                    let c = Credit { source: Source::Purchase, reason: "Store", reference: &r, points, at: now, expires_at: None };
                    prop_assert!(!credit(db, pid, &c).await.map_err(fail)?.created, "a retried reference is posted once");
                }
            }
            Op::Advance { days } => now += days * DAY,
            Op::Expire => {
                let (_, first) = ledger::expire_member(db, pid, now).await.map_err(fail)?;
                prop_assert_eq!(first, model.expire(now), "step {}: points expired", step);
                prop_assert_eq!(ledger::expire_member(db, pid, now).await.map_err(fail)?, (0, 0), "a second run expires nothing");
            }
        }
        let sum = ledger::audit(db, pid).await.map_err(fail)?;
        prop_assert_eq!(sum, model.balance(), "step {}: balance after {:?}", step, op);
        prop_assert!(sum >= 0);
    }
    let expired: i64 =
        sqlx::query("SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS n FROM loyalty_ledger WHERE profile_id = $1 AND kind = 'expire'")
            .bind(pid)
            .fetch_one(&db.pool)
            .await
            .map_err(fail)?
            .get("n");
    prop_assert_eq!(-expired, model.expired);
    Ok(())
}

fn ledger_matches_the_model(external: bool) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let Some(t) = rt.block_on(test_db(external)) else { return };
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(64);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let result = runner.run(&proptest::collection::vec(op(), 1..40), |ops| {
        rt.block_on(async {
            let pid = t.member().await;
            run_sequence(&t.db, &pid, &ops).await
        })
    });
    rt.block_on(t.drop());
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn ledger_invariant_sqlite() {
    ledger_matches_the_model(false);
}

#[test]
fn ledger_invariant_postgres() {
    ledger_matches_the_model(true);
}

/// 20 debits race against points for 3 of them: exactly 3 succeed, the rest are refused, and a
/// credit retried 10 times at once is posted once.
async fn racing(external: bool) {
    let Some(t) = test_db(external).await else { return };
    let pid = t.member().await;
    let now = portal_common::now_unix();
    let lots = [400i64, 500, 300];
    for (i, points) in lots.iter().enumerate() {
        let c = Credit {
            source: Source::Bonus,
            reason: "Bonus",
            reference: &format!("{pid}:lot{i}"),
            points: *points,
            at: now - 10 + i as i64,
            expires_at: None,
        };
        credit(&t.db, &pid, &c).await.unwrap();
    }
    let tasks: Vec<_> = (0..20)
        .map(|i| {
            let (db, pid) = (t.db.clone(), pid.clone());
            tokio::spawn(async move {
                let reference = format!("{pid}:spend{i}");
                debit(&db, &pid, &Debit { source: Source::Redemption, reason: "Reward", reference: &reference, points: 350, at: now }).await
            })
        })
        .collect();
    let mut ok = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) => ok += 1,
            Err(ProfileError::NotEnoughPoints) => {}
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!(ok, 3, "1,200 points pay for three debits of 350");
    assert_eq!(ledger::audit(&t.db, &pid).await.unwrap(), 150);

    let retries: Vec<_> = (0..10)
        .map(|_| {
            let (db, pid) = (t.db.clone(), pid.clone());
            tokio::spawn(async move {
                let reference = format!("{pid}:claim");
                credit(
                    &db,
                    &pid,
                    &Credit { source: Source::Claim, reason: "Store", reference: &reference, points: 60, at: now, expires_at: None },
                )
                .await
                .unwrap()
            })
        })
        .collect();
    let mut created = 0;
    for r in retries {
        created += usize::from(r.await.unwrap().created);
    }
    assert_eq!(created, 1);
    assert_eq!(ledger::audit(&t.db, &pid).await.unwrap(), 210);
    // Oldest first: the 400 lot went first, then 500; 150 remain of the newest (300).
    let left: Vec<i64> = sqlx::query("SELECT remaining FROM loyalty_ledger WHERE profile_id = $1 AND points > 0 ORDER BY issued_at, seq")
        .bind(&pid)
        .fetch_all(&t.db.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get("remaining"))
        .collect();
    assert_eq!(left, [0, 0, 150, 60]);
    t.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn debits_race_sqlite() {
    racing(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn debits_race_postgres() {
    racing(true).await;
}

#[test]
fn expiring_points_are_grouped_by_local_day() {
    let zone = portal_tenant::DEFAULT_ZONE;
    // 2026-12-18 01:00 and 20:00 UTC are the 18th (12:00) and the 19th (07:00) in Melbourne.
    let a = 1_797_555_600; // 2026-12-18T01:00:00Z
    let lots = [(100, a), (50, a + 60), (25, a + 19 * 3600), (5, a + 10 * DAY), (1, a + 20 * DAY)];
    let got = super::by_day(&lots, zone, 3);
    let days: Vec<(&str, i64)> = got.iter().map(|e| (e.date.as_str(), e.points)).collect();
    assert_eq!(days, [("2026-12-18", 150), ("2026-12-19", 25), ("2026-12-28", 5)]);
    assert_eq!(got[0].expires_at, a);
}

/// Holds (a conversion's points set aside) are settled once: confirmed they stay spent,
/// released they go back to the lots they came from, and what expired while held expires at
/// once. The books add up after every step.
async fn holds(external: bool) {
    let Some(t) = test_db(external).await else { return };
    let pid = t.member().await;
    let now = 1_800_000_000;
    let earn = |reference: &'static str, points, expires_at| Credit {
        source: Source::Purchase,
        reason: "",
        reference,
        points,
        at: now - 10 * DAY,
        expires_at,
    };
    credit(&t.db, &pid, &earn("e1", 300, Some(now + DAY))).await.unwrap();
    credit(&t.db, &pid, &earn("e2", 700, None)).await.unwrap();
    let hold = |reference: &'static str, points| Debit { source: Source::Conversion, reason: "QFF", reference, points, at: now };
    let settle = |reference: &'static str, how, at| {
        let db = t.db.clone();
        let pid = pid.clone();
        async move {
            let mut tx = db.begin().await.unwrap();
            let r = ledger::settle(&mut tx, &pid, reference, how, at).await;
            tx.commit().await.unwrap();
            r
        }
    };
    let hold_now = |h: Debit<'static>| {
        let db = t.db.clone();
        let pid = pid.clone();
        async move {
            let mut tx = db.begin().await.unwrap();
            let r = ledger::hold(&mut tx, &pid, &h).await;
            tx.commit().await.unwrap();
            r
        }
    };
    assert!(matches!(hold_now(hold("h0", 1001)).await, Err(ProfileError::NotEnoughPoints)));
    // h1 takes the 300 that expire tomorrow and 100 that never do.
    assert!(hold_now(hold("h1", 400)).await.unwrap().created);
    assert!(!hold_now(hold("h1", 400)).await.unwrap().created, "once per reference");
    assert_eq!(ledger::audit(&t.db, &pid).await.unwrap(), 600);
    hold_now(hold("h2", 200)).await.unwrap();
    assert_eq!(ledger::audit(&t.db, &pid).await.unwrap(), 400);

    use ledger::Settlement::{Confirmed, Released};
    assert!(settle("h2", Confirmed, now).await.unwrap().created);
    assert!(!settle("h2", Confirmed, now).await.unwrap().created, "the same way again changes nothing");
    assert!(matches!(settle("h2", Released, now).await, Err(ProfileError::Refused(_))), "never both ways");
    assert!(matches!(settle("nope", Released, now).await, Err(ProfileError::NotFound)));
    assert_eq!(ledger::audit(&t.db, &pid).await.unwrap(), 400);

    // h1 is released after the 300 it held had expired: they expire at once; 100 come back.
    assert!(settle("h1", Released, now + 2 * DAY).await.unwrap().created);
    assert_eq!(ledger::audit(&t.db, &pid).await.unwrap(), 500);
    assert!(!settle("h1", Released, now + 3 * DAY).await.unwrap().created);
    assert_eq!(ledger::audit(&t.db, &pid).await.unwrap(), 500);
    let kinds: Vec<(String, i64)> = sqlx::query("SELECT kind, points FROM loyalty_ledger WHERE profile_id = $1 ORDER BY seq")
        .bind(&pid)
        .fetch_all(&t.db.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get("kind"), r.get("points")))
        .collect();
    let want: Vec<(String, i64)> =
        [("earn", 300), ("earn", 700), ("hold", -400), ("hold", -200), ("confirm", 0), ("release", 400), ("expire", -300)]
            .iter()
            .map(|(k, p)| (k.to_string(), *p))
            .collect();
    assert_eq!(kinds, want);
    // A later expiry run finds nothing more to expire.
    assert_eq!(ledger::expire_member(&t.db, &pid, now + 4 * DAY).await.unwrap(), (0, 0));
    t.drop().await;
}

#[tokio::test]
async fn holds_sqlite() {
    holds(false).await;
}

#[tokio::test]
async fn holds_postgres() {
    holds(true).await;
}

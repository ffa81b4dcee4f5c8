//! The demo members' loyalty history, seeded idempotently at start in the embedded default. The
//! ledger is posted through the ledger itself (credits, then debits, oldest first), so the demo
//! obeys every rule real data does. Times are relative to now so the demo always looks current.
use super::ledger::{self, Credit, Debit, Source};
use super::DAY;
use crate::demo::{DEMO_ID, OTHER_ID};
use crate::store;
use portal_common::db::Db;

pub async fn seed(db: &Db, tenant: &str) -> anyhow::Result<()> {
    let now = portal_common::now_unix();
    let mut tx = db.begin().await?;

    // The tenant's offer definitions: with portal overrides (published, claimable), overrides
    // that may not apply (not claimable), and none at all.
    let double_meta = r#"{"profileportal": {"title": "Double points this weekend", "banner_desktop": "Activate now and earn 2× points on everything you buy, Friday to Sunday.", "banner_mobile": "2× points, Friday to Sunday"}}"#;
    let birthday_meta = r#"{"profileportal": {"title": "Happy birthday!"}}"#;
    let definitions: [store::demo::Definition; 3] = [
        (301, "Double points weekend", "Earn twice the points on everything you buy this weekend.", Some(double_meta), 1, 1, now + 3 * DAY),
        (302, "Birthday gift", "Enjoy 20% off one full-price item during your birthday month.", Some(birthday_meta), 1, 0, now + 25 * DAY),
        (
            303,
            "Free alterations",
            "Free hemming and alterations on any full-price garment until the end of the season.",
            None,
            1,
            1,
            now + 40 * DAY,
        ),
    ];
    for d in &definitions {
        store::demo::definition(&mut tx, tenant, d).await?;
    }
    // The demo member's offers, one of them already activated.
    for offer in [
        (201i64, 301i64, definitions[0].1, definitions[0].2, definitions[0].6, None),
        (202, 302, definitions[1].1, definitions[1].2, definitions[1].6, None),
        (203, 303, definitions[2].1, definitions[2].2, definitions[2].6, Some(now - 3 * DAY)),
    ] {
        store::demo::offer(&mut tx, DEMO_ID, &offer).await?;
    }

    // Rewards: two gifts to use, a coffee bought with points and used, a gift that expired.
    let rewards: [store::demo::Reward; 4] = [
        (
            101,
            "$10 voucher",
            "Take $10 off your next purchase of $50 or more.",
            "One voucher per purchase. Not exchangeable for cash.",
            0,
            now - 5 * DAY,
            now + 60 * DAY,
            "gift",
            "",
            "K7QM-4TXA-9PWD",
            None,
        ),
        (
            102,
            "Free coffee",
            "A regular coffee at any participating store café.",
            "One coffee per voucher, at participating cafés.",
            0,
            now - DAY,
            now + 14 * DAY,
            "gift",
            "",
            "C8FE-3RNV-6HJB",
            None,
        ),
        (
            103,
            "Free coffee",
            "A regular coffee at any participating store café.",
            "One coffee per voucher, at participating cafés.",
            300,
            now - 60 * DAY,
            now - 30 * DAY,
            "redemption",
            "coffee",
            "W2KD-7MPS-4GYT",
            Some(now - 58 * DAY),
        ),
        (
            104,
            "Free shipping",
            "Free standard shipping on your next online order.",
            "Online orders within Australia.",
            0,
            now - 100 * DAY,
            now - 10 * DAY,
            "gift",
            "",
            "S9HP-2NQX-5TRE",
            None,
        ),
    ];
    for r in &rewards {
        store::demo::reward(&mut tx, DEMO_ID, r).await?;
    }
    tx.commit().await?;

    // The ledger, only for members who have none yet (an older data directory keeps its own).
    let year = 365 * DAY;
    let demo: Vec<Credit> = vec![
        Credit {
            source: Source::Bonus,
            reason: "Welcome bonus",
            reference: "demo:d1:welcome",
            points: 500,
            at: now - 400 * DAY,
            expires_at: Some(now - 35 * DAY),
        },
        Credit {
            source: Source::Bonus,
            reason: "Spring bonus",
            reference: "demo:d1:spring",
            points: 1200,
            at: now - 340 * DAY,
            expires_at: Some(now + 25 * DAY),
        },
        Credit {
            source: Source::Bonus,
            reason: "Birthday bonus",
            reference: "demo:d1:birthday",
            points: 1500,
            at: now - 120 * DAY,
            expires_at: Some(now - 120 * DAY + year),
        },
        Credit {
            source: Source::Purchase,
            reason: "Online",
            reference: "purchase:txn_demo_3",
            points: 70,
            at: now - 31 * DAY,
            expires_at: Some(now - 31 * DAY + year),
        },
        Credit {
            source: Source::Purchase,
            reason: "Chadstone",
            reference: "purchase:txn_demo_2",
            points: 149,
            at: now - 9 * DAY,
            expires_at: Some(now - 9 * DAY + year),
        },
        Credit {
            source: Source::Purchase,
            reason: "Melbourne Central",
            reference: "purchase:txn_demo_1",
            points: 130,
            at: now - 2 * DAY,
            expires_at: Some(now - 2 * DAY + year),
        },
    ];
    let coffee = Debit { source: Source::Redemption, reason: "Free coffee", reference: "redeem:103", points: 300, at: now - 60 * DAY };
    let other = [Credit {
        source: Source::Bonus,
        reason: "Welcome bonus",
        reference: "demo:d2:welcome",
        points: 500,
        at: now - 40 * DAY,
        expires_at: Some(now - 40 * DAY + year),
    }];
    for (pid, credits, debits) in [(DEMO_ID, &demo[..], &[coffee][..]), (OTHER_ID, &other[..], &[][..])] {
        if store::ledger::has_entries(db, pid).await? {
            continue;
        }
        let mut tx = db.begin().await?;
        for c in credits {
            ledger::credit(&mut tx, pid, c).await?;
        }
        for d in debits {
            ledger::debit(&mut tx, pid, d).await?;
        }
        tx.commit().await?;
    }
    Ok(())
}

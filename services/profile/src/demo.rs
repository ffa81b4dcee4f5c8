//! The demo tenant's members and their purchases, seeded idempotently at start in the embedded
//! default (their loyalty history is `loyalty::demo`). Times are relative to now so the demo
//! always looks current.
use crate::store;
use portal_common::db::Db;

pub const DEMO_ID: &str = "prf_0000000000000000000000d1";
pub const OTHER_ID: &str = "prf_0000000000000000000000d2";

const DAY: i64 = 86_400;

pub async fn seed(db: &Db, tenant: &str) -> anyhow::Result<()> {
    let now = portal_common::now_unix();
    let mut tx = db.begin().await?;
    let members: [store::demo::Member; 2] = [
        (
            DEMO_ID,
            "demo@example.com",
            "Dana",
            "Demo",
            "gold",
            "+61400000001",
            "1990-05-14",
            "1 Swanston St",
            "Melbourne",
            "VIC",
            "3000",
            "AU",
        ),
        (OTHER_ID, "other@example.com", "Oliver", "Other", "silver", "", "", "", "", "", "", ""),
    ];
    // Imported preferences, with the import recorded in the consent history.
    let imported = [("email", 1i64), ("sms", 0), ("push", 1), ("post", 0), ("offers", 1), ("news", 0), ("events", 0)];
    for m in &members {
        store::demo::member(&mut tx, tenant, m, &imported, now, (now - 200 * DAY) * 1000).await?;
    }

    // The other member's airline account is linked (the qff service's demo data says the same);
    // the demo member links theirs (1900123456 in the partner sandbox) from the Rewards tab.
    store::demo::identity(&mut tx, OTHER_ID, "qff_number", "1900654321").await?;
    for (handle, value) in [("qff_joined_at", "2026-01-15T00:00:00Z"), ("qff_last_name", "Other")] {
        store::demo::attribute(&mut tx, OTHER_ID, "qantas", handle, value, now).await?;
    }

    // The loyalty cards the brand issued, for members to link (none linked yet): LC1001 to LC1005
    // active, LC1099 blocked (reported lost). Seeded once; a later start leaves their links alone.
    for (number, status) in [
        ("LC1001", "active"),
        ("LC1002", "active"),
        ("LC1003", "active"),
        ("LC1004", "active"),
        ("LC1005", "active"),
        ("LC1099", "blocked"),
    ] {
        store::cards::issue(&mut tx, tenant, number, status, now).await?;
    }

    // The stores' sales: the demo member's three orders (already on the account), and two sales
    // nobody has claimed yet, for the Claim Transaction page.
    let sales: [store::demo::Sale; 5] = [
        (
            "txn_demo_1",
            "rcp_demo_1",
            "melbourne-central",
            "Melbourne Central",
            "MC01-100200",
            now - 2 * DAY,
            130,
            &[
                ("Linen shirt", 1, 8990, "prd_linen_shirt", "Linen shirt", "var_linen_shirt_m"),
                ("Canvas belt", 1, 4000, "prd_canvas_belt", "Canvas belt", ""),
            ],
        ),
        (
            "txn_demo_2",
            "rcp_demo_2",
            "chadstone",
            "Chadstone",
            "CH02-200480",
            now - 9 * DAY,
            149,
            &[("Merino crew knit", 1, 14900, "prd_merino_crew", "Merino crew knit", "var_merino_crew_l")],
        ),
        (
            "txn_demo_3",
            "rcp_demo_3",
            "online",
            "Online",
            "WEB-300917",
            now - 31 * DAY,
            70,
            &[
                ("Chino shorts", 2, 13990, "prd_chino_shorts", "Chino shorts", "var_chino_shorts_32"),
                ("Return: Chino shorts", -1, -6995, "prd_chino_shorts", "Chino shorts", "var_chino_shorts_32"),
            ],
        ),
        (
            "",
            "rcp_unclaimed_1",
            "melbourne-central",
            "Melbourne Central",
            "MC01-100234",
            now - DAY,
            0,
            &[
                ("Cotton tee", 1, 2995, "prd_cotton_tee", "Cotton tee", "var_cotton_tee_m"),
                ("Wool socks", 2, 3000, "prd_wool_socks", "Wool socks", ""),
            ],
        ),
        (
            "",
            "rcp_unclaimed_2",
            "chadstone",
            "Chadstone",
            "CH02-200512",
            now - 3 * DAY,
            0,
            &[("Leather wallet", 1, 12000, "prd_leather_wallet", "Leather wallet", "")],
        ),
    ];
    for sale in &sales {
        store::demo::sale(&mut tx, tenant, DEMO_ID, sale).await?;
    }
    tx.commit().await?;
    Ok(())
}

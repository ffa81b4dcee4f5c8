//! The demo tenant's members and their purchases, seeded idempotently at start in the embedded
//! default (their loyalty history is `loyalty::demo`). Times are relative to now so the demo
//! always looks current.
use portal_common::db::Db;

pub const DEMO_ID: &str = "prf_0000000000000000000000d1";
pub const OTHER_ID: &str = "prf_0000000000000000000000d2";

const DAY: i64 = 86_400;

pub async fn seed(db: &Db, tenant: &str) -> anyhow::Result<()> {
    let now = portal_common::now_unix();
    let mut tx = db.begin().await?;
    // (id, email, first, last, tier, phone, birth date, address line 1, city, state, postcode, country)
    for (id, email, first, last, tier, phone, birth, line1, city, state, postcode, country) in [
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
    ] {
        sqlx::query(
            "INSERT INTO profiles (id, tenant, email, first_name, last_name, region_handle, tier_handle, phone, birth_date,
                                   address_line1, city, state, postcode, country, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, 'au', $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(tenant)
        .bind(email)
        .bind(first)
        .bind(last)
        .bind(tier)
        .bind(phone)
        .bind(birth)
        .bind(line1)
        .bind(city)
        .bind(state)
        .bind(postcode)
        .bind(country)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO identities (profile_id, handle, identifier) VALUES ($1, 'email', $2) ON CONFLICT DO NOTHING")
            .bind(id)
            .bind(email)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO custom_attributes (profile_id, namespace, handle, value, updated_at)
             VALUES ($1, 'locale', 'language', 'en', $2) ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // Imported preferences, with the import recorded in the consent history.
        let imported = [("email", 1i64), ("sms", 0), ("push", 1), ("post", 0), ("offers", 1), ("news", 0), ("events", 0)];
        for (channel, value) in imported {
            let new =
                sqlx::query("INSERT INTO comms (profile_id, channel, value, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
                    .bind(id)
                    .bind(channel)
                    .bind(value)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            if new == 1 {
                sqlx::query(
                    "INSERT INTO consent_history (id, profile_id, channel, value, source, at_ms) VALUES ($1, $2, $3, $4, 'import', $5)",
                )
                .bind(portal_common::new_id("cns_"))
                .bind(id)
                .bind(channel)
                .bind(value)
                .bind((now - 200 * DAY) * 1000)
                .execute(&mut *tx)
                .await?;
            }
        }
    }

    // The other member's airline account is linked (the qff service's demo data says the same);
    // the demo member links theirs (1900123456 in the partner sandbox) from the Rewards tab.
    sqlx::query("INSERT INTO identities (profile_id, handle, identifier) VALUES ($1, 'qff_number', '1900654321') ON CONFLICT DO NOTHING")
        .bind(OTHER_ID)
        .execute(&mut *tx)
        .await?;
    for (handle, value) in [("qff_joined_at", "2026-01-15T00:00:00Z"), ("qff_last_name", "Other")] {
        sqlx::query(
            "INSERT INTO custom_attributes (profile_id, namespace, handle, value, updated_at) VALUES ($1, 'qantas', $2, $3, $4) ON CONFLICT DO NOTHING",
        )
        .bind(OTHER_ID)
        .bind(handle)
        .bind(value)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }

    // The loyalty cards the brand issued, for members to link (none linked yet).
    crate::cards::seed_demo(&mut tx, tenant).await?;

    // The stores' sales: the demo member's three orders (already on the account), and two sales
    // nobody has claimed yet, for the Claim Transaction page.
    // (txn id or "", receipt id, store handle, store name, receipt number, when, points, items)
    type Item<'a> = (&'a str, i64, i64, &'a str, &'a str, &'a str);
    type Sale<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str, i64, i64, &'a [Item<'a>]);
    let sales: [Sale; 5] = [
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
                ("Chino shorts", 2, 6995, "prd_chino_shorts", "Chino shorts", "var_chino_shorts_32"),
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
                ("Wool socks", 2, 1500, "prd_wool_socks", "Wool socks", ""),
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
    for (txn, receipt, handle, store, number, at, points, items) in sales {
        let total: i64 = items.iter().map(|(_, q, c, _, _, _)| if *q < 0 { *c } else { q * c }).sum();
        let owner = if txn.is_empty() { "" } else { DEMO_ID };
        sqlx::query(
            "INSERT INTO store_receipts (id, tenant, store_handle, receipt_number, transacted_at, total_cents, currency, profile_id)
             VALUES ($1, $2, $3, $4, $5, $6, 'AUD', $7) ON CONFLICT (id) DO NOTHING",
        )
        .bind(receipt)
        .bind(tenant)
        .bind(handle)
        .bind(number)
        .bind(at)
        .bind(total)
        .bind(owner)
        .execute(&mut *tx)
        .await?;
        for (pos, (name, qty, cents, pid, pname, variant)) in items.iter().enumerate() {
            sqlx::query(
                "INSERT INTO store_receipt_items (id, receipt_id, position, name, quantity, amount_cents, product_id, product_name, variant_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING",
            )
            .bind(format!("{receipt}_item{pos}"))
            .bind(receipt)
            .bind(pos as i64)
            .bind(*name)
            .bind(*qty)
            .bind(*cents)
            .bind(*pid)
            .bind(*pname)
            .bind(*variant)
            .execute(&mut *tx)
            .await?;
        }
        if txn.is_empty() {
            continue;
        }
        sqlx::query(
            "INSERT INTO transactions (id, profile_id, transacted_at, store, total_cents, currency, receipt_number, store_handle, points)
             VALUES ($1, $2, $3, $4, $5, 'AUD', $6, $7, $8) ON CONFLICT (id) DO NOTHING",
        )
        .bind(txn)
        .bind(DEMO_ID)
        .bind(at)
        .bind(store)
        .bind(total)
        .bind(number)
        .bind(handle)
        .bind(points)
        .execute(&mut *tx)
        .await?;
        crate::claims::copy_receipt_items(&mut tx, txn, receipt).await?;
    }
    tx.commit().await?;
    Ok(())
}

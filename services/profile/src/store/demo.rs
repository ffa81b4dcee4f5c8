//! The demo tenant's seed rows, written idempotently (`ON CONFLICT DO NOTHING`: a later start
//! leaves what members changed alone). The data itself is in `crate::demo` and `loyalty::demo`.
use super::{Result, Tx};

/// (id, email, first, last, tier, phone, birth date, address line 1, city, state, postcode, country)
pub type Member<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str, &'a str, &'a str, &'a str, &'a str, &'a str, &'a str, &'a str);

/// A member with their email identity, their language, and `imported` messaging preferences
/// (channel, 0 or 1), each new one recorded in the consent history as an import at `imported_at_ms`.
pub async fn member(tx: &mut Tx<'_>, tenant: &str, m: &Member<'_>, imported: &[(&str, i64)], now: i64, imported_at_ms: i64) -> Result<()> {
    let &(id, email, first, last, tier, phone, birth, line1, city, state, postcode, country) = m;
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
    .execute(&mut **tx)
    .await?;
    identity(tx, id, "email", email).await?;
    attribute(tx, id, "locale", "language", "en", now).await?;
    for &(channel, value) in imported {
        let new = sqlx::query("INSERT INTO comms (profile_id, channel, value, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
            .bind(id)
            .bind(channel)
            .bind(value)
            .bind(now)
            .execute(&mut **tx)
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
            .bind(imported_at_ms)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

/// An identity of the member, unless they have one of this handle.
pub async fn identity(tx: &mut Tx<'_>, pid: &str, handle: &str, identifier: &str) -> Result<()> {
    sqlx::query("INSERT INTO identities (profile_id, handle, identifier) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(pid)
        .bind(handle)
        .bind(identifier)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A custom attribute of the member, unless it is set.
pub async fn attribute(tx: &mut Tx<'_>, pid: &str, namespace: &str, handle: &str, value: &str, now: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO custom_attributes (profile_id, namespace, handle, value, updated_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
    )
    .bind(pid)
    .bind(namespace)
    .bind(handle)
    .bind(value)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A line of a sale: (name, quantity, amount in cents, product id, product name, variant id). The
/// amount is the line's total, quantity × unit price (negative for a return line, whose quantity
/// is negative), as in `transaction_items.amount_cents`: the lines add up to the sale's total.
pub type Item<'a> = (&'a str, i64, i64, &'a str, &'a str, &'a str);
/// A store's sale: (the member's transaction id, or "" while unclaimed; receipt id, store
/// handle, store name, receipt number, when, points, items).
pub type Sale<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str, i64, i64, &'a [Item<'a>]);

/// A store's sale with its lines, and, when it is on `owner`'s account, their transaction.
pub async fn sale(tx: &mut Tx<'_>, tenant: &str, owner: &str, s: &Sale<'_>) -> Result<()> {
    let &(txn, receipt, handle, store, number, at, points, items) = s;
    let total: i64 = items.iter().map(|&(_, _, line_total, _, _, _)| line_total).sum();
    let owner = if txn.is_empty() { "" } else { owner };
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
    .execute(&mut **tx)
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
        .execute(&mut **tx)
        .await?;
    }
    if txn.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO transactions (id, profile_id, transacted_at, store, total_cents, currency, receipt_number, store_handle, points)
         VALUES ($1, $2, $3, $4, $5, 'AUD', $6, $7, $8) ON CONFLICT (id) DO NOTHING",
    )
    .bind(txn)
    .bind(owner)
    .bind(at)
    .bind(store)
    .bind(total)
    .bind(number)
    .bind(handle)
    .bind(points)
    .execute(&mut **tx)
    .await?;
    super::transactions::copy_receipt_items(tx, txn, receipt).await
}

/// An offer definition: (id, title, description, portal overrides, published, claimable, ends).
pub type Definition<'a> = (i64, &'a str, &'a str, Option<&'a str>, i64, i64, i64);

pub async fn definition(tx: &mut Tx<'_>, tenant: &str, d: &Definition<'_>) -> Result<()> {
    let &(id, name, desc, meta, published, claimable, ends) = d;
    sqlx::query(
        "INSERT INTO benefit_definitions (id, tenant, name, description, meta, is_published, is_claimable, ends_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING",
    )
    .bind(id)
    .bind(tenant)
    .bind(name)
    .bind(desc)
    .bind(meta)
    .bind(published)
    .bind(claimable)
    .bind(ends)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A member's offer: (id, definition id, name, description, ends, activated at).
pub type Offer<'a> = (i64, i64, &'a str, &'a str, i64, Option<i64>);

/// The offer, or (already there) its link to the definition brought up to date.
pub async fn offer(tx: &mut Tx<'_>, pid: &str, o: &Offer<'_>) -> Result<()> {
    let &(id, def, name, desc, ends, activated) = o;
    sqlx::query(
        "INSERT INTO benefits (id, profile_id, name, description, ends_at, definition_id, activated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET definition_id = excluded.definition_id",
    )
    .bind(id)
    .bind(pid)
    .bind(name)
    .bind(desc)
    .bind(ends)
    .bind(def)
    .bind(activated)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A reward: (id, name, description, terms, points, issued, expires, source, catalogue id, code, used).
pub type Reward<'a> = (i64, &'a str, &'a str, &'a str, i64, i64, i64, &'a str, &'a str, &'a str, Option<i64>);

pub async fn reward(tx: &mut Tx<'_>, pid: &str, r: &Reward<'_>) -> Result<()> {
    let &(id, name, desc, terms, points, issued, expires, source, cat, code, used) = r;
    sqlx::query(
        "INSERT INTO rewards (id, profile_id, name, description, terms, points_cost, issued_at, expires_at, source, catalogue_id, code, used_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING",
    )
    .bind(id)
    .bind(pid)
    .bind(name)
    .bind(desc)
    .bind(terms)
    .bind(points)
    .bind(issued)
    .bind(expires)
    .bind(source)
    .bind(cat)
    .bind(code)
    .bind(used)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

//! Member profiles: details, identities, custom attributes, messaging preferences and their
//! consent history, and the staff's and other services' lookups by email, id or identity.
use super::Result;
use crate::error::ProfileError;
use portal_common::db::is_unique_violation;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;
use sqlx::Row;
use std::collections::HashMap;

pub async fn profile(db: &Db, id: &str) -> Result<pb::Profile> {
    let row = sqlx::query(
        "SELECT id, email, first_name, last_name, region_handle, tier_handle, phone, birth_date, member_number,
                address_line1, address_line2, city, state, postcode, country FROM profiles WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(ProfileError::NotFound)?;
    let identities = sqlx::query("SELECT handle, identifier FROM identities WHERE profile_id = $1 ORDER BY handle")
        .bind(id)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| pb::Identity { handle: r.get("handle"), identifier: r.get("identifier") })
        .collect();
    let custom_attributes =
        sqlx::query("SELECT namespace, handle, value FROM custom_attributes WHERE profile_id = $1 ORDER BY namespace, handle")
            .bind(id)
            .fetch_all(&db.pool)
            .await?
            .into_iter()
            .map(|r| pb::CustomAttribute { namespace: r.get("namespace"), handle: r.get("handle"), value: r.get("value") })
            .collect();
    let comms = sqlx::query("SELECT channel, value FROM comms WHERE profile_id = $1")
        .bind(id)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| (r.get::<String, _>("channel"), r.get::<i64, _>("value") != 0))
        .collect();
    Ok(pb::Profile {
        id: row.get("id"),
        email: row.get("email"),
        first_name: row.get("first_name"),
        last_name: row.get("last_name"),
        region_handle: row.get("region_handle"),
        tier_handle: row.get("tier_handle"),
        identities,
        custom_attributes,
        comms,
        phone: row.get("phone"),
        birth_date: row.get("birth_date"),
        address: Some(pb::Address {
            line1: row.get("address_line1"),
            line2: row.get("address_line2"),
            city: row.get("city"),
            state: row.get("state"),
            postcode: row.get("postcode"),
            country: row.get("country"),
        }),
        member_number: row.get::<Option<String>, _>("member_number").unwrap_or_default(),
    })
}

/// A member's own changes, each already validated; `None` leaves a field as it is. The sign-in
/// address is not one of them: it changes only through `change_email`, once confirmed.
#[derive(Default)]
pub struct Changes {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    pub birth_date: Option<String>,
    pub address: Option<pb::Address>,
    /// In request order (field errors name their index); an empty identifier removes one.
    pub identities: Option<Vec<pb::Identity>>,
}

/// Applies `ch` in one transaction: all of it or nothing. Each column is set in the UPDATE
/// itself (not read, changed and written back), so concurrent edits of different fields do not
/// undo each other. An identifier held by another account is refused; the unique indexes decide a
/// race between two members claiming the same one.
pub async fn update(db: &Db, tenant: &str, id: &str, ch: &Changes) -> Result<()> {
    let mut tx = db.begin().await?;
    let a = ch.address.as_ref();
    let updated = sqlx::query(
        "UPDATE profiles SET
            first_name = COALESCE($2, first_name), last_name = COALESCE($3, last_name),
            phone = COALESCE($4, phone), birth_date = COALESCE($5, birth_date),
            address_line1 = COALESCE($6, address_line1), address_line2 = COALESCE($7, address_line2),
            city = COALESCE($8, city), state = COALESCE($9, state), postcode = COALESCE($10, postcode),
            country = COALESCE($11, country), updated_at = $12
         WHERE id = $1",
    )
    .bind(id)
    .bind(ch.first_name.clone())
    .bind(ch.last_name.clone())
    .bind(ch.phone.clone())
    .bind(ch.birth_date.clone())
    .bind(a.map(|a| a.line1.clone()))
    .bind(a.map(|a| a.line2.clone()))
    .bind(a.map(|a| a.city.clone()))
    .bind(a.map(|a| a.state.clone()))
    .bind(a.map(|a| a.postcode.clone()))
    .bind(a.map(|a| a.country.clone()))
    .bind(portal_common::now_unix())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if updated == 0 {
        return Err(ProfileError::NotFound);
    }
    for (i, ident) in ch.identities.iter().flatten().enumerate() {
        let taken_msg = "This number is linked to another account";
        let field = format!("identities.{i}.identifier");
        // A loyalty card is the brand's: its record decides (crate::cards), and every refusal
        // reads the same, naming no other account.
        let card = ident.handle == crate::cards::HANDLE;
        let taken_msg = if card { crate::cards::CANNOT_LINK } else { taken_msg };
        if ident.identifier.is_empty() {
            if card {
                super::cards::unlink(&mut tx, tenant, id).await?;
            }
            sqlx::query("DELETE FROM identities WHERE profile_id = $1 AND handle = $2")
                .bind(id)
                .bind(&ident.handle)
                .execute(&mut *tx)
                .await?;
            continue;
        }
        if card {
            super::cards::link(&mut tx, tenant, id, &ident.identifier, &field).await?;
        } else {
            let taken = sqlx::query("SELECT profile_id FROM identities WHERE handle = $1 AND identifier = $2 AND profile_id <> $3")
                .bind(&ident.handle)
                .bind(&ident.identifier)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            if taken.is_some() {
                return Err(ProfileError::field(&field, taken_msg));
            }
        }
        sqlx::query(
            "INSERT INTO identities (profile_id, handle, identifier) VALUES ($1, $2, $3)
             ON CONFLICT (profile_id, handle) DO UPDATE SET identifier = excluded.identifier",
        )
        .bind(id)
        .bind(&ident.handle)
        .bind(&ident.identifier)
        .execute(&mut *tx)
        .await
        .map_err(|e| if is_unique_violation(&e) { ProfileError::field(&field, taken_msg) } else { e.into() })?;
    }
    tx.commit().await?;
    Ok(())
}

/// Links a partner account the partner has checked, or unlinks it (empty `identifier`): the
/// identity and every attribute of `namespace` change in one transaction. An identifier linked
/// to another profile is refused (the unique index decides, also under concurrent links).
pub async fn set_partner_link(
    db: &Db,
    id: &str,
    handle: &str,
    identifier: &str,
    namespace: &str,
    attributes: &std::collections::BTreeMap<String, String>,
) -> Result<()> {
    const TAKEN: &str = "This Frequent Flyer account is already linked to another member";
    let mut tx = db.begin().await?;
    let exists = sqlx::query("SELECT id FROM profiles WHERE id = $1").bind(id).fetch_optional(&mut *tx).await?;
    if exists.is_none() {
        return Err(ProfileError::NotFound);
    }
    sqlx::query("DELETE FROM identities WHERE profile_id = $1 AND handle = $2").bind(id).bind(handle).execute(&mut *tx).await?;
    sqlx::query("DELETE FROM custom_attributes WHERE profile_id = $1 AND namespace = $2")
        .bind(id)
        .bind(namespace)
        .execute(&mut *tx)
        .await?;
    if !identifier.is_empty() {
        sqlx::query("INSERT INTO identities (profile_id, handle, identifier) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(handle)
            .bind(identifier)
            .execute(&mut *tx)
            .await
            .map_err(|e| if is_unique_violation(&e) { ProfileError::Conflict("qff_number", TAKEN) } else { e.into() })?;
        for (k, v) in attributes {
            sqlx::query("INSERT INTO custom_attributes (profile_id, namespace, handle, value, updated_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(id)
                .bind(namespace)
                .bind(k)
                .bind(v)
                .bind(portal_common::now_unix())
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// Sets one custom attribute, or removes it when `value` is empty.
pub async fn set_custom_attribute(db: &Db, id: &str, namespace: &str, handle: &str, value: &str) -> Result<()> {
    if value.is_empty() {
        sqlx::query("DELETE FROM custom_attributes WHERE profile_id = $1 AND namespace = $2 AND handle = $3")
            .bind(id)
            .bind(namespace)
            .bind(handle)
            .execute(&db.pool)
            .await?;
    } else {
        sqlx::query(
            "INSERT INTO custom_attributes (profile_id, namespace, handle, value, updated_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (profile_id, namespace, handle) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(id)
        .bind(namespace)
        .bind(handle)
        .bind(value)
        .bind(portal_common::now_unix())
        .execute(&db.pool)
        .await?;
    }
    Ok(())
}

/// Sets messaging preferences; each value that differs from the stored one is recorded in the
/// consent history with its source, in the same transaction.
pub async fn update_comms(db: &Db, id: &str, comms: &std::collections::BTreeMap<String, bool>, source: &str) -> Result<()> {
    let mut tx = db.begin().await?;
    let current: HashMap<String, bool> = sqlx::query("SELECT channel, value FROM comms WHERE profile_id = $1")
        .bind(id)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|r| (r.get("channel"), r.get::<i64, _>("value") != 0))
        .collect();
    let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
    for (channel, &value) in comms {
        if current.get(channel) == Some(&value) {
            continue;
        }
        sqlx::query(
            "INSERT INTO comms (profile_id, channel, value, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (profile_id, channel) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(id)
        .bind(channel)
        .bind(i64::from(value))
        .bind(now_ms / 1000)
        .execute(&mut *tx)
        .await?;
        sqlx::query("INSERT INTO consent_history (id, profile_id, channel, value, source, at_ms) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(portal_common::new_id("cns_"))
            .bind(id)
            .bind(channel)
            .bind(i64::from(value))
            .bind(source)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The member's consent history, newest first.
pub async fn consent_history(db: &Db, id: &str, limit: i64) -> Result<Vec<pb::ConsentRecord>> {
    Ok(sqlx::query("SELECT channel, value, source, at_ms FROM consent_history WHERE profile_id = $1 ORDER BY at_ms DESC, channel LIMIT $2")
        .bind(id)
        .bind(limit)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(consent_record)
        .collect())
}

/// A `consent_history` row (channel, value, source, at_ms) as the API gives it.
pub fn consent_record(r: &sqlx::any::AnyRow) -> pb::ConsentRecord {
    pb::ConsentRecord {
        channel: r.get("channel"),
        value: r.get::<i64, _>("value") != 0,
        source: r.get("source"),
        at: r.get::<i64, _>("at_ms") / 1000,
    }
}

pub async fn find_by_email(db: &Db, tenant: &str, email: &str) -> Result<pb::FindByEmailResponse> {
    let row = sqlx::query("SELECT id, first_name, phone FROM profiles WHERE tenant = $1 AND email = $2")
        .bind(tenant)
        .bind(email)
        .fetch_optional(&db.pool)
        .await?;
    Ok(match row {
        Some(r) => pb::FindByEmailResponse { found: true, profile_id: r.get("id"), first_name: r.get("first_name"), phone: r.get("phone") },
        None => pb::FindByEmailResponse::default(),
    })
}

/// A new member profile with its member number, issued in the same transaction; the unique index
/// on (tenant, email) decides a race between two registrations of one address.
pub async fn create(db: &Db, tenant: &str, email: &str, first: &str, last: &str, phone: &str, birth: &str) -> Result<String> {
    let id = portal_common::new_id("prf_");
    let now = portal_common::now_unix();
    let mut tx = db.begin().await?;
    let number = super::member_numbers::next(&mut tx, tenant).await?;
    let inserted = sqlx::query(
        "INSERT INTO profiles (id, tenant, email, first_name, last_name, region_handle, tier_handle, phone, birth_date, created_at, updated_at,
                               member_number)
         VALUES ($1, $2, $3, $4, $5, '', '', $6, $7, $8, $8, $9) ON CONFLICT (tenant, email) DO NOTHING",
    )
    .bind(&id)
    .bind(tenant)
    .bind(email)
    .bind(first)
    .bind(last)
    .bind(phone)
    .bind(birth)
    .bind(now)
    .bind(&number)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Err(ProfileError::EmailTaken);
    }
    sqlx::query("INSERT INTO identities (profile_id, handle, identifier) VALUES ($1, 'email', $2)")
        .bind(&id)
        .bind(email)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(id)
}

fn summary_row(r: sqlx::any::AnyRow) -> pb::ProfileSummary {
    pb::ProfileSummary { id: r.get("id"), email: r.get("email"), first_name: r.get("first_name"), last_name: r.get("last_name") }
}

/// The most a staff search answers: one page.
const SEARCH_PAGE: i64 = 20;

/// `%`, `_` and `\` taken literally in a LIKE pattern (with `ESCAPE '\'`).
fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// Staff search, one page at most: by member id or a linked identity such as a frequent-flyer
/// number (exact), by email or name (any part, in any case; an exact email first), or by any
/// run of the digits of a member number or phone number (a phone number also as dialled in
/// `region`, the tenant's default country). Erased members are never found.
pub async fn search(db: &Db, tenant: &str, region: &str, kind: &str, id: &str) -> Result<Vec<pb::ProfileSummary>> {
    let cols = "p.id, p.email, p.first_name, p.last_name";
    let live = "p.tenant = $1 AND p.erased_at IS NULL";
    // (the query, $2, and $3 when it has one)
    let (sql, arg, third) = match kind {
        "id" => (format!("SELECT {cols} FROM profiles p WHERE {live} AND p.id = $2"), id.to_string(), None),
        "email" => (
            format!(
                "SELECT {cols} FROM profiles p WHERE {live} AND p.email LIKE '%' || $2 || '%' ESCAPE '\\'
                 ORDER BY CASE WHEN p.email = $3 THEN 0 ELSE 1 END, p.email"
            ),
            like_escape(&id.to_lowercase()),
            Some(id.to_lowercase()),
        ),
        "name" => (
            format!(
                "SELECT {cols} FROM profiles p WHERE {live} AND LOWER(p.first_name || ' ' || p.last_name) LIKE '%' || $2 || '%' ESCAPE '\\'
                 ORDER BY p.last_name, p.first_name, p.id"
            ),
            like_escape(&id.to_lowercase()),
            None,
        ),
        "member_number" => {
            let Some(digits) = crate::member_number::digits_of(id) else { return Ok(Vec::new()) };
            (
                format!(
                    "SELECT {cols} FROM profiles p WHERE {live} AND p.member_number LIKE '%' || $2 || '%' ORDER BY p.member_number, p.id"
                ),
                digits,
                None,
            )
        }
        "phone" => {
            let mut runs = crate::phone::search_runs(id, region).into_iter();
            let Some(typed) = runs.next() else { return Ok(Vec::new()) };
            let stored = runs.next().unwrap_or_else(|| typed.clone());
            (
                format!(
                    "SELECT {cols} FROM profiles p WHERE {live} AND (p.phone LIKE '%' || $2 || '%' OR p.phone LIKE '%' || $3 || '%')
                     ORDER BY p.phone, p.id"
                ),
                typed,
                Some(stored),
            )
        }
        _ => (
            format!(
                "SELECT {cols} FROM profiles p JOIN identities i ON i.profile_id = p.id
                 WHERE {live} AND i.handle = $3 AND i.identifier = $2 ORDER BY p.id"
            ),
            id.to_string(),
            Some(kind.to_string()),
        ),
    };
    let sql = format!("{sql} LIMIT {SEARCH_PAGE}");
    let mut q = sqlx::query(&sql).bind(tenant).bind(arg);
    if let Some(third) = third {
        q = q.bind(third);
    }
    Ok(q.fetch_all(&db.pool).await?.into_iter().map(summary_row).collect())
}

pub async fn summary(db: &Db, id: &str) -> Result<pb::ProfileSummary> {
    let r = sqlx::query("SELECT id, email, first_name, last_name FROM profiles WHERE id = $1 AND erased_at IS NULL")
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .ok_or(ProfileError::NotFound)?;
    Ok(summary_row(r))
}

/// Sets a member's sign-in address (and its `email` identity) in one transaction, only while it
/// is still `expect` when one is given. The unique index decides a race for the address.
pub async fn change_email(db: &Db, tenant: &str, id: &str, email: &str, expect: Option<&str>) -> Result<()> {
    let mut tx = db.begin().await?;
    let taken = sqlx::query("SELECT id FROM profiles WHERE tenant = $1 AND email = $2 AND id <> $3")
        .bind(tenant)
        .bind(email)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    if taken.is_some() {
        return Err(ProfileError::EmailTaken);
    }
    let updated =
        sqlx::query("UPDATE profiles SET email = $2, updated_at = $3 WHERE id = $1 AND erased_at IS NULL AND ($4 = '' OR email = $4)")
            .bind(id)
            .bind(email)
            .bind(portal_common::now_unix())
            .bind(expect.unwrap_or_default())
            .execute(&mut *tx)
            .await
            .map_err(|e| if is_unique_violation(&e) { ProfileError::EmailTaken } else { e.into() })?
            .rows_affected();
    if updated == 0 {
        return Err(if expect.is_some() { ProfileError::Refused("The address changed in the meantime") } else { ProfileError::NotFound });
    }
    sqlx::query("UPDATE identities SET identifier = $2 WHERE profile_id = $1 AND handle = 'email'")
        .bind(id)
        .bind(email)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

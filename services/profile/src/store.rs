//! SQL for the profile service's own tables. Portable between SQLite and PostgreSQL.
use crate::error::ProfileError;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;
use sqlx::Row;
use std::collections::HashMap;

type Result<T> = std::result::Result<T, ProfileError>;

pub async fn profile(db: &Db, id: &str) -> Result<pb::Profile> {
    let row = sqlx::query("SELECT id, email, first_name, last_name, region_handle, tier_handle FROM profiles WHERE id = $1")
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
    let custom_attributes = sqlx::query(
        "SELECT namespace, handle, value FROM custom_attributes WHERE profile_id = $1 ORDER BY namespace, handle",
    )
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
    })
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

/// One page of the member's transactions, newest first, each with its items.
pub async fn transactions(db: &Db, pid: &str, page: u32, per_page: u32) -> Result<pb::ListTransactionsResponse> {
    let total: i64 = sqlx::query("SELECT COUNT(*) AS n FROM transactions WHERE profile_id = $1")
        .bind(pid)
        .fetch_one(&db.pool)
        .await?
        .get("n");
    let offset = i64::from(page - 1) * i64::from(per_page);
    let rows = sqlx::query(
        "SELECT id, transacted_at, store, total_cents, currency FROM transactions
         WHERE profile_id = $1 ORDER BY transacted_at DESC, id DESC LIMIT $2 OFFSET $3",
    )
    .bind(pid)
    .bind(i64::from(per_page))
    .bind(offset)
    .fetch_all(&db.pool)
    .await?;
    let mut txs: Vec<pb::Transaction> = rows
        .into_iter()
        .map(|r| pb::Transaction {
            id: r.get("id"),
            transacted_at: r.get("transacted_at"),
            store: r.get("store"),
            total_cents: r.get("total_cents"),
            currency: r.get("currency"),
            items: vec![],
        })
        .collect();
    if !txs.is_empty() {
        let placeholders: Vec<String> = (1..=txs.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT id, transaction_id, name, quantity, amount_cents, product_id, product_name FROM transaction_items
             WHERE transaction_id IN ({}) ORDER BY transaction_id, position",
            placeholders.join(", ")
        );
        let mut q = sqlx::query(&sql);
        for t in &txs {
            q = q.bind(t.id.clone());
        }
        let mut by_tx: HashMap<String, Vec<pb::TransactionItem>> = HashMap::new();
        for r in q.fetch_all(&db.pool).await? {
            by_tx.entry(r.get("transaction_id")).or_default().push(pb::TransactionItem {
                id: r.get("id"),
                name: r.get("name"),
                quantity: r.get("quantity"),
                amount_cents: r.get("amount_cents"),
                product: Some(pb::Product { id: r.get("product_id"), name: r.get("product_name") }),
            });
        }
        for t in &mut txs {
            t.items = by_tx.remove(&t.id).unwrap_or_default();
        }
    }
    Ok(pb::ListTransactionsResponse { transactions: txs, page, per_page, total: total as u64 })
}

pub async fn rewards(db: &Db, pid: &str) -> Result<Vec<pb::Reward>> {
    let now = portal_common::now_unix();
    Ok(sqlx::query(
        "SELECT id, name, description, points_cost, issued_at, expires_at FROM rewards
         WHERE profile_id = $1 AND issued_at <= $2 ORDER BY issued_at DESC, id",
    )
    .bind(pid)
    .bind(now)
    .fetch_all(&db.pool)
    .await?
    .into_iter()
    .map(|r| pb::Reward {
        id: r.get("id"),
        name: r.get("name"),
        description: r.get("description"),
        points_cost: r.get("points_cost"),
        issued_at: r.get("issued_at"),
        expires_at: r.get("expires_at"),
    })
    .collect())
}

pub async fn benefits(db: &Db, pid: &str) -> Result<Vec<pb::Benefit>> {
    Ok(sqlx::query("SELECT id, name, description, ends_at FROM benefits WHERE profile_id = $1 ORDER BY ends_at, id")
        .bind(pid)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| pb::Benefit { id: r.get("id"), name: r.get("name"), description: r.get("description"), ends_at: r.get("ends_at") })
        .collect())
}

pub async fn points(db: &Db, pid: &str) -> Result<Vec<pb::PointsEntry>> {
    Ok(sqlx::query("SELECT id, points, reason, issued_at FROM points WHERE profile_id = $1 ORDER BY issued_at, id")
        .bind(pid)
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| pb::PointsEntry { id: r.get("id"), points: r.get("points"), reason: r.get("reason"), issued_at: r.get("issued_at") })
        .collect())
}

/// The points balance is the sum of the ledger, never a stored number that could drift.
pub async fn points_balance(db: &Db, pid: &str) -> Result<i64> {
    // SUM of BIGINT is NUMERIC on PostgreSQL: cast so both backends answer a BIGINT.
    let row = sqlx::query("SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) AS total FROM points WHERE profile_id = $1")
        .bind(pid)
        .fetch_one(&db.pool)
        .await?;
    Ok(row.try_get("total")?)
}

pub async fn tiers(db: &Db) -> Result<Vec<pb::Tier>> {
    Ok(sqlx::query("SELECT handle, name FROM tiers ORDER BY rank")
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| pb::Tier { handle: r.get("handle"), name: r.get("name") })
        .collect())
}

/// A new member profile; the unique index on (tenant, email) decides a race between two
/// registrations of one address.
pub async fn create(db: &Db, tenant: &str, email: &str, first: &str, last: &str, phone: &str, birth: &str) -> Result<String> {
    let id = portal_common::new_id("prf_");
    let now = portal_common::now_unix();
    let mut tx = db.pool.begin().await?;
    let inserted = sqlx::query(
        "INSERT INTO profiles (id, tenant, email, first_name, last_name, region_handle, tier_handle, phone, birth_date, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, '', '', $6, $7, $8, $8) ON CONFLICT (tenant, email) DO NOTHING",
    )
    .bind(&id)
    .bind(tenant)
    .bind(email)
    .bind(first)
    .bind(last)
    .bind(phone)
    .bind(birth)
    .bind(now)
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

/// Staff search by member id, email or a linked identity such as a frequent-flyer number.
pub async fn search(db: &Db, tenant: &str, kind: &str, id: &str) -> Result<Vec<pb::ProfileSummary>> {
    let cols = "p.id, p.email, p.first_name, p.last_name";
    let rows = match kind {
        "id" => {
            sqlx::query(&format!("SELECT {cols} FROM profiles p WHERE p.tenant = $1 AND p.id = $2"))
                .bind(tenant)
                .bind(id)
                .fetch_all(&db.pool)
                .await?
        }
        "email" => {
            sqlx::query(&format!("SELECT {cols} FROM profiles p WHERE p.tenant = $1 AND p.email = $2"))
                .bind(tenant)
                .bind(id.to_lowercase())
                .fetch_all(&db.pool)
                .await?
        }
        handle => {
            sqlx::query(&format!(
                "SELECT {cols} FROM profiles p JOIN identities i ON i.profile_id = p.id
                 WHERE p.tenant = $1 AND i.handle = $2 AND i.identifier = $3 ORDER BY p.id LIMIT 20"
            ))
            .bind(tenant)
            .bind(handle)
            .bind(id)
            .fetch_all(&db.pool)
            .await?
        }
    };
    Ok(rows.into_iter().map(summary_row).collect())
}

pub async fn summary(db: &Db, id: &str) -> Result<pb::ProfileSummary> {
    let r = sqlx::query("SELECT id, email, first_name, last_name FROM profiles WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .ok_or(ProfileError::NotFound)?;
    Ok(summary_row(r))
}

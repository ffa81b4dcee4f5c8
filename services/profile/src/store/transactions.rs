//! The member's purchases (transactions and their items) and the links of an item to a list
//! item, read a page at a time; a store's sale joins them when a claim for it is credited.
use super::{Result, Tx};
use crate::error::ProfileError;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;
use sqlx::Row;
use std::collections::HashMap;

/// What to list: one page, newest or oldest first, with products and list links if asked.
pub struct TransactionQuery {
    pub page: u32,
    pub per_page: u32,
    pub oldest_first: bool,
    pub include_product: bool,
    pub include_list_item: bool,
}

/// How many transactions the member has ($1 member): an index-only count of their orders (a
/// member's orders are few; the ledger is what grows).
pub(crate) const TOTAL: &str = "SELECT COUNT(*) AS n FROM transactions WHERE profile_id = $1";

/// A page of the member's transactions ($1 member, $2 per page, $3 offset), by the history index
/// (profile_id, transacted_at, id). A member's orders are few (the ledger is what grows); a
/// cursor like the ledger's (`ListPointsAfter`) is the next step if they are not.
pub(crate) fn page_sql(oldest_first: bool) -> String {
    let dir = if oldest_first { "ASC" } else { "DESC" };
    let cols = "id, transacted_at, store, total_cents, currency, receipt_number, store_handle, points";
    format!("SELECT {cols} FROM transactions WHERE profile_id = $1 ORDER BY transacted_at {dir}, id {dir} LIMIT $2 OFFSET $3")
}

/// How many transactions the member has.
async fn total(db: &Db, pid: &str) -> Result<i64> {
    Ok(sqlx::query(TOTAL).bind(pid).fetch_one(&db.pool).await?.get("n"))
}

/// One page of the member's transactions, each with its items.
pub async fn transactions(db: &Db, pid: &str, q: &TransactionQuery) -> Result<pb::ListTransactionsResponse> {
    let total = total(db, pid).await?;
    let sql = page_sql(q.oldest_first);
    let offset = i64::from(q.page - 1) * i64::from(q.per_page);
    let query = sqlx::query(&sql).bind(pid).bind(i64::from(q.per_page)).bind(offset);
    let rows = query.fetch_all(&db.pool).await?;
    let mut txs: Vec<pb::Transaction> = rows
        .into_iter()
        .map(|r| pb::Transaction {
            id: r.get("id"),
            transacted_at: r.get("transacted_at"),
            store: r.get("store"),
            total_cents: r.get("total_cents"),
            currency: r.get("currency"),
            items: vec![],
            receipt_number: r.get("receipt_number"),
            store_handle: r.get("store_handle"),
            points: r.get("points"),
        })
        .collect();
    if !txs.is_empty() {
        let placeholders: Vec<String> = (1..=txs.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT i.id, i.transaction_id, i.name, i.quantity, i.amount_cents, i.product_id, i.product_name, i.variant_id,
                    l.list_item_id, l.list_id, l.connection_id
             FROM transaction_items i LEFT JOIN transaction_item_links l ON l.item_id = i.id
             WHERE i.transaction_id IN ({}) ORDER BY i.transaction_id, i.position",
            placeholders.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for t in &txs {
            query = query.bind(t.id.clone());
        }
        let mut by_tx: HashMap<String, Vec<pb::TransactionItem>> = HashMap::new();
        for r in query.fetch_all(&db.pool).await? {
            let link: Option<String> = r.try_get("list_item_id").ok().flatten();
            by_tx.entry(r.get("transaction_id")).or_default().push(pb::TransactionItem {
                id: r.get("id"),
                name: r.get("name"),
                quantity: r.get("quantity"),
                amount_cents: r.get("amount_cents"),
                product: q.include_product.then(|| pb::Product {
                    id: r.get("product_id"),
                    name: r.get("product_name"),
                    variant_id: r.get("variant_id"),
                }),
                list_item: link.filter(|_| q.include_list_item).map(|id| pb::ListItemLink {
                    id,
                    list_id: r.get::<Option<String>, _>("list_id").unwrap_or_default(),
                    connection_id: r.get::<Option<String>, _>("connection_id").unwrap_or_default(),
                }),
            });
        }
        for t in &mut txs {
            t.items = by_tx.remove(&t.id).unwrap_or_default();
        }
    }
    Ok(pb::ListTransactionsResponse { transactions: txs, page: q.page, per_page: q.per_page, total: total as u64 })
}

/// Links the member's purchased item to a list item (replacing an earlier link). NotFound when
/// the item is not one of the member's purchases.
pub async fn link_list_item(db: &Db, pid: &str, item_id: &str, link: &pb::ListItemLink) -> Result<()> {
    let mine = sqlx::query(
        "SELECT i.id FROM transaction_items i JOIN transactions t ON t.id = i.transaction_id WHERE i.id = $1 AND t.profile_id = $2",
    )
    .bind(item_id)
    .bind(pid)
    .fetch_optional(&db.pool)
    .await?;
    if mine.is_none() {
        return Err(ProfileError::NotFound);
    }
    sqlx::query(
        "INSERT INTO transaction_item_links (item_id, list_item_id, list_id, connection_id, linked_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (item_id) DO UPDATE SET list_item_id = excluded.list_item_id, list_id = excluded.list_id,
             connection_id = excluded.connection_id, linked_at = excluded.linked_at",
    )
    .bind(item_id)
    .bind(&link.id)
    .bind(&link.list_id)
    .bind(&link.connection_id)
    .bind(portal_common::now_unix())
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A purchase joining the member's transactions (a credited claim's sale).
pub struct NewTransaction<'a> {
    pub id: &'a str,
    pub at: i64,
    pub store_name: &'a str,
    pub total_cents: i64,
    pub currency: &'a str,
    pub receipt_number: &'a str,
    pub store_handle: &'a str,
    pub points: i64,
}

/// Adds a purchase to the member's transactions, in the caller's transaction.
pub async fn insert(tx: &mut Tx<'_>, pid: &str, t: &NewTransaction<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO transactions (id, profile_id, transacted_at, store, total_cents, currency, receipt_number, store_handle, points)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(t.id)
    .bind(pid)
    .bind(t.at)
    .bind(t.store_name)
    .bind(t.total_cents)
    .bind(t.currency)
    .bind(t.receipt_number)
    .bind(t.store_handle)
    .bind(t.points)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Copies a store sale's lines onto a member's transaction (ids `<transaction>_item<position>`).
pub async fn copy_receipt_items(tx: &mut Tx<'_>, txn_id: &str, receipt_id: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO transaction_items (id, transaction_id, position, name, quantity, amount_cents, product_id, product_name, variant_id)
         SELECT $1 || '_item' || CAST(position AS TEXT), $1, position, name, quantity, amount_cents, product_id, product_name, variant_id
         FROM store_receipt_items WHERE receipt_id = $2 ON CONFLICT (id) DO NOTHING",
    )
    .bind(txn_id)
    .bind(receipt_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

//! SQL for connections, lists and list items. Every query is scoped to the calling member
//! (lists and items through their connection), so another member's ids are simply not found.
use crate::error::{db, ConnectionsError};
use crate::ERR_CREATING_LIST;
use portal_common::db::{is_unique_violation, Db};
use portal_proto::connections::v1 as pb;
use sqlx::any::AnyRow;
use sqlx::Row;
use std::collections::HashMap;

type Result<T> = std::result::Result<T, ConnectionsError>;

fn not_found(what: &'static str) -> ConnectionsError {
    ConnectionsError::NotFound(what)
}

/// `what` was not found (for this member) when a write that names it touched no row.
fn touched(rows: u64, what: &'static str) -> Result<()> {
    if rows == 0 {
        return Err(not_found(what));
    }
    Ok(())
}

/// The demo member's connection to the demo shop (`demo_data`), added once.
pub async fn seed_demo(db_: &Db) -> Result<()> {
    sqlx::query(
        "INSERT INTO connections (id, profile_id, definition_id, connector, name, created_at)
         VALUES ('con_demo_shop', 'prf_0000000000000000000000d1', 'def_shop', 'shopify', 'Online shop', $1) ON CONFLICT (id) DO NOTHING",
    )
    .bind(portal_common::now_unix())
    .execute(&db_.pool)
    .await
    .map_err(db("seeding the demo connection"))?;
    Ok(())
}

const CONNECTION_COLS: &str = "id, definition_id, connector, name, created_at";

fn connection_row(r: AnyRow) -> pb::Connection {
    pb::Connection {
        id: r.get("id"),
        definition_id: r.get("definition_id"),
        connector: r.get("connector"),
        name: r.get("name"),
        created_at: r.get("created_at"),
    }
}

pub async fn connections(db_: &Db, pid: &str, size: u32) -> Result<Vec<pb::Connection>> {
    Ok(sqlx::query(&format!("SELECT {CONNECTION_COLS} FROM connections WHERE profile_id = $1 ORDER BY created_at, id LIMIT $2"))
        .bind(pid)
        .bind(i64::from(size))
        .fetch_all(&db_.pool)
        .await
        .map_err(db("listing connections"))?
        .into_iter()
        .map(connection_row)
        .collect())
}

pub async fn connection(db_: &Db, pid: &str, id: &str) -> Result<pb::Connection> {
    sqlx::query(&format!("SELECT {CONNECTION_COLS} FROM connections WHERE profile_id = $1 AND id = $2"))
        .bind(pid)
        .bind(id)
        .fetch_optional(&db_.pool)
        .await
        .map_err(db("reading a connection"))?
        .map(connection_row)
        .ok_or_else(|| not_found("connection"))
}

/// A new connection; the unique index allows one per definition per member.
pub async fn create_connection(db_: &Db, pid: &str, definition: &str, connector: &str, name: &str) -> Result<pb::Connection> {
    let c = pb::Connection {
        id: portal_common::new_id("con_"),
        definition_id: definition.into(),
        connector: connector.into(),
        name: name.into(),
        created_at: portal_common::now_unix(),
    };
    sqlx::query("INSERT INTO connections (id, profile_id, definition_id, connector, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(&c.id)
        .bind(pid)
        .bind(&c.definition_id)
        .bind(&c.connector)
        .bind(&c.name)
        .bind(c.created_at)
        .execute(&db_.pool)
        .await
        .map_err(|e| {
            if is_unique_violation(&e) {
                ConnectionsError::Conflict("You already have this connection", "definition_id", "You already have this connection")
            } else {
                db("creating a connection")(e)
            }
        })?;
    Ok(c)
}

pub async fn rename_connection(db_: &Db, pid: &str, id: &str, name: &str) -> Result<pb::Connection> {
    let n = sqlx::query("UPDATE connections SET name = $3 WHERE profile_id = $1 AND id = $2")
        .bind(pid)
        .bind(id)
        .bind(name)
        .execute(&db_.pool)
        .await
        .map_err(db("renaming a connection"))?
        .rows_affected();
    touched(n, "connection")?;
    connection(db_, pid, id).await
}

/// Removes a connection with its lists and their items, in one transaction.
pub async fn delete_connection(db_: &Db, pid: &str, id: &str) -> Result<()> {
    let mut tx = db_.begin().await.map_err(db("deleting a connection"))?;
    let owned = sqlx::query("SELECT id FROM connections WHERE profile_id = $1 AND id = $2")
        .bind(pid)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db("deleting a connection"))?;
    if owned.is_none() {
        return Err(not_found("connection"));
    }
    for sql in [
        "DELETE FROM list_items WHERE list_id IN (SELECT id FROM product_lists WHERE connection_id = $1)",
        "DELETE FROM product_lists WHERE connection_id = $1",
        "DELETE FROM connections WHERE id = $1",
    ] {
        sqlx::query(sql).bind(id).execute(&mut *tx).await.map_err(db("deleting a connection"))?;
    }
    tx.commit().await.map_err(db("deleting a connection"))?;
    Ok(())
}

async fn own_connection(db_: &Db, pid: &str, connection_id: &str) -> Result<()> {
    connection(db_, pid, connection_id).await.map(drop)
}

fn item_row(r: &AnyRow) -> pb::ListItem {
    pb::ListItem {
        id: r.get("id"),
        list_id: r.get("list_id"),
        product_id: r.get("product_id"),
        product_variant_id: r.get("product_variant_id"),
        source: r.get("source"),
        created_at: r.get("created_at"),
    }
}

/// The connection's lists (only the one with `handle` when given), each with its items.
pub async fn lists(db_: &Db, pid: &str, connection_id: &str, handle: &str) -> Result<Vec<pb::ProductList>> {
    own_connection(db_, pid, connection_id).await?;
    let rows = sqlx::query(
        "SELECT id, connection_id, handle, name FROM product_lists WHERE connection_id = $1 AND ($2 = '' OR handle = $2) ORDER BY created_at, id",
    )
    .bind(connection_id)
    .bind(handle)
    .fetch_all(&db_.pool)
    .await
    .map_err(db("listing lists"))?;
    let mut lists: Vec<pb::ProductList> = rows
        .into_iter()
        .map(|r| pb::ProductList {
            id: r.get("id"),
            connection_id: r.get("connection_id"),
            handle: r.get("handle"),
            name: r.get("name"),
            items: vec![],
        })
        .collect();
    let items = sqlx::query(
        "SELECT i.id, i.list_id, i.product_id, i.product_variant_id, i.source, i.created_at FROM list_items i
         JOIN product_lists l ON l.id = i.list_id WHERE l.connection_id = $1 ORDER BY i.created_at, i.id",
    )
    .bind(connection_id)
    .fetch_all(&db_.pool)
    .await
    .map_err(db("listing list items"))?;
    let mut by_list: HashMap<String, Vec<pb::ListItem>> = HashMap::new();
    for r in &items {
        let item = item_row(r);
        by_list.entry(item.list_id.clone()).or_default().push(item);
    }
    for l in &mut lists {
        l.items = by_list.remove(&l.id).unwrap_or_default();
    }
    Ok(lists)
}

/// A new list, unless the connection holds `max` already: counted under a lock on the
/// connection's row (a write, so also SQLite's write lock), so concurrent creates can't pass it.
pub async fn create_list(db_: &Db, pid: &str, connection_id: &str, handle: &str, name: &str, max: i64) -> Result<pb::ProductList> {
    let mut tx = db_.begin().await.map_err(db("creating a list"))?;
    let owned = sqlx::query("UPDATE connections SET name = name WHERE profile_id = $1 AND id = $2")
        .bind(pid)
        .bind(connection_id)
        .execute(&mut *tx)
        .await
        .map_err(db("creating a list"))?
        .rows_affected();
    touched(owned, "connection")?;
    let held: i64 = sqlx::query("SELECT COUNT(*) AS n FROM product_lists WHERE connection_id = $1")
        .bind(connection_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(db("creating a list"))?
        .get("n");
    if held >= max {
        return Err(ConnectionsError::TooManyLists(held));
    }
    let list = pb::ProductList {
        id: portal_common::new_id("lst_"),
        connection_id: connection_id.into(),
        handle: handle.into(),
        name: name.into(),
        items: vec![],
    };
    sqlx::query("INSERT INTO product_lists (id, connection_id, handle, name, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&list.id)
        .bind(connection_id)
        .bind(handle)
        .bind(name)
        .bind(portal_common::now_unix())
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            if is_unique_violation(&e) {
                ConnectionsError::Conflict(ERR_CREATING_LIST, "handle", "This connection already has a list with this handle")
            } else {
                db("creating a list")(e)
            }
        })?;
    tx.commit().await.map_err(db("creating a list"))?;
    Ok(list)
}

fn item_by_product(
    list_id: &str,
    product: &str,
    variant: &str,
) -> sqlx::query::Query<'static, sqlx::Any, sqlx::any::AnyArguments<'static>> {
    sqlx::query(
        "SELECT id, list_id, product_id, product_variant_id, source, created_at FROM list_items
         WHERE list_id = $1 AND product_id = $2 AND product_variant_id = $3",
    )
    .bind(list_id.to_string())
    .bind(product.to_string())
    .bind(variant.to_string())
}

/// Adds a product to a list; a product already there answers the existing item (`false`). A new
/// one is refused when the list holds `max` already, counted under a lock on the list's row.
#[allow(clippy::too_many_arguments)]
pub async fn add_item(
    db_: &Db,
    pid: &str,
    connection_id: &str,
    list_id: &str,
    product: &str,
    variant: &str,
    source: &str,
    max: i64,
) -> Result<(pb::ListItem, bool)> {
    own_connection(db_, pid, connection_id).await?;
    let ctx = "adding a list item";
    let mut tx = db_.begin().await.map_err(db(ctx))?;
    let in_connection = sqlx::query("UPDATE product_lists SET name = name WHERE id = $1 AND connection_id = $2")
        .bind(list_id)
        .bind(connection_id)
        .execute(&mut *tx)
        .await
        .map_err(db(ctx))?
        .rows_affected();
    touched(in_connection, "list")?;
    if let Some(row) = item_by_product(list_id, product, variant).fetch_optional(&mut *tx).await.map_err(db(ctx))? {
        return Ok((item_row(&row), false));
    }
    let held: i64 = sqlx::query("SELECT COUNT(*) AS n FROM list_items WHERE list_id = $1")
        .bind(list_id)
        .fetch_one(&mut *tx)
        .await
        .map_err(db(ctx))?
        .get("n");
    if held >= max {
        return Err(ConnectionsError::TooManyItems(held));
    }
    sqlx::query("INSERT INTO list_items (id, list_id, product_id, product_variant_id, source, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(portal_common::new_id("li_"))
        .bind(list_id)
        .bind(product)
        .bind(variant)
        .bind(source)
        .bind(portal_common::now_unix())
        .execute(&mut *tx)
        .await
        .map_err(db(ctx))?;
    let row = item_by_product(list_id, product, variant).fetch_one(&mut *tx).await.map_err(db(ctx))?;
    tx.commit().await.map_err(db(ctx))?;
    Ok((item_row(&row), true))
}

/// Removes one list item of the member's, found through its list and connection.
pub async fn delete_item(db_: &Db, pid: &str, connection_id: &str, list_id: &str, id: &str) -> Result<()> {
    let n = sqlx::query(
        "DELETE FROM list_items WHERE id = $1 AND list_id = $2 AND list_id IN
         (SELECT l.id FROM product_lists l JOIN connections c ON c.id = l.connection_id WHERE l.connection_id = $3 AND c.profile_id = $4)",
    )
    .bind(id)
    .bind(list_id)
    .bind(connection_id)
    .bind(pid)
    .execute(&db_.pool)
    .await
    .map_err(db("removing a list item"))?
    .rows_affected();
    touched(n, "list item")?;
    Ok(())
}

/// Moves a list item of the member's to another of their lists (any connection), in one
/// transaction under a lock on the target list's row: the item keeps its id; the same product
/// already on the target list gives way to it; a full target list refuses a new product.
#[allow(clippy::too_many_arguments)]
pub async fn move_item(
    db_: &Db,
    pid: &str,
    connection_id: &str,
    list_id: &str,
    id: &str,
    to_list_id: &str,
    max: i64,
) -> Result<pb::ListItem> {
    let ctx = "moving a list item";
    let mut tx = db_.begin().await.map_err(db(ctx))?;
    let target = sqlx::query(
        "UPDATE product_lists SET name = name WHERE id = $1 AND connection_id IN (SELECT id FROM connections WHERE profile_id = $2)",
    )
    .bind(to_list_id)
    .bind(pid)
    .execute(&mut *tx)
    .await
    .map_err(db(ctx))?
    .rows_affected();
    let item = sqlx::query(
        "SELECT i.id, i.list_id, i.product_id, i.product_variant_id, i.source, i.created_at FROM list_items i
         JOIN product_lists l ON l.id = i.list_id JOIN connections c ON c.id = l.connection_id
         WHERE i.id = $1 AND i.list_id = $2 AND l.connection_id = $3 AND c.profile_id = $4",
    )
    .bind(id)
    .bind(list_id)
    .bind(connection_id)
    .bind(pid)
    .fetch_optional(&mut *tx)
    .await
    .map_err(db(ctx))?
    .map(|r| item_row(&r))
    .ok_or_else(|| not_found("list item"))?;
    touched(target, "list")?;
    if item.list_id == to_list_id {
        return Ok(item);
    }
    let there = item_by_product(to_list_id, &item.product_id, &item.product_variant_id).fetch_optional(&mut *tx).await.map_err(db(ctx))?;
    if let Some(row) = there {
        let other: String = row.get("id");
        sqlx::query("DELETE FROM list_items WHERE id = $1").bind(other).execute(&mut *tx).await.map_err(db(ctx))?;
    } else {
        let held: i64 = sqlx::query("SELECT COUNT(*) AS n FROM list_items WHERE list_id = $1")
            .bind(to_list_id)
            .fetch_one(&mut *tx)
            .await
            .map_err(db(ctx))?
            .get("n");
        if held >= max {
            return Err(ConnectionsError::TooManyItems(held));
        }
    }
    sqlx::query("UPDATE list_items SET list_id = $1 WHERE id = $2").bind(to_list_id).bind(id).execute(&mut *tx).await.map_err(db(ctx))?;
    tx.commit().await.map_err(db(ctx))?;
    Ok(pb::ListItem { list_id: to_list_id.into(), ..item })
}

/// Which of `ids` are list items of the member's, with their list and connection now (one query).
pub async fn find_items(db_: &Db, pid: &str, ids: &[String]) -> Result<Vec<pb::ListItemRef>> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    let marks: Vec<String> = (2..ids.len() + 2).map(|n| format!("${n}")).collect();
    let sql = format!(
        "SELECT i.id, i.list_id, l.connection_id FROM list_items i
         JOIN product_lists l ON l.id = i.list_id JOIN connections c ON c.id = l.connection_id
         WHERE c.profile_id = $1 AND i.id IN ({}) ORDER BY i.id",
        marks.join(", ")
    );
    let mut q = sqlx::query(&sql).bind(pid);
    for id in ids {
        q = q.bind(id);
    }
    Ok(q.fetch_all(&db_.pool)
        .await
        .map_err(db("finding list items"))?
        .into_iter()
        .map(|r| pb::ListItemRef { id: r.get("id"), list_id: r.get("list_id"), connection_id: r.get("connection_id") })
        .collect())
}

pub async fn list_item_ref(db_: &Db, pid: &str, id: &str) -> Result<pb::ListItemRef> {
    sqlx::query(
        "SELECT i.id, i.list_id, l.connection_id FROM list_items i
         JOIN product_lists l ON l.id = i.list_id JOIN connections c ON c.id = l.connection_id
         WHERE i.id = $1 AND c.profile_id = $2",
    )
    .bind(id)
    .bind(pid)
    .fetch_optional(&db_.pool)
    .await
    .map_err(db("reading a list item"))?
    .map(|r| pb::ListItemRef { id: r.get("id"), list_id: r.get("list_id"), connection_id: r.get("connection_id") })
    .ok_or_else(|| not_found("list item"))
}

/// Every connection of the member with its lists and their items (the data export).
pub async fn export(db_: &Db, pid: &str) -> Result<Vec<pb::ConnectionExport>> {
    let mut out = Vec::new();
    for c in connections(db_, pid, u32::MAX).await? {
        let lists = lists(db_, pid, &c.id, "").await?;
        out.push(pb::ConnectionExport { connection: Some(c), lists });
    }
    Ok(out)
}

/// Removes every connection of the member with its lists and items, in one transaction.
pub async fn erase(db_: &Db, pid: &str) -> Result<()> {
    let mut tx = db_.begin().await.map_err(db("erasing connections"))?;
    for sql in [
        "DELETE FROM list_items WHERE list_id IN (SELECT l.id FROM product_lists l JOIN connections c ON c.id = l.connection_id WHERE c.profile_id = $1)",
        "DELETE FROM product_lists WHERE connection_id IN (SELECT id FROM connections WHERE profile_id = $1)",
        "DELETE FROM connections WHERE profile_id = $1",
    ] {
        sqlx::query(sql).bind(pid).execute(&mut *tx).await.map_err(db("erasing connections"))?;
    }
    tx.commit().await.map_err(db("erasing connections"))?;
    Ok(())
}

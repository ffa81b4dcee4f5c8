//! The dev outbox: in dev mode every email and SMS lands here instead of leaving the machine.
use super::Result;
use portal_common::db::Db;
use portal_proto::auth::v1::OutboxMessage;
use sqlx::Row;

pub struct Message<'a> {
    pub channel: &'a str,
    pub to: &'a str,
    pub subject: &'a str,
    pub text: &'a str,
    pub link: &'a str,
}

pub async fn put(db: &Db, m: &Message<'_>) -> Result<()> {
    let ms = chrono::Utc::now().timestamp_millis();
    sqlx::query("INSERT INTO outbox (id, channel, recipient, subject, body, link, sent_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(portal_common::new_id("msg_"))
        .bind(m.channel)
        .bind(m.to)
        .bind(m.subject)
        .bind(m.text)
        .bind(m.link)
        .bind(ms)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Newest first.
pub async fn list(db: &Db, limit: u32) -> Result<Vec<OutboxMessage>> {
    let rows =
        sqlx::query("SELECT channel, recipient, subject, body, link, sent_at_ms FROM outbox ORDER BY sent_at_ms DESC, id DESC LIMIT $1")
            .bind(i64::from(limit))
            .fetch_all(&db.pool)
            .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let ms: i64 = r.get("sent_at_ms");
            OutboxMessage {
                to: r.get("recipient"),
                subject: r.get("subject"),
                text: r.get("body"),
                link: r.get("link"),
                channel: r.get("channel"),
                sent_at: chrono::DateTime::from_timestamp_millis(ms)
                    .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
                    .unwrap_or_default(),
            }
        })
        .collect())
}

//! Getting a message to a person: SMTP (lettre) when `SMTP_URL` is set, an HTTP SMS provider
//! when `SMS_URL` is set, and in dev mode the outbox for whichever is not configured. In
//! production with nothing configured the message is dropped with an error in the log.
use crate::error::AuthError;
use crate::state::Inner;
use crate::store::outbox;
use anyhow::Context;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use portal_common::config::Settings;
use portal_common::db::Db;
use secrecy::ExposeSecret;

pub struct Delivery {
    smtp: Option<(AsyncSmtpTransport<Tokio1Executor>, Mailbox)>,
    sms: Option<(reqwest::Client, String)>,
    outbox: Option<Db>,
}

pub struct Outgoing<'a> {
    pub to: &'a str,
    pub subject: &'a str,
    pub text: &'a str,
    pub link: &'a str,
}

impl Delivery {
    pub fn new(settings: &Settings, db: &Db) -> anyhow::Result<Delivery> {
        let smtp = match &settings.smtp_url {
            Some(url) => {
                let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose_secret())
                    .context("SMTP_URL is not a valid smtp:// or smtps:// URL")?
                    .build();
                let from: Mailbox = settings.mail_from.parse().context("PORTAL_MAIL_FROM is not a valid mailbox")?;
                Some((transport, from))
            }
            None => None,
        };
        let sms = settings.sms_url.as_ref().map(|u| (reqwest::Client::new(), u.expose_secret().to_string()));
        let outbox = settings.is_dev().then(|| db.clone());
        Ok(Delivery { smtp, sms, outbox })
    }

    pub async fn email(&self, m: &Outgoing<'_>) -> anyhow::Result<()> {
        if let Some((transport, from)) = &self.smtp {
            let msg = Message::builder()
                .from(from.clone())
                .to(m.to.parse().context("recipient address")?)
                .subject(m.subject)
                .body(m.text.to_string())?;
            transport.send(msg).await.context("sending email over SMTP")?;
            return Ok(());
        }
        self.to_outbox("email", m).await
    }

    pub async fn sms(&self, m: &Outgoing<'_>) -> anyhow::Result<()> {
        if let Some((client, url)) = &self.sms {
            client
                .post(url)
                .json(&serde_json::json!({ "to": m.to, "text": m.text }))
                .send()
                .await
                .and_then(|r| r.error_for_status())
                .context("sending SMS through the provider")?;
            return Ok(());
        }
        self.to_outbox("sms", m).await
    }

    async fn to_outbox(&self, channel: &str, m: &Outgoing<'_>) -> anyhow::Result<()> {
        match &self.outbox {
            Some(db) => {
                outbox::put(db, &outbox::Message { channel, to: m.to, subject: m.subject, text: m.text, link: m.link }).await?;
                Ok(())
            }
            None => {
                tracing::error!(channel, "no transport configured in production mode; message not sent");
                Ok(())
            }
        }
    }
}

impl Inner {
    /// The dev outbox, newest first: at most `limit` messages (50 when 0, never more than 500).
    /// Only in dev mode.
    pub(crate) async fn list_outbox(&self, limit: u32) -> Result<Vec<portal_proto::auth::v1::OutboxMessage>, AuthError> {
        if !self.settings.is_dev() {
            return Err(AuthError::DevOnly);
        }
        let limit = match limit {
            0 => 50,
            n => n.min(500),
        };
        outbox::list(&self.db, limit).await
    }
}

//! Signing in: by a one-time link (asked for, then exchanged for a session), by a six-digit
//! code (sent by email or SMS, then verified), and renewing a session handed over in a URL.
//! Each one-time secret is kept in the KV only as a hash and taken atomically, so it works once
//! however many requests race for it; every answer is the same whether the address has an account.
use crate::activity::Pending;
use crate::delivery::Outgoing;
use crate::error::AuthError;
use crate::links::{LinkOptions, LinkTarget};
use crate::redirect::safe_redirect;
use crate::state::{code_hash, parse_email, Inner};
use crate::store::{self, sessions};
use portal_common::email::Email;
use portal_proto::auth::v1 as pb;
use portal_proto::profile::v1 as profile_pb;
use portal_token::{self as token, Claims};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The answer to every sign-in request, whether or not the address has an account.
pub const LINK_SENT: &str = "If that address has an account, a sign-in link is on its way.";
/// The answer to every code request, whether or not the address has an account.
pub const CODE_SENT: &str = "If that address has an account, a sign-in code is on its way.";

/// Wrong guesses allowed per code; the next attempt locks it.
pub const MAX_CODE_ATTEMPTS: i64 = 5;
/// `POST /api/auth/sms` when the tenant's `components.login.sms` is off (403).
pub const SMS_OFF: &str = "Sign-in codes by text message are not offered here";

/// Who an address belongs to.
pub(crate) struct Account {
    pub(crate) id: String,
    pub(crate) first_name: String,
    pub(crate) phone: String,
    pub(crate) staff: bool,
}

/// A code waiting to be redeemed, kept in the KV under the address's hash.
#[derive(Serialize, Deserialize)]
struct CodeRecord {
    code_hash: String,
    pid: String,
    staff: bool,
    redirect: String,
    pending: Pending,
}

/// Which sign-in email to write.
pub(crate) enum LinkText {
    SignIn,
    /// To an address someone tried to register again.
    AlreadyMember,
}

fn link_key(jti: &str) -> String {
    format!("link:{}", token::hash_hex(jti))
}

pub(crate) fn code_key(tenant: &str, email: &Email) -> String {
    format!("code:{}", token::hash_hex(&format!("{tenant}:{}", email.as_str())))
}

impl Inner {
    /// Who an address belongs to: a staff user (from the staff list) or a member (asked of the profile service).
    pub(crate) async fn account(&self, email: &Email) -> Result<Option<Account>, AuthError> {
        if let Some((id, name)) = store::staff::by_email(&self.db, &self.settings.tenant, email).await? {
            let first = name.split_whitespace().next().unwrap_or_default().to_string();
            return Ok(Some(Account { id, first_name: first, phone: String::new(), staff: true }));
        }
        let found =
            self.profiles.clone().find_by_email(profile_pb::FindByEmailRequest { email: email.as_str().into() }).await?.into_inner();
        Ok(found.found.then_some(Account { id: found.profile_id, first_name: found.first_name, phone: found.phone, staff: false }))
    }

    /// Where an emailed link leads: the portal, or a page the request names on an allowed origin.
    pub(crate) async fn link_target(&self, o: &LinkOptions<'_>) -> Result<LinkTarget, AuthError> {
        if o.url_path.trim().is_empty() && o.external_redirect.trim().is_empty() && !o.iframe {
            return Ok(LinkTarget::portal(&self.public_url).with_params(o.url_params));
        }
        LinkTarget::parse(&self.public_url, &self.allowed_origins().await?, o).map_err(AuthError::Fields)
    }

    pub(crate) async fn send_link(
        &self,
        acct: &Account,
        email: &Email,
        redirect: &str,
        pending: &Pending,
        target: &LinkTarget,
    ) -> Result<(), AuthError> {
        self.send_link_with(acct, email, redirect, pending, target, LinkText::SignIn).await
    }

    pub(crate) async fn send_link_with(
        &self,
        acct: &Account,
        email: &Email,
        redirect: &str,
        pending: &Pending,
        target: &LinkTarget,
        kind: LinkText,
    ) -> Result<(), AuthError> {
        let now = Self::now();
        let ttl = self.ttl();
        let jti = portal_common::new_id("lnk_");
        let claims = Claims {
            pid: acct.id.clone(),
            exp: now + ttl,
            iat: now,
            jti: jti.clone(),
            typ: token::TYPE_LINK.into(),
            staff: acct.staff,
            tenant: self.settings.tenant.clone(),
            redirect: Some(redirect.to_string()),
            act: None,
            auth_time: 0,
        };
        let link_token = self.sign(&claims)?;
        let record = serde_json::to_vec(pending).map_err(anyhow::Error::from)?;
        self.kv.set(&link_key(&jti), &record, Some(Duration::from_secs(ttl as u64))).await?;
        let link = target.url(&link_token, redirect);
        let minutes = (ttl / 60).max(1);
        let text = match kind {
            LinkText::SignIn => format!(
                "{}\n\nUse the link below to sign in to your account. It works once and expires in {minutes} minutes.\n\n{link}\n\nIf you didn't ask to sign in, you can ignore this email.",
                Self::greeting(&acct.first_name),
            ),
            LinkText::AlreadyMember => format!(
                "{}\n\nSomeone asked to create an account with this email address, but you already have one. Use the link below to sign in to it. It works once and expires in {minutes} minutes.\n\n{link}\n\nIf you didn't ask for this, you can ignore this email.",
                Self::greeting(&acct.first_name),
            ),
        };
        self.delivery.email(&Outgoing { to: email.as_str(), subject: "Your sign-in link", text: &text, link: &link }).await?;
        Ok(())
    }

    /// Sends a sign-in link to the address if it has an account; the answer is the same either way.
    pub(crate) async fn request_link(
        &self,
        r: pb::RequestMagicLinkRequest,
        ip: Option<&str>,
    ) -> Result<pb::RequestMagicLinkResponse, AuthError> {
        let email = parse_email(&r.email)?;
        let pending = self.pending(&r.mode, &r.location, r.event_data.as_ref(), &r.custom_fields).await?;
        let target = self
            .link_target(&LinkOptions {
                url_path: &r.url_path,
                url_params: &r.url_params,
                iframe: r.iframe,
                external_redirect: &r.external_redirect,
            })
            .await?;
        self.limit("link", Some(email.as_str()), ip, 1).await?;
        let redirect = safe_redirect(&r.redirect);
        if let Some(acct) = self.account(&email).await? {
            self.send_link(&acct, &email, &redirect, &pending, &target).await?;
        }
        Ok(pb::RequestMagicLinkResponse { message: LINK_SENT.into() })
    }

    /// Redeems a sign-in link's token, or swaps a session token handed over in a URL for a fresh one.
    pub(crate) async fn exchange(&self, raw: String, ip: Option<&str>, from: &sessions::Origin) -> Result<pb::SessionToken, AuthError> {
        let now = Self::now();
        // No address to count against here: the client IP alone, with more room.
        self.limit("exchange", None, ip, 5).await?;
        let verified = {
            let keys = self.keys.read().unwrap();
            keys.verify.verify(&raw, token::TYPE_LINK, now).map(Ok).or_else(|e| match e {
                token::TokenError::WrongType => keys.verify.verify(&raw, token::TYPE_SESSION, now).map(Err),
                e => Err(e),
            })
        };
        match verified.map_err(|_| AuthError::LinkUnusable)? {
            Ok(link) => {
                // Single use: of any number of concurrent redemptions, one takes the record.
                let record = self.kv.take(&link_key(&link.jti)).await?.ok_or(AuthError::LinkUnusable)?;
                let pending: Pending = serde_json::from_slice(&record).unwrap_or_default();
                let activity = self.record_activity(&link.pid, &pending).await?;
                let (t, c) = self.issue_session(&link.pid, link.staff, from, None).await?;
                Ok(pb::SessionToken {
                    token: t,
                    expiry: c.exp,
                    profile_id: c.pid,
                    staff: c.staff,
                    redirect: link.redirect.unwrap_or_else(|| "/home".into()),
                    activity,
                })
            }
            Err(session) => {
                // A session token handed over in a URL (native wrapper): swap it for a fresh one
                // and end it, so the copy in the URL is worthless. The fresh token is the same
                // sign-in: its `auth_time` and absolute end are the original's, so swapping never
                // extends a session nor passes for a recent sign-in. Impersonations can't be swapped.
                if session.is_impersonation() {
                    return Err(AuthError::Forbidden("An impersonation session cannot be extended"));
                }
                let (holder, auth_time) = sessions::holder(&self.db, &session.jti, now).await?.ok_or(AuthError::LinkUnusable)?;
                if holder != session.pid || !matches!(self.check_session(&session.jti).await?, sessions::State::Live { .. }) {
                    return Err(AuthError::LinkUnusable);
                }
                // Of concurrent swaps of one token, one ends it and gets the fresh token.
                if !self.end_session(&session.jti).await? {
                    return Err(AuthError::LinkUnusable);
                }
                let (t, c) = self.issue_session(&session.pid, session.staff, from, Some(auth_time)).await?;
                Ok(pb::SessionToken {
                    token: t,
                    expiry: c.exp,
                    profile_id: c.pid,
                    staff: c.staff,
                    redirect: "/home".into(),
                    activity: None,
                })
            }
        }
    }

    /// Sends a sign-in code by email or SMS if the address has an account; the answer is the same either way.
    pub(crate) async fn send_code(&self, r: pb::SendCodeRequest, ip: Option<&str>) -> Result<pb::RequestMagicLinkResponse, AuthError> {
        use rand::Rng;
        let email = parse_email(&r.email)?;
        if !matches!(r.channel.as_str(), "email" | "sms") {
            return Err(AuthError::field("channel", "Use email or sms"));
        }
        if r.channel == "sms" && !self.tenant().await?.components.login.sms {
            return Err(AuthError::Forbidden(SMS_OFF));
        }
        let pending = self.pending(&r.mode, &r.location, r.event_data.as_ref(), &r.custom_fields).await?;
        self.limit("code", Some(email.as_str()), ip, 1).await?;
        let redirect = safe_redirect(&r.redirect);
        let Some(acct) = self.account(&email).await? else {
            return Ok(pb::RequestMagicLinkResponse { message: CODE_SENT.into() });
        };
        if r.channel == "sms" && acct.phone.is_empty() {
            // Same answer as for an unknown address: nothing to send to.
            return Ok(pb::RequestMagicLinkResponse { message: CODE_SENT.into() });
        }
        let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000u32));
        let key = code_key(&self.settings.tenant, &email);
        let record = CodeRecord { code_hash: code_hash(&key, &code), pid: acct.id.clone(), staff: acct.staff, redirect, pending };
        let ttl = Duration::from_secs(self.ttl() as u64);
        self.kv.set(&key, &serde_json::to_vec(&record).map_err(|e| AuthError::Other(e.into()))?, Some(ttl)).await?;
        self.kv.del(&format!("{key}:attempts")).await?;
        let minutes = (self.ttl() / 60).max(1);
        if r.channel == "sms" {
            let text = format!("{code} is your sign-in code. It expires in {minutes} minutes.");
            self.delivery
                .sms(&Outgoing { to: &acct.phone, subject: "Sign-in code", text: &text, link: "" })
                .await
                .map_err(AuthError::Other)?;
        } else {
            let text = format!(
                "{}\n\nYour sign-in code is {code}. It works once and expires in {minutes} minutes.\n\nIf you didn't ask to sign in, you can ignore this email.",
                Self::greeting(&acct.first_name)
            );
            self.delivery
                .email(&Outgoing { to: email.as_str(), subject: "Your sign-in code", text: &text, link: "" })
                .await
                .map_err(AuthError::Other)?;
        }
        Ok(pb::RequestMagicLinkResponse { message: CODE_SENT.into() })
    }

    /// Redeems a sign-in code: a session, or why not.
    pub(crate) async fn verify_code(
        &self,
        r: pb::VerifyCodeRequest,
        ip: Option<&str>,
        from: &sessions::Origin,
    ) -> Result<pb::SessionToken, AuthError> {
        let email = parse_email(&r.email)?;
        let code = r.code.trim();
        if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
            return Err(AuthError::field("code", "Enter the 6-digit code"));
        }
        self.limit("verify", Some(email.as_str()), ip, 3).await?;
        let key = code_key(&self.settings.tenant, &email);
        let ttl = Duration::from_secs(self.ttl() as u64);
        let attempts = self.kv.incr(&format!("{key}:attempts"), ttl).await?;
        if attempts > MAX_CODE_ATTEMPTS {
            self.kv.del(&key).await?;
            return Err(AuthError::CodeLocked);
        }
        let raw = self.kv.get(&key).await?.ok_or(AuthError::CodeWrong)?;
        let record: CodeRecord = serde_json::from_slice(&raw).map_err(|e| AuthError::Other(e.into()))?;
        if record.code_hash != code_hash(&key, code) {
            return Err(AuthError::CodeWrong);
        }
        // Single use: of concurrent correct attempts, one takes the record.
        if self.kv.take(&key).await?.is_none() {
            return Err(AuthError::CodeWrong);
        }
        let activity = self.record_activity(&record.pid, &record.pending).await?;
        let (t, c) = self.issue_session(&record.pid, record.staff, from, None).await?;
        Ok(pb::SessionToken { token: t, expiry: c.exp, profile_id: c.pid, staff: c.staff, redirect: record.redirect, activity })
    }
}

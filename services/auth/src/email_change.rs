//! Changing a member's sign-in address. The address is the key to the account, so a change is
//! never one request: it needs a sign-in within the last 15 minutes, a code sent to the new
//! address, and it takes effect only once that code is confirmed. Then the old address is told,
//! with a link that undoes the change for a week; every other session ends. Undoing puts the old
//! address back, ends every session (whoever changed it is signed out) and locks further changes
//! for `LOCK_SECS`.
//!
//! Nobody learns who has an account: the answer to a start is the same whether the new address
//! is free, another member's or a staff user's. Only a free address gets a code; a member's gets
//! a notice that someone tried (so its owner knows, and the one asking learns only what that
//! mailbox would tell them), a staff address gets nothing.
use crate::delivery::Outgoing;
use crate::error::AuthError;
use crate::privacy::mask;
use crate::signin::MAX_CODE_ATTEMPTS;
use crate::staff::EMAIL_CHANGED;
use crate::state::{code_hash, Inner};
use crate::store::email_changes::{self as store, NewChange};
use portal_common::email::Email;
use portal_common::identity::Caller;
use portal_proto::auth::v1 as pb;
use portal_proto::profile::v1 as profile_pb;
use portal_token as token;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// What a member is told when their sign-in is too old to change the address.
pub const REAUTHENTICATE: &str = "For your security, please sign in again with a new code or link to change your email address.";
/// The field error for a code that is wrong, expired or was never sent.
pub const CODE_WRONG: &str = "That code is not right or has expired";
/// How long the old address can undo a change.
const UNDO_SECS: i64 = 7 * 24 * 3600;
/// After an undo, how long the address can't be changed again.
pub const LOCK_SECS: i64 = 72 * 3600;
const LOCKED: &str =
    "Your email address was changed back recently, so it can't be changed again for a few days. Contact us if you need help.";
const UNDO_UNUSABLE: &str = "This link has expired or has already been used";

/// A change waiting for its code, in the KV under `change_key`.
#[derive(Serialize, Deserialize)]
struct Pending {
    code_hash: String,
    email: String,
}

fn change_key(tenant: &str, pid: &str) -> String {
    format!("email-change:{}", token::hash_hex(&format!("{tenant}:{pid}")))
}

/// The member acting as themselves (not staff, not a staff view), signed in within the last 15 minutes.
fn recent_member(c: &Caller) -> Result<(), AuthError> {
    if c.staff || c.actor.is_some() {
        return Err(AuthError::Forbidden("Only the member can change their email address"));
    }
    if !c.signed_in_recently(portal_common::now_unix()) {
        return Err(AuthError::Reauthenticate(REAUTHENTICATE));
    }
    Ok(())
}

impl Inner {
    /// Who holds an address: `Some(true)` a staff user, `Some(false)` a member, `None` nobody.
    async fn holder_of(&self, email: &Email) -> Result<Option<bool>, AuthError> {
        if self.staff_name_by_email(email).await?.is_some() {
            return Ok(Some(true));
        }
        let found =
            self.profiles.clone().find_by_email(profile_pb::FindByEmailRequest { email: email.as_str().into() }).await?.into_inner();
        Ok(found.found.then_some(false))
    }

    /// Whether the member undid a change within `LOCK_SECS`.
    async fn change_locked(&self, pid: &str, now: i64) -> Result<bool, AuthError> {
        Ok(store::last_undone(&self.db, pid).await?.is_some_and(|at| now - at < LOCK_SECS))
    }

    pub(crate) async fn start_email_change(
        &self,
        c: &Caller,
        raw: &str,
        ip: Option<&str>,
    ) -> Result<pb::StartEmailChangeResponse, AuthError> {
        recent_member(c)?;
        let email = Email::parse(raw).map_err(|m| AuthError::field("email", m))?;
        self.limit("email-change", Some(&c.profile_id), ip, 1).await?;
        if self.change_locked(&c.profile_id, Self::now()).await? {
            return Err(AuthError::Forbidden(LOCKED));
        }
        let summary =
            self.profiles.clone().get_summary(profile_pb::GetSummaryRequest { profile_id: c.profile_id.clone() }).await?.into_inner();
        if summary.email == email.as_str() {
            return Err(AuthError::field("email", "That's already your email address"));
        }
        let masked = mask(email.as_str());
        let answer = pb::StartEmailChangeResponse {
            message: format!(
                "We've sent a code to {masked}. Enter it here to confirm your new address; until then your address stays {}.",
                mask(&summary.email)
            ),
            email: masked,
        };
        match self.holder_of(&email).await? {
            Some(true) => {}
            Some(false) => {
                let text = "Hi,\n\nSomeone signed in to another account asked to use this email address for it. This address already has an account with us, so nothing was changed.\n\nIf that was you, sign in with this address instead. If it wasn't, you don't need to do anything.";
                self.delivery
                    .email(&Outgoing { to: email.as_str(), subject: "Someone tried to use your email address", text, link: "" })
                    .await?;
            }
            None => {
                use rand::Rng;
                let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000u32));
                let key = change_key(&self.settings.tenant, &c.profile_id);
                let pending = Pending { code_hash: code_hash(&key, &code), email: email.as_str().into() };
                let ttl = Duration::from_secs(self.ttl() as u64);
                self.kv.set(&key, &serde_json::to_vec(&pending).map_err(|e| AuthError::Other(e.into()))?, Some(ttl)).await?;
                self.kv.del(&format!("{key}:attempts")).await?;
                let text = format!(
                    "{}\n\nYour code to confirm this as your new sign-in address is {code}. It works once and expires in {} minutes.\n\nIf you didn't ask for this, you can ignore this email: nothing changes without the code.",
                    Self::greeting(&summary.first_name),
                    (self.ttl() / 60).max(1)
                );
                self.delivery
                    .email(&Outgoing { to: email.as_str(), subject: "Confirm your new email address", text: &text, link: "" })
                    .await?;
            }
        }
        Ok(answer)
    }

    pub(crate) async fn confirm_email_change(
        &self,
        c: &Caller,
        code: &str,
        ip: Option<&str>,
    ) -> Result<pb::ConfirmEmailChangeResponse, AuthError> {
        recent_member(c)?;
        let code = code.trim();
        self.limit("email-change-verify", Some(&c.profile_id), ip, 3).await?;
        let key = change_key(&self.settings.tenant, &c.profile_id);
        let attempts = self.kv.incr(&format!("{key}:attempts"), Duration::from_secs(self.ttl() as u64)).await?;
        if attempts > MAX_CODE_ATTEMPTS {
            self.kv.del(&key).await?;
            return Err(AuthError::CodeLocked);
        }
        let wrong = || AuthError::field("code", CODE_WRONG);
        let raw = self.kv.get(&key).await?.ok_or_else(wrong)?;
        let pending: Pending = serde_json::from_slice(&raw).map_err(|e| AuthError::Other(e.into()))?;
        if code.len() != 6 || pending.code_hash != code_hash(&key, code) {
            return Err(wrong());
        }
        // Single use: of two concurrent confirmations, one takes the change.
        if self.kv.take(&key).await?.is_none() {
            return Err(wrong());
        }
        self.kv.del(&format!("{key}:attempts")).await?;
        let email = Email::parse(&pending.email).map_err(|m| AuthError::field("email", m))?;
        // Taken since the code went out: the one confirming holds that mailbox, so may know.
        if self.holder_of(&email).await?.is_some() {
            return Err(AuthError::field("email", "This address already has an account"));
        }
        let old = self.profiles.clone().get_summary(profile_pb::GetSummaryRequest { profile_id: c.profile_id.clone() }).await?.into_inner();
        let changed = self
            .profiles
            .clone()
            .change_email(profile_pb::ChangeEmailRequest {
                profile_id: c.profile_id.clone(),
                email: email.as_str().into(),
                expect: old.email.clone(),
            })
            .await;
        match changed {
            Ok(_) => {}
            Err(s) if s.code() == tonic::Code::AlreadyExists => {
                return Err(AuthError::field("email", "This address already has an account"))
            }
            Err(s) => return Err(s.into()),
        }
        let undo = random_token();
        let now = Self::now();
        let change = NewChange {
            profile_id: &c.profile_id,
            old_email: &old.email,
            new_email: email.as_str(),
            changed_at: now,
            undo_hash: &token::hash_hex(&undo),
            undo_until: now + UNDO_SECS,
        };
        store::insert(&self.db, &change).await?;
        let signed_out = self.end_sessions_of(&c.profile_id, c.token_id.as_deref(), EMAIL_CHANGED).await?;
        let mut link = self.public_url.join("/email-change/undo").map_err(|e| AuthError::Other(e.into()))?;
        link.query_pairs_mut().append_pair("key", &undo);
        let text = format!(
            "{}\n\nThe email address you sign in with was changed to {}. Sign-in links and codes now go there, and your other devices were signed out.\n\nIf you didn't do this, undo it with the link below within 7 days: your address comes back, everyone using your account is signed out, and the address can't be changed again for 3 days.\n\n{link}",
            Self::greeting(&old.first_name),
            mask(email.as_str())
        );
        self.delivery
            .email(&Outgoing { to: &old.email, subject: "Your sign-in email address was changed", text: &text, link: link.as_str() })
            .await?;
        tracing::info!("member changed their sign-in address");
        Ok(pb::ConfirmEmailChangeResponse { email: email.as_str().into(), signed_out })
    }

    pub(crate) async fn undo_email_change(&self, key: &str, ip: Option<&str>) -> Result<pb::UndoEmailChangeResponse, AuthError> {
        self.limit("email-change-undo", None, ip, 2).await?;
        let now = Self::now();
        let key = key.trim();
        if key.is_empty() || key.len() > 128 {
            return Err(AuthError::Unauthenticated(UNDO_UNUSABLE));
        }
        let (id, pid, old) =
            store::undoable(&self.db, &token::hash_hex(key), now).await?.ok_or(AuthError::Unauthenticated(UNDO_UNUSABLE))?;
        // Of two concurrent undos, one does it.
        if !store::mark_undone(&self.db, &id, now).await? {
            return Err(AuthError::Unauthenticated(UNDO_UNUSABLE));
        }
        // Whatever the address is now (changed again since?), the old one comes back.
        self.profiles
            .clone()
            .change_email(profile_pb::ChangeEmailRequest { profile_id: pid.clone(), email: old.clone(), expect: String::new() })
            .await?;
        // Later changes can no longer be undone from the addresses they moved to.
        store::mark_all_undone(&self.db, &pid, now).await?;
        self.kv.del(&change_key(&self.settings.tenant, &pid)).await?;
        self.end_sessions_of(&pid, None, EMAIL_CHANGED).await?;
        tracing::info!("member undid a change of their sign-in address");
        Ok(pb::UndoEmailChangeResponse {
            message: format!(
                "Your sign-in address is {} again and everyone using your account has been signed out. Sign in again to continue.",
                mask(&old)
            ),
        })
    }
}

/// 32 random bytes, URL-safe.
fn random_token() -> String {
    use base64::Engine;
    use rand::RngCore;
    let mut b = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut b);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b)
}

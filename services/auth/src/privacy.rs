//! The auth service's part of the privacy centre: the member's sessions (list them, grouped by
//! device too; sign one out, sign out the others), the deletion code, the export of what this service holds on the member, and
//! its erasure. Every call is the member's own: an impersonation token is refused.
//!
//! A deletion code is a different secret from a sign-in code: it lives under its own KV key,
//! keyed by the member (not the address), so neither can stand in for the other. A right code
//! stays confirmed (for `ERASURE_WINDOW_SECS`) until `erase` finishes, so an erasure that failed
//! midway in another service can be tried again with the same code; `erase` deletes it last.
use crate::device;
use crate::error::AuthError;
use crate::signin::{code_key, MAX_CODE_ATTEMPTS};
use crate::staff::{ACCOUNT_DELETED, MEMBER_ENDED_VIEW};
use crate::state::{code_hash, Inner};
use crate::store::{self, sessions};
use portal_common::email::Email;
use portal_common::identity::Caller;
use portal_proto::auth::v1 as pb;
use portal_proto::profile::v1 as profile_pb;
use portal_token as token;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The field error for a deletion code that is wrong, expired or never sent.
pub const DELETION_CODE_WRONG: &str = "That code is not right or has expired";
/// How long a confirmed deletion code keeps working, for a retry of an erasure that failed midway.
const ERASURE_WINDOW_SECS: u64 = 3600;
/// Rate-limit routes counted against an address (their keys go when the member is erased).
const ADDRESS_LIMITS: &[&str] = &["link", "code", "verify", "availability", "register", "erase-code"];

/// A deletion code waiting to be used, under `erase_key`. The address and phone are what the
/// erasure must clean up after (sent messages, sign-in codes), read when the code is sent and
/// again when it is confirmed.
#[derive(Serialize, Deserialize)]
struct DeletionRecord {
    code_hash: String,
    confirmed: bool,
    email: String,
    phone: String,
}

fn erase_key(tenant: &str, pid: &str) -> String {
    format!("erase:{}", token::hash_hex(&format!("{tenant}:{pid}")))
}

/// Live sessions (newest sign-in first) grouped by `device::key`: the current device first, then
/// the most recently used.
fn by_device(sessions: &[pb::Session]) -> Vec<pb::DeviceSessions> {
    let mut devices: Vec<pb::DeviceSessions> = Vec::new();
    for s in sessions {
        let key = device::key(&s.browser, &s.os, &s.device);
        let i = match devices.iter().position(|d| d.key == key) {
            Some(i) => i,
            None => {
                devices.push(pb::DeviceSessions {
                    key,
                    signed_in_at: s.signed_in_at,
                    browser: s.browser.clone(),
                    os: s.os.clone(),
                    device: s.device.clone(),
                    place: s.place.clone(),
                    ..Default::default()
                });
                devices.len() - 1
            }
        };
        let d = &mut devices[i];
        d.current |= s.current;
        d.sign_ins += 1;
        d.last_seen_at = d.last_seen_at.max(s.last_seen_at);
        d.session_ids.push(s.id.clone());
    }
    devices.sort_by_key(|d| (!d.current, std::cmp::Reverse(d.last_seen_at)));
    devices
}

/// `d***@example.com`: enough for the member to recognise, not enough to read.
pub fn mask(email: &str) -> String {
    match email.split_once('@') {
        Some((local, domain)) => format!("{}***@{domain}", local.chars().next().unwrap_or('*')),
        None => "***".into(),
    }
}

impl Inner {
    /// The caller's live sessions (one by one and grouped by device), and the live staff views
    /// of their account.
    pub(crate) async fn list_sessions(&self, c: &Caller) -> Result<pb::ListSessionsResponse, AuthError> {
        let (now, idle) = (Self::now(), self.settings.session_idle_secs.max(60));
        let sessions = sessions::live(&self.db, &c.profile_id, c.token_id.as_deref(), now, idle).await?;
        Ok(pb::ListSessionsResponse {
            devices: by_device(&sessions),
            sessions,
            staff_views: sessions::views(&self.db, &c.profile_id, now, idle).await?,
        })
    }

    /// Signs out one of the caller's live sessions, or ends a staff view of their account; any
    /// other id is `NotFound`.
    pub(crate) async fn revoke_session(&self, c: &Caller, id: &str) -> Result<(), AuthError> {
        let listed = self.list_sessions(c).await?;
        if listed.sessions.iter().any(|s| s.id == id) {
            self.end_session(id).await?;
            return Ok(());
        }
        let view = listed.staff_views.iter().find(|v| v.id == id).ok_or(AuthError::NotFound("No such session"))?;
        if self.end_session(id).await? {
            let staff_id = sessions::staff_of(&self.db, id).await?;
            self.log_access_token(&c.profile_id, &staff_id, &view.staff_name, "stop", MEMBER_ENDED_VIEW, id, 0).await?;
        }
        Ok(())
    }

    /// Signs out every live session of the caller but the calling one; how many. Staff views of
    /// the account are not sessions of the member's: they stay, listed apart.
    pub(crate) async fn revoke_others(&self, c: &Caller) -> Result<u32, AuthError> {
        let (now, idle) = (Self::now(), self.settings.session_idle_secs.max(60));
        let mut n = 0;
        for s in sessions::live(&self.db, &c.profile_id, None, now, idle).await? {
            if Some(s.id.as_str()) == c.token_id.as_deref() {
                continue;
            }
            if self.end_session(&s.id).await? {
                n += 1;
            }
        }
        Ok(n)
    }

    /// The member's address, phone and first name, from the profile service.
    async fn contact(&self, pid: &str) -> Result<(String, String, String), AuthError> {
        let summary = self.profiles.clone().get_summary(profile_pb::GetSummaryRequest { profile_id: pid.to_string() }).await?.into_inner();
        let found =
            self.profiles.clone().find_by_email(profile_pb::FindByEmailRequest { email: summary.email.clone() }).await?.into_inner();
        Ok((summary.email, found.phone, summary.first_name))
    }

    pub(crate) async fn send_deletion_code(&self, c: &Caller, ip: Option<&str>) -> Result<String, AuthError> {
        use rand::Rng;
        let (email, phone, first_name) = self.contact(&c.profile_id).await?;
        self.limit("erase-code", Some(&email), ip, 1).await?;
        let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000u32));
        let key = erase_key(&self.settings.tenant, &c.profile_id);
        let record = DeletionRecord { code_hash: code_hash(&key, &code), confirmed: false, email: email.clone(), phone };
        let ttl = Duration::from_secs(self.ttl() as u64);
        self.kv.set(&key, &serde_json::to_vec(&record).map_err(|e| AuthError::Other(e.into()))?, Some(ttl)).await?;
        self.kv.del(&format!("{key}:attempts")).await?;
        let minutes = (self.ttl() / 60).max(1);
        let text = format!(
            "{}\n\nYour code to confirm deleting your account is {code}. It works once and expires in {minutes} minutes. It cannot be used to sign in.\n\nIf you didn't ask to delete your account, don't share this code with anyone, and sign out your other devices under My Details.",
            Self::greeting(&first_name)
        );
        self.delivery
            .email(&crate::delivery::Outgoing { to: &email, subject: "Your account deletion code", text: &text, link: "" })
            .await?;
        Ok(mask(&email))
    }

    /// Checks the caller's deletion code; a right one stays confirmed for a retry.
    pub(crate) async fn confirm_deletion(&self, c: &Caller, code: &str, ip: Option<&str>) -> Result<(), AuthError> {
        let code = code.trim();
        self.limit("erase-verify", Some(&c.profile_id), ip, 3).await?;
        let key = erase_key(&self.settings.tenant, &c.profile_id);
        let attempts = self.kv.incr(&format!("{key}:attempts"), Duration::from_secs(ERASURE_WINDOW_SECS)).await?;
        if attempts > MAX_CODE_ATTEMPTS {
            self.kv.del(&key).await?;
            return Err(AuthError::CodeLocked);
        }
        let wrong = || AuthError::field("code", DELETION_CODE_WRONG);
        let raw = self.kv.get(&key).await?.ok_or_else(wrong)?;
        let mut record: DeletionRecord = serde_json::from_slice(&raw).map_err(|e| AuthError::Other(e.into()))?;
        if code.len() != 6 || record.code_hash != code_hash(&key, code) {
            return Err(wrong());
        }
        // The address may have changed since the code was sent; after a partial erasure the
        // profile may be gone, and the record's copy is what is left.
        match self.contact(&c.profile_id).await {
            Ok((email, phone, _)) => (record.email, record.phone) = (email, phone),
            Err(AuthError::Upstream(s)) if s.code() == tonic::Code::NotFound => {}
            Err(e) => return Err(e),
        }
        record.confirmed = true;
        self.kv.del(&format!("{key}:attempts")).await?;
        let bytes = serde_json::to_vec(&record).map_err(|e| AuthError::Other(e.into()))?;
        self.kv.set(&key, &bytes, Some(Duration::from_secs(ERASURE_WINDOW_SECS))).await?;
        Ok(())
    }

    pub(crate) async fn export(&self, c: &Caller) -> Result<pb::MemberExport, AuthError> {
        let sessions = sessions::all(&self.db, &c.profile_id, c.token_id.as_deref()).await?;
        let staff_access_log = self.access_log(&c.profile_id, None).await?;
        let sign_in_activity = store::activity::all(&self.db, &c.profile_id).await?;
        let email_changes = store::email_changes::all(&self.db, &c.profile_id).await?;
        Ok(pb::MemberExport { sessions, staff_access_log, sign_in_activity, email_changes })
    }

    /// Erases what this service holds on the member (see the module doc), after a confirmed
    /// deletion code. Each step is safe to repeat; the calling session is revoked and the code
    /// deleted last, so a failure before then leaves the member able to try again.
    pub(crate) async fn erase(&self, c: &Caller) -> Result<(), AuthError> {
        let pid = &c.profile_id;
        let key = erase_key(&self.settings.tenant, pid);
        let record: DeletionRecord = match self.kv.get(&key).await? {
            Some(raw) => serde_json::from_slice(&raw).map_err(|e| AuthError::Other(e.into()))?,
            None => return Err(AuthError::Precondition("Confirm deleting your account with the emailed code first")),
        };
        if !record.confirmed {
            return Err(AuthError::Precondition("Confirm deleting your account with the emailed code first"));
        }
        // Every other session ends first, staff views of the account included (their "stop"
        // entries join the access log before it is anonymised); the calling one ends last.
        self.end_sessions_of(pid, c.token_id.as_deref(), ACCOUNT_DELETED).await?;
        // Staff access stays on the staff side of the record, under an id that leads nowhere;
        // what staff wrote about the member goes.
        store::forget_member(&self.db, pid, &portal_common::new_id("anon_"), &[&record.email, &record.phone]).await?;
        if let Ok(email) = Email::parse(&record.email) {
            let code = code_key(&self.settings.tenant, &email);
            self.kv.del(&code).await?;
            self.kv.del(&format!("{code}:attempts")).await?;
            for route in ADDRESS_LIMITS {
                self.kv.del(&format!("rl:{route}:a:{}", token::hash_hex(email.as_str()))).await?;
            }
        }
        self.kv.del(&format!("rl:erase-verify:a:{}", token::hash_hex(pid))).await?;
        if let Some(jti) = &c.token_id {
            self.end_session(jti).await?;
        }
        sessions::forget(&self.db, pid).await?;
        self.kv.del(&format!("{key}:attempts")).await?;
        self.kv.del(&key).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use portal_proto::auth::v1 as pb;

    fn s(id: &str, browser: &str, seen: i64, current: bool) -> pb::Session {
        pb::Session {
            id: id.into(),
            browser: browser.into(),
            os: "Android 14".into(),
            device: "mobile".into(),
            last_seen_at: seen,
            current,
            ..Default::default()
        }
    }

    #[test]
    fn sessions_group_by_device_current_first() {
        let all = [
            s("a", "Chrome 131", 50, false),
            s("b", "Firefox 132", 90, false),
            s("c", "Chrome 130", 70, true),
            s("d", "Firefox 132", 10, false),
        ];
        let d = super::by_device(&all);
        assert_eq!(d.len(), 2);
        assert!(d[0].current);
        assert_eq!((d[0].sign_ins, d[0].last_seen_at, d[0].browser.as_str()), (2, 70, "Chrome 131"));
        assert_eq!(d[0].session_ids, ["a", "c"]);
        assert_eq!((d[1].sign_ins, d[1].last_seen_at, d[1].current), (2, 90, false));
    }

    #[test]
    fn addresses_are_masked() {
        assert_eq!(super::mask("dana.demo@example.com"), "d***@example.com");
        assert_eq!(super::mask("nope"), "***");
    }
}

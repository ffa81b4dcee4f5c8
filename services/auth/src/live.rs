//! Whether a session is live, and ending one. The `sessions` table decides; the KV key
//! `token::live_key` is a cache of a "live" answer the gateway reads on every call, written only
//! here and deleted when a session ends. A check writes the key and then reads the record again,
//! so a sign-out that lands between the two still wins: the key is deleted again.
use crate::error::AuthError;
use crate::staff::STAFF_SIGNED_OUT;
use crate::state::Inner;
use crate::store::sessions::{self, State};
use portal_common::identity::Caller;
use portal_token as token;
use std::time::Duration;

impl Inner {
    fn idle_secs(&self) -> i64 {
        self.settings.session_idle_secs.max(60)
    }

    /// Checks session `id` against the record; a live one is marked seen and cached in the KV for
    /// at most the idle timeout (and never past its expiry).
    pub(crate) async fn check_session(&self, id: &str) -> Result<State, AuthError> {
        let now = Self::now();
        let state = sessions::check(&self.db, id, now, self.idle_secs()).await?;
        if let State::Live { expires_at } = state {
            let ttl = (expires_at - now).min(self.idle_secs()).max(1) as u64;
            self.kv.set(&token::live_key(id), now.to_string().as_bytes(), Some(Duration::from_secs(ttl))).await?;
            if sessions::ended(&self.db, id).await? {
                self.kv.del(&token::live_key(id)).await?;
                return Ok(State::Ended);
            }
        }
        Ok(state)
    }

    /// Writes the KV key of a session just issued, so its first use needs no check.
    pub(crate) async fn mark_live(&self, id: &str, expires_at: i64) -> Result<(), AuthError> {
        let now = Self::now();
        let ttl = (expires_at - now).min(self.idle_secs()).max(1) as u64;
        self.kv.set(&token::live_key(id), now.to_string().as_bytes(), Some(Duration::from_secs(ttl))).await?;
        Ok(())
    }

    /// Ends session `id`: recorded as signed out, its KV key gone, and every staff view it opened
    /// ended with it (with a "stop" in the member's access log). True if this call ended it.
    pub(crate) async fn end_session(&self, id: &str) -> Result<bool, AuthError> {
        let now = Self::now();
        let ended = sessions::mark_revoked(&self.db, id, now).await?;
        self.kv.del(&token::live_key(id)).await?;
        for (view, member, staff_id, staff_name) in sessions::open_views_of(&self.db, id).await? {
            if sessions::mark_revoked(&self.db, &view, now).await? {
                self.log_access_token(&member, &staff_id, &staff_name, "stop", STAFF_SIGNED_OUT, &view, 0).await?;
            }
            self.kv.del(&token::live_key(&view)).await?;
        }
        Ok(ended)
    }

    /// Ends every session of `pid` (staff views of their account included) but `keep`; how many
    /// of their own were ended.
    pub(crate) async fn end_sessions_of(&self, pid: &str, keep: Option<&str>, view_reason: &str) -> Result<u32, AuthError> {
        let mut n = 0;
        for (id, staff_id, staff_name) in sessions::open_of(&self.db, pid).await? {
            if Some(id.as_str()) == keep {
                continue;
            }
            if self.end_session(&id).await? {
                if staff_id.is_empty() {
                    n += 1;
                } else {
                    self.log_access_token(pid, &staff_id, &staff_name, "stop", view_reason, &id, 0).await?;
                }
            }
        }
        Ok(n)
    }

    /// Signs the caller out. A staff user's own sign-out ends every view of a member's account
    /// it opened, too.
    pub(crate) async fn logout(&self, c: &Caller) -> Result<(), AuthError> {
        let jti = c.token_id.clone().ok_or(AuthError::NotSignedIn)?;
        let ended = self.end_session(&jti).await?;
        if let (true, Some(staff_id)) = (ended, &c.actor) {
            let name = self.staff_name(staff_id).await?.unwrap_or_default();
            self.log_access_token(&c.profile_id, staff_id, &name, "stop", "", &jti, 0).await?;
        }
        Ok(())
    }
}

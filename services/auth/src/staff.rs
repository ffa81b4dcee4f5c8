//! Staff work: the staff list, finding a member, and opening a view of a member's account
//! (impersonation). A view is a session under the member tied to the staff user's own session;
//! every start, stop and refused attempt goes in the member's access log, which the member can
//! read (a view that simply ran out is shown as stopped when its token expired).
use crate::error::AuthError;
use crate::state::Inner;
use crate::store::{self, sessions};
use portal_common::email::Email;
use portal_common::identity::Caller;
use portal_proto::auth::v1 as pb;
use portal_proto::profile::v1 as profile_pb;
use portal_token::Actor;

pub const STAFF_DEMO_ID: &str = "stf_0000000000000000000000s1";
/// Longest life of an impersonation token.
const MAX_IMPERSONATION_TTL: i64 = 3600;

/// The reason shown for a staff view that ended because its time ran out.
pub(crate) const EXPIRED_VIEW: &str = "The viewing time ran out";
/// The reason shown for a staff view that ended with the staff user's own session.
pub(crate) const STAFF_SIGNED_OUT: &str = "The staff member signed out";
/// The reason shown for a staff view the member ended.
pub(crate) const MEMBER_ENDED_VIEW: &str = "You ended this view";
/// The reason shown for staff views ended because the member deleted their account.
pub(crate) const ACCOUNT_DELETED: &str = "The account was deleted";
/// The reason shown for staff views ended by a change of the member's sign-in address.
pub(crate) const EMAIL_CHANGED: &str = "Your sign-in address changed";

impl Inner {
    pub(crate) async fn staff_name(&self, id: &str) -> Result<Option<String>, AuthError> {
        store::staff::name(&self.db, &self.settings.tenant, id).await
    }

    /// A staff user's name by address, in any case.
    pub(crate) async fn staff_name_by_email(&self, email: &Email) -> Result<Option<String>, AuthError> {
        Ok(store::staff::by_email(&self.db, &self.settings.tenant, email).await?.map(|(_, name)| name))
    }

    pub(crate) async fn log_access(
        &self,
        profile_id: &str,
        staff_id: &str,
        staff_name: &str,
        action: &str,
        reason: &str,
    ) -> Result<(), AuthError> {
        self.log_access_token(profile_id, staff_id, staff_name, action, reason, "", 0).await
    }

    /// An access log entry tied to an impersonation token: a start (with the token's expiry, so
    /// a view that simply runs out is still shown as ended) or an explicit stop.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn log_access_token(
        &self,
        profile_id: &str,
        staff_id: &str,
        staff_name: &str,
        action: &str,
        reason: &str,
        token_id: &str,
        ends_at: i64,
    ) -> Result<(), AuthError> {
        store::staff::log_access(&self.db, &store::staff::NewAccess { profile_id, staff_id, staff_name, action, reason, token_id, ends_at })
            .await
    }

    /// The caller must be a staff member signed in as themselves, still on the staff list.
    pub(crate) async fn staff_caller(&self, md: &tonic::metadata::MetadataMap) -> Result<(Caller, String), AuthError> {
        let c = Caller::guard(md)?;
        if !c.staff || c.actor.is_some() {
            return Err(AuthError::Forbidden("Only staff can do this"));
        }
        let name = self.staff_name(&c.profile_id).await?.ok_or(AuthError::Forbidden("Only staff can do this"))?;
        Ok((c, name))
    }

    /// Finds members by id, email, name, phone, member number or Frequent Flyer number (the
    /// profile service's search says which match in part); one page at most.
    pub(crate) async fn search_members(&self, r: pb::SearchMembersRequest) -> Result<pb::SearchMembersResponse, AuthError> {
        if !matches!(r.r#type.as_str(), "id" | "email" | "qff_number" | "member_number" | "name" | "phone") {
            return Err(AuthError::field("type", "Use id, email, qff_number, member_number, name or phone"));
        }
        if r.id.trim().is_empty() {
            return Err(AuthError::field("id", "Required"));
        }
        let found =
            self.profiles.clone().search_profiles(profile_pb::SearchProfilesRequest { r#type: r.r#type, id: r.id }).await?.into_inner();
        let members = found
            .profiles
            .into_iter()
            .map(|p| pb::MemberSummary { id: p.id, email: p.email, first_name: p.first_name, last_name: p.last_name })
            .collect();
        Ok(pb::SearchMembersResponse { members })
    }

    /// Opens a view of a member's account for the staff user `staff` (named `staff_name`), signed in from `from`.
    pub(crate) async fn impersonate(
        &self,
        staff: &Caller,
        staff_name: &str,
        r: pb::ImpersonateRequest,
        from: &sessions::Origin,
    ) -> Result<pb::ImpersonationToken, AuthError> {
        let target = r.profile_id.trim().to_string();
        // The staff id comes from the staff token; a body value may only repeat it.
        if !r.staff_id.is_empty() && r.staff_id != staff.profile_id {
            self.log_access(&target, &staff.profile_id, staff_name, "attempt", "staffId did not match the signed-in staff member").await?;
            return Err(AuthError::Forbidden("staffId does not match the signed-in staff member"));
        }
        let summary = match self.profiles.clone().get_summary(profile_pb::GetSummaryRequest { profile_id: target.clone() }).await {
            Ok(s) => s.into_inner(),
            Err(s) if s.code() == tonic::Code::NotFound => {
                self.log_access(&target, &staff.profile_id, staff_name, "attempt", "no such member").await?;
                return Err(AuthError::NotFound("No member with that id"));
            }
            Err(s) => return Err(s.into()),
        };
        if self.staff_name_by_email(&Email::parse(&summary.email).map_err(|m| AuthError::field("email", m))?).await?.is_some() {
            self.log_access(&target, &staff.profile_id, staff_name, "attempt", "staff accounts cannot be impersonated").await?;
            return Err(AuthError::Forbidden("Staff accounts cannot be impersonated"));
        }
        // The view lives at most as long as the staff user's own session, which it names.
        let parent = staff.token_id.clone().ok_or(AuthError::NotSignedIn)?;
        let Some((_, parent_auth)) = sessions::holder(&self.db, &parent, Self::now()).await? else {
            return Err(AuthError::NotSignedIn);
        };
        let ttl = self.settings.impersonation_ttl_secs.clamp(1, MAX_IMPERSONATION_TTL);
        let exp = (Self::now() + ttl).min(staff.token_exp.unwrap_or(i64::MAX));
        let act = Actor { sub: staff.profile_id.clone(), name: staff_name.to_string(), sid: parent.clone() };
        let (t, c) = self.session(&summary.id, false, exp, parent_auth, Some(act))?;
        let view = sessions::ViewOf { staff_id: &staff.profile_id, staff_name, parent_id: &parent };
        self.record_session(&c, c.iat, from, Some(view)).await?;
        self.mark_live(&c.jti, c.exp).await?;
        self.log_access_token(&summary.id, &staff.profile_id, staff_name, "start", &r.reason, &c.jti, c.exp).await?;
        Ok(pb::ImpersonationToken {
            token: t,
            expiry: c.exp,
            profile_id: summary.id,
            first_name: summary.first_name,
            last_name: summary.last_name,
        })
    }

    /// Staff access to the member's account, newest first; a view that ran out without an
    /// explicit stop is shown as stopped when its token expired. At most `limit` entries read.
    pub(crate) async fn access_log(&self, pid: &str, limit: Option<i64>) -> Result<Vec<pb::AccessLogEntry>, AuthError> {
        let rows = store::staff::access_log(&self.db, pid, limit.unwrap_or(i64::MAX)).await?;
        Ok(with_ended_views(&rows, chrono::Utc::now().timestamp_millis()))
    }
}

/// The log's entries, newest first, with a "stop" added for every view whose token had expired
/// by `now_ms` without an explicit stop (the clock is a parameter so tests can hold it still).
fn with_ended_views(rows: &[store::staff::Access], now_ms: i64) -> Vec<pb::AccessLogEntry> {
    let entry = |r: &store::staff::Access| pb::AccessLogEntry {
        action: r.action.clone(),
        staff_id: r.staff_id.clone(),
        staff_name: r.staff_name.clone(),
        reason: r.reason.clone(),
        at: r.at_ms / 1000,
    };
    let stopped: std::collections::HashSet<&str> = rows.iter().filter(|r| r.action == "stop").map(|r| r.token_id.as_str()).collect();
    let mut entries: Vec<pb::AccessLogEntry> = rows.iter().map(entry).collect();
    for r in rows {
        let (token, ends) = (&r.token_id, r.ends_at_ms);
        if r.action == "start" && !token.is_empty() && ends > 0 && ends <= now_ms && !stopped.contains(token.as_str()) {
            entries.push(pb::AccessLogEntry { action: "stop".into(), reason: EXPIRED_VIEW.into(), at: ends / 1000, ..entry(r) });
        }
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.at));
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(token: &str, at_ms: i64, ends_at_ms: i64) -> store::staff::Access {
        store::staff::Access {
            action: "start".into(),
            staff_id: "stf_1".into(),
            staff_name: "Sam Staff".into(),
            reason: "Callback".into(),
            at_ms,
            token_id: token.into(),
            ends_at_ms,
        }
    }

    fn actions(entries: &[pb::AccessLogEntry]) -> Vec<(&str, &str)> {
        entries.iter().map(|e| (e.action.as_str(), e.reason.as_str())).collect()
    }

    #[test]
    fn a_running_view_is_only_its_start() {
        let rows = [start("t1", 10_000, 13_000)];
        assert_eq!(actions(&with_ended_views(&rows, 12_999)), [("start", "Callback")]);
    }

    #[test]
    fn a_view_that_ran_out_gets_a_stop_at_its_end() {
        let rows = [start("t1", 10_000, 13_000)];
        let log = with_ended_views(&rows, 13_000);
        assert_eq!(actions(&log), [("stop", EXPIRED_VIEW), ("start", "Callback")]);
        assert_eq!((log[0].at, log[0].staff_name.as_str()), (13, "Sam Staff"));
    }

    #[test]
    fn a_view_stopped_by_hand_gets_no_second_stop() {
        let stop =
            store::staff::Access { action: "stop".into(), reason: MEMBER_ENDED_VIEW.into(), at_ms: 11_000, ..start("t1", 11_000, 0) };
        let log = with_ended_views(&[stop, start("t1", 10_000, 13_000)], 20_000);
        assert_eq!(actions(&log), [("stop", MEMBER_ENDED_VIEW), ("start", "Callback")]);
    }
}

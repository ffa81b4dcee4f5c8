//! The member's link to their airline account, which lives in two places: this service's
//! `qff_links` row and the profile's `qff_number` identity with its `qantas` attributes. A link
//! is one small saga: the row is written `pending`, the profile side is set, the row is marked
//! `linked`. A definite refusal from the profile removes the pending row; a failure that leaves
//! the outcome unknown leaves it pending, and the reconciler settles it by asking the profile
//! what it holds. Unlinking is the same in reverse: the row goes pending, the profile side is
//! cleared, then the row is removed (and kept in the past links). Readers treat a pending link
//! as linked: it shows at once, as it did before the saga, and until an unlink is done.
use crate::error::QffError;
use crate::partner::PartnerError;
use crate::store::{self, LINKED, PENDING};
use crate::Qff;
use portal_common::identity::Caller;
use portal_proto::profile::v1::{GetProfileRequest, SetPartnerLinkRequest};
use portal_proto::qff::v1 as pb;
use std::collections::BTreeMap;
use tonic::{Code, Request, Status};

type Result<T> = std::result::Result<T, QffError>;

const BALANCE_UNAVAILABLE: &str = "Your Qantas Points balance can't be shown right now. Please try again later.";
const UNKNOWN_NUMBER: &str = "We couldn't find a Frequent Flyer account with this number";
const NAME_MISMATCH: &str = "This last name doesn't match the Frequent Flyer account";
const CLOSED: &str = "This Frequent Flyer account is closed";
const UNLINK_REASONS: &[&str] = &["wrong_account", "not_using", "privacy", "other"];
/// How long a reconciler's claim on a pending link lasts: longer than asking the profile takes.
const CLAIM_SECS: i64 = 300;

/// What the partner's answer to a check means for the member.
pub(crate) fn check_error(retry_after_secs: u64, e: PartnerError) -> QffError {
    match e {
        PartnerError::UnknownMember => QffError::invalid("qff_number", UNKNOWN_NUMBER),
        PartnerError::NameMismatch => QffError::invalid("last_name", NAME_MISMATCH),
        PartnerError::Closed => QffError::invalid("qff_number", CLOSED),
        e if e.is_unavailable() => QffError::PartnerDown(retry_after_secs),
        e => {
            tracing::warn!(error = %e, "unexpected answer from the airline partner");
            QffError::PartnerDown(retry_after_secs)
        }
    }
}

/// Whether the profile service's refusal means it changed nothing (as opposed to a failure after
/// which the change may or may not have been made).
fn definite(code: Code) -> bool {
    matches!(
        code,
        Code::AlreadyExists
            | Code::InvalidArgument
            | Code::NotFound
            | Code::FailedPrecondition
            | Code::PermissionDenied
            | Code::Unauthenticated
            | Code::OutOfRange
            | Code::Unimplemented
            | Code::ResourceExhausted
    )
}

/// What a pass of the link reconciler did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LinksSettled {
    /// The profile holds the number: the link is linked.
    pub confirmed: u64,
    /// The profile doesn't: the pending row is gone.
    pub removed: u64,
    /// The profile couldn't say: still pending.
    pub pending: u64,
}

impl Qff {
    pub(crate) async fn status(&self, pid: &str) -> Result<pb::GetPointsResponse> {
        let redemption = Some(self.redemption().await?);
        let Some(link) = store::link_of(&self.db, pid).await? else {
            return Ok(pb::GetPointsResponse { redemption, ..Default::default() });
        };
        let (points, partner_error) = match self.partner.member(&link.qff_number).await {
            Ok(m) => (Some(m.points), String::new()),
            Err(e) => {
                tracing::warn!(error = %e, "reading the airline balance");
                (None, BALANCE_UNAVAILABLE.to_string())
            }
        };
        Ok(pb::GetPointsResponse {
            linked: true,
            qff_number: link.qff_number,
            points,
            last_name: link.last_name,
            linked_at: link.linked_at,
            partner_error,
            redemption,
        })
    }

    /// The member's airline activity, newest first.
    pub(crate) async fn history(&self, pid: &str, page: u32, per_page: u32) -> Result<pb::ListHistoryResponse> {
        let link = store::link_of(&self.db, pid).await?.ok_or(QffError::Refused(crate::error::NOT_LINKED))?;
        let page = self
            .partner
            .activity(&link.qff_number, page.max(1), per_page.clamp(1, 100))
            .await
            .map_err(|e| check_error(self.partner.retry_after_secs, e))?;
        let data = page
            .data
            .into_iter()
            .map(|a| pb::Activity { id: a.id, date: a.date, description: a.description, points: a.points, category: a.category })
            .collect();
        Ok(pb::ListHistoryResponse { data, total: page.total })
    }

    /// The number as typed (spaces removed), checked for shape, and the last name to check it
    /// with (the member's own when none is given).
    async fn number_and_name(&self, c: &Caller, number: &str, last_name: &str) -> Result<(String, String)> {
        let number: String = number.chars().filter(|ch| !ch.is_whitespace()).collect();
        if !((6..=10).contains(&number.len()) && number.chars().all(|ch| ch.is_ascii_digit())) {
            return Err(QffError::invalid("qff_number", "A Frequent Flyer number has 6 to 10 digits"));
        }
        let mut name = last_name.trim().to_string();
        if name.is_empty() {
            let mut ask = Request::new(GetProfileRequest {});
            c.write_to(ask.metadata_mut());
            name = self.profiles.clone().get_profile(ask).await?.into_inner().last_name;
        }
        if name.is_empty() || name.chars().count() > 100 {
            return Err(QffError::invalid("last_name", "Enter the last name on your Frequent Flyer account"));
        }
        Ok((number, name))
    }

    /// Checks an account with the airline without linking it.
    pub(crate) async fn check_account(&self, c: &Caller, number: &str, last_name: &str) -> Result<pb::ValidateResponse> {
        let (number, name) = self.number_and_name(c, number, last_name).await?;
        if store::linked_elsewhere(&self.db, &c.profile_id, &number).await? {
            return Err(QffError::Taken);
        }
        let m = self.partner.verify(&number, &name).await.map_err(|e| check_error(self.partner.retry_after_secs, e))?;
        Ok(pb::ValidateResponse { qff_number: m.membership_number, first_name: m.first_name, last_name: m.last_name })
    }

    pub(crate) async fn link_account(&self, c: &Caller, number: &str, last_name: &str) -> Result<pb::GetPointsResponse> {
        let pid = &c.profile_id;
        let (number, name) = self.number_and_name(c, number, last_name).await?;
        let existing = store::link_of(&self.db, pid).await?;
        match &existing {
            Some(l) if l.qff_number != number => return Err(QffError::UnlinkFirst),
            Some(l) if l.state == LINKED => return self.status(pid).await,
            // Pending with this number (an earlier attempt's outcome unknown): set the profile side again.
            _ => {}
        }
        if store::linked_elsewhere(&self.db, pid, &number).await? {
            return Err(QffError::Taken);
        }
        let m = self.partner.verify(&number, &name).await.map_err(|e| check_error(self.partner.retry_after_secs, e))?;
        let (last_name, linked_at) = match existing {
            Some(l) => (l.last_name, l.linked_at),
            None => {
                let now = portal_common::now_unix();
                // 1. Pending. The unique number decides between two members linking the same account at once.
                if !store::insert_pending(&self.db, pid, &number, &m.last_name, now).await? {
                    // This member linked meanwhile (another tab), or someone else took the number.
                    return match store::link_of(&self.db, pid).await? {
                        Some(l) if l.qff_number == number => self.status(pid).await,
                        Some(_) => Err(QffError::UnlinkFirst),
                        None => Err(QffError::Taken),
                    };
                }
                (m.last_name, now)
            }
        };
        // 2. The profile side.
        let attributes =
            [("qff_joined_at".to_string(), portal_common::rfc3339(linked_at)), ("qff_last_name".to_string(), last_name.clone())].into();
        if let Err(s) = self.set_profile_link(pid, &number, attributes).await {
            if !definite(s.code()) {
                tracing::warn!(error = %s.message(), "setting the profile side of a link; left pending for the reconciler");
                return Err(s.into());
            }
            // Refused: without the profile's side, no link.
            if let Err(e) = store::remove_pending(&self.db, pid, &number).await {
                tracing::error!(error = %e, "removing a refused pending link; left for the reconciler");
            }
            return Err(if s.code() == Code::AlreadyExists { QffError::Taken } else { s.into() });
        }
        // 3. Linked.
        if !store::confirm(&self.db, pid, &number, &last_name, linked_at).await? {
            tracing::error!("a link the profile now holds could not be recorded here: the number has another member's row");
        }
        tracing::info!("frequent-flyer account linked");
        self.status(pid).await
    }

    pub(crate) async fn unlink_account(&self, c: &Caller, reason: &str, comment: &str) -> Result<pb::GetPointsResponse> {
        let pid = &c.profile_id;
        if !UNLINK_REASONS.contains(&reason) {
            return Err(QffError::invalid("reason", "Choose a reason: wrong_account, not_using, privacy or other"));
        }
        if comment.chars().count() > 500 {
            return Err(QffError::invalid("comment", "Use at most 500 characters"));
        }
        let Some(link) = store::link_of(&self.db, pid).await? else {
            return Err(QffError::Refused("No Frequent Flyer account is linked"));
        };
        // 1. Pending: should the row outlive the profile side, the reconciler removes it.
        store::set_state(&self.db, pid, &link.qff_number, PENDING).await?;
        // 2. The profile side.
        if let Err(s) = self.set_profile_link(pid, "", BTreeMap::new()).await {
            if definite(s.code()) {
                if let Err(e) = store::set_state(&self.db, pid, &link.qff_number, &link.state).await {
                    tracing::error!(error = %e, "restoring a link the profile kept; left for the reconciler");
                }
            } else {
                tracing::warn!(error = %s.message(), "clearing the profile side of a link; left pending for the reconciler");
            }
            return Err(s.into());
        }
        // 3. The row, kept in the past links.
        store::record_unlink(&self.db, pid, &link, reason, comment.trim()).await?;
        tracing::info!(reason = %reason, "frequent-flyer account unlinked");
        self.status(pid).await
    }

    async fn set_profile_link(&self, pid: &str, number: &str, attributes: BTreeMap<String, String>) -> std::result::Result<(), Status> {
        let req = SetPartnerLinkRequest {
            profile_id: pid.to_string(),
            handle: "qff_number".into(),
            identifier: number.to_string(),
            namespace: "qantas".into(),
            attributes: attributes.into_iter().collect(),
        };
        self.profiles.clone().set_partner_link(req).await?;
        Ok(())
    }

    /// The airline number the member's profile holds ("" for none, or no profile any more).
    async fn profile_number(&self, pid: &str) -> std::result::Result<String, Status> {
        let member = Caller {
            profile_id: pid.to_string(),
            actor: None,
            tenant: None,
            staff: false,
            token_id: None,
            token_exp: None,
            auth_time: None,
        };
        let mut ask = Request::new(GetProfileRequest {});
        member.write_to(ask.metadata_mut());
        match self.profiles.clone().get_profile(ask).await {
            Ok(p) => Ok(p.into_inner().identities.into_iter().find(|i| i.handle == "qff_number").map(|i| i.identifier).unwrap_or_default()),
            Err(s) if s.code() == Code::NotFound => Ok(String::new()),
            Err(s) => Err(s),
        }
    }

    /// Settles the links left pending longer than `reconcile_after_secs`: linked when the
    /// profile holds the number, removed when it doesn't, left when it can't say. Safe to run on
    /// several instances at once: each link is claimed by one of them first, and each step only
    /// moves a row that is still pending.
    pub async fn reconcile_links(&self) -> Result<LinksSettled> {
        let mut out = LinksSettled::default();
        let holder = self.lease.holder();
        for (pid, number) in store::pending_links(&self.db, portal_common::now_unix() - self.reconcile_after_secs).await? {
            let now = portal_common::now_unix();
            if !store::take_link(&self.db, &pid, &number, holder, now, now + CLAIM_SECS).await? {
                continue;
            }
            let settled = self.reconcile_link(&pid, &number, &mut out).await;
            store::release_link(&self.db, &pid, &number, holder).await?;
            settled?;
        }
        Ok(out)
    }

    /// Asks the profile about one claimed pending link and settles it when the answer is clear.
    async fn reconcile_link(&self, pid: &str, number: &str, out: &mut LinksSettled) -> Result<()> {
        match self.profile_number(pid).await {
            Ok(held) if held == number => {
                store::settle_pending(&self.db, pid, number).await?;
                out.confirmed += 1;
            }
            Ok(held) => {
                if !held.is_empty() {
                    tracing::warn!("the profile holds another airline number than the pending link");
                }
                store::remove_pending(&self.db, pid, number).await?;
                out.removed += 1;
            }
            Err(s) => {
                tracing::info!(error = %s.message(), "the profile can't say what it holds; the link stays pending");
                out.pending += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_failure_leaves_the_profile_side_unknown() {
        for code in [Code::AlreadyExists, Code::InvalidArgument, Code::NotFound, Code::FailedPrecondition, Code::PermissionDenied] {
            assert!(definite(code), "{code:?} changed nothing: the pending row goes");
        }
        for code in [Code::Unavailable, Code::DeadlineExceeded, Code::Internal, Code::Unknown, Code::Cancelled, Code::Aborted] {
            assert!(!definite(code), "{code:?} may have changed the profile: the pending row stays for the reconciler");
        }
    }

    #[test]
    fn the_airlines_refusals_land_on_their_fields() {
        let s = Status::from(check_error(30, PartnerError::NameMismatch));
        assert_eq!((s.code(), portal_common::error::field_errors(&s)["last_name"].as_str()), (Code::InvalidArgument, NAME_MISMATCH));
        let s = Status::from(check_error(30, PartnerError::Timeout));
        assert_eq!((s.code(), s.metadata().get("retry-after").unwrap().to_str().unwrap()), (Code::Unavailable, "30"));
    }
}

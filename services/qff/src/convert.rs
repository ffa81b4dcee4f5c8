//! Converting the member's points to airline points: one saga per conversion, exactly once per
//! Idempotency-Key.
//!
//! 1. The key is claimed: a `running` row, unique per (member, key). The same key again gets the
//!    first answer (or 409 while it is still running); with another request, 422.
//! 2. The points are held in the ledger (`qff:<id>`): the balance no longer counts them and
//!    can't go below zero.
//! 3. The airline is credited under our reference (the conversion id).
//! 4. Credited: the hold is confirmed (`completed`). Refused: the hold is released (`failed`).
//!    No answer (timeout, 5xx): the conversion stays `pending`, and the reconciler asks the
//!    airline about the reference later: credited → confirm; never received → release.
//!
//! Settling is safe to run twice, also at once: the ledger settles a hold once (the same way
//! again changes nothing, the other way is refused), and a conversion leaves `running` or
//! `pending` once.The reconciler runs on the replica holding the `qff-reconciler` lease,
//! and claims each conversion before asking the airline about it, so even two reconcilers at once
//! ask once per conversion.
use crate::error::{QffError, NOT_LINKED};
use crate::partner::PartnerError;
use crate::store::{self, Stored};
use crate::Qff;
use portal_common::identity::Caller;
use portal_proto::profile::v1::{HoldPointsRequest, SettleHoldRequest};
use portal_proto::qff::v1 as pb;
use tonic::Code;

type Result<T> = std::result::Result<T, QffError>;

pub const NOT_ENOUGH: &str = "You don't have enough points for this conversion";
const PENDING: &str = "Qantas Frequent Flyer hasn't confirmed the transfer yet. Your points are held, and we'll finish it automatically.";
const NOT_RECEIVED: &str = "Qantas Frequent Flyer didn't receive the transfer. Your points were given back.";
const NOT_SENT: &str = "Qantas Frequent Flyer wasn't answering, so nothing was sent. Your points were given back.";
/// A `running` conversion untouched this long lost its request (a crash): the reconciler takes it.
const STALE_RUNNING_SECS: i64 = 120;
/// How long a reconciler's claim on a conversion lasts: longer than asking the airline and the
/// ledger about it takes. An instance that dies mid-way leaves the row to others after this.
const CLAIM_SECS: i64 = 300;
/// At most this many blocks in one conversion.
const MAX_BLOCKS: i64 = 1000;

fn hold_ref(id: &str) -> String {
    format!("qff:{id}")
}

fn refused(e: &PartnerError) -> String {
    let why = match e {
        PartnerError::Closed => "the account is closed. ",
        PartnerError::UnknownMember => "the account wasn't found. ",
        _ => "",
    };
    format!("Qantas Frequent Flyer refused the transfer{}{why}Your points were given back.", if why.is_empty() { ". " } else { ": " })
}

fn thousands(n: i64) -> String {
    let s = n.abs().to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

impl Stored {
    fn to_pb(&self, block_size: i64, replayed: bool) -> pb::Conversion {
        pb::Conversion {
            id: self.id.clone(),
            // A conversion whose request is still working on it shows as pending to anyone else.
            status: if self.status == "running" { "pending".into() } else { self.status.clone() },
            points: self.points,
            airline_points: self.airline_points,
            blocks: if block_size > 0 { self.points / block_size } else { 0 },
            qff_number: self.qff_number.clone(),
            created_at: self.created_at,
            settled_at: self.settled_at.unwrap_or(0),
            message: if self.status == "running" { PENDING.into() } else { self.message.clone() },
            balance: self.balance,
            replayed,
        }
    }
}

enum Outcome {
    Completed { credit_id: String },
    Failed { message: String },
}

impl Qff {
    /// The member's newest conversions, at most `limit`.
    pub(crate) async fn conversions(&self, pid: &str, limit: i64) -> Result<Vec<pb::Conversion>> {
        let block = self.redemption().await?.block_size;
        Ok(store::conversions(&self.db, pid, limit).await?.iter().map(|s| s.to_pb(block, false)).collect())
    }

    pub(crate) async fn convert_points(&self, c: &Caller, points: i64, key: &str) -> Result<pb::Conversion> {
        if !portal_common::is_idempotency_key(key) {
            return Err(QffError::invalid("idempotency_key", portal_common::IDEMPOTENCY_KEY_PROBLEM));
        }
        let now = portal_common::now_unix();
        if !c.signed_in_recently(now) {
            return Err(QffError::Reauthenticate);
        }
        let rules = self.redemption().await?;
        if rules.r#type != "points" {
            return Err(QffError::Refused("Points conversion isn't available"));
        }
        let block = rules.block_size;
        if points <= 0 || points % block != 0 || points / block > MAX_BLOCKS {
            return Err(QffError::invalid("points", format!("Convert a whole number of blocks of {} points", thousands(block))));
        }
        let link = store::link_of(&self.db, &c.profile_id).await?.ok_or(QffError::Refused(NOT_LINKED))?;
        let airline_points = points / block * rules.airline_points_per_block;
        let request = format!("points={points}");

        // 1. Claim the key.
        let id = portal_common::new_id("cnv_");
        let claim = store::Claim {
            id: &id,
            profile_id: &c.profile_id,
            key,
            request: &request,
            qff_number: &link.qff_number,
            points,
            airline_points,
            now,
        };
        if !store::claim(&self.db, &claim).await? {
            return self.answered_before(&c.profile_id, key, &request, block).await;
        }

        // Nothing is held while the airline is known to be down.
        if !self.partner.permits() {
            store::forget(&self.db, &id).await?;
            return Err(QffError::PartnerDown(self.partner.retry_after_secs));
        }

        // 2. Hold the points.
        let hold = HoldPointsRequest {
            profile_id: c.profile_id.clone(),
            points,
            reference: hold_ref(&id),
            reason: format!("Qantas Frequent Flyer {}", link.qff_number),
        };
        let balance = match self.loyalty.clone().hold_points(hold).await {
            Ok(h) => h.into_inner().balance,
            Err(s) if s.code() == Code::FailedPrecondition => {
                store::forget(&self.db, &id).await?;
                return Err(QffError::Refused(NOT_ENOUGH));
            }
            Err(s) if matches!(s.code(), Code::InvalidArgument | Code::NotFound) => {
                store::forget(&self.db, &id).await?;
                return Err(s.into());
            }
            Err(s) => {
                // Whether the hold was made is unknown: the reconciler finds out.
                tracing::warn!(error = %s.message(), "holding points for a conversion");
                store::mark_pending(&self.db, &id, PENDING, 0).await?;
                return Ok(store::conversion(&self.db, &id).await?.to_pb(block, false));
            }
        };

        // 3. Credit the airline under our reference.
        let credited = self.partner.credit(&id, &link.qff_number, airline_points, "Points transfer from My account").await;
        // 4. Settle.
        let outcome = match credited {
            Ok(credit) => Outcome::Completed { credit_id: credit.credit_id },
            // Never sent: nothing to wait for.
            Err(PartnerError::CircuitOpen | PartnerError::Unreachable) => Outcome::Failed { message: NOT_SENT.into() },
            Err(e) if e.is_failure() => {
                tracing::warn!(error = %e, conversion = %id, "the airline did not answer a credit; left for the reconciler");
                store::mark_pending(&self.db, &id, PENDING, balance).await?;
                return Ok(store::conversion(&self.db, &id).await?.to_pb(block, false));
            }
            Err(e) => {
                tracing::info!(error = %e, conversion = %id, "the airline refused a credit");
                Outcome::Failed { message: refused(&e) }
            }
        };
        self.settle(&id, &c.profile_id, "running", outcome).await?;
        Ok(store::conversion(&self.db, &id).await?.to_pb(block, false))
    }

    /// The first answer to this key, given again; or why it can't be.
    async fn answered_before(&self, pid: &str, key: &str, request: &str, block: i64) -> Result<pb::Conversion> {
        // Gone: a refusal that changed nothing was forgotten meanwhile. Try again as new.
        let Some(first) = store::conversion_by_key(&self.db, pid, key).await? else { return Err(QffError::StillRunning) };
        if first.request != request {
            return Err(QffError::invalid("idempotency_key", "This Idempotency-Key was used for a different request"));
        }
        if first.status == "running" {
            return Err(QffError::StillRunning);
        }
        Ok(first.to_pb(block, true))
    }

    /// Settles the conversion's hold as `outcome` says and records it, once. `from`: the status
    /// the caller saw. Returns whether this call recorded the outcome. When the ledger can't be
    /// reached the conversion is left pending, for the reconciler.
    async fn settle(&self, id: &str, pid: &str, from: &str, outcome: Outcome) -> Result<bool> {
        let confirm = matches!(outcome, Outcome::Completed { .. });
        let settled =
            self.loyalty.clone().settle_hold(SettleHoldRequest { profile_id: pid.to_string(), reference: hold_ref(id), confirm }).await;
        let balance = match settled {
            Ok(s) => Some(s.into_inner().balance),
            // No hold was ever made (its request failed before the ledger had it): nothing to give back.
            Err(s) if s.code() == Code::NotFound && !confirm => None,
            Err(s) => {
                tracing::warn!(error = %s.message(), conversion = %id, "settling a conversion's hold; left for the reconciler");
                if from == "running" {
                    store::mark_pending(&self.db, id, PENDING, 0).await?;
                }
                return Ok(false);
            }
        };
        let (status, message, credit_id) = match outcome {
            Outcome::Completed { credit_id } => ("completed", String::new(), Some(credit_id)),
            Outcome::Failed { message } => ("failed", message, None),
        };
        store::record_outcome(&self.db, id, status, &message, credit_id, balance).await
    }

    /// Settles the conversions the airline did not answer: asks it about each one's reference.
    /// Safe to run on several instances at once: each conversion is claimed by one of them
    /// first, so the airline is asked and the hold settled once per pass.
    pub async fn reconcile_conversions(&self) -> Result<pb::ReconcileResponse> {
        let now = portal_common::now_unix();
        let open = store::open_conversions(&self.db, now - self.reconcile_after_secs, now - STALE_RUNNING_SECS).await?;
        let mut out = pb::ReconcileResponse::default();
        let holder = self.lease.holder();
        let mut open_oldest = None;
        for c in open {
            // Claim it: of two reconcilers reading the same row, one moves `attempts` on, and none
            // takes a row the other is still settling.
            let now = portal_common::now_unix();
            if !store::take(&self.db, &c, holder, now, now + CLAIM_SECS).await? {
                continue;
            }
            let before = out.completed + out.failed;
            let settled = self.reconcile_one(&c, &mut out).await;
            store::release(&self.db, &c.id, holder).await?;
            settled?;
            if out.completed + out.failed == before {
                open_oldest = Some(open_oldest.map_or(c.created_at, |o: i64| o.min(c.created_at)));
            }
        }
        if portal_common::metrics::enabled() {
            // How long the oldest conversion still open has waited (0: none): the objective is
            // that the reconciler settles a pending conversion within the hour.
            let oldest = open_oldest.map_or(0, |created| (portal_common::now_unix() - created).max(0));
            metrics::gauge!("qff_pending_oldest_age_seconds").set(oldest as f64);
            for (result, n) in [("completed", out.completed), ("failed", out.failed)] {
                metrics::counter!("qff_reconciled_conversions_total", "result" => result).increment(u64::from(n));
            }
        }
        Ok(out)
    }

    /// Asks the airline about one claimed conversion and settles it when the answer is clear.
    async fn reconcile_one(&self, c: &Stored, out: &mut pb::ReconcileResponse) -> Result<()> {
        let outcome = match self.partner.credit_status(&c.id).await {
            Ok(credit) if credit.points == c.airline_points => Outcome::Completed { credit_id: credit.credit_id },
            Ok(credit) => {
                tracing::error!(conversion = %c.id, credited = credit.points, expected = c.airline_points, "the airline credited another amount; left pending");
                out.pending += 1;
                return Ok(());
            }
            Err(PartnerError::NoSuchCredit) => Outcome::Failed { message: NOT_RECEIVED.into() },
            Err(e) => {
                tracing::info!(error = %e, conversion = %c.id, "the airline can't say yet; still pending");
                out.pending += 1;
                return Ok(());
            }
        };
        let completed = matches!(outcome, Outcome::Completed { .. });
        if self.settle(&c.id, &c.profile_id, &c.status, outcome).await? {
            if completed {
                out.completed += 1;
            } else {
                out.failed += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_well() {
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(999), "999");
        assert_eq!(
            refused(&PartnerError::Closed),
            "Qantas Frequent Flyer refused the transfer: the account is closed. Your points were given back."
        );
        assert_eq!(refused(&PartnerError::Refused("x".into())), "Qantas Frequent Flyer refused the transfer. Your points were given back.");
    }
}

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
//! `pending` once.
use super::*;
use portal_proto::profile::v1::{HoldPointsRequest, SettleHoldRequest};

/// What a member whose sign-in is older than `RECENT_SIGN_IN_SECS` is told on converting.
pub const REAUTHENTICATE: &str = "For your security, please sign in again with a new code or link to convert points.";
pub const NOT_ENOUGH: &str = "You don't have enough points for this conversion";
pub const STILL_RUNNING: &str = "This conversion is still being processed";
const PENDING: &str = "Qantas Frequent Flyer hasn't confirmed the transfer yet. Your points are held, and we'll finish it automatically.";
const NOT_RECEIVED: &str = "Qantas Frequent Flyer didn't receive the transfer. Your points were given back.";
const NOT_SENT: &str = "Qantas Frequent Flyer wasn't answering, so nothing was sent. Your points were given back.";
/// A `running` conversion untouched this long lost its request (a crash): the reconciler takes it.
const STALE_RUNNING_SECS: i64 = 120;
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

const COLUMNS: &str =
    "id, profile_id, request, qff_number, points, airline_points, status, message, balance, created_at, settled_at, attempts";

#[derive(Debug, Clone)]
struct Stored {
    id: String,
    profile_id: String,
    request: String,
    qff_number: String,
    points: i64,
    airline_points: i64,
    status: String,
    message: String,
    balance: i64,
    created_at: i64,
    settled_at: Option<i64>,
    attempts: i64,
}

impl Stored {
    fn from_row(r: &sqlx::any::AnyRow) -> Stored {
        Stored {
            id: r.get("id"),
            profile_id: r.get("profile_id"),
            request: r.get("request"),
            qff_number: r.get("qff_number"),
            points: r.get("points"),
            airline_points: r.get("airline_points"),
            status: r.get("status"),
            message: r.get("message"),
            balance: r.get("balance"),
            created_at: r.get("created_at"),
            settled_at: r.get("settled_at"),
            attempts: r.get("attempts"),
        }
    }

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
    async fn stored(&self, id: &str) -> Result<Stored, Status> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM qff_conversions WHERE id = $1"))
            .bind(id)
            .fetch_one(&self.db.pool)
            .await
            .map_err(db_error)?;
        Ok(Stored::from_row(&row))
    }

    /// The member's newest conversions, at most `limit`.
    pub(crate) async fn conversions(&self, pid: &str, limit: i64) -> Result<Vec<pb::Conversion>, Status> {
        let block = self.redemption().await?.block_size;
        let rows =
            sqlx::query(&format!("SELECT {COLUMNS} FROM qff_conversions WHERE profile_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2"))
                .bind(pid)
                .bind(limit)
                .fetch_all(&self.db.pool)
                .await
                .map_err(db_error)?;
        Ok(rows.iter().map(|r| Stored::from_row(r).to_pb(block, false)).collect())
    }

    pub(crate) async fn convert_points(&self, c: &Caller, points: i64, key: &str) -> Result<pb::Conversion, Status> {
        if !portal_common::is_idempotency_key(key) {
            return Err(field(Code::InvalidArgument, "Send an Idempotency-Key header (1 to 255 printable characters)", "idempotency_key"));
        }
        let now = portal_common::now_unix();
        if !c.signed_in_recently(now) {
            return Err(portal_common::error::field_status(
                Code::PermissionDenied,
                REAUTHENTICATE,
                &[("session".to_string(), portal_common::identity::REAUTHENTICATE_FIELD.to_string())].into(),
            ));
        }
        let rules = self.redemption().await?;
        if rules.r#type != "points" {
            return Err(Status::failed_precondition("Points conversion isn't available"));
        }
        let block = rules.block_size;
        if points <= 0 || points % block != 0 || points / block > MAX_BLOCKS {
            return Err(field(
                Code::InvalidArgument,
                &format!("Convert a whole number of blocks of {} points", thousands(block)),
                "points",
            ));
        }
        let link = self.link_of(&c.profile_id).await?.ok_or_else(|| Status::failed_precondition(NOT_LINKED))?;
        let airline_points = points / block * rules.airline_points_per_block;
        let request = format!("points={points}");

        // 1. Claim the key.
        let id = portal_common::new_id("cnv_");
        let claimed = sqlx::query(
            "INSERT INTO qff_conversions (id, profile_id, idem_key, request, qff_number, points, airline_points, status, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'running', $8, $8)",
        )
        .bind(&id)
        .bind(&c.profile_id)
        .bind(key)
        .bind(&request)
        .bind(&link.qff_number)
        .bind(points)
        .bind(airline_points)
        .bind(now)
        .execute(&self.db.pool)
        .await;
        match claimed {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => return self.answered_before(&c.profile_id, key, &request, block).await,
            Err(e) => return Err(db_error(e)),
        }

        // Nothing is held while the airline is known to be down.
        if !self.partner.permits() {
            self.forget(&id).await?;
            return Err(partner_down(&self.partner));
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
                self.forget(&id).await?;
                return Err(Status::failed_precondition(NOT_ENOUGH));
            }
            Err(s) if matches!(s.code(), Code::InvalidArgument | Code::NotFound) => {
                self.forget(&id).await?;
                return Err(s);
            }
            Err(s) => {
                // Whether the hold was made is unknown: the reconciler finds out.
                tracing::warn!(error = %s.message(), "holding points for a conversion");
                self.mark_pending(&id, 0).await?;
                return Ok(self.stored(&id).await?.to_pb(block, false));
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
                self.mark_pending(&id, balance).await?;
                return Ok(self.stored(&id).await?.to_pb(block, false));
            }
            Err(e) => {
                tracing::info!(error = %e, conversion = %id, "the airline refused a credit");
                Outcome::Failed { message: refused(&e) }
            }
        };
        self.settle(&id, &c.profile_id, "running", outcome).await?;
        Ok(self.stored(&id).await?.to_pb(block, false))
    }

    /// The first answer to this key, given again; or why it can't be.
    async fn answered_before(&self, pid: &str, key: &str, request: &str, block: i64) -> Result<pb::Conversion, Status> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM qff_conversions WHERE profile_id = $1 AND idem_key = $2"))
            .bind(pid)
            .bind(key)
            .fetch_optional(&self.db.pool)
            .await
            .map_err(db_error)?;
        // Gone: a refusal that changed nothing was forgotten meanwhile. Try again as new.
        let Some(row) = row else { return Err(Status::aborted(STILL_RUNNING)) };
        let first = Stored::from_row(&row);
        if first.request != request {
            return Err(field(Code::InvalidArgument, "This Idempotency-Key was used for a different request", "idempotency_key"));
        }
        if first.status == "running" {
            return Err(Status::aborted(STILL_RUNNING));
        }
        Ok(first.to_pb(block, true))
    }

    /// Drops a claimed key whose request changed nothing (refused before any hold): a retry with
    /// the key is judged afresh.
    async fn forget(&self, id: &str) -> Result<(), Status> {
        sqlx::query("DELETE FROM qff_conversions WHERE id = $1 AND status = 'running'")
            .bind(id)
            .execute(&self.db.pool)
            .await
            .map_err(db_error)?;
        Ok(())
    }

    async fn mark_pending(&self, id: &str, balance: i64) -> Result<(), Status> {
        sqlx::query("UPDATE qff_conversions SET status = 'pending', message = $2, balance = $3, updated_at = $4 WHERE id = $1 AND status = 'running'")
            .bind(id)
            .bind(PENDING)
            .bind(balance)
            .bind(portal_common::now_unix())
            .execute(&self.db.pool)
            .await
            .map_err(db_error)?;
        Ok(())
    }

    /// Settles the conversion's hold as `outcome` says and records it, once. `from`: the status
    /// the caller saw. Returns whether this call recorded the outcome. When the ledger can't be
    /// reached the conversion is left pending, for the reconciler.
    async fn settle(&self, id: &str, pid: &str, from: &str, outcome: Outcome) -> Result<bool, Status> {
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
                    self.mark_pending(id, 0).await?;
                }
                return Ok(false);
            }
        };
        let (status, message, credit_id) = match outcome {
            Outcome::Completed { credit_id } => ("completed", String::new(), Some(credit_id)),
            Outcome::Failed { message } => ("failed", message, None),
        };
        let now = portal_common::now_unix();
        let n = sqlx::query(
            "UPDATE qff_conversions SET status = $2, message = $3, partner_credit_id = $4, settled_at = $5, updated_at = $5,
               balance = COALESCE($6, balance)
             WHERE id = $1 AND status IN ('running', 'pending')",
        )
        .bind(id)
        .bind(status)
        .bind(&message)
        .bind(credit_id)
        .bind(now)
        .bind(balance)
        .execute(&self.db.pool)
        .await
        .map_err(db_error)?
        .rows_affected();
        Ok(n == 1)
    }

    /// Settles the conversions the airline did not answer: asks it about each one's reference.
    /// Safe to run on several instances at once.
    pub async fn reconcile(&self) -> Result<pb::ReconcileResponse, Status> {
        let now = portal_common::now_unix();
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM qff_conversions
             WHERE (status = 'pending' AND updated_at <= $1) OR (status = 'running' AND updated_at <= $2)
             ORDER BY updated_at LIMIT 100"
        ))
        .bind(now - self.reconcile_after_secs)
        .bind(now - STALE_RUNNING_SECS)
        .fetch_all(&self.db.pool)
        .await
        .map_err(db_error)?;
        let mut out = pb::ReconcileResponse::default();
        for c in rows.iter().map(Stored::from_row) {
            // Take it: of two reconcilers reading the same row, one moves `attempts` on.
            let taken = sqlx::query(
                "UPDATE qff_conversions SET attempts = attempts + 1, updated_at = $4 WHERE id = $1 AND status = $2 AND attempts = $3",
            )
            .bind(&c.id)
            .bind(&c.status)
            .bind(c.attempts)
            .bind(now)
            .execute(&self.db.pool)
            .await
            .map_err(db_error)?
            .rows_affected();
            if taken != 1 {
                continue;
            }
            let outcome = match self.partner.credit_status(&c.id).await {
                Ok(credit) if credit.points == c.airline_points => Outcome::Completed { credit_id: credit.credit_id },
                Ok(credit) => {
                    tracing::error!(conversion = %c.id, credited = credit.points, expected = c.airline_points, "the airline credited another amount; left pending");
                    out.pending += 1;
                    continue;
                }
                Err(PartnerError::NoSuchCredit) => Outcome::Failed { message: NOT_RECEIVED.into() },
                Err(e) => {
                    tracing::info!(error = %e, conversion = %c.id, "the airline can't say yet; still pending");
                    out.pending += 1;
                    continue;
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
        }
        Ok(out)
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

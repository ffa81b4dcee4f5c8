//! Registering: the profile service checks the fields and creates the profile, and the new
//! member gets a link to finish signing up. The answer never says whether the address already
//! had an account: its mailbox is told instead, with a way in (a staff address gets nothing).
use crate::activity::Pending;
use crate::error::AuthError;
use crate::links::LinkTarget;
use crate::redirect::safe_redirect;
use crate::signin::{Account, LinkText};
use crate::state::{parse_email, Inner};
use portal_common::email::Email;
use portal_proto::auth::v1 as pb;
use portal_proto::profile::v1 as profile_pb;

/// The answer to every registration that passes the field checks, whether or not the address
/// already has an account (its mailbox is told which).
pub const REGISTERED: &str = "Check your inbox: we've emailed you a link to finish signing up.";

impl Inner {
    /// Someone asked to register an address that has an account: its mailbox gets a sign-in link
    /// instead, saying so.
    pub(crate) async fn send_existing_account_link(&self, acct: &Account, email: &Email, redirect: &str) -> Result<(), AuthError> {
        self.send_link_with(acct, email, redirect, &Pending::default(), &LinkTarget::portal(&self.public_url), LinkText::AlreadyMember)
            .await
    }

    /// Whether an address may be used to register: every valid one may (counted against the rate limits).
    pub(crate) async fn check_availability(&self, email: &str, ip: Option<&str>) -> Result<pb::CheckAvailabilityResponse, AuthError> {
        let email = parse_email(email)?;
        self.limit("availability", Some(email.as_str()), ip, 2).await?;
        // Whether the address has an account is told to its mailbox only (by Register), never
        // here: every valid address can be used to register.
        Ok(pb::CheckAvailabilityResponse { available: true })
    }

    /// Registers a new member; see the module doc for what each outcome sends.
    pub(crate) async fn register(&self, r: pb::RegisterRequest, ip: Option<&str>) -> Result<pb::RegisterResponse, AuthError> {
        let email = Email::parse(&r.email);
        if let Ok(e) = &email {
            self.limit("register", Some(e.as_str()), ip, 1).await?;
        }
        // A staff address is never a member's; it gets nothing, and the answer is the same.
        let staff = match &email {
            Ok(e) => self.staff_name_by_email(e).await?.is_some(),
            Err(_) => false,
        };
        // The profile service checks the other fields, whatever the address.
        let created = self
            .profiles
            .clone()
            .create_profile(profile_pb::CreateProfileRequest {
                email: if staff { String::new() } else { email.as_ref().map(|e| e.to_string()).unwrap_or_default() },
                first_name: r.first_name,
                last_name: r.last_name,
                phone: r.phone,
                birth_date: r.birth_date,
                dry_run: staff || email.is_err(),
            })
            .await;
        let answer = || Ok(pb::RegisterResponse { message: REGISTERED.into(), profile_id: String::new() });
        let redirect = safe_redirect(&r.redirect);
        match (email, created) {
            (Err(m), Err(s)) if s.code() == tonic::Code::InvalidArgument => {
                let mut f = portal_common::error::field_errors(&s);
                f.insert("email".into(), m.to_string());
                Err(AuthError::Fields(f))
            }
            (Err(m), _) => Err(AuthError::field("email", m)),
            (Ok(_), Ok(_)) if staff => answer(),
            (Ok(email), Ok(res)) => {
                let acct = Account { id: res.into_inner().profile_id, first_name: String::new(), phone: String::new(), staff: false };
                self.send_link(&acct, &email, &redirect, &Pending::default(), &LinkTarget::portal(&self.public_url)).await?;
                answer()
            }
            // Already a member: their mailbox is told, with a way in; the answer is the same.
            (Ok(email), Err(s)) if s.code() == tonic::Code::AlreadyExists => {
                if let Some(acct) = self.account(&email).await? {
                    self.send_existing_account_link(&acct, &email, &redirect).await?;
                }
                answer()
            }
            (Ok(_), Err(s)) => Err(s.into()),
        }
    }
}

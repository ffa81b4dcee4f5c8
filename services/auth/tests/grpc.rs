//! The auth service's own gRPC surface against real storage, on SQLite with the in-process KV and
//! on PostgreSQL with Redis: sign-in by code, "My sessions", a staff view of a member's account
//! and the privacy centre's guards. The services auth calls (profile, with refdata and
//! connections) run beside it with demo data; codes are read from the dev outbox, as the HTTP
//! tests read them.
use portal_common::grpc::Channel;
use portal_common::identity::Caller;
use portal_common::identity::{IMPERSONATION_PRIVACY, IMPERSONATION_READ_ONLY};
use portal_common::testing::{as_member, as_staff_view, channel, with_caller, Backend, Harness};
use portal_proto::auth::v1::{self as pb, auth_service_client::AuthServiceClient, check_session_response::State};
use tonic::{Code, Request, Status};

type Auth = AuthServiceClient<Channel>;

const MEMBER: &str = "demo@example.com";
const STAFF: &str = "staff@example.com";

portal_common::both_backends!(
    a_code_signs_in_once,
    sessions_are_listed_and_ended,
    privacy_refuses_staff_views,
    a_staff_view_never_acts_for_the_member,
    a_member_ends_a_staff_view
);

/// Starts refdata, connections, profile and auth, with demo data; a client of auth.
async fn start(backend: Backend) -> Option<(Harness, Auth)> {
    let mut h = Harness::new(backend)?;
    h.settings.demo_data = true;
    h.start("refdata", portal_refdata::build).await;
    h.start("connections", portal_connections::build).await;
    h.start("profile", portal_profile::build).await;
    let url = h.start("auth", portal_auth::build).await;
    Some((h, AuthServiceClient::new(channel(&url))))
}

/// The first six digits in a row in `text`.
fn six_digits(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(6)
        .find(|w| w.iter().all(char::is_ascii_digit))
        .map(|w| w.iter().collect())
        .unwrap_or_else(|| panic!("no code in {text:?}"))
}

/// Asks for a sign-in code by email; the code, read from the dev outbox.
async fn email_code(auth: &mut Auth, email: &str) -> String {
    let sent = auth.send_code(pb::SendCodeRequest { email: email.into(), channel: "email".into(), ..Default::default() }).await.unwrap();
    assert_eq!(sent.into_inner().message, portal_auth::CODE_SENT);
    let outbox = auth.list_outbox(pb::ListOutboxRequest { limit: 0 }).await.unwrap().into_inner().messages;
    let m = outbox.iter().find(|m| m.to == email && m.subject == "Your sign-in code").expect("a code email");
    six_digits(&m.text)
}

/// Signs in by an emailed code.
async fn sign_in(auth: &mut Auth, email: &str) -> pb::SessionToken {
    let code = email_code(auth, email).await;
    auth.verify_code(pb::VerifyCodeRequest { email: email.into(), code }).await.unwrap().into_inner()
}

/// The caller the gateway passes for a session: its holder, and the session itself.
fn session_caller(t: &pb::SessionToken, id: &str) -> Caller {
    Caller {
        profile_id: t.profile_id.clone(),
        actor: None,
        tenant: None,
        staff: t.staff,
        token_id: Some(id.into()),
        token_exp: Some(t.expiry),
        auth_time: None,
    }
}

async fn sessions(auth: &mut Auth, req: Request<pb::ListSessionsRequest>) -> pb::ListSessionsResponse {
    auth.list_sessions(req).await.unwrap().into_inner()
}

async fn state(auth: &mut Auth, id: &str) -> State {
    auth.check_session(pb::CheckSessionRequest { id: id.into() }).await.unwrap().into_inner().state()
}

fn refused(s: Status, code: Code, message: &str) {
    assert_eq!((s.code(), s.message()), (code, message));
}

async fn a_code_signs_in_once(backend: Backend) {
    let Some((h, mut auth)) = start(backend).await else { return };
    // An address without an account gets the same answer, and nothing is sent.
    let unknown = auth.send_code(pb::SendCodeRequest { email: "nobody@example.com".into(), channel: "email".into(), ..Default::default() });
    assert_eq!(unknown.await.unwrap().into_inner().message, portal_auth::CODE_SENT);
    assert!(auth.list_outbox(pb::ListOutboxRequest { limit: 0 }).await.unwrap().into_inner().messages.is_empty());

    let code = email_code(&mut auth, MEMBER).await;
    let t = auth.verify_code(pb::VerifyCodeRequest { email: MEMBER.into(), code: code.clone() }).await.unwrap().into_inner();
    assert!(t.profile_id.starts_with("prf_") && !t.staff, "{t:?}");
    assert!(!t.token.is_empty());
    assert_eq!(t.redirect, "/home");
    // Single use: the same code again is refused.
    let again = auth.verify_code(pb::VerifyCodeRequest { email: MEMBER.into(), code }).await.unwrap_err();
    refused(again, Code::Unauthenticated, "That code is wrong or has expired");
    let bad = auth.verify_code(pb::VerifyCodeRequest { email: MEMBER.into(), code: "12ab".into() }).await.unwrap_err();
    assert_eq!(bad.code(), Code::InvalidArgument);
    h.finish().await;
}

async fn sessions_are_listed_and_ended(backend: Backend) {
    let Some((h, mut auth)) = start(backend).await else { return };
    let first = sign_in(&mut auth, MEMBER).await;
    let listed = sessions(&mut auth, as_member(pb::ListSessionsRequest {}, &first.profile_id)).await;
    assert_eq!(listed.sessions.len(), 1);
    assert!(listed.staff_views.is_empty());
    let first_id = listed.sessions[0].id.clone();
    assert_eq!(state(&mut auth, &first_id).await, State::Live);

    let second = sign_in(&mut auth, MEMBER).await;
    let second_id = {
        let all = sessions(&mut auth, as_member(pb::ListSessionsRequest {}, &second.profile_id)).await.sessions;
        assert_eq!(all.len(), 2);
        all.into_iter().find(|s| s.id != first_id).unwrap().id
    };
    // The calling session is marked as such.
    let me = session_caller(&second, &second_id);
    let mine = sessions(&mut auth, with_caller(pb::ListSessionsRequest {}, &me)).await.sessions;
    assert!(mine.iter().all(|s| s.current == (s.id == second_id)), "{mine:?}");

    // Ending one session: it goes from the list, and its check says so.
    auth.revoke_session(with_caller(pb::RevokeSessionRequest { id: first_id.clone() }, &me)).await.unwrap();
    let left = sessions(&mut auth, with_caller(pb::ListSessionsRequest {}, &me)).await.sessions;
    assert_eq!(left.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), [second_id.as_str()]);
    assert_eq!(state(&mut auth, &first_id).await, State::Ended);
    let gone = auth.revoke_session(with_caller(pb::RevokeSessionRequest { id: first_id }, &me)).await.unwrap_err();
    refused(gone, Code::NotFound, "No such session");

    // Signing out ends the calling session.
    auth.logout(with_caller(pb::LogoutRequest {}, &me)).await.unwrap();
    assert_eq!(state(&mut auth, &second_id).await, State::Ended);
    assert!(sessions(&mut auth, as_member(pb::ListSessionsRequest {}, &second.profile_id)).await.sessions.is_empty());
    h.finish().await;
}

async fn privacy_refuses_staff_views(backend: Backend) {
    let Some((h, mut auth)) = start(backend).await else { return };
    let member = sign_in(&mut auth, MEMBER).await;
    let pid = member.profile_id.as_str();
    let view = auth.list_sessions(as_staff_view(pb::ListSessionsRequest {}, pid, portal_auth::STAFF_DEMO_ID)).await.unwrap_err();
    refused(view, Code::PermissionDenied, IMPERSONATION_PRIVACY);
    let others = auth.revoke_other_sessions(as_staff_view(pb::RevokeOtherSessionsRequest {}, pid, portal_auth::STAFF_DEMO_ID));
    refused(others.await.unwrap_err(), Code::PermissionDenied, IMPERSONATION_PRIVACY);
    let export = auth.export_member(as_staff_view(pb::ExportMemberRequest {}, pid, portal_auth::STAFF_DEMO_ID)).await.unwrap_err();
    refused(export, Code::PermissionDenied, IMPERSONATION_PRIVACY);
    // Nobody signed in; a staff user's own session, which has no account to export.
    let anonymous = auth.list_sessions(pb::ListSessionsRequest {}).await.unwrap_err();
    refused(anonymous, Code::Unauthenticated, "Please log in to continue");
    let staff = Caller { staff: true, ..session_caller(&member, "ses_x") };
    let staff = Caller { profile_id: portal_auth::STAFF_DEMO_ID.into(), ..staff };
    let own = auth.export_member(with_caller(pb::ExportMemberRequest {}, &staff)).await.unwrap_err();
    refused(own, Code::PermissionDenied, "Only members can do this");
    // The member's own export lists their session.
    let export = auth.export_member(as_member(pb::ExportMemberRequest {}, pid)).await.unwrap().into_inner();
    assert_eq!(export.sessions.len(), 1);
    h.finish().await;
}

/// The member-facing writes refuse a staff view themselves (the gateway refuses it too): the
/// sign-in address, the account's deletion and sessions in the privacy centre's words, activity
/// in the read-only words. Nothing is sent and no session ends.
async fn a_staff_view_never_acts_for_the_member(backend: Backend) {
    let Some((h, mut auth)) = start(backend).await else { return };
    let member = sign_in(&mut auth, MEMBER).await;
    let pid = member.profile_id.as_str();
    let id = sessions(&mut auth, as_member(pb::ListSessionsRequest {}, pid)).await.sessions[0].id.clone();
    let sent = auth.list_outbox(pb::ListOutboxRequest { limit: 0 }).await.unwrap().into_inner().messages.len();
    let view = |msg| as_staff_view(msg, pid, portal_auth::STAFF_DEMO_ID);

    let start = auth.start_email_change(view(pb::StartEmailChangeRequest { email: "new@example.com".into() }));
    refused(start.await.unwrap_err(), Code::PermissionDenied, IMPERSONATION_PRIVACY);
    let confirm = auth.confirm_email_change(as_staff_view(pb::ConfirmEmailChangeRequest { code: "123456".into() }, pid, "stf_1"));
    refused(confirm.await.unwrap_err(), Code::PermissionDenied, IMPERSONATION_PRIVACY);
    let deletion = auth.send_deletion_code(as_staff_view(pb::SendDeletionCodeRequest {}, pid, "stf_1"));
    refused(deletion.await.unwrap_err(), Code::PermissionDenied, IMPERSONATION_PRIVACY);
    let revoke = auth.revoke_session(as_staff_view(pb::RevokeSessionRequest { id: id.clone() }, pid, "stf_1"));
    refused(revoke.await.unwrap_err(), Code::PermissionDenied, IMPERSONATION_PRIVACY);
    let check_in = pb::RecordActivityRequest { mode: "check_in".into(), location: "melbourne".into(), ..Default::default() };
    let activity = auth.record_activity(as_staff_view(check_in, pid, "stf_1"));
    refused(activity.await.unwrap_err(), Code::PermissionDenied, IMPERSONATION_READ_ONLY);

    assert_eq!(auth.list_outbox(pb::ListOutboxRequest { limit: 0 }).await.unwrap().into_inner().messages.len(), sent, "nothing sent");
    assert_eq!(state(&mut auth, &id).await, State::Live, "the member's session goes on");
    h.finish().await;
}

async fn a_member_ends_a_staff_view(backend: Backend) {
    let Some((h, mut auth)) = start(backend).await else { return };
    let member = sign_in(&mut auth, MEMBER).await;
    let staff = sign_in(&mut auth, STAFF).await;
    assert!(staff.staff);
    assert_eq!(staff.profile_id, portal_auth::STAFF_DEMO_ID);
    let staff_session = sessions(&mut auth, as_member(pb::ListSessionsRequest {}, &staff.profile_id)).await.sessions[0].id.clone();
    let staff_caller = session_caller(&staff, &staff_session);

    // A member can't open a view; the staff user can, named in the member's "My sessions".
    let not_staff = auth
        .impersonate(as_member(pb::ImpersonateRequest { profile_id: member.profile_id.clone(), ..Default::default() }, &member.profile_id));
    refused(not_staff.await.unwrap_err(), Code::PermissionDenied, "Only staff can do this");
    let open = pb::ImpersonateRequest { profile_id: member.profile_id.clone(), staff_id: String::new(), reason: "Call 42".into() };
    let view = auth.impersonate(with_caller(open, &staff_caller)).await.unwrap().into_inner();
    assert_eq!(view.profile_id, member.profile_id);
    let listed = sessions(&mut auth, as_member(pb::ListSessionsRequest {}, &member.profile_id)).await;
    assert_eq!(listed.sessions.len(), 1, "the view is not one of the member's own sessions");
    assert_eq!(listed.staff_views.len(), 1);
    assert_eq!(listed.staff_views[0].staff_name, "Sam Staff");
    let view_id = listed.staff_views[0].id.clone();
    assert_eq!(state(&mut auth, &view_id).await, State::Live);

    // The member ends it; the access log shows when it started and that they ended it.
    auth.revoke_session(as_member(pb::RevokeSessionRequest { id: view_id.clone() }, &member.profile_id)).await.unwrap();
    assert_eq!(state(&mut auth, &view_id).await, State::Ended);
    let log = auth.list_access_log(as_member(pb::ListAccessLogRequest {}, &member.profile_id)).await.unwrap().into_inner().entries;
    let mut actions: Vec<(&str, &str)> = log.iter().map(|e| (e.action.as_str(), e.reason.as_str())).collect();
    actions.sort();
    assert_eq!(actions, [("start", "Call 42"), ("stop", "You ended this view")]);
    assert!(log.iter().all(|e| e.staff_id == portal_auth::STAFF_DEMO_ID));
    h.finish().await;
}

//! The qff service over gRPC, on both storage backends, against the real profile and refdata
//! services and the partner sandbox: linking, the airline balance, a conversion once per key,
//! unlinking, a staff view that may read but not write, and the link's saga (a profile that
//! didn't answer, settled by the reconciler; a number the profile says is taken). The HTTP
//! behaviour through the gateway is `services/launcher/tests/api/qff.rs`.
use portal_common::identity::Caller;
use portal_common::testing::{as_member, as_staff_view, channel, with_caller, Backend, Harness};
use portal_proto::profile::v1::{self as ppb, loyalty_service_client::LoyaltyServiceClient, profile_service_client::ProfileServiceClient};
use portal_proto::qff::v1::{self as pb, qff_service_client::QffServiceClient};
use sqlx::Row;
use tonic::Code;

type Channel = portal_common::grpc::Channel;

portal_common::both_backends!(
    a_member_links_converts_once_per_key_and_unlinks,
    a_staff_view_reads_but_never_writes,
    a_link_the_profile_did_not_answer_is_settled_by_the_reconciler,
    a_number_the_profile_holds_for_another_member_is_taken,
);

/// The services a test calls: qff, and the profile service it keeps the other side of the link in.
struct Stack {
    h: Harness,
    qff: QffServiceClient<Channel>,
    profiles: ProfileServiceClient<Channel>,
    loyalty: LoyaltyServiceClient<Channel>,
    sandbox: portal_qff_sandbox::Running,
    /// Where qff looks for the profile service; nothing listens there until [`Stack::profile_returns`].
    profile_port: Option<u16>,
}

/// Serves refdata, the partner sandbox and the profile service, then qff (`None` when the backend
/// is not configured). With `profile_down`, qff is given a profile address nobody listens on yet.
/// The reconciler settles what is pending at once (age 0) but only when asked: its own loop waits
/// an hour.
async fn start(backend: Backend, profile_down: bool) -> Option<Stack> {
    let mut h = Harness::new(backend)?;
    h.start("refdata", portal_refdata::build).await;
    // Only asked when a purchase is linked to a list item, which these tests don't do.
    h.absent("connections");
    let to_profile = channel(&h.start("profile", portal_profile::build).await);
    let sandbox = portal_qff_sandbox::spawn("127.0.0.1:0", portal_qff::partner::SANDBOX_KEY).await.expect("sandbox");
    h.settings.qff.api_url = Some(sandbox.url.clone());
    h.settings.qff.reconcile_after_secs = 0;
    h.settings.qff.reconcile_secs = 3600;
    let profile_port = profile_down.then(|| h.absent("profile"));
    let qff = h.start("qff", portal_qff::build).await;
    Some(Stack {
        qff: QffServiceClient::new(channel(&qff)),
        profiles: ProfileServiceClient::new(to_profile.clone()),
        loyalty: LoyaltyServiceClient::new(to_profile),
        sandbox,
        profile_port,
        h,
    })
}

impl Stack {
    /// A new member, and an airline account of theirs; (profile id, airline number).
    async fn member(&mut self, email: &str, number: &str) -> String {
        let req =
            ppb::CreateProfileRequest { email: email.into(), first_name: "Ada".into(), last_name: "Lovelace".into(), ..Default::default() };
        self.sandbox.sandbox.add_member(number, "Ada", "Lovelace", 1_000);
        self.profiles.create_profile(req).await.expect("created").into_inner().profile_id
    }

    /// The profile service comes up (on the same storage) where qff has been looking for it.
    async fn profile_returns(&mut self) {
        let mut settings = self.h.settings.clone();
        settings.grpc_port = self.profile_port.expect("started with the profile down");
        self.h.serve(portal_profile::build(&settings).await.expect("profile builds"));
    }

    async fn link(&mut self, pid: &str, number: &str) -> Result<pb::GetPointsResponse, tonic::Status> {
        let req = pb::LinkRequest { qff_number: number.into(), last_name: "Lovelace".into() };
        self.qff.link(as_member(req, pid)).await.map(|r| r.into_inner())
    }

    async fn points(&mut self, pid: &str) -> pb::GetPointsResponse {
        self.qff.get_points(as_member(pb::GetPointsRequest {}, pid)).await.expect("points").into_inner()
    }

    async fn reconcile(&mut self) {
        self.qff.reconcile(pb::ReconcileRequest {}).await.expect("reconciled");
    }

    /// The airline number on the member's profile ("" for none).
    async fn profile_number(&mut self, pid: &str) -> String {
        let p = self.profiles.get_profile(as_member(ppb::GetProfileRequest {}, pid)).await.expect("profile").into_inner();
        p.identities.into_iter().find(|i| i.handle == "qff_number").map(|i| i.identifier).unwrap_or_default()
    }

    /// The member's row in `qff_links`: its state, if there is one.
    async fn link_state(&self, pid: &str) -> Option<String> {
        let db = portal_common::db::Db::connect(&self.h.settings, "qff", &portal_qff::MIGRATOR).await.expect("qff storage");
        let row = sqlx::query("SELECT state FROM qff_links WHERE profile_id = $1").bind(pid).fetch_optional(&db.pool).await.unwrap();
        row.map(|r| r.get("state"))
    }

    async fn finish(self) {
        self.sandbox.task.abort();
        self.h.finish().await;
    }
}

/// The member's own session, signed in just now (converting needs a recent sign-in).
fn signed_in_now<T>(msg: T, pid: &str) -> tonic::Request<T> {
    let now = portal_common::now_unix();
    with_caller(
        msg,
        &Caller { profile_id: pid.into(), actor: None, tenant: None, staff: false, token_id: None, token_exp: None, auth_time: Some(now) },
    )
}

async fn a_member_links_converts_once_per_key_and_unlinks(backend: Backend) {
    let Some(mut s) = start(backend, false).await else { return };
    let pid = s.member("ada@example.com", "1900111111").await;
    let before = s.points(&pid).await;
    assert!(!before.linked);
    assert_eq!(before.redemption.as_ref().map(|r| (r.r#type.as_str(), r.block_size)), Some(("points", 1000)));

    let e = s.link(&pid, "12ab").await.unwrap_err();
    assert_eq!(
        (e.code(), portal_common::error::field_errors(&e)["qff_number"].as_str()),
        (Code::InvalidArgument, "A Frequent Flyer number has 6 to 10 digits")
    );
    let linked = s.link(&pid, "1900 111 111").await.expect("linked");
    assert_eq!((linked.linked, linked.qff_number.as_str(), linked.points), (true, "1900111111", Some(1_000)));
    assert_eq!(s.profile_number(&pid).await, "1900111111", "the profile holds the other side");
    assert_eq!(s.link_state(&pid).await.as_deref(), Some("linked"));
    assert!(s.link(&pid, "1900111111").await.expect("again: nothing changes").linked);
    let e = s.link(&pid, "1900123456").await.unwrap_err();
    assert_eq!((e.code(), e.message()), (Code::FailedPrecondition, "Unlink your current Frequent Flyer account first"));
    let history = s.qff.list_history(as_member(pb::ListHistoryRequest { page: 1, per_page: 2 }, &pid)).await.unwrap().into_inner();
    assert_eq!((history.data.len(), history.total), (2, 3));

    // A conversion, once per key.
    s.loyalty
        .adjust_points(ppb::AdjustPointsRequest {
            profile_id: pid.clone(),
            points: 5_000,
            source: "staff".into(),
            reason: "Goodwill".into(),
            reference: "goodwill-1".into(),
        })
        .await
        .expect("credited");
    let e = s.qff.convert(as_member(pb::ConvertRequest { points: 2_000, idempotency_key: "k1".into() }, &pid)).await.unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "an old sign-in is asked to sign in again");
    let convert = |key: &str| signed_in_now(pb::ConvertRequest { points: 2_000, idempotency_key: key.into() }, &pid);
    let first = s.qff.convert(convert("k1")).await.expect("converted").into_inner();
    assert_eq!((first.status.as_str(), first.airline_points, first.balance, first.replayed), ("completed", 1_000, 3_000, false));
    let again = s.qff.convert(convert("k1")).await.expect("replayed").into_inner();
    assert_eq!((again.id.as_str(), again.balance, again.replayed), (first.id.as_str(), 3_000, true));
    assert_eq!(s.sandbox.sandbox.points("1900111111"), Some(2_000), "the airline credited once");
    let other = signed_in_now(pb::ConvertRequest { points: 1_000, idempotency_key: "k1".into() }, &pid);
    assert_eq!(s.qff.convert(other).await.unwrap_err().code(), Code::InvalidArgument, "the key with another request");
    let list = s.qff.list_conversions(as_member(pb::ListConversionsRequest {}, &pid)).await.unwrap().into_inner();
    assert_eq!(list.conversions.len(), 1);

    // Unlinking needs a reason; then both sides are cleared and the link kept in the past links.
    let unlink = |reason: &str| as_member(pb::UnlinkRequest { reason: reason.into(), comment: " Not now ".into() }, &pid);
    assert_eq!(s.qff.unlink(unlink("bored")).await.unwrap_err().code(), Code::InvalidArgument);
    let after = s.qff.unlink(unlink("privacy")).await.expect("unlinked").into_inner();
    assert!(!after.linked);
    assert_eq!(s.profile_number(&pid).await, "");
    assert_eq!(s.link_state(&pid).await, None);
    let e = s.qff.unlink(unlink("privacy")).await.unwrap_err();
    assert_eq!((e.code(), e.message()), (Code::FailedPrecondition, "No Frequent Flyer account is linked"));
    let export = s.qff.export_member(as_member(pb::ExportMemberRequest {}, &pid)).await.unwrap().into_inner();
    assert!(export.link.is_none());
    assert_eq!((export.history.len(), export.history[0].comment.as_str(), export.conversions.len()), (1, "Not now", 1));
    s.finish().await;
}

async fn a_staff_view_reads_but_never_writes(backend: Backend) {
    let Some(mut s) = start(backend, false).await else { return };
    let pid = s.member("ada@example.com", "1900111111").await;
    s.link(&pid, "1900111111").await.expect("linked");
    let read = s.qff.get_points(as_staff_view(pb::GetPointsRequest {}, &pid, "stf_1")).await.expect("a view reads").into_inner();
    assert_eq!(read.qff_number, "1900111111");
    let writes = [
        s.qff
            .link(as_staff_view(pb::LinkRequest { qff_number: "1900111111".into(), last_name: String::new() }, &pid, "stf_1"))
            .await
            .map(|_| ()),
        s.qff
            .unlink(as_staff_view(pb::UnlinkRequest { reason: "privacy".into(), comment: String::new() }, &pid, "stf_1"))
            .await
            .map(|_| ()),
        s.qff.convert(as_staff_view(pb::ConvertRequest { points: 1_000, idempotency_key: "k".into() }, &pid, "stf_1")).await.map(|_| ()),
    ];
    for w in writes {
        let e = w.unwrap_err();
        assert_eq!((e.code(), e.message()), (Code::PermissionDenied, portal_common::identity::IMPERSONATION_READ_ONLY));
    }
    let e = s.qff.export_member(as_staff_view(pb::ExportMemberRequest {}, &pid, "stf_1")).await.unwrap_err();
    assert_eq!((e.code(), e.message()), (Code::PermissionDenied, portal_common::identity::IMPERSONATION_PRIVACY));
    let e = s.qff.erase_member(as_staff_view(pb::EraseMemberRequest {}, &pid, "stf_1")).await.unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied);
    assert_eq!(s.qff.get_points(pb::GetPointsRequest {}).await.unwrap_err().code(), Code::Unauthenticated);
    assert!(s.points(&pid).await.linked, "still linked");
    s.finish().await;
}

async fn a_link_the_profile_did_not_answer_is_settled_by_the_reconciler(backend: Backend) {
    let Some(mut s) = start(backend, true).await else { return };
    let ada = s.member("ada@example.com", "1900111111").await;
    let bob = s.member("bob@example.com", "1900222222").await;

    // The profile isn't answering: the links stay pending, and read as linked meanwhile.
    for (pid, number) in [(&ada, "1900111111"), (&bob, "1900222222")] {
        let e = s.link(pid, number).await.unwrap_err();
        assert_eq!(e.code(), Code::Unavailable, "{e:?}");
        assert_eq!(s.link_state(pid).await.as_deref(), Some("pending"));
        let p = s.points(pid).await;
        assert_eq!((p.linked, p.qff_number.as_str()), (true, number));
    }
    // Another member can't take a number while its link is pending.
    let carol = s.member("carol@example.com", "1900333333").await;
    let e = s.link(&carol, "1900111111").await.unwrap_err();
    assert_eq!(e.code(), Code::AlreadyExists);
    // The reconciler can't ask the profile yet: nothing changes.
    s.reconcile().await;
    assert_eq!(s.link_state(&ada).await.as_deref(), Some("pending"));

    // Ada's call did reach the profile after all (only its answer was lost); Bob's never did.
    let set = ppb::SetPartnerLinkRequest {
        profile_id: ada.clone(),
        handle: "qff_number".into(),
        identifier: "1900111111".into(),
        namespace: "qantas".into(),
        ..Default::default()
    };
    s.profiles.set_partner_link(set).await.expect("the profile side");
    s.profile_returns().await;
    s.reconcile().await;
    assert_eq!(s.link_state(&ada).await.as_deref(), Some("linked"), "the profile holds it: linked");
    assert!(s.points(&ada).await.linked);
    assert_eq!(s.link_state(&bob).await, None, "the profile doesn't: the pending row is gone");
    assert!(!s.points(&bob).await.linked);

    // Bob links again, now that the profile answers.
    let p = s.link(&bob, "1900222222").await.expect("linked");
    assert!(p.linked);
    assert_eq!(s.profile_number(&bob).await, "1900222222");
    assert_eq!(s.link_state(&bob).await.as_deref(), Some("linked"));
    s.finish().await;
}

async fn a_number_the_profile_holds_for_another_member_is_taken(backend: Backend) {
    let Some(mut s) = start(backend, false).await else { return };
    let ada = s.member("ada@example.com", "1900111111").await;
    let bob = s.member("bob@example.com", "1900222222").await;
    // The profile gives Bob Ada's number behind qff's back (qff has no row for it).
    let set = ppb::SetPartnerLinkRequest {
        profile_id: bob.clone(),
        handle: "qff_number".into(),
        identifier: "1900111111".into(),
        namespace: "qantas".into(),
        ..Default::default()
    };
    s.profiles.set_partner_link(set).await.expect("the profile side");

    let e = s.link(&ada, "1900111111").await.unwrap_err();
    assert_eq!((e.code(), e.message()), (Code::AlreadyExists, "This Frequent Flyer account is already linked to another member"));
    assert_eq!(portal_common::error::field_errors(&e)["qff_number"], "This Frequent Flyer account is already linked to another member");
    assert_eq!(s.link_state(&ada).await, None, "the pending row was removed");
    assert!(!s.points(&ada).await.linked);
    assert_eq!(s.profile_number(&ada).await, "");
    s.finish().await;
}

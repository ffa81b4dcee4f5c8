//! A staff user viewing a member's account (an impersonation token: the gateway passes the staff
//! id as the actor) sees everything but changes nothing, and the profile service itself refuses
//! every write RPC with `PermissionDenied` and the read-only message, whatever the gateway does.
//! Each write is one the member could make, so without the guard it would go through.
mod kit;

use portal_common::identity::IMPERSONATION_READ_ONLY;
use portal_common::testing::{as_member, as_staff_view, Backend};
use portal_proto::profile::v1 as pb;
use tonic::Code;

portal_common::both_backends!(a_staff_view_reads_but_never_writes);

const STAFF: &str = "stf_1";

/// What a write could change: the profile, claims, points, rewards and benefits.
async fn everything(s: &mut kit::Svc, pid: &str) -> (pb::Profile, Vec<pb::Claim>, i64, Vec<pb::Reward>, Vec<pb::Benefit>) {
    let profile = s.profiles.get_profile(as_member(pb::GetProfileRequest {}, pid)).await.expect("profile").into_inner();
    let claims = s.profiles.list_claims(as_member(pb::ListClaimsRequest {}, pid)).await.expect("claims").into_inner().claims;
    let rewards = s.loyalty.list_rewards(as_member(pb::ListRewardsRequest {}, pid)).await.expect("rewards").into_inner().rewards;
    let benefits = s.loyalty.list_benefits(as_member(pb::ListBenefitsRequest {}, pid)).await.expect("benefits").into_inner().benefits;
    let points = s.balance(pid).await;
    (profile, claims, points, rewards, benefits)
}

fn refused<T: std::fmt::Debug>(rpc: &str, r: Result<tonic::Response<T>, tonic::Status>) {
    let e = r.expect_err(rpc);
    assert_eq!((e.code(), e.message()), (Code::PermissionDenied, IMPERSONATION_READ_ONLY), "{rpc}");
}

async fn a_staff_view_reads_but_never_writes(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let pid = s.member("viewed@example.com").await;
    s.earn(&pid, 400, "test:earn:viewed").await;
    // The points move the member up a tier. The loyalty beat would review it at a moment of its
    // own, between two of the reads below; asking for the progress reviews it now.
    s.loyalty.get_tier_progress(as_member(pb::GetTierProgressRequest {}, &pid)).await.expect("tier progress");
    let before = everything(&mut s, &pid).await;

    // Reads go through, with what the member sees.
    let seen = s.profiles.get_profile(as_staff_view(pb::GetProfileRequest {}, &pid, STAFF)).await.expect("a staff view reads");
    assert_eq!(seen.into_inner(), before.0);
    let points = s.loyalty.get_balances(as_staff_view(pb::GetBalancesRequest {}, &pid, STAFF)).await.expect("a staff view reads");
    assert_eq!(points.into_inner().points, 400);

    let p = &mut s.profiles;
    let name = pb::UpdateProfileRequest { set: vec!["first_name".into()], first_name: "Grace".into(), ..Default::default() };
    refused("UpdateProfile", p.update_profile(as_staff_view(name, &pid, STAFF)).await);
    let size = pb::SetCustomAttributeRequest { namespace: "size".into(), handle: "shoe".into(), value: "9".into() };
    refused("SetCustomAttribute", p.set_custom_attribute(as_staff_view(size, &pid, STAFF)).await);
    let comms = pb::UpdateCommsRequest { comms: [("email".to_string(), false), ("news".to_string(), true)].into() };
    refused("UpdateComms", p.update_comms(as_staff_view(comms, &pid, STAFF)).await);
    let claim =
        pb::FileClaimRequest { store: "melbourne".into(), date: "2026-01-02".into(), receipt_number: "R-1".into(), amount: "10.00".into() };
    refused("FileClaim", p.file_claim(as_staff_view(claim, &pid, STAFF)).await);
    let link = pb::LinkListItemRequest { transaction_item_id: "txi_1".into(), product_list_item_id: "pli_1".into(), r#type: "link".into() };
    refused("LinkListItem", p.link_list_item(as_staff_view(link, &pid, STAFF)).await);

    let l = &mut s.loyalty;
    let redeem = pb::RedeemRequest { catalogue_id: "coffee".into(), idempotency_key: "viewed-1".into() };
    refused("Redeem", l.redeem(as_staff_view(redeem, &pid, STAFF)).await);
    refused("ActivateBenefit", l.activate_benefit(as_staff_view(pb::ActivateBenefitRequest { id: 1 }, &pid, STAFF)).await);

    assert_eq!(everything(&mut s, &pid).await, before, "nothing changed");
    let history = s.profiles.list_consent_history(as_member(pb::ListConsentHistoryRequest {}, &pid)).await.expect("history");
    assert!(history.into_inner().records.is_empty(), "no preference recorded");
    // The member's own session still may: the refusal is the staff view's alone.
    let redeem = pb::RedeemRequest { catalogue_id: "coffee".into(), idempotency_key: "viewed-1".into() };
    s.loyalty.redeem(as_member(redeem, &pid)).await.expect("the member redeems");
    s.h.finish().await;
}

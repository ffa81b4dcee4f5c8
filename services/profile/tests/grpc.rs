//! The profile service over gRPC, on both storage backends: profiles and preferences, points and
//! redemptions, who may call what, and the privacy centre's export and erasure. The HTTP behaviour
//! through the gateway is `services/launcher/tests/api/`.
mod kit;

use portal_common::testing::{as_member, as_staff_view, Backend};
use portal_proto::profile::v1 as pb;
use tonic::Code;

fn fields(s: &tonic::Status) -> Vec<String> {
    portal_common::error::field_errors(s).into_keys().collect()
}

portal_common::both_backends!(
    profiles_are_created_read_and_updated,
    preferences_are_kept_with_their_history,
    sizes_are_checked_against_the_tenants_charts,
    points_earned_show_in_the_balance,
    a_redemption_happens_once_per_key,
    another_members_data_is_unreachable,
    a_staff_view_reads_but_not_the_privacy_centre,
    a_member_exports_then_erases_their_data,
);

async fn profiles_are_created_read_and_updated(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let bad = pb::CreateProfileRequest {
        email: "ada@example.com".into(),
        first_name: "Ada".into(),
        phone: "call me".into(),
        ..Default::default()
    };
    let e = s.profiles.create_profile(bad).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert_eq!(fields(&e), ["last_name", "phone"]);

    let pid = s.member("ada@example.com").await;
    let again =
        pb::CreateProfileRequest { email: "ada@example.com".into(), first_name: "A".into(), last_name: "B".into(), ..Default::default() };
    let e = s.profiles.create_profile(again).await.unwrap_err();
    assert_eq!((e.code(), fields(&e)), (Code::AlreadyExists, vec!["email".to_string()]));

    let p = s.profiles.get_profile(as_member(pb::GetProfileRequest {}, &pid)).await.unwrap().into_inner();
    assert_eq!((p.id.as_str(), p.email.as_str(), p.first_name.as_str()), (pid.as_str(), "ada@example.com", "Ada"));

    let update = pb::UpdateProfileRequest { set: vec!["first_name".into()], first_name: "Augusta".into(), ..Default::default() };
    let p = s.profiles.update_profile(as_member(update, &pid)).await.unwrap().into_inner();
    assert_eq!((p.first_name.as_str(), p.last_name.as_str()), ("Augusta", "Lovelace"), "only what was sent changes");

    let future = pb::UpdateProfileRequest { set: vec!["birth_date".into()], birth_date: "2999-01-01".into(), ..Default::default() };
    let e = s.profiles.update_profile(as_member(future, &pid)).await.unwrap_err();
    assert_eq!((e.code(), fields(&e)), (Code::InvalidArgument, vec!["birth_date".to_string()]));
    let p = s.profiles.get_profile(as_member(pb::GetProfileRequest {}, &pid)).await.unwrap().into_inner();
    assert_eq!((p.first_name.as_str(), p.birth_date.as_str()), ("Augusta", ""), "a refused update changes nothing");

    let e = s.profiles.get_profile(pb::GetProfileRequest {}).await.unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated, "no caller in the metadata");
    s.h.finish().await;
}

async fn preferences_are_kept_with_their_history(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let pid = s.member("pref@example.com").await;
    let comms = |pairs: &[(&str, bool)]| pb::UpdateCommsRequest { comms: pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect() };

    let p = s.profiles.update_comms(as_member(comms(&[("email", true), ("sms", false)]), &pid)).await.unwrap().into_inner();
    assert_eq!((p.comms.get("email"), p.comms.get("sms")), (Some(&true), Some(&false)));
    let e = s.profiles.update_comms(as_member(comms(&[("carrier_pigeon", true)]), &pid)).await.unwrap_err();
    assert_eq!((e.code(), fields(&e)), (Code::InvalidArgument, vec!["carrier_pigeon".to_string()]));
    // A staff view sees the preferences but never changes them (tests/staff_view.rs).
    let e = s.profiles.update_comms(as_staff_view(comms(&[("email", false)]), &pid, "stf_1")).await.unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied);
    // Sent unchanged, a preference is not recorded again.
    s.profiles.update_comms(as_member(comms(&[("sms", false)]), &pid)).await.unwrap();

    let history = s.profiles.list_consent_history(as_member(pb::ListConsentHistoryRequest {}, &pid)).await.unwrap().into_inner().records;
    let mut seen: Vec<(String, bool, String)> = history.into_iter().map(|r| (r.channel, r.value, r.source)).collect();
    seen.sort();
    let want = [("email", true, "member"), ("sms", false, "member")];
    assert_eq!(seen, want.map(|(c, v, s)| (c.to_string(), v, s.to_string())));
    s.h.finish().await;
}

async fn sizes_are_checked_against_the_tenants_charts(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let pid = s.member("sizes@example.com").await;
    let set = |handle: &str, value: &str| {
        let r = pb::SetCustomAttributeRequest { namespace: "size".into(), handle: handle.into(), value: value.into() };
        as_member(r, &pid)
    };
    let p = s.profiles.set_custom_attribute(set("shoes", r#"{"system":"AU","size":"9.5","fit":"wide"}"#)).await.unwrap().into_inner();
    let shoes = p.custom_attributes.iter().find(|a| a.namespace == "size" && a.handle == "shoes").map(|a| a.value.clone());
    let stored: serde_json::Value = serde_json::from_str(&shoes.expect("stored")).unwrap();
    assert_eq!(stored, serde_json::json!({"system": "AU", "size": "9.5", "fit": "wide"}));

    for (handle, value, field) in
        [("shoes", r#"{"system":"AU","size":"99","fit":"wide"}"#, "value"), ("tops", "10", "value"), ("hats", "1", "key")]
    {
        let e = s.profiles.set_custom_attribute(set(handle, value)).await.unwrap_err();
        assert_eq!((e.code(), fields(&e)), (Code::InvalidArgument, vec![field.to_string()]), "{handle} {value}");
    }
    // An empty value removes the size.
    let p = s.profiles.set_custom_attribute(set("shoes", "")).await.unwrap().into_inner();
    assert!(!p.custom_attributes.iter().any(|a| a.namespace == "size"));
    s.h.finish().await;
}

async fn points_earned_show_in_the_balance(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let pid = s.member("points@example.com").await;
    assert_eq!(s.balance(&pid).await, 0);
    let first = s.earn(&pid, 500, "test:earn:1").await;
    assert_eq!((first.balance, first.created), (500, true));
    assert_eq!(s.balance(&pid).await, 500);
    let again = s.earn(&pid, 500, "test:earn:1").await;
    assert_eq!((again.entry_id, again.balance, again.created), (first.entry_id, 500, false), "a reference is posted once");

    let points = s.loyalty.list_points(as_member(pb::ListPointsRequest::default(), &pid)).await.unwrap().into_inner();
    assert_eq!(points.total, 1);
    assert_eq!((points.entries[0].points, points.entries[0].kind.as_str()), (500, "adjust"));
    s.h.finish().await;
}

async fn a_redemption_happens_once_per_key(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let pid = s.member("redeem@example.com").await;
    s.earn(&pid, 1000, "test:earn:redeem").await;
    let redeem = |id: &str, key: &str| as_member(pb::RedeemRequest { catalogue_id: id.into(), idempotency_key: key.into() }, &pid);

    let first = s.loyalty.redeem(redeem("coffee", "key-1")).await.unwrap().into_inner();
    assert_eq!((first.points_spent, first.balance, first.replayed), (300, 700, false));
    let retry = s.loyalty.redeem(redeem("coffee", "key-1")).await.unwrap().into_inner();
    assert_eq!((retry.points_spent, retry.balance, retry.replayed), (300, 700, true));
    assert_eq!(retry.reward.as_ref().map(|r| r.id), first.reward.as_ref().map(|r| r.id), "the same voucher, not a second one");
    assert_eq!(s.balance(&pid).await, 700, "debited once");

    let e = s.loyalty.redeem(redeem("tote", "key-1")).await.unwrap_err();
    assert_eq!((e.code(), fields(&e)), (Code::InvalidArgument, vec!["idempotency_key".to_string()]), "a key is for one request");
    let e = s.loyalty.redeem(redeem("coffee", "")).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "a key is required");

    let rewards = s.loyalty.list_rewards(as_member(pb::ListRewardsRequest {}, &pid)).await.unwrap().into_inner().rewards;
    assert_eq!(rewards.len(), 1);
    let second = s.loyalty.redeem(redeem("coffee", "key-2")).await.unwrap().into_inner();
    assert_eq!((second.balance, second.replayed), (400, false));
    s.h.finish().await;
}

async fn another_members_data_is_unreachable(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let (ann, bob) = (s.member("ann@example.com").await, s.member("bob@example.com").await);
    s.earn(&ann, 600, "test:earn:ann").await;
    let key = pb::RedeemRequest { catalogue_id: "coffee".into(), idempotency_key: "ann-1".into() };
    let voucher = s.loyalty.redeem(as_member(key, &ann)).await.unwrap().into_inner().reward.unwrap();

    // Bob asks with his own session: every answer is his, whatever id he sends.
    let e = s.loyalty.get_reward(as_member(pb::GetRewardRequest { id: voucher.id }, &bob)).await.unwrap_err();
    assert_eq!(e.code(), Code::NotFound);
    assert_eq!(s.balance(&bob).await, 0);
    let p = s.profiles.get_profile(as_member(pb::GetProfileRequest {}, &bob)).await.unwrap().into_inner();
    assert_eq!(p.email, "bob@example.com");
    let rewards = s.loyalty.list_rewards(as_member(pb::ListRewardsRequest {}, &bob)).await.unwrap().into_inner().rewards;
    assert!(rewards.is_empty());
    // The same key is Bob's own: it redeems nothing of Ann's (he has no points).
    let key = pb::RedeemRequest { catalogue_id: "coffee".into(), idempotency_key: "ann-1".into() };
    assert_eq!(s.loyalty.redeem(as_member(key, &bob)).await.unwrap_err().code(), Code::FailedPrecondition);
    assert_eq!(s.balance(&ann).await, 300);
    s.h.finish().await;
}

async fn a_staff_view_reads_but_not_the_privacy_centre(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let pid = s.member("viewed@example.com").await;
    s.earn(&pid, 200, "test:earn:viewed").await;

    let p = s.profiles.get_profile(as_staff_view(pb::GetProfileRequest {}, &pid, "stf_1")).await.unwrap().into_inner();
    assert_eq!(p.id, pid);
    let b = s.loyalty.get_balances(as_staff_view(pb::GetBalancesRequest {}, &pid, "stf_1")).await.unwrap().into_inner();
    assert_eq!(b.points, 200);

    let e = s.profiles.export_member(as_staff_view(pb::ExportMemberRequest {}, &pid, "stf_1")).await.unwrap_err();
    assert_eq!((e.code(), e.message()), (Code::PermissionDenied, portal_common::identity::IMPERSONATION_PRIVACY));
    let e = s.profiles.erase_member(as_staff_view(pb::EraseMemberRequest {}, &pid, "stf_1")).await.unwrap_err();
    assert_eq!((e.code(), e.message()), (Code::PermissionDenied, portal_common::identity::IMPERSONATION_PRIVACY));
    let e = s.profiles.erase_member(pb::EraseMemberRequest {}).await.unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
    // Nothing was erased.
    s.profiles.get_profile(as_member(pb::GetProfileRequest {}, &pid)).await.unwrap();
    s.h.finish().await;
}

async fn a_member_exports_then_erases_their_data(backend: Backend) {
    let Some(mut s) = kit::start(backend).await else { return };
    let pid = s.member("leaving@example.com").await;
    let other = s.member("staying@example.com").await;
    let comms = pb::UpdateCommsRequest { comms: [("news".to_string(), true)].into() };
    s.profiles.update_comms(as_member(comms, &pid)).await.unwrap();
    s.earn(&pid, 400, "test:earn:leaving").await;
    let key = pb::RedeemRequest { catalogue_id: "coffee".into(), idempotency_key: "leaving-1".into() };
    s.loyalty.redeem(as_member(key, &pid)).await.unwrap();

    let export = s.profiles.export_member(as_member(pb::ExportMemberRequest {}, &pid)).await.unwrap().into_inner();
    assert_eq!(export.profile.map(|p| p.email).as_deref(), Some("leaving@example.com"));
    assert_eq!(export.consent_history.len(), 1);
    assert_eq!(export.points_ledger.iter().map(|e| e.points).collect::<Vec<_>>(), [400, -300]);
    assert_eq!(export.rewards.len(), 1);

    let erased = s.profiles.erase_member(as_member(pb::EraseMemberRequest {}, &pid)).await.unwrap().into_inner();
    assert!(erased.erased);
    let again = s.profiles.erase_member(as_member(pb::EraseMemberRequest {}, &pid)).await.unwrap().into_inner();
    assert!(!again.erased, "a repeat finds nothing left");
    let e = s.profiles.get_profile(as_member(pb::GetProfileRequest {}, &pid)).await.unwrap_err();
    assert_eq!(e.code(), Code::NotFound);
    assert_eq!(s.balance(&pid).await, 0, "the ledger stays, but no longer the member's");
    let e = s.profiles.export_member(as_member(pb::ExportMemberRequest {}, &pid)).await.unwrap_err();
    assert_eq!(e.code(), Code::NotFound);
    // Another member is untouched.
    s.profiles.get_profile(as_member(pb::GetProfileRequest {}, &other)).await.unwrap();
    s.h.finish().await;
}

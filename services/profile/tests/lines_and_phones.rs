//! Two rules of what the profile service keeps, on both storage backends: a transaction line's
//! `amount_cents` is the line's total (quantity × unit price, negative for a return), so an
//! order's lines add up to its total; and a phone number written as it is dialled in the
//! member's country is kept in E.164.
use portal_common::config::Settings;
use portal_common::testing::{as_member, Backend, Harness};
use portal_proto::profile::v1::{self as pb, profile_service_client::ProfileServiceClient};
use tonic::Code;

struct Svc {
    h: Harness,
    profiles: ProfileServiceClient<portal_common::grpc::Channel>,
}

/// Refdata, then the profile service with `settings` as `change` leaves them (`None` when the
/// backend is not configured).
async fn start(backend: Backend, change: impl FnOnce(&mut Settings)) -> Option<Svc> {
    let mut h = Harness::new(backend)?;
    let refdata = h.serve(portal_refdata::build(&h.settings).await.expect("refdata builds"));
    h.settings.services.refdata = Some(refdata);
    h.settings.services.connections = Some("http://127.0.0.1:9".into());
    change(&mut h.settings);
    let url = h.serve(portal_profile::build(&h.settings).await.expect("profile builds"));
    let channel = portal_common::grpc::channel(&url).expect("channel");
    Some(Svc { h, profiles: ProfileServiceClient::new(channel) })
}

portal_common::both_backends!(the_demo_orders_lines_add_up_to_their_totals, phones_are_read_in_the_members_country);

const DEMO_ID: &str = "prf_0000000000000000000000d1";

async fn the_demo_orders_lines_add_up_to_their_totals(backend: Backend) {
    let Some(mut s) = start(backend, |settings| settings.demo_data = true).await else { return };
    let req = pb::ListTransactionsRequest { page: 1, per_page: 20, ..Default::default() };
    let txs = s.profiles.list_transactions(as_member(req, DEMO_ID)).await.unwrap().into_inner().transactions;
    assert_eq!(txs.len(), 3);
    for t in &txs {
        assert!(!t.items.is_empty(), "{}", t.id);
        assert_eq!(t.items.iter().map(|i| i.amount_cents).sum::<i64>(), t.total_cents, "{}'s lines add up to its total", t.id);
    }
    let with_return = txs.iter().find(|t| t.items.iter().any(|i| i.quantity < 0)).expect("an order with a return line");
    let lines: Vec<(i64, i64)> = with_return.items.iter().map(|i| (i.quantity, i.amount_cents)).collect();
    assert_eq!(lines, [(2, 13990), (-1, -6995)], "2 × $69.95, then one returned");
    assert_eq!(with_return.total_cents, 6995);
    s.h.finish().await;
}

async fn phones_are_read_in_the_members_country(backend: Backend) {
    let Some(mut s) = start(backend, |_| ()).await else { return };
    // Registration reads a number in the tenant's default country (AU in the repository's file).
    let req = pb::CreateProfileRequest {
        email: "ada@example.com".into(),
        first_name: "Ada".into(),
        last_name: "Lovelace".into(),
        phone: "0400 123 456".into(),
        ..Default::default()
    };
    let pid = s.profiles.create_profile(req).await.unwrap().into_inner().profile_id;
    let p = s.profiles.get_profile(as_member(pb::GetProfileRequest {}, &pid)).await.unwrap().into_inner();
    assert_eq!(p.phone, "+61400123456");

    let update = |phone: &str, address: Option<pb::Address>| {
        let mut set = vec!["phone".to_string()];
        if address.is_some() {
            set.push("address".into());
        }
        as_member(pb::UpdateProfileRequest { set, phone: phone.into(), address, ..Default::default() }, &pid)
    };
    let e = s.profiles.update_profile(update("0400 123", None)).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    let message = portal_common::error::field_errors(&e).remove("phone").unwrap_or_default();
    assert!(message.contains("Australia"), "{message}");

    let nz = pb::Address {
        line1: "1 Queen St".into(),
        city: "Auckland".into(),
        postcode: "1010".into(),
        country: "NZ".into(),
        ..Default::default()
    };
    let p = s.profiles.update_profile(update("021 123 4567", Some(nz))).await.unwrap().into_inner();
    assert_eq!(p.phone, "+64211234567", "the address sent with it names the country");
    let p = s.profiles.update_profile(update("+61 400 123 456", None)).await.unwrap().into_inner();
    assert_eq!(p.phone, "+61400123456", "with + any country's number");
    let e = s.profiles.update_profile(update("0400 123 456", None)).await.unwrap_err();
    let message = portal_common::error::field_errors(&e).remove("phone").unwrap_or_default();
    assert!(message.contains("New Zealand"), "read in the kept address's country: {message}");
    s.h.finish().await;
}

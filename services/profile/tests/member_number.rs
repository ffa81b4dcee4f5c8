//! Member numbers over gRPC, on both storage backends: issued when a profile is created (distinct
//! under concurrent creates), given to the demo members at start, the same after a restart, and
//! found by a staff search from any run of their digits.
use portal_common::testing::{as_member, channel, Backend, Harness};
use portal_profile::member_number::{is_valid, issue};
use portal_proto::profile::v1::{self as pb, profile_service_client::ProfileServiceClient};

type Profiles = ProfileServiceClient<portal_common::grpc::Channel>;

const DEMO_ID: &str = "prf_0000000000000000000000d1";
const OTHER_ID: &str = "prf_0000000000000000000000d2";

portal_common::both_backends!(
    a_new_profile_gets_a_valid_number,
    fifty_concurrent_creates_get_fifty_distinct_numbers,
    the_demo_members_are_numbered_the_same_on_every_start,
    staff_find_members_by_part_of_a_number_a_name_or_a_phone,
);

/// Refdata, then the profile service (demo members seeded when `demo`).
async fn start(backend: Backend, demo: bool) -> Option<(Harness, Profiles)> {
    let mut h = Harness::new(backend)?;
    h.settings.demo_data = demo;
    h.start("refdata", portal_refdata::build).await;
    h.absent("connections");
    let client = serve(&mut h).await;
    Some((h, client))
}

async fn serve(h: &mut Harness) -> Profiles {
    ProfileServiceClient::new(channel(&h.start("profile", portal_profile::build).await))
}

async fn create(client: &mut Profiles, email: &str, first: &str, phone: &str) -> String {
    let req = pb::CreateProfileRequest {
        email: email.into(),
        first_name: first.into(),
        last_name: "Lovelace".into(),
        phone: phone.into(),
        ..Default::default()
    };
    client.create_profile(req).await.expect("created").into_inner().profile_id
}

async fn number(client: &mut Profiles, pid: &str) -> String {
    client.get_profile(as_member(pb::GetProfileRequest {}, pid)).await.expect("profile").into_inner().member_number
}

async fn search(client: &mut Profiles, kind: &str, q: &str) -> Vec<String> {
    let req = pb::SearchProfilesRequest { r#type: kind.into(), id: q.into() };
    client.search_profiles(req).await.expect("search").into_inner().profiles.into_iter().map(|p| p.id).collect()
}

async fn a_new_profile_gets_a_valid_number(backend: Backend) {
    let Some((h, mut client)) = start(backend, false).await else { return };
    let pid = create(&mut client, "ada@example.com", "Ada", "").await;
    let n = number(&mut client, &pid).await;
    assert!(is_valid(&n), "{n}");
    assert_eq!(Some(n), issue(&h.settings.tenant, 1), "the tenant's first");
    let second = create(&mut client, "grace@example.com", "Grace", "").await;
    assert_eq!(Some(number(&mut client, &second).await), issue(&h.settings.tenant, 2));
    // A refused create (the address is taken) gives nobody a number twice.
    let again =
        pb::CreateProfileRequest { email: "ada@example.com".into(), first_name: "A".into(), last_name: "B".into(), ..Default::default() };
    assert!(client.create_profile(again).await.is_err());
    let third = create(&mut client, "hedy@example.com", "Hedy", "").await;
    let n3 = number(&mut client, &third).await;
    assert!(is_valid(&n3) && n3 != number(&mut client, &pid).await && n3 != number(&mut client, &second).await);
    h.finish().await;
}

async fn fifty_concurrent_creates_get_fifty_distinct_numbers(backend: Backend) {
    let Some((h, client)) = start(backend, false).await else { return };
    let creates: Vec<_> = (0..50)
        .map(|i| {
            let mut c = client.clone();
            tokio::spawn(async move { create(&mut c, &format!("m{i}@example.com"), "Ada", "").await })
        })
        .collect();
    let mut pids = Vec::new();
    for t in creates {
        pids.push(t.await.expect("joined"));
    }
    let mut numbers = std::collections::BTreeSet::new();
    let mut c = client.clone();
    for pid in &pids {
        let n = number(&mut c, pid).await;
        assert!(is_valid(&n), "{n}");
        numbers.insert(n);
    }
    assert_eq!(numbers.len(), 50, "all distinct");
    h.finish().await;
}

async fn the_demo_members_are_numbered_the_same_on_every_start(backend: Backend) {
    let Some((mut h, mut client)) = start(backend, true).await else { return };
    let tenant = h.settings.tenant.clone();
    assert_eq!(Some(number(&mut client, DEMO_ID).await), issue(&tenant, 1));
    assert_eq!(Some(number(&mut client, OTHER_ID).await), issue(&tenant, 2));
    let pid = create(&mut client, "ada@example.com", "Ada", "").await;
    assert_eq!(Some(number(&mut client, &pid).await), issue(&tenant, 3), "after the demo members");

    // Started again on the same storage: nobody's number changes, nobody gets a second.
    let mut again = serve(&mut h).await;
    assert_eq!(Some(number(&mut again, DEMO_ID).await), issue(&tenant, 1));
    assert_eq!(Some(number(&mut again, &pid).await), issue(&tenant, 3));
    let next = create(&mut again, "grace@example.com", "Grace", "").await;
    assert_eq!(Some(number(&mut again, &next).await), issue(&tenant, 4));
    h.finish().await;
}

async fn staff_find_members_by_part_of_a_number_a_name_or_a_phone(backend: Backend) {
    let Some((h, mut client)) = start(backend, false).await else { return };
    let ada = create(&mut client, "ada@example.com", "Ada", "+61400111222").await;
    let n = number(&mut client, &ada).await;
    assert_eq!(search(&mut client, "member_number", &n).await, [ada.as_str()], "the whole number");
    let spaced = format!("{} {} {}", &n[..4], &n[4..8], &n[8..]);
    assert_eq!(search(&mut client, "member_number", &spaced).await, [ada.as_str()], "as printed on the card");
    assert!(search(&mut client, "member_number", &n[5..]).await.contains(&ada), "the last digits");
    assert!(search(&mut client, "member_number", "Ada").await.is_empty(), "not digits");
    assert_eq!(search(&mut client, "phone", "111 222").await, [ada.as_str()]);
    assert_eq!(search(&mut client, "phone", "0400 111 222").await, [ada.as_str()], "as dialled in Australia");
    assert_eq!(search(&mut client, "phone", "0400 111").await, [ada.as_str()], "the start, as dialled in Australia");
    assert_eq!(search(&mut client, "phone", "+61 400 111 222").await, [ada.as_str()], "in international format");
    assert!(search(&mut client, "phone", "0500 111 222").await.is_empty(), "another number");
    assert_eq!(search(&mut client, "name", "ADA LOVE").await, [ada.as_str()]);
    assert_eq!(search(&mut client, "email", "ada@").await, [ada.as_str()]);
    assert!(search(&mut client, "name", "%").await.is_empty(), "a wildcard is a character");

    // Never more than a page.
    for i in 0..25 {
        create(&mut client, &format!("many{i}@example.com"), "Many", "").await;
    }
    assert_eq!(search(&mut client, "name", "many").await.len(), 20);
    h.finish().await;
}

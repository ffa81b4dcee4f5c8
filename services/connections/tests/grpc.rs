//! The connections service through its gRPC contract, on SQLite and on PostgreSQL, with refdata
//! served beside it for the tenant's kinds and caps: what a member may create and hold, that
//! another member's ids are not found, who may use the privacy centre, and the codes and
//! messages of each refusal (the gateway's HTTP tests rely on them).
use portal_common::error::field_errors;
use portal_common::grpc::Channel;
use portal_common::identity::IMPERSONATION_PRIVACY;
use portal_common::testing::{as_member, as_staff_view, channel, Backend, Harness};
use portal_proto::connections::v1::{self as pb, connections_service_client::ConnectionsServiceClient};
use std::collections::BTreeMap;
use tonic::{Code, Status};

type Client = ConnectionsServiceClient<Channel>;

const DANA: &str = "prf_0000000000000000000000a1";
const OMAR: &str = "prf_0000000000000000000000b2";

portal_common::both_backends!(
    connections_are_created_read_renamed_and_deleted,
    lists_and_items,
    lists_and_items_are_capped,
    items_are_removed_and_moved,
    a_move_keeps_to_the_cap,
    another_members_ids_are_not_found,
    a_staff_view_reads_but_cannot_use_the_privacy_centre,
    export_and_erase_member,
);

/// Refdata, then connections calling it; with `caps` (lists per connection, items per list) the
/// tenant file is the repository's with those caps instead.
async fn start(backend: Backend, caps: Option<(i64, i64)>) -> Option<(Harness, Client)> {
    let mut h = Harness::new(backend)?;
    if let Some((lists, items)) = caps {
        let text = std::fs::read_to_string(&h.settings.tenant_config).unwrap();
        let capped = text.replacen(r#""maxListsPerConnection": 20"#, &format!(r#""maxListsPerConnection": {lists}"#), 1).replacen(
            r#""maxItemsPerList": 200"#,
            &format!(r#""maxItemsPerList": {items}"#),
            1,
        );
        assert!(capped.contains(&format!(r#""maxItemsPerList": {items},"#)), "the repository's caps moved");
        let path = h.path("tenant.json");
        std::fs::write(&path, capped).unwrap();
        h.settings.tenant_config = path;
    }
    h.start("refdata", portal_refdata::build).await;
    let url = h.start("connections", portal_connections::build).await;
    Some((h, ConnectionsServiceClient::new(channel(&url))))
}

/// The status's code, message and field errors.
fn refusal(s: Status) -> (Code, String, BTreeMap<String, String>) {
    let fields = field_errors(&s);
    (s.code(), s.message().to_string(), fields)
}

fn no_fields() -> BTreeMap<String, String> {
    BTreeMap::new()
}

fn field(name: &str, problem: &str) -> BTreeMap<String, String> {
    BTreeMap::from([(name.to_string(), problem.to_string())])
}

/// In the order the service lists them: by creation time (in seconds), then by id.
fn in_order(mut v: Vec<pb::Connection>) -> Vec<pb::Connection> {
    v.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    v
}

/// Lists by id (the service orders them by creation time in seconds, then id: here by id only).
fn by_id(mut v: Vec<pb::ProductList>) -> Vec<pb::ProductList> {
    v.sort_by(|a, b| a.id.cmp(&b.id));
    v
}

async fn create(client: &mut Client, pid: &str, definition_id: &str) -> pb::Connection {
    let req = pb::CreateConnectionRequest { definition_id: definition_id.into(), name: String::new() };
    client.create_connection(as_member(req, pid)).await.unwrap().into_inner()
}

async fn new_list(client: &mut Client, pid: &str, connection_id: &str, handle: &str) -> Result<pb::ProductList, Status> {
    let req = pb::CreateListRequest { connection_id: connection_id.into(), handle: handle.into(), name: String::new() };
    client.create_list(as_member(req, pid)).await.map(|r| r.into_inner())
}

async fn add(client: &mut Client, pid: &str, list: &pb::ProductList, product: &str) -> Result<pb::AddListItemResponse, Status> {
    let req = pb::AddListItemRequest {
        connection_id: list.connection_id.clone(),
        list_id: list.id.clone(),
        product_id: product.into(),
        ..Default::default()
    };
    client.add_list_item(as_member(req, pid)).await.map(|r| r.into_inner())
}

async fn remove(client: &mut Client, pid: &str, list: &pb::ProductList, id: &str) -> Result<(), Status> {
    let req = pb::DeleteListItemRequest { connection_id: list.connection_id.clone(), list_id: list.id.clone(), id: id.into() };
    client.delete_list_item(as_member(req, pid)).await.map(drop)
}

async fn move_to(client: &mut Client, pid: &str, from: &pb::ProductList, id: &str, to: &str) -> Result<pb::ListItem, Status> {
    let req = pb::MoveListItemRequest {
        connection_id: from.connection_id.clone(),
        list_id: from.id.clone(),
        id: id.into(),
        to_list_id: to.into(),
    };
    client.move_list_item(as_member(req, pid)).await.map(|r| r.into_inner())
}

async fn find(client: &mut Client, pid: &str, ids: &[&str]) -> Vec<pb::ListItemRef> {
    let req = pb::FindListItemsRequest { ids: ids.iter().map(|s| s.to_string()).collect() };
    client.find_list_items(as_member(req, pid)).await.unwrap().into_inner().items
}

async fn connections(client: &mut Client, pid: &str) -> Vec<pb::Connection> {
    client.list_connections(as_member(pb::ListConnectionsRequest { page_size: 0 }, pid)).await.unwrap().into_inner().connections
}

async fn lists(client: &mut Client, pid: &str, connection_id: &str, handle: &str) -> Result<Vec<pb::ProductList>, Status> {
    let req = pb::ListListsRequest { connection_id: connection_id.into(), handle: handle.into() };
    client.list_lists(as_member(req, pid)).await.map(|r| r.into_inner().lists)
}

async fn connections_are_created_read_renamed_and_deleted(backend: Backend) {
    let Some((h, mut client)) = start(backend, None).await else { return };
    let no_one = client.list_connections(tonic::Request::new(pb::ListConnectionsRequest { page_size: 0 })).await.unwrap_err();
    assert_eq!(refusal(no_one), (Code::Unauthenticated, "No signed-in member".into(), no_fields()));
    assert!(connections(&mut client, DANA).await.is_empty(), "no demo data here");

    let req = pb::CreateConnectionRequest { definition_id: "myspace".into(), name: String::new() };
    let unknown = client.create_connection(as_member(req, DANA)).await.unwrap_err();
    let expected =
        (Code::InvalidArgument, "Please check the highlighted fields".into(), field("definition_id", "Unknown kind of connection"));
    assert_eq!(refusal(unknown), expected);

    let con = create(&mut client, DANA, " wishlist ").await;
    assert!(con.id.starts_with("con_"), "{con:?}");
    assert_eq!((con.definition_id.as_str(), con.connector.as_str(), con.name.as_str()), ("wishlist", "portal-lists", "Wish lists"));
    let req = pb::CreateConnectionRequest { definition_id: "wishlist".into(), name: "Another".into() };
    let twice = client.create_connection(as_member(req, DANA)).await.unwrap_err();
    let taken = "You already have this connection";
    assert_eq!(refusal(twice), (Code::AlreadyExists, taken.into(), field("definition_id", taken)));
    let req = pb::CreateConnectionRequest { definition_id: "def_shop".into(), name: format!("  {}  ", "n".repeat(90)) };
    let shop = client.create_connection(as_member(req, DANA)).await.unwrap().into_inner();
    assert_eq!(shop.name, "n".repeat(80), "trimmed, then cut to 80 characters");
    let both = in_order(vec![con.clone(), shop.clone()]);
    assert_eq!(connections(&mut client, DANA).await, both);
    let page = client.list_connections(as_member(pb::ListConnectionsRequest { page_size: 1 }, DANA)).await.unwrap();
    assert_eq!(page.into_inner().connections, both[..1]);

    let got = client.get_connection(as_member(pb::GetConnectionRequest { id: con.id.clone() }, DANA)).await.unwrap();
    assert_eq!(got.into_inner(), con);
    for name in ["", "   ", "bad\u{7}name"] {
        let req = pb::UpdateConnectionRequest { id: con.id.clone(), name: name.into() };
        let bad = client.update_connection(as_member(req, DANA)).await.unwrap_err();
        let expected = (Code::InvalidArgument, "Please check the highlighted fields".into(), field("name", "Use 1 to 80 characters"));
        assert_eq!(refusal(bad), expected, "{name:?}");
    }
    let req = pb::UpdateConnectionRequest { id: con.id.clone(), name: " Dana's wishes ".into() };
    let renamed = client.update_connection(as_member(req, DANA)).await.unwrap().into_inner();
    assert_eq!(renamed, pb::Connection { name: "Dana's wishes".into(), ..con.clone() });

    client.delete_connection(as_member(pb::DeleteConnectionRequest { id: con.id.clone() }, DANA)).await.unwrap();
    let gone = client.get_connection(as_member(pb::GetConnectionRequest { id: con.id.clone() }, DANA)).await.unwrap_err();
    assert_eq!(refusal(gone), (Code::NotFound, "No such connection".into(), no_fields()));
    let again = client.delete_connection(as_member(pb::DeleteConnectionRequest { id: con.id.clone() }, DANA)).await.unwrap_err();
    assert_eq!(refusal(again), (Code::NotFound, "No such connection".into(), no_fields()));
    assert_eq!(connections(&mut client, DANA).await, vec![shop]);
    h.finish().await;
}

async fn lists_and_items(backend: Backend) {
    let Some((h, mut client)) = start(backend, None).await else { return };
    let con = create(&mut client, DANA, "wishlist").await;
    let bad_handles = [("", "Required"), ("  ", "Required"), ("Wish List", "Use up to 32 lowercase letters, digits, - and _")];
    for (handle, problem) in bad_handles {
        let refused = new_list(&mut client, DANA, &con.id, handle).await.unwrap_err();
        assert_eq!(refusal(refused), (Code::InvalidArgument, "Error creating list".into(), field("handle", problem)), "{handle:?}");
    }
    let req = pb::CreateListRequest { connection_id: con.id.clone(), handle: "later".into(), name: "x".repeat(81) };
    let long = client.create_list(as_member(req, DANA)).await.unwrap_err();
    assert_eq!(refusal(long), (Code::InvalidArgument, "Error creating list".into(), field("name", "Use 80 characters or fewer")));

    let req = pb::CreateListRequest { connection_id: con.id.clone(), handle: "wishlist".into(), name: " Wish list ".into() };
    let wish = client.create_list(as_member(req, DANA)).await.unwrap().into_inner();
    assert_eq!((wish.connection_id.as_str(), wish.handle.as_str(), wish.name.as_str()), (con.id.as_str(), "wishlist", "Wish list"));
    let later = new_list(&mut client, DANA, &con.id, "later").await.unwrap();
    assert_eq!(later.name, "later", "the handle when no name is given");
    let twice = new_list(&mut client, DANA, &con.id, "wishlist").await.unwrap_err();
    let expected =
        (Code::AlreadyExists, "Error creating list".into(), field("handle", "This connection already has a list with this handle"));
    assert_eq!(refusal(twice), expected);
    let missing = new_list(&mut client, DANA, "con_nope", "wishlist").await.unwrap_err();
    assert_eq!(refusal(missing), (Code::NotFound, "Error creating list".into(), no_fields()));

    // Items: a product is in a list once.
    let item_refusals = [
        (pb::AddListItemRequest::default(), "product_id", "Give a product_variant_id or a product_id"),
        (pb::AddListItemRequest { product_id: "has space".into(), ..Default::default() }, "product_id", "Not a product id"),
        (
            pb::AddListItemRequest { product_id: "prd_1".into(), source: "Web Shop".into(), ..Default::default() },
            "source",
            "Use up to 32 lowercase letters, digits, - and _",
        ),
    ];
    for (req, name, problem) in item_refusals {
        let req = pb::AddListItemRequest { connection_id: con.id.clone(), list_id: wish.id.clone(), ..req };
        let refused = client.add_list_item(as_member(req, DANA)).await.unwrap_err();
        assert_eq!(refusal(refused), (Code::InvalidArgument, "Error creating list Item".into(), field(name, problem)));
    }
    let req = pb::AddListItemRequest {
        connection_id: con.id.clone(),
        list_id: wish.id.clone(),
        product_variant_id: "var_linen_shirt_m".into(),
        ..Default::default()
    };
    let first = client.add_list_item(as_member(req.clone(), DANA)).await.unwrap().into_inner();
    let item = first.item.clone().unwrap();
    assert!(first.created && item.id.starts_with("li_"), "{first:?}");
    assert_eq!((item.list_id.as_str(), item.product_id.as_str(), item.source.as_str()), (wish.id.as_str(), "", "profile-portal"));
    let again = client.add_list_item(as_member(pb::AddListItemRequest { source: "app".into(), ..req }, DANA)).await.unwrap().into_inner();
    assert_eq!((again.created, again.item), (false, Some(item.clone())), "the item already there");
    let other_list = pb::ProductList { id: "lst_nope".into(), ..wish.clone() };
    let no_list = add(&mut client, DANA, &other_list, "prd_1").await.unwrap_err();
    assert_eq!(refusal(no_list), (Code::NotFound, "Error creating list Item".into(), no_fields()));

    let all = by_id(lists(&mut client, DANA, &con.id, "").await.unwrap());
    assert_eq!(all, by_id(vec![pb::ProductList { items: vec![item.clone()], ..wish.clone() }, later.clone()]));
    assert_eq!(lists(&mut client, DANA, &con.id, " later ").await.unwrap(), vec![later]);
    let got = client.get_list_item(as_member(pb::GetListItemRequest { id: item.id.clone() }, DANA)).await.unwrap().into_inner();
    assert_eq!(got, pb::ListItemRef { id: item.id.clone(), list_id: wish.id.clone(), connection_id: con.id.clone() });

    // Deleting the connection takes its lists and their items.
    client.delete_connection(as_member(pb::DeleteConnectionRequest { id: con.id.clone() }, DANA)).await.unwrap();
    let gone = lists(&mut client, DANA, &con.id, "").await.unwrap_err();
    assert_eq!(refusal(gone), (Code::NotFound, "No such connection".into(), no_fields()));
    let gone = client.get_list_item(as_member(pb::GetListItemRequest { id: item.id }, DANA)).await.unwrap_err();
    assert_eq!(refusal(gone), (Code::NotFound, "No such list item".into(), no_fields()));
    h.finish().await;
}

async fn lists_and_items_are_capped(backend: Backend) {
    let Some((h, mut client)) = start(backend, Some((2, 3))).await else { return };
    let con = create(&mut client, DANA, "wishlist").await;
    let first = new_list(&mut client, DANA, &con.id, "wishlist").await.unwrap();
    new_list(&mut client, DANA, &con.id, "birthday").await.unwrap();
    let third = new_list(&mut client, DANA, &con.id, "later").await.unwrap_err();
    assert_eq!(refusal(third), (Code::InvalidArgument, "This connection already holds 2 lists, the most it can".into(), no_fields()));
    assert_eq!(lists(&mut client, DANA, &con.id, "").await.unwrap().len(), 2);

    // Concurrent adds can't pass the cap between them.
    let adds = (0..6).map(|i| {
        let (mut client, list) = (client.clone(), first.clone());
        tokio::spawn(async move { add(&mut client, DANA, &list, &format!("prd_{i}")).await })
    });
    let mut added = Vec::new();
    for a in adds.collect::<Vec<_>>() {
        match a.await.unwrap() {
            Ok(r) => added.push(r.item.unwrap()),
            Err(s) => {
                assert_eq!(refusal(s), (Code::InvalidArgument, "This list already holds 3 items, the most it can".into(), no_fields()))
            }
        }
    }
    assert_eq!(added.len(), 3, "{added:?}");
    // A product already on the full list is still found there, not refused.
    let held = add(&mut client, DANA, &first, &added[0].product_id).await.unwrap();
    assert_eq!((held.created, held.item), (false, Some(added[0].clone())));
    h.finish().await;
}

/// Items leave a list, or move to another list of the member's (another connection's too)
/// keeping their id; the same product on the target list gives way; a purchase's links follow.
async fn items_are_removed_and_moved(backend: Backend) {
    let Some((h, mut client)) = start(backend, None).await else { return };
    let con = create(&mut client, DANA, "wishlist").await;
    let wish = new_list(&mut client, DANA, &con.id, "wishlist").await.unwrap();
    let later = new_list(&mut client, DANA, &con.id, "later").await.unwrap();
    let shop = create(&mut client, DANA, "def_shop").await;
    let cart = new_list(&mut client, DANA, &shop.id, "cart").await.unwrap();
    let [a, b, c] = ["prd_a", "prd_b", "prd_c"];
    let a = add(&mut client, DANA, &wish, a).await.unwrap().item.unwrap();
    let b = add(&mut client, DANA, &wish, b).await.unwrap().item.unwrap();
    let c = add(&mut client, DANA, &wish, c).await.unwrap().item.unwrap();
    let b_later = add(&mut client, DANA, &later, "prd_b").await.unwrap().item.unwrap();

    remove(&mut client, DANA, &wish, &a.id).await.unwrap();
    let again = remove(&mut client, DANA, &wish, &a.id).await.unwrap_err();
    assert_eq!(refusal(again), (Code::NotFound, "No such list item".into(), no_fields()));
    let wrong_list = remove(&mut client, DANA, &later, &c.id).await.unwrap_err();
    assert_eq!(refusal(wrong_list), (Code::NotFound, "No such list item".into(), no_fields()), "named through its own list only");

    let moved = move_to(&mut client, DANA, &wish, &c.id, &cart.id).await.unwrap();
    assert_eq!(moved, pb::ListItem { list_id: cart.id.clone(), ..c.clone() }, "to another connection's list, same id");
    let merged = move_to(&mut client, DANA, &wish, &b.id, &later.id).await.unwrap();
    assert_eq!(merged, pb::ListItem { list_id: later.id.clone(), ..b.clone() });
    let stay = move_to(&mut client, DANA, &later, &b.id, &later.id).await.unwrap();
    assert_eq!(stay, merged, "a move to its own list changes nothing");
    let blank = move_to(&mut client, DANA, &later, &b.id, " ").await.unwrap_err();
    assert_eq!(refusal(blank), (Code::InvalidArgument, "Please check the highlighted fields".into(), field("list_id", "Required")));
    let nowhere = move_to(&mut client, DANA, &later, &b.id, "lst_nope").await.unwrap_err();
    assert_eq!(refusal(nowhere), (Code::NotFound, "No such list".into(), no_fields()));

    let wish_now = lists(&mut client, DANA, &con.id, "").await.unwrap();
    assert_eq!(by_id(wish_now), by_id(vec![wish.clone(), pb::ProductList { items: vec![merged.clone()], ..later.clone() }]));
    assert_eq!(lists(&mut client, DANA, &shop.id, "").await.unwrap(), vec![pb::ProductList { items: vec![moved.clone()], ..cart.clone() }]);
    let found = find(&mut client, DANA, &[&a.id, &b.id, &c.id, &b_later.id, "li_nope"]).await;
    let at = |i: &pb::ListItem, l: &pb::ProductList| pb::ListItemRef {
        id: i.id.clone(),
        list_id: l.id.clone(),
        connection_id: l.connection_id.clone(),
    };
    let mut expected = vec![at(&b, &later), at(&c, &cart)];
    expected.sort_by(|x, y| x.id.cmp(&y.id));
    assert_eq!(found, expected, "removed and given-way items are gone; moved ones are where they went");
    assert!(find(&mut client, DANA, &[]).await.is_empty());
    let too_many = pb::FindListItemsRequest { ids: vec!["li_x".into(); 501] };
    let refused = client.find_list_items(as_member(too_many, DANA)).await.unwrap_err();
    assert_eq!(
        refusal(refused),
        (Code::InvalidArgument, "Please check the highlighted fields".into(), field("ids", "Ask for 500 or fewer"))
    );
    h.finish().await;
}

async fn a_move_keeps_to_the_cap(backend: Backend) {
    let Some((h, mut client)) = start(backend, Some((3, 2))).await else { return };
    let con = create(&mut client, DANA, "wishlist").await;
    let (wish, full) =
        (new_list(&mut client, DANA, &con.id, "wishlist").await.unwrap(), new_list(&mut client, DANA, &con.id, "full").await.unwrap());
    for p in ["prd_1", "prd_2"] {
        add(&mut client, DANA, &full, p).await.unwrap();
    }
    let new = add(&mut client, DANA, &wish, "prd_3").await.unwrap().item.unwrap();
    let same = add(&mut client, DANA, &wish, "prd_1").await.unwrap().item.unwrap();
    let refused = move_to(&mut client, DANA, &wish, &new.id, &full.id).await.unwrap_err();
    assert_eq!(refusal(refused), (Code::InvalidArgument, "This list already holds 2 items, the most it can".into(), no_fields()));
    let merged = move_to(&mut client, DANA, &wish, &same.id, &full.id).await.unwrap();
    assert_eq!(merged.list_id, full.id, "the same product takes the place of the one there");
    let now = by_id(lists(&mut client, DANA, &con.id, "").await.unwrap());
    let full_now = now.iter().find(|l| l.id == full.id).unwrap();
    assert_eq!(full_now.items.len(), 2);
    assert!(full_now.items.contains(&merged));
    assert_eq!(now.iter().find(|l| l.id == wish.id).unwrap().items, vec![new]);
    h.finish().await;
}

async fn another_members_ids_are_not_found(backend: Backend) {
    let Some((h, mut client)) = start(backend, None).await else { return };
    let con = create(&mut client, DANA, "wishlist").await;
    let list = new_list(&mut client, DANA, &con.id, "wishlist").await.unwrap();
    let item = add(&mut client, DANA, &list, "prd_1").await.unwrap().item.unwrap();

    assert!(connections(&mut client, OMAR).await.is_empty());
    let not_found = |s: Status, message: &str| assert_eq!(refusal(s), (Code::NotFound, message.to_string(), no_fields()));
    not_found(
        client.get_connection(as_member(pb::GetConnectionRequest { id: con.id.clone() }, OMAR)).await.unwrap_err(),
        "No such connection",
    );
    let rename = pb::UpdateConnectionRequest { id: con.id.clone(), name: "Mine now".into() };
    not_found(client.update_connection(as_member(rename, OMAR)).await.unwrap_err(), "No such connection");
    let delete = pb::DeleteConnectionRequest { id: con.id.clone() };
    not_found(client.delete_connection(as_member(delete, OMAR)).await.unwrap_err(), "No such connection");
    not_found(lists(&mut client, OMAR, &con.id, "").await.unwrap_err(), "No such connection");
    not_found(new_list(&mut client, OMAR, &con.id, "mine").await.unwrap_err(), "Error creating list");
    not_found(add(&mut client, OMAR, &list, "prd_2").await.unwrap_err(), "Error creating list Item");
    let get_item = pb::GetListItemRequest { id: item.id.clone() };
    not_found(client.get_list_item(as_member(get_item, OMAR)).await.unwrap_err(), "No such list item");
    not_found(remove(&mut client, OMAR, &list, &item.id).await.unwrap_err(), "No such list item");
    not_found(move_to(&mut client, OMAR, &list, &item.id, &list.id).await.unwrap_err(), "No such list item");
    assert!(find(&mut client, OMAR, &[&item.id]).await.is_empty());

    // Omar's own connection of the same kind is his; Dana's is as she left it.
    let his = create(&mut client, OMAR, "wishlist").await;
    assert_ne!(his.id, con.id);
    let his_list = new_list(&mut client, OMAR, &his.id, "wishlist").await.unwrap();
    let into_his = move_to(&mut client, DANA, &list, &item.id, &his_list.id).await.unwrap_err();
    not_found(into_his, "No such list");
    assert_eq!(connections(&mut client, DANA).await, vec![con.clone()]);
    assert_eq!(lists(&mut client, DANA, &con.id, "").await.unwrap(), vec![pb::ProductList { items: vec![item], ..list }]);
    h.finish().await;
}

/// The service reads a staff view as the member it views; its writes are refused by the
/// gateway before they reach a service, and the privacy centre refuses it here.
async fn a_staff_view_reads_but_cannot_use_the_privacy_centre(backend: Backend) {
    let Some((h, mut client)) = start(backend, None).await else { return };
    let con = create(&mut client, DANA, "wishlist").await;
    let view = client.list_connections(as_staff_view(pb::ListConnectionsRequest { page_size: 0 }, DANA, "stf_1")).await.unwrap();
    assert_eq!(view.into_inner().connections, vec![con.clone()]);
    let got = client.get_connection(as_staff_view(pb::GetConnectionRequest { id: con.id.clone() }, DANA, "stf_1")).await.unwrap();
    assert_eq!(got.into_inner(), con);

    let export = client.export_member(as_staff_view(pb::ExportMemberRequest {}, DANA, "stf_1")).await.unwrap_err();
    assert_eq!(refusal(export), (Code::PermissionDenied, IMPERSONATION_PRIVACY.into(), no_fields()));
    let erase = client.erase_member(as_staff_view(pb::EraseMemberRequest {}, DANA, "stf_1")).await.unwrap_err();
    assert_eq!(refusal(erase), (Code::PermissionDenied, IMPERSONATION_PRIVACY.into(), no_fields()));
    assert_eq!(connections(&mut client, DANA).await, vec![con], "nothing erased");
    let no_one = client.erase_member(tonic::Request::new(pb::EraseMemberRequest {})).await.unwrap_err();
    assert_eq!(refusal(no_one), (Code::Unauthenticated, "No signed-in member".into(), no_fields()));
    h.finish().await;
}

async fn export_and_erase_member(backend: Backend) {
    let Some((h, mut client)) = start(backend, None).await else { return };
    let con = create(&mut client, DANA, "wishlist").await;
    let shop = create(&mut client, DANA, "def_shop").await;
    let list = new_list(&mut client, DANA, &con.id, "wishlist").await.unwrap();
    let item = add(&mut client, DANA, &list, "prd_1").await.unwrap().item.unwrap();
    let his = create(&mut client, OMAR, "wishlist").await;

    let export = client.export_member(as_member(pb::ExportMemberRequest {}, DANA)).await.unwrap().into_inner();
    let lists_of =
        |c: &pb::Connection| if c.id == con.id { vec![pb::ProductList { items: vec![item.clone()], ..list.clone() }] } else { vec![] };
    let expected: Vec<pb::ConnectionExport> =
        in_order(vec![con.clone(), shop]).into_iter().map(|c| pb::ConnectionExport { lists: lists_of(&c), connection: Some(c) }).collect();
    assert_eq!(export.connections, expected);

    for _ in 0..2 {
        client.erase_member(as_member(pb::EraseMemberRequest {}, DANA)).await.expect("erasing is safe to repeat");
    }
    assert!(connections(&mut client, DANA).await.is_empty());
    let export = client.export_member(as_member(pb::ExportMemberRequest {}, DANA)).await.unwrap().into_inner();
    assert!(export.connections.is_empty(), "{export:?}");
    assert_eq!(connections(&mut client, OMAR).await, vec![his], "another member's are kept");
    h.finish().await;
}

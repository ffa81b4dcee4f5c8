//! A staff user viewing a member's account (an impersonation token: the gateway passes the staff
//! id as the actor) sees the member's connections and lists but changes nothing: the connections
//! service itself refuses every write RPC with `PermissionDenied` and the read-only message,
//! whatever the gateway does. Each write is one the member could make, so without the guard it
//! would go through.
use portal_common::identity::IMPERSONATION_READ_ONLY;
use portal_common::testing::{as_member, as_staff_view, channel, Backend, Harness};
use portal_proto::connections::v1::{self as pb, connections_service_client::ConnectionsServiceClient};
use tonic::Code;

portal_common::both_backends!(a_staff_view_reads_but_never_writes);

const DANA: &str = "prf_0000000000000000000000a1";
const STAFF: &str = "stf_1";

fn refused<T: std::fmt::Debug>(rpc: &str, r: Result<tonic::Response<T>, tonic::Status>) {
    let e = r.expect_err(rpc);
    assert_eq!((e.code(), e.message()), (Code::PermissionDenied, IMPERSONATION_READ_ONLY), "{rpc}");
}

/// A request from a staff user viewing Dana's account.
fn view<T>(msg: T) -> tonic::Request<T> {
    as_staff_view(msg, DANA, STAFF)
}

async fn a_staff_view_reads_but_never_writes(backend: Backend) {
    let Some(mut h) = Harness::new(backend) else { return };
    h.start("refdata", portal_refdata::build).await;
    let mut client = ConnectionsServiceClient::new(channel(&h.start("connections", portal_connections::build).await));

    // The member's own: a wish list connection with two lists, an item on the first.
    let req = pb::CreateConnectionRequest { definition_id: "wishlist".into(), name: String::new() };
    let con = client.create_connection(as_member(req, DANA)).await.expect("created").into_inner();
    let mut lists = Vec::new();
    for handle in ["wish", "later"] {
        let req = pb::CreateListRequest { connection_id: con.id.clone(), handle: handle.into(), name: handle.into() };
        lists.push(client.create_list(as_member(req, DANA)).await.expect("list").into_inner());
    }
    let add = |list: &pb::ProductList, product: &str| pb::AddListItemRequest {
        connection_id: con.id.clone(),
        list_id: list.id.clone(),
        source: "web".into(),
        product_id: product.into(),
        product_variant_id: String::new(),
    };
    let item = client.add_list_item(as_member(add(&lists[0], "p-1"), DANA)).await.expect("added").into_inner().item.expect("an item");
    let before = client.export_member(as_member(pb::ExportMemberRequest {}, DANA)).await.expect("export").into_inner();

    // Reads go through, with what the member sees.
    let seen = client.list_lists(as_staff_view(pb::ListListsRequest { connection_id: con.id.clone(), handle: String::new() }, DANA, STAFF));
    assert_eq!(seen.await.expect("a staff view reads").into_inner().lists.len(), 2);
    let found = client.find_list_items(as_staff_view(pb::FindListItemsRequest { ids: vec![item.id.clone()] }, DANA, STAFF));
    assert_eq!(found.await.expect("a staff view reads").into_inner().items.len(), 1);

    let c = &mut client;
    let shop = pb::CreateConnectionRequest { definition_id: "wishlist".into(), name: "Another".into() };
    refused("CreateConnection", c.create_connection(view(shop)).await);
    refused(
        "UpdateConnection",
        c.update_connection(view(pb::UpdateConnectionRequest { id: con.id.clone(), name: "Renamed".into() })).await,
    );
    refused("DeleteConnection", c.delete_connection(view(pb::DeleteConnectionRequest { id: con.id.clone() })).await);
    let list = pb::CreateListRequest { connection_id: con.id.clone(), handle: "gifts".into(), name: "Gifts".into() };
    refused("CreateList", c.create_list(view(list)).await);
    refused("AddListItem", c.add_list_item(view(add(&lists[1], "p-2"))).await);
    let (l0, l1) = (lists[0].id.clone(), lists[1].id.clone());
    let moved = pb::MoveListItemRequest { connection_id: con.id.clone(), list_id: l0.clone(), id: item.id.clone(), to_list_id: l1 };
    refused("MoveListItem", c.move_list_item(view(moved)).await);
    let gone = pb::DeleteListItemRequest { connection_id: con.id.clone(), list_id: l0, id: item.id.clone() };
    refused("DeleteListItem", c.delete_list_item(view(gone)).await);

    let after = client.export_member(as_member(pb::ExportMemberRequest {}, DANA)).await.expect("export").into_inner();
    assert_eq!(after, before, "nothing changed");
    h.finish().await;
}

//! The member's connections (external accounts, or the portal's own wish lists), their product
//! lists and list items. Every id is checked against the caller by the connections service.
use crate::error::{ApiError, ApiResult};
use crate::extract::{Member, Path, Query};
use crate::routes::iso;
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_common::error::catalogue;
use portal_proto::connections::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_one, update, delete))
        .routes(routes!(lists, create_list))
        .routes(routes!(add_item))
        .routes(routes!(delete_item))
        .routes(routes!(move_item))
}

/// The spec's page size for connections.
const PAGE_SIZE: u32 = 500;

#[derive(Serialize, ToSchema)]
pub struct Definition {
    pub id: String,
}

#[derive(Serialize, ToSchema)]
pub struct ConnectionBody {
    pub id: String,
    pub definition: Definition,
    pub connector: String,
    pub name: String,
    /// RFC 3339, UTC.
    pub created_at: String,
}

impl From<pb::Connection> for ConnectionBody {
    fn from(c: pb::Connection) -> Self {
        ConnectionBody {
            id: c.id,
            definition: Definition { id: c.definition_id },
            connector: c.connector,
            name: c.name,
            created_at: iso(c.created_at),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ConnectionList {
    pub data: Vec<ConnectionBody>,
}

#[derive(Serialize, ToSchema)]
pub struct ConnectionResponse {
    pub data: ConnectionBody,
}

#[derive(Deserialize, IntoParams)]
pub struct PageSize {
    /// At most 500 (the default; 0 and more than 500 are read as 500).
    #[serde(rename = "page[size]")]
    #[param(rename = "page[size]", value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub size: Option<u32>,
}

/// The caller's connections (one page of up to 500).
#[utoipa::path(get, path = "/api/connections", tag = "connections", params(PageSize), security(("bearer" = [])),
    responses((status = 200, body = ConnectionList), (status = 401, body = crate::error::ErrorBody)))]
pub async fn list(State(s): State<AppState>, m: Member, Query(q): Query<PageSize>) -> ApiResult<Json<ConnectionList>> {
    let page_size = q.size.unwrap_or(PAGE_SIZE);
    let r = s.clients.connections.clone().list_connections(m.request(pb::ListConnectionsRequest { page_size })).await?.into_inner();
    Ok(Json(ConnectionList { data: r.connections.into_iter().map(Into::into).collect() }))
}

#[derive(Deserialize, ToSchema)]
pub struct NewConnection {
    /// One of the tenant's `components.connections.definitions` ids, e.g. `wishlist`; another
    /// answers 422 `errors.definition_id`.
    #[schema(min_length = 1)]
    pub definition_id: String,
    /// Up to 80 characters are kept; empty or absent: the definition's name.
    pub name: Option<String>,
}

/// Creates a connection of one of the tenant's kinds (one per kind per member).
#[utoipa::path(post, path = "/api/connections", tag = "connections", request_body = NewConnection, security(("bearer" = [])),
    responses((status = 201, body = ConnectionResponse), (status = 401, body = crate::error::ErrorBody),
        (status = 409, description = "The member already has one", body = crate::error::ErrorBody),
        (status = 422, description = "Unknown definition", body = crate::error::ErrorBody)))]
pub async fn create(
    State(s): State<AppState>,
    m: Member,
    body: Result<Json<NewConnection>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<ConnectionResponse>)> {
    let Json(b) = body?;
    let req = pb::CreateConnectionRequest { definition_id: b.definition_id, name: b.name.unwrap_or_default() };
    let c = s.clients.connections.clone().create_connection(m.request(req)).await?.into_inner();
    Ok((StatusCode::CREATED, Json(ConnectionResponse { data: c.into() })))
}

/// One of the caller's connections.
#[utoipa::path(get, path = "/api/connections/{id}", tag = "connections", params(("id" = String, Path)), security(("bearer" = [])),
    responses((status = 200, body = ConnectionResponse), (status = 404, body = crate::error::ErrorBody)))]
pub async fn get_one(State(s): State<AppState>, m: Member, Path(id): Path<String>) -> ApiResult<Json<ConnectionResponse>> {
    let c = s.clients.connections.clone().get_connection(m.request(pb::GetConnectionRequest { id })).await?.into_inner();
    Ok(Json(ConnectionResponse { data: c.into() }))
}

#[derive(Deserialize, ToSchema)]
pub struct ConnectionUpdate {
    /// 1 to 80 characters (surrounding spaces trimmed), no control characters.
    #[schema(min_length = 1, max_length = 80, pattern = r"^[^\x00-\x1f\x7f-\x9f]*[^\x00-\x20\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$")]
    pub name: String,
}

/// Renames one of the caller's connections.
#[utoipa::path(put, path = "/api/connections/{id}", tag = "connections", params(("id" = String, Path)), request_body = ConnectionUpdate,
    security(("bearer" = [])),
    responses((status = 200, body = ConnectionResponse), (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
pub async fn update(
    State(s): State<AppState>,
    m: Member,
    Path(id): Path<String>,
    body: Result<Json<ConnectionUpdate>, JsonRejection>,
) -> ApiResult<Json<ConnectionResponse>> {
    let Json(b) = body?;
    let c =
        s.clients.connections.clone().update_connection(m.request(pb::UpdateConnectionRequest { id, name: b.name })).await?.into_inner();
    Ok(Json(ConnectionResponse { data: c.into() }))
}

/// Removes one of the caller's connections with its lists and their items.
#[utoipa::path(delete, path = "/api/connections/{id}", tag = "connections", params(("id" = String, Path)), security(("bearer" = [])),
    responses((status = 204, description = "Removed"), (status = 404, body = crate::error::ErrorBody)))]
pub async fn delete(State(s): State<AppState>, m: Member, Path(id): Path<String>) -> ApiResult<StatusCode> {
    s.clients.connections.clone().delete_connection(m.request(pb::DeleteConnectionRequest { id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Serialize, ToSchema)]
pub struct ListItemBody {
    pub id: String,
    pub list_id: String,
    /// Empty when the item is a variant.
    pub product_id: String,
    /// Empty when the item is a product.
    pub product_variant_id: String,
    pub source: String,
    pub created_at: String,
}

impl From<pb::ListItem> for ListItemBody {
    fn from(i: pb::ListItem) -> Self {
        ListItemBody {
            id: i.id,
            list_id: i.list_id,
            product_id: i.product_id,
            product_variant_id: i.product_variant_id,
            source: i.source,
            created_at: iso(i.created_at),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ListBody {
    pub id: String,
    pub handle: String,
    pub name: String,
    pub items: Vec<ListItemBody>,
}

impl From<pb::ProductList> for ListBody {
    fn from(l: pb::ProductList) -> Self {
        ListBody { id: l.id, handle: l.handle, name: l.name, items: l.items.into_iter().map(Into::into).collect() }
    }
}

#[derive(Serialize, ToSchema)]
pub struct Lists {
    pub data: Vec<ListBody>,
}

#[derive(Serialize, ToSchema)]
pub struct ListResponse {
    pub data: ListBody,
}

#[derive(Deserialize, IntoParams)]
pub struct ListFilter {
    /// Only the list with this handle, e.g. `wishlist`.
    #[serde(rename = "filter[handle]")]
    #[param(rename = "filter[handle]")]
    pub handle: Option<String>,
}

/// The connection's lists with their items.
#[utoipa::path(get, path = "/api/connections/{id}/lists", tag = "connections", params(("id" = String, Path), ListFilter),
    security(("bearer" = [])), responses((status = 200, body = Lists), (status = 404, body = crate::error::ErrorBody)))]
pub async fn lists(State(s): State<AppState>, m: Member, Path(id): Path<String>, Query(q): Query<ListFilter>) -> ApiResult<Json<Lists>> {
    let req = pb::ListListsRequest { connection_id: id, handle: q.handle.unwrap_or_default() };
    let r = s.clients.connections.clone().list_lists(m.request(req)).await?.into_inner();
    Ok(Json(Lists { data: r.lists.into_iter().map(Into::into).collect() }))
}

#[derive(Deserialize, ToSchema)]
pub struct NewList {
    /// Lowercase letters, digits, `-` and `_`, e.g. `wishlist`; unique within the connection.
    /// Required: absent or empty answers 422 `errors.handle`.
    #[schema(value_type = String, required = true, min_length = 1, max_length = 32, pattern = r"^[a-z0-9_-]+$")]
    pub handle: Option<String>,
    /// Up to 80 characters, no control characters; empty or absent: the handle.
    #[schema(max_length = 80, pattern = r"^[^\x00-\x1f\x7f-\x9f]*$")]
    pub name: Option<String>,
}

/// Creates a list in one of the caller's connections. Failures answer "Error creating list",
/// except a connection that holds `components.connections.maxListsPerConnection` lists already
/// (default 20): 422 naming no field, the message saying so.
#[utoipa::path(post, path = "/api/connections/{id}/lists", tag = "connections", params(("id" = String, Path)), request_body = NewList,
    security(("bearer" = [])),
    responses((status = 201, body = ListResponse), (status = 404, body = crate::error::ErrorBody),
        (status = 409, description = "Handle in use", body = crate::error::ErrorBody),
        (status = 422, description = "Field errors in `errors`; or, with no field, the connection holds as many lists as it may", body = crate::error::ErrorBody)))]
pub async fn create_list(
    State(s): State<AppState>,
    m: Member,
    Path(id): Path<String>,
    body: Result<Json<NewList>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<ListResponse>)> {
    let Json(b) = body.map_err(|r| spec_message(r.into(), catalogue::ERROR_CREATING_LIST))?;
    let req = pb::CreateListRequest { connection_id: id, handle: b.handle.unwrap_or_default(), name: b.name.unwrap_or_default() };
    let l = s.clients.connections.clone().create_list(m.request(req)).await?.into_inner();
    Ok((StatusCode::CREATED, Json(ListResponse { data: l.into() })))
}

#[derive(Deserialize, ToSchema)]
pub struct NewListItem {
    /// Where the item was added from (default `profile-portal`): lowercase letters, digits, `-`
    /// and `_`.
    #[schema(max_length = 32, pattern = r"^[a-z0-9_-]*$")]
    pub source: Option<String>,
    /// A catalogue variant id: printable ASCII, no spaces. This or `product_id` is required.
    #[schema(max_length = 64, pattern = r"^[!-~]*$")]
    pub product_variant_id: Option<String>,
    /// A catalogue product id: printable ASCII, no spaces. This or `product_variant_id` is required.
    #[schema(max_length = 64, pattern = r"^[!-~]*$")]
    pub product_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ListItemResponse {
    pub data: ListItemBody,
}

/// Adds a product (or variant) to a list; one already there answers 200 with the existing item.
/// Failures answer "Error creating list Item", except a list that holds
/// `components.connections.maxItemsPerList` items already (default 200): 422 naming no field,
/// the message saying so.
#[utoipa::path(post, path = "/api/connections/{id}/lists/{listId}/items", tag = "connections",
    params(("id" = String, Path), ("listId" = String, Path)), request_body = NewListItem, security(("bearer" = [])),
    responses((status = 201, body = ListItemResponse), (status = 200, description = "Already in the list", body = ListItemResponse),
        (status = 404, body = crate::error::ErrorBody),
        (status = 422, description = "Field errors in `errors`; or, with no field, the list holds as many items as it may", body = crate::error::ErrorBody)))]
pub async fn add_item(
    State(s): State<AppState>,
    m: Member,
    Path((id, list_id)): Path<(String, String)>,
    body: Result<Json<NewListItem>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<ListItemResponse>)> {
    let Json(b) = body.map_err(|r| spec_message(r.into(), catalogue::ERROR_CREATING_LIST_ITEM))?;
    let req = pb::AddListItemRequest {
        connection_id: id,
        list_id,
        source: b.source.unwrap_or_default(),
        product_id: b.product_id.unwrap_or_default(),
        product_variant_id: b.product_variant_id.unwrap_or_default(),
    };
    let r = s.clients.connections.clone().add_list_item(m.request(req)).await?.into_inner();
    let item = r.item.ok_or_else(|| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "An unknown error occurred"))?;
    let status = if r.created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(ListItemResponse { data: item.into() })))
}

/// Removes one of the caller's list items (named through its connection and list).
#[utoipa::path(delete, path = "/api/connections/{id}/lists/{listId}/items/{itemId}", tag = "connections",
    params(("id" = String, Path), ("listId" = String, Path), ("itemId" = String, Path)), security(("bearer" = [])),
    responses((status = 204, description = "Removed"), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "A staff view of the account (read-only)", body = crate::error::ErrorBody),
        (status = 404, description = "Not an item of this list of the caller's", body = crate::error::ErrorBody)))]
pub async fn delete_item(
    State(s): State<AppState>,
    m: Member,
    Path((id, list_id, item_id)): Path<(String, String, String)>,
) -> ApiResult<StatusCode> {
    let req = pb::DeleteListItemRequest { connection_id: id, list_id, id: item_id };
    s.clients.connections.clone().delete_list_item(m.request(req)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, ToSchema)]
pub struct MoveListItem {
    /// The list to move the item to: one of the caller's lists, of any of their connections.
    /// Required: absent or blank answers 422 `errors.list_id`.
    #[schema(value_type = String, required = true, min_length = 1, pattern = r"\S")]
    pub list_id: Option<String>,
}

/// Moves one of the caller's list items to another of their lists, at once: the item keeps its
/// id (and the purchases linked to it); the same product already on that list gives way to it. A
/// list that holds `components.connections.maxItemsPerList` items already takes no new product:
/// 422 naming no field, the message saying so.
#[utoipa::path(post, path = "/api/connections/{id}/lists/{listId}/items/{itemId}/move", tag = "connections",
    params(("id" = String, Path), ("listId" = String, Path), ("itemId" = String, Path)), request_body = MoveListItem,
    security(("bearer" = [])),
    responses((status = 200, body = ListItemResponse), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "A staff view of the account (read-only)", body = crate::error::ErrorBody),
        (status = 404, description = "Not an item of this list of the caller's, or no such list of theirs to move it to", body = crate::error::ErrorBody),
        (status = 422, description = "`errors.list_id`; or, with no field, the target list is full", body = crate::error::ErrorBody)))]
pub async fn move_item(
    State(s): State<AppState>,
    m: Member,
    Path((id, list_id, item_id)): Path<(String, String, String)>,
    body: Result<Json<MoveListItem>, JsonRejection>,
) -> ApiResult<Json<ListItemResponse>> {
    let Json(b) = body?;
    let req = pb::MoveListItemRequest { connection_id: id, list_id, id: item_id, to_list_id: b.list_id.unwrap_or_default() };
    let item = s.clients.connections.clone().move_list_item(m.request(req)).await?.into_inner();
    Ok(Json(ListItemResponse { data: item.into() }))
}

/// A body that is not JSON for this call, told with the spec's message for the step.
fn spec_message(mut e: ApiError, message: &str) -> ApiError {
    e.message = message.into();
    e
}

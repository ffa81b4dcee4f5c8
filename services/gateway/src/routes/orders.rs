//! The member's orders (the spec's "My Orders"): their transactions with items and products, and
//! linking a purchased item to one of their list items. The profile id always comes from the
//! session token, never from the request.
use crate::error::{ApiError, ApiResult};
use crate::extract::{Member, Path, Query};
use crate::routes::{iso, PageMeta};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::profile::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(transactions)).routes(routes!(link_list_item))
}

#[derive(Deserialize, IntoParams)]
pub struct PageQuery {
    /// 1-based page number (0 is read as 1).
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub page: Option<u32>,
    /// Items per page: 0 is read as 20 (the default), more than 100 as 100.
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub per_page: Option<u32>,
    /// `-transacted_at` (newest first, the default) or `transacted_at`.
    #[param(pattern = "^-?transacted_at$")]
    pub sort: Option<String>,
    /// `product` adds each item's product.
    pub include: Option<String>,
    /// `1` adds each item's linked list item.
    pub include_list_item: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ProductBody {
    pub id: String,
    pub name: String,
    /// The variant bought (size, colour), if the catalogue has variants; else empty.
    pub variant_id: String,
}

/// The list item a purchased item is linked to (e.g. on a wish list).
#[derive(Serialize, ToSchema)]
pub struct ListItemLinkBody {
    pub id: String,
    pub list_id: String,
    pub connection_id: String,
}

impl From<pb::ListItemLink> for ListItemLinkBody {
    fn from(l: pb::ListItemLink) -> Self {
        ListItemLinkBody { id: l.id, list_id: l.list_id, connection_id: l.connection_id }
    }
}

#[derive(Serialize, ToSchema)]
pub struct TransactionItemBody {
    pub id: String,
    pub name: String,
    /// How many; negative for a returned item.
    pub quantity: i64,
    /// The line's total in cents (AUD): quantity × unit price, negative for a return line. An
    /// order's lines add up to its `total_cents`; a unit price is `amount_cents / quantity`.
    pub amount_cents: i64,
    /// With `include=product`.
    pub product: Option<ProductBody>,
    /// With `include_list_item=1`.
    pub list_item: Option<ListItemLinkBody>,
}

#[derive(Serialize, ToSchema)]
pub struct TransactionBody {
    pub id: String,
    /// RFC 3339, UTC.
    pub transacted_at: String,
    pub store: String,
    /// The store's location handle.
    pub store_handle: String,
    pub receipt_number: String,
    pub total_cents: i64,
    pub currency: String,
    /// Points this purchase earned.
    pub points: i64,
    pub items: Vec<TransactionItemBody>,
}

impl From<pb::Transaction> for TransactionBody {
    fn from(t: pb::Transaction) -> Self {
        TransactionBody {
            id: t.id,
            transacted_at: iso(t.transacted_at),
            store: t.store,
            store_handle: t.store_handle,
            receipt_number: t.receipt_number,
            total_cents: t.total_cents,
            currency: t.currency,
            points: t.points,
            items: t
                .items
                .into_iter()
                .map(|i| TransactionItemBody {
                    id: i.id,
                    name: i.name,
                    quantity: i.quantity,
                    amount_cents: i.amount_cents,
                    product: i.product.map(|p| ProductBody { id: p.id, name: p.name, variant_id: p.variant_id }),
                    list_item: i.list_item.map(Into::into),
                })
                .collect(),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct TransactionPage {
    pub data: Vec<TransactionBody>,
    pub meta: PageMeta,
}

/// The caller's transactions, newest first, with items and products.
#[utoipa::path(get, path = "/api/profile/transactions", tag = "profile", params(PageQuery), security(("bearer" = [])),
    responses((status = 200, body = TransactionPage), (status = 401, body = crate::error::ErrorBody),
        (status = 422, description = "Unknown `sort` (`errors.sort`)", body = crate::error::ErrorBody)))]
pub async fn transactions(State(s): State<AppState>, m: Member, Query(q): Query<PageQuery>) -> ApiResult<Json<TransactionPage>> {
    let oldest_first = match q.sort.as_deref() {
        None | Some("-transacted_at") => false,
        Some("transacted_at") => true,
        Some(_) => {
            return Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Please check the highlighted fields",
                "sort",
                "Use -transacted_at or transacted_at",
            ))
        }
    };
    let req = pb::ListTransactionsRequest {
        page: q.page.unwrap_or(1),
        per_page: q.per_page.unwrap_or(20),
        oldest_first,
        include_product: q.include.as_deref().is_some_and(|i| i.split(',').any(|x| x.trim() == "product")),
        include_list_item: matches!(q.include_list_item.as_deref(), Some("1" | "true")),
    };
    let mut r = s.clients.profile.clone().list_transactions(m.request(req)).await?.into_inner();
    current_links(&s, &m, &mut r.transactions).await?;
    let data = r.transactions.into_iter().map(Into::into).collect();
    Ok(Json(TransactionPage { data, meta: PageMeta { page: r.page, per_page: r.per_page, total: r.total } }))
}

/// The connections service holds the list items: a link to an item since removed is dropped, and
/// a link to an item since moved names the list it is in now.
async fn current_links(s: &AppState, m: &Member, txs: &mut [pb::Transaction]) -> ApiResult<()> {
    use portal_proto::connections::v1::FindListItemsRequest;
    let linked = txs.iter().flat_map(|t| &t.items).filter_map(|i| i.list_item.as_ref().map(|l| l.id.clone()));
    let mut ids: Vec<String> = linked.collect();
    ids.sort();
    ids.dedup();
    let mut now = std::collections::HashMap::new();
    for chunk in ids.chunks(500) {
        let req = m.request(FindListItemsRequest { ids: chunk.to_vec() });
        for found in s.clients.connections.clone().find_list_items(req).await?.into_inner().items {
            now.insert(found.id.clone(), found);
        }
    }
    for item in txs.iter_mut().flat_map(|t| t.items.iter_mut()) {
        item.list_item = item.list_item.take().and_then(|l| {
            now.get(&l.id).map(|f| pb::ListItemLink { id: l.id, list_id: f.list_id.clone(), connection_id: f.connection_id.clone() })
        });
    }
    Ok(())
}

#[derive(Deserialize, ToSchema)]
pub struct LinkRequest {
    /// A list item of one of the caller's connections. Absent or empty answers 422 "Invalid Arguments".
    #[schema(value_type = String, required = true, min_length = 1, pattern = r"[^\t\n\x0b\x0c\r ]")]
    pub product_list_item_id: Option<String>,
    /// Only `link`.
    #[serde(rename = "type")]
    #[schema(value_type = String, required = true, pattern = "^link$")]
    pub kind: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct LinkResponse {
    pub data: ListItemLinkBody,
}

/// Links one of the caller's purchased items to one of their list items. A missing list item
/// answers "Invalid Arguments"; any other failure "Error assigning item".
#[utoipa::path(post, path = "/api/profile/transactions/items/{id}/list-item", tag = "profile",
    params(("id" = String, Path, description = "A purchased item's id (`items[].id` of a transaction); blank answers 422 \"Invalid Arguments\"", pattern = r"[^\t\n\x0b\x0c\r ]")),
    request_body = LinkRequest, security(("bearer" = [])),
    responses((status = 200, body = LinkResponse), (status = 404, description = "Not the caller's item", body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ErrorBody)))]
pub async fn link_list_item(
    State(s): State<AppState>,
    m: Member,
    Path(id): Path<String>,
    body: Result<Json<LinkRequest>, JsonRejection>,
) -> ApiResult<Json<LinkResponse>> {
    let Json(b) = body.map_err(|r| {
        let mut e: ApiError = r.into();
        e.message = portal_common::error::catalogue::INVALID_ARGUMENTS.into();
        e
    })?;
    let req = pb::LinkListItemRequest {
        transaction_item_id: id,
        product_list_item_id: b.product_list_item_id.unwrap_or_default(),
        r#type: b.kind.unwrap_or_default(),
    };
    let l = s.clients.profile.clone().link_list_item(m.request(req)).await?.into_inner();
    Ok(Json(LinkResponse { data: l.into() }))
}

//! The connections service: a member's links to external accounts (e.g. the brand's shop) or to
//! the portal's own wish lists, and their product lists. Member-scoped: the profile id comes from
//! metadata, and every query is filtered by it, so another member's ids answer NotFound.
//!
//! What a member may hold is capped (the tenant's `components.connections`, with defaults): one
//! connection per kind, `maxListsPerConnection` lists per connection and `maxItemsPerList` items
//! per list. Past a cap a create is refused with 422 (no field, the message says which cap), and
//! the count is taken under a lock on the connection or list, so concurrent creates can't pass it.
mod error;
mod store;

pub use error::ConnectionsError;
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::Channel;
use portal_common::grpc::GrpcApp;
use portal_common::identity::{caller, owner, Caller};
use portal_proto::connections::v1::{
    self as pb,
    connections_service_server::{ConnectionsService, ConnectionsServiceServer},
};
use portal_proto::refdata::v1::{refdata_service_client::RefdataServiceClient, GetConfigRequest};
use std::sync::Arc;
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The spec's page size for connections.
pub const PAGE_SIZE: u32 = 500;

/// List items `FindListItems` looks up at once (a page of purchases links fewer).
const MAX_FIND: usize = 500;

pub use portal_common::error::catalogue::{ERROR_CREATING_LIST as ERR_CREATING_LIST, ERROR_CREATING_LIST_ITEM as ERR_CREATING_ITEM};

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "connections", &MIGRATOR).await?;
    if settings.demo_data {
        store::seed_demo(&db).await?;
    }
    let refdata = RefdataServiceClient::new(portal_common::grpc::channel(&settings.service_url("refdata")?)?);
    let routes = tonic::service::Routes::new(ConnectionsServiceServer::new(Connections { db, refdata, tenant: Arc::default() }));
    GrpcApp::bind(settings, "portal.connections.v1.ConnectionsService", routes).await
}

#[derive(Clone)]
struct Connections {
    db: Db,
    refdata: RefdataServiceClient<Channel>,
    /// The tenant config from refdata, parsed once per version.
    tenant: Arc<portal_tenant::Cache>,
}

/// A list handle or a source: lowercase letters, digits, `-` and `_`, at most 32.
fn slug(s: &str) -> bool {
    !s.is_empty() && s.len() <= 32 && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// A product or variant id from the catalogue: at most 64 printable ASCII characters, no spaces.
fn product_ref(s: &str) -> bool {
    s.len() <= 64 && s.chars().all(|c| c.is_ascii_graphic())
}

impl Connections {
    /// The tenant config, typed: asked of refdata on every create, so a change of the kinds or
    /// caps (`components.connections`) applies at once; parsed only when its text changed.
    async fn tenant(&self) -> Result<Arc<portal_tenant::Tenant>, ConnectionsError> {
        let cfg = self.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
        self.tenant.get(&cfg.json).map_err(ConnectionsError::Tenant)
    }
}

#[tonic::async_trait]
impl ConnectionsService for Connections {
    #[tracing::instrument(skip_all)]
    async fn list_connections(&self, req: Request<pb::ListConnectionsRequest>) -> Result<Response<pb::ListConnectionsResponse>, Status> {
        let c = caller(&req)?;
        let size = match req.into_inner().page_size {
            0 => PAGE_SIZE,
            n => n.min(PAGE_SIZE),
        };
        Ok(Response::new(pb::ListConnectionsResponse { connections: store::connections(&self.db, &c.profile_id, size).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn create_connection(&self, req: Request<pb::CreateConnectionRequest>) -> Result<Response<pb::Connection>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ConnectionsError::from)?;
        let r = req.into_inner();
        let tenant = self.tenant().await?;
        let def =
            tenant.components.connections.definitions.iter().find(|d| d.id == r.definition_id.trim()).ok_or(ConnectionsError::Field(
                "Please check the highlighted fields",
                "definition_id",
                "Unknown kind of connection",
            ))?;
        let name = if r.name.trim().is_empty() { def.name.clone() } else { r.name.trim().chars().take(80).collect() };
        Ok(Response::new(store::create_connection(&self.db, &c.profile_id, &def.id, &def.connector, &name).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn get_connection(&self, req: Request<pb::GetConnectionRequest>) -> Result<Response<pb::Connection>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(store::connection(&self.db, &c.profile_id, &req.into_inner().id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn update_connection(&self, req: Request<pb::UpdateConnectionRequest>) -> Result<Response<pb::Connection>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ConnectionsError::from)?;
        let r = req.into_inner();
        let name = r.name.trim();
        if name.is_empty() || name.chars().count() > 80 || name.chars().any(char::is_control) {
            return Err(ConnectionsError::Field("Please check the highlighted fields", "name", "Use 1 to 80 characters").into());
        }
        Ok(Response::new(store::rename_connection(&self.db, &c.profile_id, &r.id, name).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn delete_connection(&self, req: Request<pb::DeleteConnectionRequest>) -> Result<Response<pb::DeleteConnectionResponse>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ConnectionsError::from)?;
        store::delete_connection(&self.db, &c.profile_id, &req.into_inner().id).await?;
        Ok(Response::new(pb::DeleteConnectionResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn list_lists(&self, req: Request<pb::ListListsRequest>) -> Result<Response<pb::ListListsResponse>, Status> {
        let c = caller(&req)?;
        let r = req.into_inner();
        Ok(Response::new(pb::ListListsResponse { lists: store::lists(&self.db, &c.profile_id, &r.connection_id, r.handle.trim()).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn create_list(&self, req: Request<pb::CreateListRequest>) -> Result<Response<pb::ProductList>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ConnectionsError::from)?;
        let r = req.into_inner();
        let handle = r.handle.trim();
        if handle.is_empty() {
            return Err(ConnectionsError::Field(ERR_CREATING_LIST, "handle", "Required").into());
        }
        if !slug(handle) {
            return Err(ConnectionsError::Field(ERR_CREATING_LIST, "handle", "Use up to 32 lowercase letters, digits, - and _").into());
        }
        let name = r.name.trim();
        if name.chars().count() > 80 || name.chars().any(char::is_control) {
            return Err(ConnectionsError::Field(ERR_CREATING_LIST, "name", "Use 80 characters or fewer").into());
        }
        let caps = &self.tenant().await?.components.connections;
        let list = store::create_list(
            &self.db,
            &c.profile_id,
            &r.connection_id,
            handle,
            if name.is_empty() { handle } else { name },
            caps.max_lists_per_connection,
        )
        .await;
        Ok(Response::new(list.map_err(|e| e.told_as(ERR_CREATING_LIST))?))
    }

    #[tracing::instrument(skip_all)]
    async fn add_list_item(&self, req: Request<pb::AddListItemRequest>) -> Result<Response<pb::AddListItemResponse>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ConnectionsError::from)?;
        let r = req.into_inner();
        let (product, variant) = (r.product_id.trim(), r.product_variant_id.trim());
        if product.is_empty() && variant.is_empty() {
            return Err(ConnectionsError::Field(ERR_CREATING_ITEM, "product_id", "Give a product_variant_id or a product_id").into());
        }
        if !product_ref(product) || !product_ref(variant) {
            return Err(ConnectionsError::Field(ERR_CREATING_ITEM, "product_id", "Not a product id").into());
        }
        let source = match r.source.trim() {
            "" => "profile-portal",
            s if slug(s) => s,
            _ => return Err(ConnectionsError::Field(ERR_CREATING_ITEM, "source", "Use up to 32 lowercase letters, digits, - and _").into()),
        };
        let caps = &self.tenant().await?.components.connections;
        let (item, created) =
            store::add_item(&self.db, &c.profile_id, &r.connection_id, &r.list_id, product, variant, source, caps.max_items_per_list)
                .await
                .map_err(|e| e.told_as(ERR_CREATING_ITEM))?;
        Ok(Response::new(pb::AddListItemResponse { item: Some(item), created }))
    }

    #[tracing::instrument(skip_all)]
    async fn delete_list_item(&self, req: Request<pb::DeleteListItemRequest>) -> Result<Response<pb::DeleteListItemResponse>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ConnectionsError::from)?;
        let r = req.into_inner();
        store::delete_item(&self.db, &c.profile_id, &r.connection_id, &r.list_id, &r.id).await?;
        Ok(Response::new(pb::DeleteListItemResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn move_list_item(&self, req: Request<pb::MoveListItemRequest>) -> Result<Response<pb::ListItem>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ConnectionsError::from)?;
        let r = req.into_inner();
        if r.to_list_id.trim().is_empty() {
            return Err(ConnectionsError::Field("Please check the highlighted fields", "list_id", "Required").into());
        }
        let caps = &self.tenant().await?.components.connections;
        let item =
            store::move_item(&self.db, &c.profile_id, &r.connection_id, &r.list_id, &r.id, r.to_list_id.trim(), caps.max_items_per_list)
                .await?;
        Ok(Response::new(item))
    }

    #[tracing::instrument(skip_all)]
    async fn find_list_items(&self, req: Request<pb::FindListItemsRequest>) -> Result<Response<pb::FindListItemsResponse>, Status> {
        let c = caller(&req)?;
        let ids = req.into_inner().ids;
        if ids.len() > MAX_FIND {
            return Err(ConnectionsError::Field("Please check the highlighted fields", "ids", "Ask for 500 or fewer").into());
        }
        Ok(Response::new(pb::FindListItemsResponse { items: store::find_items(&self.db, &c.profile_id, &ids).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn export_member(&self, req: Request<pb::ExportMemberRequest>) -> Result<Response<pb::MemberExport>, Status> {
        let c = owner(&req)?;
        Ok(Response::new(pb::MemberExport { connections: store::export(&self.db, &c.profile_id).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn erase_member(&self, req: Request<pb::EraseMemberRequest>) -> Result<Response<pb::EraseMemberResponse>, Status> {
        let c = owner(&req)?;
        store::erase(&self.db, &c.profile_id).await?;
        tracing::info!("member erased from the connections service");
        Ok(Response::new(pb::EraseMemberResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn get_list_item(&self, req: Request<pb::GetListItemRequest>) -> Result<Response<pb::ListItemRef>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(store::list_item_ref(&self.db, &c.profile_id, &req.into_inner().id).await?))
    }
}

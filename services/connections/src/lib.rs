//! The connections service: a member's links to external accounts (e.g. the brand's shop) and,
//! in a later issue, their product lists. Member-scoped: the profile id comes from metadata.
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::GrpcApp;
use portal_common::identity::Caller;
use portal_proto::connections::v1::{self as pb, connections_service_server::{ConnectionsService, ConnectionsServiceServer}};
use sqlx::Row;
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The spec's page size for connections.
pub const PAGE_SIZE: u32 = 500;

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "connections", &MIGRATOR).await?;
    if settings.demo_data {
        sqlx::query(
            "INSERT INTO connections (id, profile_id, definition_id, connector, created_at)
             VALUES ('con_demo_shop', 'prf_0000000000000000000000d1', 'def_shop', 'shopify', $1) ON CONFLICT (id) DO NOTHING",
        )
        .bind(portal_common::now_unix())
        .execute(&db.pool)
        .await?;
    }
    let routes = tonic::service::Routes::new(ConnectionsServiceServer::new(Connections { db }));
    GrpcApp::bind(settings, "portal.connections.v1.ConnectionsService", routes).await
}

#[derive(Clone)]
struct Connections {
    db: Db,
}

#[tonic::async_trait]
impl ConnectionsService for Connections {
    #[tracing::instrument(skip_all)]
    async fn list_connections(&self, req: Request<pb::ListConnectionsRequest>) -> Result<Response<pb::ListConnectionsResponse>, Status> {
        let c = Caller::from_metadata(req.metadata())?;
        let size = match req.into_inner().page_size {
            0 => PAGE_SIZE,
            n => n.min(PAGE_SIZE),
        };
        let rows = sqlx::query(
            "SELECT id, definition_id, connector FROM connections WHERE profile_id = $1 ORDER BY created_at, id LIMIT $2",
        )
        .bind(&c.profile_id)
        .bind(i64::from(size))
        .fetch_all(&self.db.pool)
        .await
        .map_err(|e| portal_common::error::internal("listing connections", e))?;
        let connections = rows
            .into_iter()
            .map(|r| pb::Connection { id: r.get("id"), definition_id: r.get("definition_id"), connector: r.get("connector") })
            .collect();
        Ok(Response::new(pb::ListConnectionsResponse { connections }))
    }
}

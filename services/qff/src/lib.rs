//! The frequent-flyer service: the member's link to their airline account and its balance. In
//! the embedded default the balance comes from the service's own table (the partner sandbox);
//! talking to the real partner API arrives with the frequent-flyer issue.
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::GrpcApp;
use portal_common::identity::Caller;
use portal_proto::qff::v1::{self as pb, qff_service_server::{QffService, QffServiceServer}};
use sqlx::Row;
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "qff", &MIGRATOR).await?;
    if settings.demo_data {
        sqlx::query(
            "INSERT INTO qff_links (profile_id, qff_number, points, linked_at)
             VALUES ('prf_0000000000000000000000d1', '1900123456', 48250, $1) ON CONFLICT (profile_id) DO NOTHING",
        )
        .bind(portal_common::now_unix())
        .execute(&db.pool)
        .await?;
    }
    let routes = tonic::service::Routes::new(QffServiceServer::new(Qff { db }));
    GrpcApp::bind(settings, "portal.qff.v1.QffService", routes).await
}

#[derive(Clone)]
struct Qff {
    db: Db,
}

#[tonic::async_trait]
impl QffService for Qff {
    #[tracing::instrument(skip_all)]
    async fn get_points(&self, req: Request<pb::GetPointsRequest>) -> Result<Response<pb::GetPointsResponse>, Status> {
        let c = Caller::from_metadata(req.metadata())?;
        let row = sqlx::query("SELECT qff_number, points FROM qff_links WHERE profile_id = $1")
            .bind(&c.profile_id)
            .fetch_optional(&self.db.pool)
            .await
            .map_err(|e| portal_common::error::internal("reading frequent-flyer link", e))?;
        Ok(Response::new(match row {
            Some(r) => pb::GetPointsResponse { linked: true, qff_number: r.get("qff_number"), points: r.get("points") },
            None => pb::GetPointsResponse::default(),
        }))
    }
}

//! What the profile service's gRPC tests share: the service on a harness of its own, with the
//! refdata service it asks for the tenant's rules, and a member to call it as.
use portal_common::testing::{as_member, channel, Backend, Harness};
use portal_proto::profile::v1::{self as pb, loyalty_service_client::LoyaltyServiceClient, profile_service_client::ProfileServiceClient};

pub type Profiles = ProfileServiceClient<portal_common::grpc::Channel>;
pub type Loyalty = LoyaltyServiceClient<portal_common::grpc::Channel>;

/// The profile service and its clients, on its own storage.
pub struct Svc {
    pub h: Harness,
    pub profiles: Profiles,
    pub loyalty: Loyalty,
}

/// Serves refdata, then the profile service (`None` when the backend is not configured). The
/// connections service is only asked when a purchase is linked to a list item, which these
/// tests don't do: its URL leads nowhere.
pub async fn start(backend: Backend) -> Option<Svc> {
    let mut h = Harness::new(backend)?;
    h.start("refdata", portal_refdata::build).await;
    h.absent("connections");
    let channel = channel(&h.start("profile", portal_profile::build).await);
    Some(Svc { h, profiles: ProfileServiceClient::new(channel.clone()), loyalty: LoyaltyServiceClient::new(channel) })
}

impl Svc {
    /// A new member (as the auth service registers one); their profile id.
    pub async fn member(&mut self, email: &str) -> String {
        let req =
            pb::CreateProfileRequest { email: email.into(), first_name: "Ada".into(), last_name: "Lovelace".into(), ..Default::default() };
        self.profiles.create_profile(req).await.expect("created").into_inner().profile_id
    }

    /// Credits the member's points as staff do (the loyalty service's adjustment), under `reference`.
    pub async fn earn(&mut self, pid: &str, points: i64, reference: &str) -> pb::AdjustPointsResponse {
        let req = pb::AdjustPointsRequest {
            profile_id: pid.into(),
            points,
            source: "staff".into(),
            reason: "Goodwill".into(),
            reference: reference.into(),
        };
        self.loyalty.adjust_points(req).await.expect("credited").into_inner()
    }

    pub async fn balance(&mut self, pid: &str) -> i64 {
        self.loyalty.get_balances(as_member(pb::GetBalancesRequest {}, pid)).await.expect("balance").into_inner().points
    }
}

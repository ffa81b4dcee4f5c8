//! The caller's identity as the gateway passes it to services in gRPC metadata. Services trust
//! only these keys (the gateway strips any a client sends) and never a profile id from a body.
use tonic::metadata::MetadataMap;
use tonic::Status;

pub const PID: &str = "x-portal-pid";
pub const ACTOR: &str = "x-portal-actor";
pub const TENANT: &str = "x-portal-tenant";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub profile_id: String,
    /// Staff member acting as the member, when impersonating.
    pub actor: Option<String>,
    pub tenant: Option<String>,
}

impl Caller {
    /// The signed-in member behind a request, or `Unauthenticated`.
    pub fn from_metadata(md: &MetadataMap) -> Result<Caller, Status> {
        let get = |k: &str| md.get(k).and_then(|v| v.to_str().ok()).filter(|s| !s.is_empty()).map(str::to_owned);
        let profile_id = get(PID).ok_or_else(|| Status::unauthenticated("No signed-in member"))?;
        Ok(Caller { profile_id, actor: get(ACTOR), tenant: get(TENANT) })
    }

    pub fn write_to(&self, md: &mut MetadataMap) {
        if let Ok(v) = self.profile_id.parse() {
            md.insert(PID, v);
        }
        if let Some(a) = self.actor.as_ref().and_then(|a| a.parse().ok()) {
            md.insert(ACTOR, a);
        }
        if let Some(t) = self.tenant.as_ref().and_then(|t| t.parse().ok()) {
            md.insert(TENANT, t);
        }
    }
}

//! gRPC contracts of the portal's services, one versioned package each.
#![allow(clippy::all)]

pub mod auth {
    pub mod v1 {
        tonic::include_proto!("portal.auth.v1");
    }
}
pub mod profile {
    pub mod v1 {
        tonic::include_proto!("portal.profile.v1");
    }
}
pub mod connections {
    pub mod v1 {
        tonic::include_proto!("portal.connections.v1");
    }
}
pub mod qff {
    pub mod v1 {
        tonic::include_proto!("portal.qff.v1");
    }
}
pub mod refdata {
    pub mod v1 {
        tonic::include_proto!("portal.refdata.v1");
    }
}

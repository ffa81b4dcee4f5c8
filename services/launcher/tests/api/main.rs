//! HTTP tests of the gateway against the real services, one file per resource. Tests that touch
//! storage run on both backends through `both!`.
mod helpers;

/// Runs an `async fn(&TestApp)` on SQLite + in-process KV and on PostgreSQL + Redis.
macro_rules! both {
    ($($check:ident),* $(,)?) => {
        $(
            mod $check {
                use crate::helpers::{spawn_app, Options};
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite_in_process() {
                    let app = spawn_app(Options::default()).await.unwrap();
                    super::$check(&app).await;
                    app.stop().await;
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres_redis() {
                    if let Some(app) = spawn_app(Options { external: true, ..Options::default() }).await {
                        super::$check(&app).await;
                        app.stop().await;
                    }
                }
            }
        )*
    };
}
pub(crate) use both;

mod activity_types;
mod auth;
mod bounded_errors;
mod canary;
mod checkin;
mod claims;
mod codes;
mod config;
mod connection_hygiene;
mod contract;
mod delivery;
mod details;
mod email_change;
mod geolocation;
mod kv_outage;
mod loyalty_cards;
mod member_number;
mod orders;
mod outage;
mod privacy;
mod profile;
mod qff;
mod rewards;
mod routes;
mod session_lifetime;
mod sessions;
mod staff;
mod staff_views;
mod tokens;
mod web;
mod wishlist;

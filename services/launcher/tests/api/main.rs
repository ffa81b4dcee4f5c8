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

mod auth;
mod codes;
mod delivery;
mod sessions;
mod session_lifetime;
mod email_change;
mod staff_views;
mod staff;
mod config;
mod contract;
mod profile;
mod details;
mod orders;
mod rewards;
mod routes;
mod geolocation;
mod qff;
mod outage;
mod privacy;
mod kv_outage;
mod tokens;
mod web;
mod connection_hygiene;
mod bounded_errors;
mod claims;
mod loyalty_cards;

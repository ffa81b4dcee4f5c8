//! Structured logs through `tracing`. Filter with `RUST_LOG`; never log tokens, codes or
//! personal data. Production mode (`PORTAL_MODE=production`) writes one JSON object per line;
//! `PORTAL_LOG_FORMAT=json` or `text` chooses either way.
use tracing_subscriber::EnvFilter;

/// Whether logs are JSON: asked for, or production mode.
fn json_logs() -> bool {
    match std::env::var("PORTAL_LOG_FORMAT").as_deref() {
        Ok("json") => true,
        Ok("text") => false,
        _ => std::env::var("PORTAL_MODE").as_deref() == Ok("production"),
    }
}

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    if json_logs() {
        let _ = tracing_subscriber::fmt().json().flatten_event(true).with_env_filter(filter).with_target(false).try_init();
    } else {
        let _ = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).try_init();
    }
}

//! How every portal process starts and stops, written once: the service binaries, the gateway's,
//! `portal serve <service>` and the one-process `portal` all go through [`run_process`], so
//! telemetry, the tenant check, `/metrics`, and stopping on Ctrl-C or TERM are the same everywhere.
use futures::future::BoxFuture;
use std::path::Path;
use tokio::sync::watch;
use tokio::task::JoinSet;

use super::GrpcApp;
use crate::config::Settings;

/// What one process serves, started: each part (a gRPC service, the gateway) runs in a task of
/// its own until the process stops them all together.
pub struct Running {
    stop: watch::Sender<bool>,
    tasks: JoinSet<anyhow::Result<()>>,
    after_stop: Vec<Box<dyn FnOnce() + Send>>,
}

impl Default for Running {
    fn default() -> Self {
        Running { stop: watch::channel(false).0, tasks: JoinSet::new(), after_stop: vec![] }
    }
}

impl Running {
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs a part in a task: `run` is given the future that resolves when the process stops, as
    /// its graceful shutdown (`GrpcApp::run`, the gateway's `Application::run`).
    pub fn spawn<F, Fut>(&mut self, run: F)
    where
        F: FnOnce(BoxFuture<'static, ()>) -> Fut,
        Fut: std::future::Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let mut rx = self.stop.subscribe();
        let stopped: BoxFuture<'static, ()> = Box::pin(async move {
            let _ = rx.wait_for(|s| *s).await;
        });
        self.tasks.spawn(run(stopped));
    }

    /// A gRPC service, served until the process stops.
    pub fn spawn_grpc(&mut self, app: GrpcApp) {
        self.spawn(|stopped| app.run(stopped));
    }

    /// Work to do once every part has stopped (removing a sockets' directory, letting go of
    /// something the parts needed while they ran).
    pub fn after_stop(&mut self, work: impl FnOnce() + Send + 'static) {
        self.after_stop.push(Box::new(work));
    }

    /// Stops every part and waits for them to finish; the first error any of them ended with.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        let _ = self.stop.send(true);
        let mut result = Ok(());
        while let Some(r) = self.tasks.join_next().await {
            if let Err(e) = r.map_err(anyhow::Error::from).and_then(|r| r) {
                result = Err(e);
            }
        }
        for work in self.after_stop.drain(..) {
            work();
        }
        result
    }

    /// Resolves when any part stops on its own (which is a failure), with its error.
    pub async fn wait(&mut self) -> anyhow::Result<()> {
        match self.tasks.join_next().await {
            Some(r) => r?,
            None => Ok(()),
        }
    }
}

/// The one start-up of every portal process: logs and traces named `process`, the settings from
/// the environment, the tenant file loaded and checked once by `load_tenant`
/// (`portal_tenant::load`: this crate does not depend on the tenant crate) so a bad one stops the
/// process here naming the field, `/metrics` when configured; then `start` binds and starts what
/// this process serves, which runs until Ctrl-C or TERM, or until a part of it fails.
pub async fn run_process<T, S, Fut>(process: &str, load_tenant: impl FnOnce(&Path) -> anyhow::Result<T>, start: S) -> anyhow::Result<()>
where
    S: FnOnce(Settings) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<Running>>,
{
    crate::telemetry::init(process);
    let settings = Settings::load()?;
    load_tenant(&settings.tenant_config)?;
    if let Some(addr) = crate::metrics::serve_configured(&settings).await? {
        println!("{process} metrics on http://{addr}/metrics");
    }
    let mut running = start(settings).await?;
    let ended = tokio::select! {
        r = running.wait() => r.and(Err(anyhow::anyhow!("a service stopped unexpectedly"))),
        _ = shutdown_signal() => {
            tracing::info!("shutting down");
            Ok(())
        }
    };
    let stopped = running.stop().await;
    crate::telemetry::shutdown();
    ended.and(stopped)
}

/// A standalone service binary's whole `main`: [`run_process`] with the one service `build` makes.
pub async fn run_standalone<T, F, Fut>(name: &str, load_tenant: impl FnOnce(&Path) -> anyhow::Result<T>, build: F) -> anyhow::Result<()>
where
    F: FnOnce(Settings) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<GrpcApp>>,
{
    run_process(name, load_tenant, |settings| async move {
        let app = build(settings).await?;
        println!("{name} listening on {}", app.url());
        let mut running = Running::new();
        running.spawn_grpc(app);
        Ok(running)
    })
    .await
}

/// Resolves on Ctrl-C or SIGTERM (what Kubernetes sends before it kills a pod).
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::Running;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    #[tokio::test]
    async fn stopping_stops_every_part_then_cleans_up() {
        let mut running = Running::new();
        let stopped = Arc::new(AtomicBool::new(false));
        for _ in 0..3 {
            running.spawn(|stop| async move {
                stop.await;
                Ok(())
            });
        }
        let s = stopped.clone();
        running.after_stop(move || s.store(true, Ordering::SeqCst));
        running.stop().await.unwrap();
        assert!(stopped.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn a_part_that_fails_is_reported_and_the_others_still_stop() {
        let mut running = Running::new();
        running.spawn(|stop| async move {
            stop.await;
            Ok(())
        });
        running.spawn(|_| async { anyhow::bail!("refused to start") });
        let e = running.wait().await.unwrap_err();
        assert_eq!(e.to_string(), "refused to start");
        running.stop().await.unwrap();
    }
}

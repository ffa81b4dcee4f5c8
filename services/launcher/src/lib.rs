//! Starts the whole portal in one process: each gRPC service on its own loopback port (port 0,
//! so nothing collides), then the gateway pointed at them. The same services run as separate
//! processes in production; nothing here is needed there.
use portal_common::config::Settings;
use tokio::sync::watch;
use tokio::task::JoinSet;

pub struct Stack {
    pub gateway_port: u16,
    /// The settings the services were started with (service URLs filled in).
    pub settings: Settings,
    stop: watch::Sender<bool>,
    tasks: JoinSet<anyhow::Result<()>>,
}

fn stopped(mut rx: watch::Receiver<bool>) -> impl std::future::Future<Output = ()> + Send + 'static {
    async move {
        let _ = rx.wait_for(|s| *s).await;
    }
}

/// Builds and starts every service, then the gateway; returns once all are listening.
pub async fn start(mut settings: Settings) -> anyhow::Result<Stack> {
    settings.grpc_port = 0;
    let (stop, rx) = watch::channel(false);
    let mut tasks = JoinSet::new();

    // In dependency order: connections and profile ask refdata for the tenant's rules, profile
    // asks connections about list items, auth asks profile and refdata.
    let refdata = portal_refdata::build(&settings).await?;
    settings.services.refdata = Some(refdata.url());
    let connections = portal_connections::build(&settings).await?;
    settings.services.connections = Some(connections.url());
    let profile = portal_profile::build(&settings).await?;
    let qff = portal_qff::build(&settings).await?;
    settings.services.profile = Some(profile.url());
    settings.services.qff = Some(qff.url());
    let auth = portal_auth::build(&settings).await?;
    settings.services.auth = Some(auth.url());
    for app in [refdata, profile, connections, qff, auth] {
        tasks.spawn(app.run(stopped(rx.clone())));
    }

    let gateway = portal_gateway::Application::build(settings.clone()).await?;
    let gateway_port = gateway.port();
    tasks.spawn(gateway.run(stopped(rx)));
    Ok(Stack { gateway_port, settings, stop, tasks })
}

impl Stack {
    /// Stops every service and waits for them to finish.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        let _ = self.stop.send(true);
        while let Some(r) = self.tasks.join_next().await {
            r??;
        }
        Ok(())
    }

    /// Resolves when any service stops on its own (which is a failure), with its error.
    pub async fn wait(&mut self) -> anyhow::Result<()> {
        match self.tasks.join_next().await {
            Some(r) => r?,
            None => Ok(()),
        }
    }
}

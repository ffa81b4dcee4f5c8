//! Three qff instances on one storage, as three replicas run, on both backends: the background
//! reconciler runs on the one holding the `qff-reconciler` lease, and each pending conversion or
//! link is settled once: the airline asked about each conversion once, each hold settled once,
//! even with the Reconcile RPC called on all three at the same time as their loops.
use portal_common::db::Db;
use portal_common::identity::Caller;
use portal_common::testing::{as_member, channel, with_caller, Backend, Harness};
use portal_proto::profile::v1::{self as ppb, loyalty_service_client::LoyaltyServiceClient, profile_service_client::ProfileServiceClient};
use portal_proto::qff::v1::{self as pb, qff_service_client::QffServiceClient};
use portal_qff_sandbox::{Fault, FaultKind};
use sqlx::Row;
use std::time::Duration;
use tonic::Code;

type Channel = portal_common::grpc::Channel;

portal_common::both_backends!(each_pending_conversion_is_settled_once_by_one_replica, each_pending_link_is_settled_once_by_one_replica);

/// Three qff replicas (same storage, their own gRPC ports), the profile service they share and
/// the partner sandbox.
struct Replicas {
    h: Harness,
    qff: Vec<QffServiceClient<Channel>>,
    profiles: ProfileServiceClient<Channel>,
    loyalty: LoyaltyServiceClient<Channel>,
    sandbox: portal_qff_sandbox::Running,
    db: Db,
    /// Where the replicas look for the profile service, when it starts down.
    profile_port: Option<u16>,
}

/// Serves refdata, the profile service and the sandbox, then three qff replicas reconciling
/// every second what is pending at once (age 0). With `profile_down`, they are given a profile
/// address nobody listens on yet.
async fn start(backend: Backend, profile_down: bool) -> Option<Replicas> {
    let mut h = Harness::new(backend)?;
    h.start("refdata", portal_refdata::build).await;
    h.absent("connections");
    let to_profile = channel(&h.start("profile", portal_profile::build).await);
    let sandbox = portal_qff_sandbox::spawn("127.0.0.1:0", portal_qff::partner::SANDBOX_KEY).await.expect("sandbox");
    h.settings.qff.api_url = Some(sandbox.url.clone());
    h.settings.qff.reconcile_after_secs = 0;
    h.settings.qff.reconcile_secs = 1;
    h.settings.qff.timeout_ms = 500;
    h.settings.qff.breaker_failures = 1_000;
    let profile_port = profile_down.then(|| h.absent("profile"));
    let mut qff = Vec::new();
    for _ in 0..3 {
        qff.push(QffServiceClient::new(channel(&h.start("qff", portal_qff::build).await)));
    }
    let db = Db::connect(&h.settings, "qff", &portal_qff::MIGRATOR).await.expect("qff storage");
    Some(Replicas {
        qff,
        profiles: ProfileServiceClient::new(to_profile.clone()),
        loyalty: LoyaltyServiceClient::new(to_profile),
        sandbox,
        db,
        profile_port,
        h,
    })
}

impl Replicas {
    async fn member(&mut self, email: &str, number: &str) -> String {
        let req =
            ppb::CreateProfileRequest { email: email.into(), first_name: "Ada".into(), last_name: "Lovelace".into(), ..Default::default() };
        self.sandbox.sandbox.add_member(number, "Ada", "Lovelace", 0);
        self.profiles.create_profile(req).await.expect("created").into_inner().profile_id
    }

    async fn link(&mut self, replica: usize, pid: &str, number: &str) -> Result<pb::GetPointsResponse, tonic::Status> {
        let req = pb::LinkRequest { qff_number: number.into(), last_name: "Lovelace".into() };
        self.qff[replica].link(as_member(req, pid)).await.map(|r| r.into_inner())
    }

    /// A conversion of 1,000 points the airline doesn't answer: `credited` says whether its credit
    /// landed all the same (the answer was lost) or never did (the airline failed first).
    async fn pending_conversion(&mut self, replica: usize, pid: &str, key: &str, credited: bool) -> String {
        let kind = if credited { FaultKind::TimeoutAfterCredit } else { FaultKind::Error500 };
        self.sandbox.sandbox.add_fault(Fault { operation: Some("credit".into()), kind, count: 1, delay_ms: None });
        let now = portal_common::now_unix();
        let caller = Caller {
            profile_id: pid.into(),
            actor: None,
            tenant: None,
            staff: false,
            token_id: None,
            token_exp: None,
            auth_time: Some(now),
        };
        let req = with_caller(pb::ConvertRequest { points: 1_000, idempotency_key: key.into() }, &caller);
        // Pending, unless a reconciler settled it already before the answer was read back; either
        // way it is left to them (checked after, by their claims).
        self.qff[replica].convert(req).await.expect("answered").into_inner().id
    }

    /// Waits (at most 20 s) until no conversion and no link is pending.
    async fn settled(&self) {
        for _ in 0..200 {
            let open: i64 = sqlx::query(
                "SELECT (SELECT COUNT(*) FROM qff_conversions WHERE status IN ('pending', 'running'))
                      + (SELECT COUNT(*) FROM qff_links WHERE state = 'pending') AS n",
            )
            .fetch_one(&self.db.pool)
            .await
            .unwrap()
            .get("n");
            if open == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("still pending after 20 s");
    }

    /// The instance holding the reconciler's lease.
    async fn lease_holder(&self) -> String {
        let row =
            sqlx::query("SELECT holder FROM leases WHERE name = $1").bind(portal_qff::RECONCILER_LEASE).fetch_one(&self.db.pool).await;
        row.expect("the lease was taken").get("holder")
    }

    /// Who claimed each of `table`'s rows, as the reconciler left them.
    async fn claimers(&self, table: &str) -> Vec<Option<String>> {
        let rows = sqlx::query(&format!("SELECT claimed_by FROM {table}")).fetch_all(&self.db.pool).await.unwrap();
        rows.iter().map(|r| r.get("claimed_by")).collect()
    }

    async fn status(&self, id: &str) -> String {
        sqlx::query("SELECT status FROM qff_conversions WHERE id = $1").bind(id).fetch_one(&self.db.pool).await.unwrap().get("status")
    }

    async fn finish(self) {
        self.sandbox.task.abort();
        self.h.finish().await;
    }
}

async fn each_pending_conversion_is_settled_once_by_one_replica(backend: Backend) {
    let Some(mut r) = start(backend, false).await else { return };
    let mut members = Vec::new();
    for i in 0..3 {
        let number = format!("190011111{i}");
        let pid = r.member(&format!("m{i}@example.com"), &number).await;
        r.link(i, &pid, &number).await.expect("linked");
        let adjust = ppb::AdjustPointsRequest {
            profile_id: pid.clone(),
            points: 10_000,
            source: "staff".into(),
            reason: "Goodwill".into(),
            reference: format!("goodwill-{i}"),
        };
        r.loyalty.adjust_points(adjust).await.expect("credited");
        members.push((pid, number));
    }

    // Two conversions per member, each through another replica: one the airline credited
    // without saying so, one it never received. The replicas' loops settle them.
    let mut conversions = Vec::new();
    for (i, (pid, _)) in members.clone().iter().enumerate() {
        for (j, credited) in [true, false].into_iter().enumerate() {
            let id = r.pending_conversion((i + j) % 3, pid, &format!("loop-{j}"), credited).await;
            conversions.push((id, credited));
        }
    }
    r.settled().await;
    let holder = r.lease_holder().await;
    assert_eq!(r.claimers("qff_conversions").await, vec![Some(holder.clone()); 6], "the lease holder alone reconciled");

    // Two more per member, then the Reconcile RPC on all three replicas at once, beside the loops.
    for (i, (pid, _)) in members.clone().iter().enumerate() {
        for (j, credited) in [true, false].into_iter().enumerate() {
            let id = r.pending_conversion((i + j + 1) % 3, pid, &format!("rpc-{j}"), credited).await;
            conversions.push((id, credited));
        }
    }
    let calls = r.qff.iter().map(|c| {
        let mut c = c.clone();
        tokio::spawn(async move { c.reconcile(pb::ReconcileRequest {}).await.map(|r| r.into_inner()) })
    });
    let mut settled_by_rpc = 0;
    for call in calls.collect::<Vec<_>>() {
        let out = call.await.unwrap().expect("reconciled");
        settled_by_rpc += out.completed + out.failed;
    }
    r.settled().await;
    assert!(settled_by_rpc <= 6, "no conversion counted twice: {settled_by_rpc}");

    let claimers = r.claimers("qff_conversions").await;
    assert!(claimers.len() == 12 && claimers.iter().all(Option::is_some), "a reconciler settled each: {claimers:?}");
    for (id, credited) in &conversions {
        let sandbox = &r.sandbox.sandbox;
        assert_eq!(sandbox.calls_about("credit", id), 1, "{id}: credited by its request only");
        assert_eq!(sandbox.calls_about("credit_status", id), 1, "{id}: the airline asked about it once");
        assert_eq!(r.status(id).await, if *credited { "completed" } else { "failed" }, "{id}");
    }
    for (pid, number) in &members {
        // 10,000 points, two conversions of 1,000 completed (500 airline points each).
        let balance = r.loyalty.get_balances(as_member(ppb::GetBalancesRequest {}, pid)).await.expect("balance").into_inner().points;
        assert_eq!(balance, 8_000, "each hold settled once");
        assert_eq!(r.sandbox.sandbox.points(number), Some(1_000));
    }
    r.finish().await;
}

async fn each_pending_link_is_settled_once_by_one_replica(backend: Backend) {
    let Some(mut r) = start(backend, true).await else { return };
    let mut links = Vec::new();
    for i in 0..6 {
        let number = format!("190022222{i}");
        let pid = r.member(&format!("l{i}@example.com"), &number).await;
        let e = r.link(i % 3, &pid, &number).await.unwrap_err();
        assert_eq!(e.code(), Code::Unavailable, "{e:?}");
        // Half the calls reached the profile after all (only the answer was lost).
        if i % 2 == 0 {
            let set = ppb::SetPartnerLinkRequest {
                profile_id: pid.clone(),
                handle: "qff_number".into(),
                identifier: number.clone(),
                namespace: "qantas".into(),
                ..Default::default()
            };
            r.profiles.set_partner_link(set).await.expect("the profile side");
        }
        links.push(pid);
    }
    let mut settings = r.h.settings.clone();
    settings.grpc_port = r.profile_port.expect("started with the profile down");
    r.h.serve(portal_profile::build(&settings).await.expect("profile builds"));
    r.settled().await;

    let holder = r.lease_holder().await;
    assert_eq!(r.claimers("qff_links").await, vec![Some(holder); 3], "the lease holder alone reconciled; the others were removed");
    for (i, pid) in links.iter().enumerate() {
        let p = r.qff[i % 3].get_points(as_member(pb::GetPointsRequest {}, pid)).await.expect("points").into_inner();
        assert_eq!(p.linked, i % 2 == 0, "link {i}");
    }
    r.finish().await;
}

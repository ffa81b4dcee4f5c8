use super::*;

const DEMO: &str = "prf_0000000000000000000000d1";
const OTHER: &str = "prf_0000000000000000000000d2";

fn manifest(percent: u8) -> Manifest {
    parse_manifest(
        format!(
            r#"{{"mfe_rewards": {{"entry": "/mfe/mfe-rewards/0.1.0/mf-manifest.json", "version": "0.1.0", "previous": {{"entry": "x", "version": "0.0.9"}},
                "canary": {{"entry": "/mfe/mfe-rewards/0.2.0/mf-manifest.json", "version": "0.2.0", "percent": {percent}, "minSamples": 4, "maxFailureRate": 0.5}}}},
              "mfe_orders": {{"entry": "/mfe/mfe-orders/0.1.0/mf-manifest.json", "version": "0.1.0"}}}}"#
        )
        .as_bytes(),
    )
    .unwrap()
}

#[test]
fn a_members_bucket_is_stable_and_buckets_spread_evenly() {
    // The same answer every time (and in the e2e test, which counts on these two).
    assert_eq!(bucket("mfe_rewards", DEMO), 32);
    assert_eq!(bucket("mfe_rewards", OTHER), 58);
    assert_eq!(bucket("mfe_rewards", DEMO), bucket("mfe_rewards", DEMO));
    // Another tab, another cohort.
    assert_ne!(bucket("mfe_orders", DEMO), bucket("mfe_rewards", DEMO));
    // 10 000 members: each tenth of the buckets holds about a tenth of them.
    let mut tenths = [0u32; 10];
    for i in 0..10_000 {
        tenths[(bucket("mfe_rewards", &format!("prf_{i:026}")) / 10) as usize] += 1;
    }
    assert!(tenths.iter().all(|n| (850..=1150).contains(n)), "{tenths:?}");
}

#[test]
fn the_manifest_file_is_checked() {
    assert!(matches!(parse_manifest(b"[]"), Err(ManifestError::Invalid(_))));
    assert!(matches!(parse_manifest(br#"{"a": {"entry": "e"}}"#), Err(ManifestError::Invalid(m)) if m.contains("version")));
    let over = br#"{"a": {"entry": "e", "version": "1", "canary": {"entry": "f", "version": "2", "percent": 101}}}"#;
    assert!(matches!(parse_manifest(over), Err(ManifestError::Invalid(m)) if m.contains("percent")));
    assert_eq!(manifest(50)["mfe_rewards"].canary.as_ref().unwrap().min_samples, Some(4));
}

#[test]
fn a_canary_is_judged_after_its_minimum_sample() {
    let c = manifest(50)["mfe_rewards"].canary.clone().unwrap();
    assert!(!crossed(&c, 3, 3), "3 loads are below the minimum of 4");
    assert!(crossed(&c, 4, 2), "2 of 4 is the 50 % threshold");
    assert!(!crossed(&c, 5, 2));
    let defaults = Canary { min_samples: None, max_failure_rate: None, ..c };
    assert!(!crossed(&defaults, 19, 19));
    assert!(crossed(&defaults, 20, 2) && !crossed(&defaults, 20, 1));
}

#[tokio::test]
async fn members_below_the_percentage_get_the_canary_until_it_is_rolled_back() {
    let canaries = Canaries::new(Kv::in_memory("t:"));
    let m = manifest(50);
    let demo = canaries.resolve(&m, Some(DEMO)).await;
    assert_eq!(
        demo["mfe_rewards"],
        Served { entry: "/mfe/mfe-rewards/0.2.0/mf-manifest.json".into(), version: "0.2.0".into(), canary: true }
    );
    assert_eq!(demo["mfe_orders"].version, "0.1.0");
    assert_eq!(canaries.resolve(&m, Some(OTHER)).await["mfe_rewards"].version, "0.1.0");
    assert_eq!(canaries.resolve(&m, None).await["mfe_rewards"].version, "0.1.0", "signed out: stable");
    assert_eq!(canaries.resolve(&manifest(60), Some(OTHER)).await["mfe_rewards"].version, "0.2.0");
    assert_eq!(canaries.resolve(&manifest(0), Some(DEMO)).await["mfe_rewards"].version, "0.1.0");

    // Reports: unknown tabs and versions are refused (the metric's labels stay the manifest's).
    assert_eq!(canaries.record(&m, "mfe_nope", "0.1.0", Outcome::LoadFailed).await.unwrap(), Err(Unknown::Remote));
    assert_eq!(canaries.record(&m, "mfe_rewards", "9.9.9", Outcome::LoadFailed).await.unwrap(), Err(Unknown::Version));
    // Failures of the stable release never roll anything back.
    for _ in 0..10 {
        assert_eq!(canaries.record(&m, "mfe_rewards", "0.1.0", Outcome::LoadFailed).await.unwrap(), Ok(Recorded::Counted));
    }
    // 2 loads, 1 render failure: below the minimum sample.
    for o in [Outcome::Loaded, Outcome::Loaded, Outcome::RenderFailed] {
        assert_eq!(canaries.record(&m, "mfe_rewards", "0.2.0", o).await.unwrap(), Ok(Recorded::Counted));
    }
    assert_eq!(canaries.record(&m, "mfe_rewards", "0.2.0", Outcome::LoadFailed).await.unwrap(), Ok(Recorded::Counted));
    // The 4th load fails: 3 failures of 4 loads.
    assert_eq!(canaries.record(&m, "mfe_rewards", "0.2.0", Outcome::LoadFailed).await.unwrap(), Ok(Recorded::RolledBack));
    assert_eq!(canaries.record(&m, "mfe_rewards", "0.2.0", Outcome::LoadFailed).await.unwrap(), Ok(Recorded::Counted), "once");
    assert!(canaries.is_rolled_back("mfe_rewards", "0.2.0").await.unwrap());
    for pid in [DEMO, OTHER] {
        assert_eq!(canaries.resolve(&manifest(100), Some(pid)).await["mfe_rewards"].version, "0.1.0");
    }
}

#[tokio::test]
async fn reports_are_limited_per_address_and_minute() {
    let canaries = Canaries::new(Kv::in_memory("t:"));
    for _ in 0..REPORTS_PER_MINUTE {
        assert!(canaries.allow_report("10.0.0.1").await.unwrap());
    }
    assert!(!canaries.allow_report("10.0.0.1").await.unwrap());
    assert!(canaries.allow_report("10.0.0.2").await.unwrap(), "another address has its own count");
}

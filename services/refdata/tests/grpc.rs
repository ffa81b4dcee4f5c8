//! The refdata service through its gRPC contract, on SQLite and on PostgreSQL: the tenant file as
//! members may see it (secrets removed, an edit applied without a restart), the store locations
//! and countries with the ages clients refetch by, and where a caller is (by IP, else the default).
use portal_common::grpc::Channel;
use portal_common::testing::{Backend, Harness};
use portal_proto::refdata::v1::{self as pb, refdata_service_client::RefdataServiceClient};
use serde_json::Value;
use tonic::Code;

type Client = RefdataServiceClient<Channel>;

portal_common::both_backends!(
    the_config_leaves_without_secrets_and_edits_apply,
    locations_and_their_age,
    countries_with_their_states,
    a_caller_is_located_by_ip_else_by_default,
);

/// The repository's tenant file, as JSON.
fn repo_tenant(h: &Harness) -> Value {
    serde_json::from_str(&std::fs::read_to_string(&h.settings.tenant_config).unwrap()).unwrap()
}

/// Writes `doc` as the test's own tenant file and makes it the one served.
fn use_tenant(h: &mut Harness, doc: &Value) {
    let path = h.path("tenant.json");
    std::fs::write(&path, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    h.settings.tenant_config = path;
}

/// Refdata, built (migrated, seeded when `demo_data`) and served with the harness's settings.
async fn serve(h: &Harness) -> Client {
    let url = h.serve(portal_refdata::build(&h.settings).await.unwrap());
    RefdataServiceClient::new(portal_common::grpc::channel(&url).unwrap())
}

async fn config(client: &mut Client) -> (Value, i64) {
    let r = client.get_config(pb::GetConfigRequest {}).await.unwrap().into_inner();
    (serde_json::from_str(&r.json).unwrap(), r.last_updated)
}

async fn the_config_leaves_without_secrets_and_edits_apply(backend: Backend) {
    let Some(mut h) = Harness::new(backend) else { return };
    let mut doc = repo_tenant(&h);
    assert!(doc["secrets"].is_object() && doc["components"]["qantas"]["apiKey"].is_string(), "the repository's file has secrets");
    use_tenant(&mut h, &doc);
    let mut client = serve(&h).await;

    let (public, last_updated) = config(&mut client).await;
    assert_eq!(last_updated, doc["lastUpdated"].as_i64().unwrap());
    assert_eq!(public["lastUpdated"], doc["lastUpdated"]);
    assert!(public.get("secrets").is_none(), "{public}");
    assert!(public["components"]["qantas"].get("apiKey").is_none());
    assert_eq!(public["general"], doc["general"]);
    assert_eq!(public["components"]["connections"], doc["components"]["connections"]);

    // An edit of the file applies at the next ask; one that does not load keeps the last good.
    doc["general"]["currency"] = "NZD".into();
    doc["lastUpdated"] = 1_800_000_000.into();
    use_tenant(&mut h, &doc);
    let (public, last_updated) = config(&mut client).await;
    assert_eq!((public["general"]["currency"].as_str(), last_updated), (Some("NZD"), 1_800_000_000));
    doc["general"]["timeZone"] = 3.into();
    use_tenant(&mut h, &doc);
    let (public, last_updated) = config(&mut client).await;
    assert_eq!((public["general"]["currency"].as_str(), last_updated), (Some("NZD"), 1_800_000_000));

    // A file that does not load stops the service at start-up instead.
    let refused = portal_refdata::build(&h.settings).await.err().expect("a bad tenant file is refused at start-up");
    assert!(format!("{refused:#}").contains("general.timeZone"), "{refused:#}");
    h.finish().await;
}

async fn locations_and_their_age(backend: Backend) {
    let Some(mut h) = Harness::new(backend) else { return };
    let mut client = serve(&h).await;
    assert!(client.list_locations(pb::ListLocationsRequest {}).await.unwrap().into_inner().locations.is_empty());

    // The demo brand's stores, by id, on the same storage started again with demo data.
    h.settings.demo_data = true;
    let mut client = serve(&h).await;
    let locations = client.list_locations(pb::ListLocationsRequest {}).await.unwrap().into_inner().locations;
    let handles: Vec<&str> = locations.iter().map(|l| l.handle.as_str()).collect();
    assert_eq!(handles, ["melbourne-central", "chadstone", "sydney-pitt-street", "brisbane-queen-street", "perth-hay-street"]);
    let first = &locations[0];
    assert_eq!((first.id, first.external_code.as_str(), first.time_zone.as_str()), (1, "MC01", "Australia/Melbourne"));
    assert_eq!((first.latitude, first.longitude), (-37.810_29, 144.962_84));
    assert_eq!(first.address, "Melbourne Central, 211 La Trobe Street\nMelbourne VIC 3000");
    let hours: Value = serde_json::from_str(&first.hours_json).unwrap();
    assert_eq!(hours["thu"], serde_json::json!([["10:00", "21:00"]]));

    // Each data set's age moves only when its data changes: a restart keeps both.
    let ages = client.get_ages(pb::GetAgesRequest {}).await.unwrap().into_inner();
    assert!(ages.countries > 0 && ages.locations > 0, "{ages:?}");
    let mut again = serve(&h).await;
    assert_eq!(again.get_ages(pb::GetAgesRequest {}).await.unwrap().into_inner(), ages);
    h.finish().await;
}

async fn countries_with_their_states(backend: Backend) {
    let Some(h) = Harness::new(backend) else { return };
    let mut client = serve(&h).await;
    let r = client.list_countries(pb::ListCountriesRequest {}).await.unwrap().into_inner();
    assert!(r.countries.len() > 240, "{} countries", r.countries.len());
    assert!(r.countries.windows(2).all(|w| w[0].name <= w[1].name), "sorted by name");
    let au = r.countries.iter().find(|c| c.iso_2 == "AU").unwrap();
    assert_eq!((au.iso_3.as_str(), au.name.as_str()), ("AUS", "Australia"));
    assert!(au.states.windows(2).all(|w| w[0].name <= w[1].name), "states sorted by name");
    let vic = au.states.iter().find(|s| s.iso == "VIC").unwrap();
    assert_eq!((vic.iso_2_country_state_code.as_str(), vic.name.as_str()), ("AU-VIC", "Victoria"));
    let ages = client.get_ages(pb::GetAgesRequest {}).await.unwrap().into_inner();
    assert_eq!(r.last_updated, ages.countries);
    h.finish().await;
}

fn locate_from(ip: Option<&str>) -> tonic::Request<pb::LocateRequest> {
    let mut r = tonic::Request::new(pb::LocateRequest {});
    if let Some(ip) = ip {
        r.metadata_mut().insert(portal_common::identity::CLIENT_IP, ip.parse().unwrap());
    }
    r
}

async fn a_caller_is_located_by_ip_else_by_default(backend: Backend) {
    let Some(mut h) = Harness::new(backend) else { return };
    let doc = repo_tenant(&h);
    let default = &doc["general"]["defaultPosition"];
    let (lat, lng) = (default["latitude"].as_f64().unwrap(), default["longitude"].as_f64().unwrap());

    // No default position and no store: nothing is known.
    let mut no_default = doc.clone();
    no_default["general"].as_object_mut().unwrap().remove("defaultPosition");
    use_tenant(&mut h, &no_default);
    let mut client = serve(&h).await;
    let unknown = client.locate(locate_from(None)).await.unwrap_err();
    assert_eq!((unknown.code(), unknown.message()), (Code::NotFound, "No position is known for this address"));
    // Then the first store.
    h.settings.demo_data = true;
    let mut client = serve(&h).await;
    let at = client.locate(locate_from(None)).await.unwrap().into_inner();
    assert_eq!(at, pb::Located { latitude: -37.810_29, longitude: 144.962_84, source: "default".into(), ..Default::default() });

    // The tenant's default position; by IP where the database knows the address.
    use_tenant(&mut h, &doc);
    let geo = h.path("city.mmdb");
    std::fs::write(&geo, portal_geo::testing::geoip_city_db("203.0.113.0/24", "Sydney", "Australia", "AU", Some((-33.87, 151.21))))
        .unwrap();
    h.settings.geoip_db = Some(geo.display().to_string());
    h.settings.geoip_credit = Some("Test GeoIP".into());
    h.settings.geoip_credit_url = Some("https://example.com/geoip".into());
    let mut client = serve(&h).await;
    for ip in [None, Some("198.51.100.7"), Some("not an address")] {
        let at = client.locate(locate_from(ip)).await.unwrap().into_inner();
        assert_eq!(at, pb::Located { latitude: lat, longitude: lng, source: "default".into(), ..Default::default() }, "{ip:?}");
    }
    let at = client.locate(locate_from(Some("203.0.113.9"))).await.unwrap().into_inner();
    let expected = pb::Located {
        latitude: -33.87,
        longitude: 151.21,
        source: "ip".into(),
        country_code: "AU".into(),
        city: "Sydney".into(),
        credit: "Test GeoIP".into(),
        credit_url: "https://example.com/geoip".into(),
    };
    assert_eq!(at, expected);
    h.finish().await;
}

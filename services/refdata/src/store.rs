//! The refdata service's SQL: the tenant's store locations (and the demo brand's, seeded) and
//! when each reference data set last changed, portable between SQLite and PostgreSQL. Answers
//! the service's own types and `RefdataError`.
use crate::error::{db, RefdataError};
use portal_common::db::Db;
use portal_proto::refdata::v1 as pb;
use sqlx::Row;

type Result<T> = std::result::Result<T, RefdataError>;

const LOCATION_COLUMNS: &str = "id, handle, name, external_code, external_id, latitude, longitude, address, phone, time_zone, hours";

fn location(r: &sqlx::any::AnyRow) -> pb::Location {
    pb::Location {
        id: r.get("id"),
        handle: r.get("handle"),
        name: r.get("name"),
        external_code: r.get("external_code"),
        external_id: r.get("external_id"),
        latitude: r.get("latitude"),
        longitude: r.get("longitude"),
        address: r.get("address"),
        phone: r.get("phone"),
        time_zone: r.get("time_zone"),
        hours_json: r.get("hours"),
    }
}

/// The tenant's store locations, by id.
pub async fn locations(db_: &Db, tenant: &str) -> Result<Vec<pb::Location>> {
    let rows = sqlx::query(&format!("SELECT {LOCATION_COLUMNS} FROM locations WHERE tenant = $1 ORDER BY id"))
        .bind(tenant)
        .fetch_all(&db_.pool)
        .await
        .map_err(db("listing locations"))?;
    Ok(rows.iter().map(location).collect())
}

/// When the countries and the locations last changed (unix seconds).
pub async fn ages(db_: &Db) -> Result<pb::Ages> {
    let rows =
        sqlx::query("SELECT key, updated_at FROM refdata_meta").fetch_all(&db_.pool).await.map_err(db("reading reference data ages"))?;
    let mut ages = pb::Ages::default();
    for r in rows {
        match r.get::<String, _>("key").as_str() {
            "countries" => ages.countries = r.get("updated_at"),
            "locations" => ages.locations = r.get("updated_at"),
            _ => {}
        }
    }
    Ok(ages)
}

/// Records that a data set has `digest` now; its time moves only when the digest changes, so
/// clients refetch only when there is something new. Safe when several instances start at once.
pub async fn note_version(db_: &Db, key: &str, digest: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO refdata_meta (key, digest, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET digest = excluded.digest, updated_at = excluded.updated_at
         WHERE refdata_meta.digest <> excluded.digest",
    )
    .bind(key)
    .bind(digest)
    .bind(portal_common::now_unix())
    .execute(&db_.pool)
    .await
    .map_err(db("noting a reference data version"))?;
    Ok(())
}

/// A digest of the tenant's locations, for [`note_version`].
pub async fn locations_digest(db_: &Db, tenant: &str) -> Result<String> {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for r in locations(db_, tenant).await? {
        let line = format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}\n",
            r.id, r.handle, r.name, r.external_code, r.external_id, r.latitude, r.longitude, r.address, r.phone, r.time_zone, r.hours_json
        );
        h.update(line.as_bytes());
    }
    Ok(portal_common::hex(&h.finalize()))
}

/// A few of the demo brand's stores, at their real coordinates and addresses, with their hours
/// (phone numbers from the range set aside for fiction). Updated in place, so a demo database
/// made before a column existed gets it.
pub async fn seed_locations(db_: &Db, tenant: &str) -> Result<()> {
    let mall = r#"{"mon":[["09:00","17:30"]],"tue":[["09:00","17:30"]],"wed":[["09:00","17:30"]],"thu":[["09:00","21:00"]],"fri":[["09:00","21:00"]],"sat":[["09:00","17:00"]],"sun":[["10:00","17:00"]]}"#;
    let city = r#"{"mon":[["10:00","19:00"]],"tue":[["10:00","19:00"]],"wed":[["10:00","19:00"]],"thu":[["10:00","21:00"]],"fri":[["10:00","21:00"]],"sat":[["10:00","19:00"]],"sun":[["10:00","19:00"]]}"#;
    let stores = [
        (
            1i64,
            "melbourne-central",
            "Melbourne Central",
            "MC01",
            "1001",
            -37.810_29,
            144.962_84,
            "Melbourne Central, 211 La Trobe Street\nMelbourne VIC 3000",
            "+61 3 5550 1001",
            "Australia/Melbourne",
            city,
        ),
        (
            2,
            "chadstone",
            "Chadstone",
            "CH02",
            "1002",
            -37.886_39,
            145.083_13,
            "Chadstone Shopping Centre, 1341 Dandenong Road\nMalvern East VIC 3148",
            "+61 3 5550 1002",
            "Australia/Melbourne",
            mall,
        ),
        (
            3,
            "sydney-pitt-street",
            "Pitt Street Mall, Sydney",
            "PS03",
            "1003",
            -33.869_82,
            151.208_42,
            "188 Pitt Street\nSydney NSW 2000",
            "+61 2 5550 1003",
            "Australia/Sydney",
            city,
        ),
        (
            4,
            "brisbane-queen-street",
            "Queen Street Mall, Brisbane",
            "QS04",
            "1004",
            -27.469_89,
            153.025_71,
            "171 Queen Street\nBrisbane City QLD 4000",
            "+61 7 5550 1004",
            "Australia/Brisbane",
            mall,
        ),
        (
            5,
            "perth-hay-street",
            "Hay Street Mall, Perth",
            "HS05",
            "1005",
            -31.953_51,
            115.858_67,
            "200 Hay Street\nPerth WA 6000",
            "+61 8 5550 1005",
            "Australia/Perth",
            mall,
        ),
    ];
    for (id, handle, name, code, ext, lat, lng, address, phone, zone, hours) in stores {
        sqlx::query(
            "INSERT INTO locations (id, tenant, handle, name, external_code, external_id, latitude, longitude, address, phone, time_zone, hours)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (id) DO UPDATE SET address = excluded.address, phone = excluded.phone, time_zone = excluded.time_zone, hours = excluded.hours",
        )
        .bind(id)
        .bind(tenant)
        .bind(handle)
        .bind(name)
        .bind(code)
        .bind(ext)
        .bind(lat)
        .bind(lng)
        .bind(address)
        .bind(phone)
        .bind(zone)
        .bind(hours)
        .execute(&db_.pool)
        .await
        .map_err(db("seeding the demo locations"))?;
    }
    Ok(())
}

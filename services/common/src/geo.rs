//! Roughly where a sign-in came from, and no more than that. `GeoIp` names the city and country
//! (in English) of an IP address from a MaxMind DB (GeoLite2 or GeoIP2 City or Country) at
//! `PORTAL_GEOIP_DB`; without a database, or for an address it does not know, there is no place.
//! `truncate` is what is kept of an address: the IPv4 /24 or the IPv6 /48, never the host.
use crate::config::Settings;
use anyhow::Context;
use std::net::IpAddr;

pub struct GeoIp {
    reader: Option<maxminddb::Reader<Vec<u8>>>,
}

impl GeoIp {
    /// The database named by the settings, read once into memory; no database when unset. A
    /// database that is set but unreadable stops the service at start-up.
    pub fn open(settings: &Settings) -> anyhow::Result<GeoIp> {
        let Some(path) = &settings.geoip_db else { return Ok(GeoIp::none()) };
        let reader = maxminddb::Reader::open_readfile(path).with_context(|| format!("PORTAL_GEOIP_DB: reading {}", path.display()))?;
        Ok(GeoIp { reader: Some(reader) })
    }

    /// A database in memory (tests).
    pub fn from_bytes(bytes: Vec<u8>) -> anyhow::Result<GeoIp> {
        Ok(GeoIp { reader: Some(maxminddb::Reader::from_source(bytes)?) })
    }

    pub fn none() -> GeoIp {
        GeoIp { reader: None }
    }

    /// "City, Country", or the country alone when the city is unknown; `None` when the address
    /// is not in the database (or there is none).
    pub fn place(&self, ip: IpAddr) -> Option<String> {
        let reader = self.reader.as_ref()?;
        let found = reader.lookup(ip).map_err(|e| tracing::debug!(error = %e, "GeoIP lookup")).ok()?;
        let name = |path: &[maxminddb::PathElement<'_>]| -> Option<String> {
            found.decode_path::<String>(path).ok().flatten().filter(|s| !s.trim().is_empty())
        };
        let city = name(&maxminddb::path!["city", "names", "en"]);
        let country = name(&maxminddb::path!["country", "names", "en"]);
        match (city, country) {
            (Some(c), Some(k)) => Some(format!("{c}, {k}")),
            (None, Some(k)) => Some(k),
            (Some(c), None) => Some(c),
            (None, None) => None,
        }
    }
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
    }
}

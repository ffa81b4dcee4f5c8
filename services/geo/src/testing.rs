//! Helpers for tests only, behind the `testing` feature (never in the services): a GeoIP
//! database in memory, for tests of what a place or a position comes from.

/// A MaxMind DB (format 2.0, IPv4, 24-bit records) in which one network, e.g.
/// `203.0.113.0/24`, is in `city`, `country` (English names, as GeoLite2 City has them) and
/// every other address is unknown: for tests of what a sign-in's place comes from.
pub fn geoip_db(network: &str, city: &str, country: &str) -> Vec<u8> {
    geoip_city_db(network, city, country, "", None)
}

/// The same, with the record's `country.iso_code` and `location` (latitude, longitude) as
/// GeoLite2 City has them when `position` is given.
pub fn geoip_city_db(network: &str, city: &str, country: &str, iso_code: &str, position: Option<(f64, f64)>) -> Vec<u8> {
    let (addr, len) = network.split_once('/').expect("a.b.c.d/len");
    let addr: std::net::Ipv4Addr = addr.parse().expect("an IPv4 network");
    let len: u32 = len.parse().expect("a prefix length");
    assert!((1..=32).contains(&len));
    let bits = u32::from(addr);
    let names = |n: &str| Mmdb::Map(vec![("en", Mmdb::Str(n.to_string()))]);
    let mut country_fields = vec![("names", names(country))];
    if !iso_code.is_empty() {
        country_fields.push(("iso_code", Mmdb::Str(iso_code.to_string())));
    }
    let mut fields = vec![("city", Mmdb::Map(vec![("names", names(city))])), ("country", Mmdb::Map(country_fields))];
    if let Some((lat, lng)) = position {
        fields.push(("location", Mmdb::Map(vec![("latitude", Mmdb::Double(lat)), ("longitude", Mmdb::Double(lng))])));
    }
    let record = Mmdb::Map(fields);
    let mut data = Vec::new();
    record.encode(&mut data);
    // One node per bit of the prefix: the address's bit leads on (the last one to the record),
    // the other bit to "no data" (the node count). A record past the tree points into the data
    // section, which starts 16 bytes after it.
    let node_count = len;
    let mut out = Vec::new();
    for depth in 0..len {
        let bit = (bits >> (31 - depth)) & 1;
        let on = if depth + 1 == len { node_count + 16 } else { depth + 1 };
        let (left, right) = if bit == 0 { (on, node_count) } else { (node_count, on) };
        out.extend_from_slice(&left.to_be_bytes()[1..]);
        out.extend_from_slice(&right.to_be_bytes()[1..]);
    }
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&data);
    out.extend_from_slice(b"\xab\xcd\xefMaxMind.com");
    Mmdb::Map(vec![
        ("binary_format_major_version", Mmdb::U16(2)),
        ("binary_format_minor_version", Mmdb::U16(0)),
        ("build_epoch", Mmdb::U64(1_767_225_600)),
        ("database_type", Mmdb::Str("GeoLite2-City".into())),
        ("description", Mmdb::Map(vec![("en", Mmdb::Str("Portal test database".into()))])),
        ("ip_version", Mmdb::U16(4)),
        ("languages", Mmdb::Array(vec![Mmdb::Str("en".into())])),
        ("node_count", Mmdb::U32(node_count)),
        ("record_size", Mmdb::U16(24)),
    ])
    .encode(&mut out);
    out
}

/// A value of the MaxMind DB data format, as much of it as `geoip_db` writes.
enum Mmdb {
    Str(String),
    Double(f64),
    U16(u16),
    U32(u32),
    U64(u64),
    Map(Vec<(&'static str, Mmdb)>),
    Array(Vec<Mmdb>),
}

impl Mmdb {
    /// The control byte (type and size), then any extended type byte and size bytes.
    fn head(out: &mut Vec<u8>, kind: u8, size: usize) {
        let (kind_bits, extended) = if kind > 7 { (0, Some(kind - 7)) } else { (kind, None) };
        let (size_bits, more): (u8, Vec<u8>) = match size {
            0..=28 => (size as u8, vec![]),
            29..=284 => (29, vec![(size - 29) as u8]),
            _ => (30, ((size - 285) as u16).to_be_bytes().to_vec()),
        };
        out.push((kind_bits << 5) | size_bits);
        out.extend(extended);
        out.extend(more);
    }

    fn uint(out: &mut Vec<u8>, kind: u8, v: u64) {
        let bytes: Vec<u8> = v.to_be_bytes().into_iter().skip_while(|b| *b == 0).collect();
        Self::head(out, kind, bytes.len());
        out.extend(bytes);
    }

    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Mmdb::Str(s) => {
                Self::head(out, 2, s.len());
                out.extend_from_slice(s.as_bytes());
            }
            Mmdb::Double(v) => {
                Self::head(out, 3, 8);
                out.extend_from_slice(&v.to_be_bytes());
            }
            Mmdb::U16(v) => Self::uint(out, 5, u64::from(*v)),
            Mmdb::U32(v) => Self::uint(out, 6, u64::from(*v)),
            Mmdb::U64(v) => Self::uint(out, 9, *v),
            Mmdb::Map(pairs) => {
                Self::head(out, 7, pairs.len());
                for (k, v) in pairs {
                    Mmdb::Str((*k).to_string()).encode(out);
                    v.encode(out);
                }
            }
            Mmdb::Array(items) => {
                Self::head(out, 11, items.len());
                for v in items {
                    v.encode(out);
                }
            }
        }
    }
}

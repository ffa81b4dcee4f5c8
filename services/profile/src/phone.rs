//! A member's phone number, read with libphonenumber's rules (the `phonenumber` crate): written
//! in international format (`+61 400 000 001`) or as it is dialled in the member's country
//! (`0400 000 001` in Australia), kept in E.164 (`+61400000001`). The country is the address's,
//! else the profile's region, else the tenant's `general.defaultCountry` ([`region`]).
use phonenumber::{country, Mode};
use portal_geo::countries;
use portal_proto::profile::v1 as pb;

/// The country a number written without `+` is read in: the address's country, else the
/// profile's region (when it is a country code), else the tenant's default. Answers an ISO 3166-1
/// alpha-2 code.
pub fn region(address_country: &str, region_handle: &str, tenant_default: &str) -> String {
    [address_country, region_handle]
        .into_iter()
        .find_map(|c| countries::find_country(c).map(|c| c.alpha2.to_string()))
        .unwrap_or_else(|| tenant_default.to_ascii_uppercase())
}

/// The region for a profile about to be written: the address being sent (when it is valid),
/// else what the profile holds.
pub fn region_of(sent_address: Option<&pb::Address>, current: &pb::Profile, tenant_default: &str) -> String {
    let stored = current.address.as_ref().map_or("", |a| a.country.as_str());
    let address = sent_address.map_or(stored, |a| a.country.as_str());
    region(address, &current.region_handle, tenant_default)
}

/// The digit runs a staff search for a phone number looks for in stored E.164 numbers: the
/// digits as typed, and, for a number written as dialled in `region` (starting with its national
/// prefix, `0400 111` in Australia), the same run as it is stored (`61400111`): a member's number
/// is found however staff write it, in whole or in part.
pub fn search_runs(typed: &str, region: &str) -> Vec<String> {
    let digits: String = typed.chars().filter(char::is_ascii_digit).collect();
    if digits.is_empty() || !typed.chars().all(|c| c.is_ascii_digit() || " +-.()".contains(c)) {
        return Vec::new();
    }
    let mut runs = vec![digits.clone()];
    if !typed.trim_start().starts_with('+') {
        let meta = phonenumber::metadata::DATABASE.by_id(region);
        if let Some((prefix, code)) = meta.and_then(|m| m.national_prefix().map(|p| (p, m.country_code()))) {
            if let Some(rest) = digits.strip_prefix(prefix).filter(|r| !r.is_empty()) {
                runs.push(format!("{code}{rest}"));
            }
        }
    }
    runs
}

/// An optional phone number in E.164, or the message shown under the field. Spaces, hyphens,
/// dots and brackets are allowed as written; an empty value removes the number.
pub fn phone(raw: &str, region: &str) -> Result<String, String> {
    let s = raw.trim();
    if s.is_empty() {
        return Ok(String::new());
    }
    let home: Option<country::Id> = region.parse().ok();
    let name = countries::find_country(region).map_or(region, |c| c.name);
    let international = s.starts_with('+');
    let unreadable = || match (international, home) {
        (true, _) => "Enter a phone number: after the +, the country code and the number".to_string(),
        (false, Some(_)) => format!("Enter a phone number as you'd dial it in {name}, or in international format starting with +"),
        (false, None) => "Use international format, e.g. +61 400 000 000".to_string(),
    };
    if !s.chars().all(|c| c.is_ascii_digit() || " +-.()\t".contains(c)) {
        return Err(unreadable());
    }
    if !international && home.is_none() {
        return Err(unreadable());
    }
    let n = phonenumber::parse(home, s).map_err(|_| unreadable())?;
    if n.extension().is_some() {
        return Err(unreadable());
    }
    if !phonenumber::is_valid(&n) {
        return Err(if international {
            "This isn't a valid phone number: check the country code and the digits".to_string()
        } else {
            format!("This isn't a valid phone number in {name}: check the digits, or use international format starting with +")
        });
    }
    Ok(n.format().mode(Mode::E164).to_string())
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_number_as_dialled_at_home_is_searched_as_stored() {
        assert_eq!(search_runs("0400 111 222", "AU"), ["0400111222", "61400111222"]);
        assert_eq!(search_runs("0400 111", "AU"), ["0400111", "61400111"], "a part of it");
        assert_eq!(search_runs("+61 400 111", "AU"), ["61400111"], "written internationally: as typed");
        assert_eq!(search_runs("111 222", "AU"), ["111222"], "no national prefix: as typed");
        assert_eq!(search_runs("020 7946 0000", "GB"), ["02079460000", "442079460000"]);
        assert!(search_runs("Ada", "AU").is_empty());
        assert!(search_runs("Ada 1", "AU").is_empty(), "only a number is searched as one");
    }
    use super::*;

    #[test]
    fn national_numbers_are_read_in_the_members_country() {
        assert_eq!(phone("0400 123 456", "AU").unwrap(), "+61400123456");
        assert_eq!(phone("(03) 9600-1234", "AU").unwrap(), "+61396001234");
        assert_eq!(phone("07400 123456", "GB").unwrap(), "+447400123456");
        assert_eq!(phone("(201) 555-0123", "US").unwrap(), "+12015550123");
        assert_eq!(phone("", "AU").unwrap(), "", "empty removes it");
        assert_eq!(phone("   ", "AU").unwrap(), "");
    }

    #[test]
    fn international_numbers_are_read_anywhere() {
        assert_eq!(phone("+61 400 000 001", "AU").unwrap(), "+61400000001");
        assert_eq!(phone("+44 7400 123456", "AU").unwrap(), "+447400123456");
        assert_eq!(phone("+61400123456", "GB").unwrap(), "+61400123456");
        assert_eq!(phone("+61 400 000 001", "").unwrap(), "+61400000001", "no region: + is enough");
    }

    #[test]
    fn a_number_that_cannot_be_one_says_why() {
        let e = phone("0400 123", "AU").unwrap_err();
        assert!(e.contains("in Australia"), "{e}");
        assert!(phone("0100 000 000", "AU").unwrap_err().contains("Australia"));
        assert!(phone("+61 12", "AU").unwrap_err().contains("country code"));
        assert!(phone("call me", "AU").unwrap_err().contains("as you'd dial it in Australia"));
        assert!(phone("+61abc", "AU").is_err());
        assert_eq!(phone("0400 123 456", "").unwrap_err(), "Use international format, e.g. +61 400 000 000");
        assert!(phone("0400 123 456 ext. 12", "AU").is_err(), "E.164 has no extension");
    }

    #[test]
    fn the_region_is_the_address_then_the_profile_then_the_tenant() {
        assert_eq!(region("GB", "au", "AU"), "GB");
        assert_eq!(region("", "nz", "AU"), "NZ");
        assert_eq!(region("", "", "AU"), "AU");
        assert_eq!(region("", "north", "FR"), "FR", "a region that is not a country");
        let current = pb::Profile {
            region_handle: "au".into(),
            address: Some(pb::Address { country: "GB".into(), ..Default::default() }),
            ..Default::default()
        };
        assert_eq!(region_of(None, &current, "AU"), "GB");
        let sent = pb::Address { country: "US".into(), ..Default::default() };
        assert_eq!(region_of(Some(&sent), &current, "AU"), "US");
        assert_eq!(region_of(Some(&pb::Address::default()), &current, "FR"), "AU", "a cleared address leaves the region");
    }
}

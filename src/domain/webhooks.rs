//! Webhook rules (API.md section 9): the retry schedule, event filters, and which
//! destination addresses are never allowed.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

/// Delays before the 2nd, 3rd, ... attempt: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
pub const RETRY_DELAYS: [Duration; 7] = [
    Duration::from_secs(5),
    Duration::from_secs(5 * 60),
    Duration::from_secs(30 * 60),
    Duration::from_secs(2 * 3600),
    Duration::from_secs(5 * 3600),
    Duration::from_secs(10 * 3600),
    Duration::from_secs(10 * 3600),
];

/// The outcomes a delivery-log row can have.
pub const DELIVERY_OUTCOMES: &[&str] = super::enums::DeliveryOutcome::NAMES;

/// An endpoint failing every delivery for this long is disabled.
pub const DISABLE_AFTER: Duration = Duration::from_secs(5 * 24 * 3600);

/// The delay before the next attempt after `attempts` failed ones, with `jitter` in
/// `[-1, 1]` spreading it by up to ±10 %; `None` when the attempts are used up.
pub fn next_delay(attempts: u32, jitter: f64) -> Option<Duration> {
    let base = RETRY_DELAYS.get(attempts.checked_sub(1)? as usize)?;
    let factor = 1.0 + 0.1 * jitter.clamp(-1.0, 1.0);
    Some(base.mul_f64(factor))
}

/// Why an address may not receive webhooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Link-local, including the cloud metadata service (169.254.169.254, fe80::/10).
    LinkLocal,
    /// Loopback, when the configuration forbids it.
    Loopback,
    /// A private network, when the configuration forbids it.
    Private,
    /// Unspecified, broadcast or multicast.
    NotUnicast,
    /// An IPv6 address that stands for an IPv4 one through a translator or tunnel whose
    /// destination cannot be read from it (local-use NAT64, Teredo).
    Translated,
}

/// The AWS instance metadata service over IPv6 (not link-local, so named explicitly).
const AWS_METADATA_V6: std::net::Ipv6Addr =
    std::net::Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254);

/// What destinations the configuration allows beyond public addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Destinations {
    /// Private networks (a hotel LAN): allowed by default.
    pub private: bool,
    /// This machine: allowed by default (a local integration).
    pub loopback: bool,
}

/// Where an address is, for the configurable rules.
enum Reach {
    Public,
    Private,
    Loopback,
}

/// The IPv4 address an IPv6 one carries and leads to: IPv4-mapped (`::ffff:a.b.c.d`),
/// IPv4-compatible (`::a.b.c.d`, deprecated but still routed by some stacks), the NAT64
/// well-known prefix (`64:ff9b::/96`, RFC 6052) and 6to4 (`2002::/16`, RFC 3056).
/// `Err` for translators whose IPv4 side cannot be read from the address: local-use NAT64
/// (`64:ff9b:1::/48`, RFC 8215, any prefix length) and Teredo (`2001::/32`).
fn embedded_v4(v6: Ipv6Addr) -> Result<Option<Ipv4Addr>, Refused> {
    let (s, o) = (v6.segments(), v6.octets());
    let last = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    if let Some(v4) = v6.to_ipv4_mapped() {
        return Ok(Some(v4));
    }
    if s[..6] == [0; 6] && !(s[6] == 0 && s[7] <= 1) {
        return Ok(Some(last));
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Ok(Some(last));
    }
    if s[0] == 0x2002 {
        return Ok(Some(Ipv4Addr::new(o[2], o[3], o[4], o[5])));
    }
    if s[..3] == [0x64, 0xff9b, 1] || s[..2] == [0x2001, 0] {
        return Err(Refused::Translated);
    }
    Ok(None)
}

/// Classifies an address; link-local, metadata and non-unicast ones are refused outright.
fn reach(ip: IpAddr) -> Result<Reach, Refused> {
    let ip = match ip {
        IpAddr::V6(v6) => embedded_v4(v6)?.map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    };
    match ip {
        IpAddr::V4(v4) if v4.is_link_local() => Err(Refused::LinkLocal),
        IpAddr::V4(v4) if v4.is_unspecified() || v4.is_broadcast() || v4.is_multicast() => {
            Err(Refused::NotUnicast)
        }
        IpAddr::V4(v4) if v4.is_loopback() => Ok(Reach::Loopback),
        // RFC 1918 and the carrier-grade NAT range 100.64.0.0/10.
        IpAddr::V4(v4)
            if v4.is_private() || v4.octets()[0] == 100 && (64..128).contains(&v4.octets()[1]) =>
        {
            Ok(Reach::Private)
        }
        IpAddr::V6(v6) if (v6.segments()[0] & 0xffc0) == 0xfe80 || v6 == AWS_METADATA_V6 => {
            Err(Refused::LinkLocal)
        }
        IpAddr::V6(v6) if v6.is_unspecified() || v6.is_multicast() => Err(Refused::NotUnicast),
        IpAddr::V6(v6) if v6.is_loopback() => Ok(Reach::Loopback),
        // Unique local addresses, fc00::/7.
        IpAddr::V6(v6) if (v6.segments()[0] & 0xfe00) == 0xfc00 => Ok(Reach::Private),
        _ => Ok(Reach::Public),
    }
}

/// Checks one resolved address.
pub fn check_address(ip: IpAddr, allow: Destinations) -> Result<(), Refused> {
    match reach(ip)? {
        Reach::Loopback if !allow.loopback => Err(Refused::Loopback),
        Reach::Private if !allow.private => Err(Refused::Private),
        _ => Ok(()),
    }
}

impl Refused {
    /// The catalogue key that says it.
    pub fn key(self) -> &'static str {
        match self {
            Refused::LinkLocal => "problem-url-link-local",
            Refused::Loopback => "problem-url-loopback",
            Refused::Private => "problem-url-private",
            Refused::NotUnicast => "problem-url-not-unicast",
            Refused::Translated => "problem-url-translated",
        }
    }

    /// Plain words.
    pub fn describe(self) -> &'static str {
        match self {
            Refused::LinkLocal => "link-local and cloud-metadata addresses never receive webhooks",
            Refused::Loopback => "this server is configured to refuse loopback destinations",
            Refused::Private => "this server is configured to refuse private-network destinations",
            Refused::NotUnicast => "the address is not a single host",
            Refused::Translated => {
                "the address leads through a NAT64 or Teredo translator to a destination that cannot be checked"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_is_the_contracts_with_bounded_jitter() {
        assert_eq!(next_delay(0, 0.0), None);
        assert_eq!(next_delay(1, 0.0), Some(Duration::from_secs(5)));
        assert_eq!(next_delay(2, 0.0), Some(Duration::from_secs(300)));
        assert_eq!(next_delay(7, 0.0), Some(Duration::from_secs(36_000)));
        assert_eq!(next_delay(8, 0.0), None, "eight attempts in all");
        assert_eq!(next_delay(1, 1.0), Some(Duration::from_millis(5500)));
        assert_eq!(next_delay(1, -5.0), Some(Duration::from_millis(4500)));
    }

    #[test]
    fn metadata_and_link_local_are_always_refused() {
        let allow = Destinations {
            private: true,
            loopback: true,
        };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(
            check_address(ip("169.254.169.254"), allow),
            Err(Refused::LinkLocal)
        );
        assert_eq!(check_address(ip("fe80::1"), allow), Err(Refused::LinkLocal));
        assert_eq!(
            check_address(ip("::ffff:169.254.169.254"), allow),
            Err(Refused::LinkLocal)
        );
        assert_eq!(
            check_address(ip("0.0.0.0"), allow),
            Err(Refused::NotUnicast)
        );
        assert!(check_address(ip("192.168.1.20"), allow).is_ok());
        assert!(check_address(ip("127.0.0.1"), allow).is_ok());
        assert!(check_address(ip("93.184.216.34"), allow).is_ok());
        let strict = Destinations {
            private: false,
            loopback: false,
        };
        assert_eq!(check_address(ip("10.1.2.3"), strict), Err(Refused::Private));
        assert_eq!(check_address(ip("::1"), strict), Err(Refused::Loopback));
        assert_eq!(check_address(ip("fd12::1"), strict), Err(Refused::Private));
        assert_eq!(
            check_address(ip("fd00:ec2::254"), allow),
            Err(Refused::LinkLocal)
        );
    }

    #[test]
    fn ipv6_addresses_that_carry_an_ipv4_one_are_judged_by_it() {
        let allow = Destinations {
            private: true,
            loopback: true,
        };
        let strict = Destinations {
            private: false,
            loopback: false,
        };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        for (addr, refused) in [
            ("::169.254.169.254", Refused::LinkLocal),
            ("64:ff9b::169.254.169.254", Refused::LinkLocal),
            ("2002:a9fe:a9fe::1", Refused::LinkLocal),
            ("64:ff9b:1::a9fe:a9fe", Refused::Translated),
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", Refused::Translated),
        ] {
            assert_eq!(check_address(ip(addr), allow), Err(refused), "{addr}");
        }
        for (addr, refused) in [
            ("::127.0.0.1", Refused::Loopback),
            ("64:ff9b::7f00:1", Refused::Loopback),
            ("::10.0.0.1", Refused::Private),
            ("64:ff9b::192.168.0.1", Refused::Private),
            ("2002:c0a8:0001::1", Refused::Private),
        ] {
            assert_eq!(check_address(ip(addr), strict), Err(refused), "{addr}");
        }
        assert!(check_address(ip("64:ff9b::93.184.216.34"), strict).is_ok());
        assert!(check_address(ip("2a00:1450:4001::1"), strict).is_ok());
        assert_eq!(check_address(ip("::"), allow), Err(Refused::NotUnicast));
        assert_eq!(check_address(ip("::1"), strict), Err(Refused::Loopback));
    }
}

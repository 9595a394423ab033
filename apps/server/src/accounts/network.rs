//! The network an account signed up from, as the store keeps it (`users.signup_net`): a hash of
//! the client address's network, never the address. The leaderboard counts an opponent's
//! network, not its account, toward `--leaderboard-min-opponents` (docs/api.md, the
//! leaderboard), so that a farm of accounts made from one or a few addresses cannot list one of
//! them.
//!
//! - The network is an IPv4 address's /24 (one provider's or one site's block of 256 addresses)
//!   and an IPv6 address's /64 (one subscriber's line: a home gets a /64 or more); an IPv4
//!   address mapped into IPv6 (`::ffff:a.b.c.d`) is its IPv4 address.
//! - No network is recorded for a request without a client address, nor from a loopback or
//!   unspecified address: such a request comes from the server's own machine (local use, or a
//!   proxy not named by `--trusted-proxy`), which says nothing about the client. An account
//!   without a network counts as a network of its own.
//! - The value is the SHA-256 (hex) of a fixed domain string and the network's bytes: the table
//!   does not show the address, and equal networks give equal values on every instance and after
//!   a restore. It is a pseudonym, not a secret: whoever holds the database can try the 2^24
//!   IPv4 networks.

use sha2::Digest;
use std::net::IpAddr;

/// The domain string hashed before the network's bytes (a new scheme would change it).
const DOMAIN: &[u8] = b"crown sign-up network v1\0";

/// The sign-up network of a client at `ip` (see the module's page), or `None` when none is
/// recorded (no address, loopback, unspecified).
pub fn signup_network(ip: Option<IpAddr>) -> Option<String> {
    let ip = match ip? {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    };
    if ip.is_loopback() || ip.is_unspecified() {
        return None;
    }
    let mut h = sha2::Sha256::new();
    h.update(DOMAIN);
    match ip {
        IpAddr::V4(v4) => {
            h.update(b"4");
            h.update(&v4.octets()[..3]);
        }
        IpAddr::V6(v6) => {
            h.update(b"6");
            h.update(&v6.octets()[..8]);
        }
    }
    Some(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(s: &str) -> Option<String> {
        signup_network(Some(s.parse().unwrap()))
    }

    #[test]
    fn an_ipv4_network_is_its_slash_24() {
        let a = net("203.0.113.7").unwrap();
        assert_eq!(net("203.0.113.250").as_ref(), Some(&a));
        assert_ne!(net("203.0.114.7").as_ref(), Some(&a));
        assert_ne!(net("204.0.113.7").as_ref(), Some(&a));
        // The mapped form is the same client.
        assert_eq!(net("::ffff:203.0.113.9").as_ref(), Some(&a));
    }

    #[test]
    fn an_ipv6_network_is_its_slash_64() {
        let a = net("2001:db8:1:2::1").unwrap();
        assert_eq!(net("2001:db8:1:2:ffff:eeee:dddd:cccc").as_ref(), Some(&a));
        assert_ne!(net("2001:db8:1:3::1").as_ref(), Some(&a));
        // An IPv6 network whose first bytes spell an IPv4 /24 is not that /24.
        assert_ne!(net("cb00:7100::1"), net("203.0.113.1"));
    }

    #[test]
    fn the_value_is_the_sha256_of_the_domain_and_the_network_bytes() {
        let a = net("203.0.113.7").unwrap();
        assert_eq!(a.len(), 64);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        // Independent: SHA-256 of the domain string, "4" and the three bytes 203, 0, 113.
        let mut h = sha2::Sha256::new();
        h.update(b"crown sign-up network v1\0");
        h.update([b'4', 203, 0, 113]);
        let want: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(a, want);
    }

    #[test]
    fn no_network_is_recorded_without_an_outside_address() {
        for s in [
            "127.0.0.1",
            "127.9.9.9",
            "::1",
            "0.0.0.0",
            "::",
            "::ffff:127.0.0.1",
        ] {
            assert_eq!(net(s), None, "{s}");
        }
        assert_eq!(signup_network(None), None);
    }
}

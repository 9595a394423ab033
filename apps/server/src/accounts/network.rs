//! The network an account signed up from, as the store keeps it (`users.signup_net`): a hash of
//! the client address's network, never the address. The leaderboard counts an opponent's
//! network, not its account, toward `--leaderboard-min-opponents`, and a rated game between two
//! accounts of one network is played unrated (docs/api.md, "Ratings" and the leaderboard), so
//! that a farm of accounts made from one or a few addresses cannot rate or list one of them.
//!
//! - The network is an IPv4 address's /24 (one provider's or one site's block of 256 addresses)
//!   and an IPv6 address's `--signup-net-v6-prefix` (default /48: one subscriber's line is
//!   usually a /56 or a /48, whose 256 or 65 536 /64s it may use at will); an IPv4 address
//!   mapped into IPv6 (`::ffff:a.b.c.d`) is its IPv4 address.
//! - No network is recorded for a request without a client address, nor from a loopback or
//!   unspecified address: such a request comes from the server's own machine (local use, or a
//!   proxy not named by `--trusted-proxy`), which says nothing about the client. An account
//!   without a network counts as a network of its own.
//! - The value is the SHA-256 (hex) of a fixed domain string and the network's bytes: the table
//!   does not show the address, and equal networks give equal values on every instance and after
//!   a restore. It is a pseudonym, not a secret: whoever holds the database can try the 2^24
//!   IPv4 networks.
//! - Versions: an IPv4 network is hashed as it always was ([`DOMAIN_V1`]). An IPv6 network is
//!   hashed with [`DOMAIN_V6`] and its prefix length, so the values of accounts made before
//!   (IPv6 /64, under [`DOMAIN_V1`]) or under another prefix setting are kept as they are and
//!   simply never equal a new one: each such account is its own network toward new accounts
//!   (still equal to the old accounts of its /64). Nothing is rewritten, nothing migrated.

use sha2::Digest;
use std::net::IpAddr;

/// The domain string hashed before an IPv4 network's bytes (and, before the IPv6 prefix became
/// a setting, an IPv6 /64's).
const DOMAIN_V1: &[u8] = b"crown sign-up network v1\0";

/// The domain string hashed before an IPv6 network's prefix length and bytes.
const DOMAIN_V6: &[u8] = b"crown sign-up network v2\0";

/// `ip` as its network's address: an IPv4 address (or an IPv4-mapped IPv6 one) as the IPv4
/// address itself, an IPv6 address with all but its first `v6_prefix` bits (at most 128) zero.
pub fn network_key(ip: IpAddr, v6_prefix: u8) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => IpAddr::V6(std::net::Ipv6Addr::from(v6.to_bits() & mask(v6_prefix))),
        v4 => v4,
    }
}

/// The network block of `ip`: an IPv4 address's /24 (or an IPv4-mapped IPv6 one's), an IPv6
/// address's first `v6_prefix` bits (at most 128), as the network's address. The limits per
/// network count under it: sign-ups and imports, open games and public seeks, and the fair
/// queues (password hashing, [`super::hashing::HashPool`]; engine searches).
pub fn network_block(ip: IpAddr, v6_prefix: u8) -> IpAddr {
    match network_key(ip, v6_prefix) {
        IpAddr::V4(v4) => IpAddr::V4(std::net::Ipv4Addr::from(v4.to_bits() & !0xff)),
        v6 => v6,
    }
}

/// The 128-bit mask of a `prefix`-bit network (at most 128).
fn mask(prefix: u8) -> u128 {
    match u32::from(prefix.min(128)) {
        0 => 0,
        p => u128::MAX << (128 - p),
    }
}

/// `::ffff:a.b.c.d` as `a.b.c.d`; every other address as it is.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The sign-up network of a client at `ip` (see the module's page), an IPv6 client's of its
/// first `v6_prefix` bits, or `None` when none is recorded (no address, loopback, unspecified).
pub fn signup_network(ip: Option<IpAddr>, v6_prefix: u8) -> Option<String> {
    let ip = canonical(ip?);
    if ip.is_loopback() || ip.is_unspecified() {
        return None;
    }
    let mut h = sha2::Sha256::new();
    match network_key(ip, v6_prefix) {
        IpAddr::V4(v4) => {
            h.update(DOMAIN_V1);
            h.update(b"4");
            h.update(&v4.octets()[..3]);
        }
        IpAddr::V6(v6) => {
            h.update(DOMAIN_V6);
            h.update([b'6', v6_prefix.min(128)]);
            h.update(v6.octets());
        }
    }
    Some(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default `--signup-net-v6-prefix`.
    const DEFAULT_V6_PREFIX: u8 = crate::config::DEFAULT_SIGNUP_NET_V6_PREFIX;

    fn net(s: &str) -> Option<String> {
        signup_network(Some(s.parse().unwrap()), DEFAULT_V6_PREFIX)
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
    fn an_ipv6_network_is_its_slash_48_by_default() {
        let a = net("2001:db8:1:2::1").unwrap();
        assert_eq!(net("2001:db8:1:2:ffff:eeee:dddd:cccc").as_ref(), Some(&a));
        // Other /64s of one /56 and of one /48: one home line, one network.
        assert_eq!(net("2001:db8:1:3::1").as_ref(), Some(&a));
        assert_eq!(net("2001:db8:1:ff00::1").as_ref(), Some(&a));
        assert_eq!(net("2001:db8:1:ffff:1::1").as_ref(), Some(&a));
        // The next /48 is another.
        assert_ne!(net("2001:db8:2:2::1").as_ref(), Some(&a));
        // An IPv6 network whose first bytes spell an IPv4 /24 is not that /24.
        assert_ne!(net("cb00:7100::1"), net("203.0.113.1"));
    }

    #[test]
    fn the_ipv6_prefix_is_a_setting() {
        let at = |s: &str, p| signup_network(Some(s.parse().unwrap()), p).unwrap();
        // /64: two /64s of one /48 are two networks.
        assert_ne!(at("2001:db8:1:2::1", 64), at("2001:db8:1:3::1", 64));
        assert_eq!(at("2001:db8:1:2::1", 64), at("2001:db8:1:2::ffff", 64));
        // /32: two /48s of one /32 are one.
        assert_eq!(at("2001:db8:1::1", 32), at("2001:db8:ffff::1", 32));
        // One /48 under two settings gives two values (the prefix is in the hash), and neither
        // is the /64 value of accounts made before the setting existed (domain v1).
        assert_ne!(at("2001:db8:1::", 48), at("2001:db8:1::", 64));
        let mut h = sha2::Sha256::new();
        h.update(b"crown sign-up network v1\0");
        h.update(b"6");
        h.update([0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 2]);
        let old: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        assert_ne!(at("2001:db8:1:2::1", 64), old);
        assert_ne!(at("2001:db8:1:2::1", 48), old);
    }

    #[test]
    fn an_ipv6_value_is_the_sha256_of_domain_v2_the_prefix_and_the_network() {
        let mut h = sha2::Sha256::new();
        h.update(b"crown sign-up network v2\0");
        h.update([b'6', 48]);
        h.update([0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let want: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(net("2001:db8:1:abcd::9").unwrap(), want);
    }

    #[test]
    fn the_network_key_keeps_the_prefix_bits() {
        let k = |s: &str, p| network_key(s.parse().unwrap(), p).to_string();
        assert_eq!(k("2001:db8:1:2:3:4:5:6", 48), "2001:db8:1::");
        assert_eq!(k("2001:db8:1:2:3:4:5:6", 64), "2001:db8:1:2::");
        assert_eq!(k("2001:db8:1:2:3:4:5:6", 32), "2001:db8::");
        assert_eq!(k("2001:db8:1:2:3:4:5:6", 0), "::");
        assert_eq!(k("2001:db8:1:2:3:4:5:6", 128), "2001:db8:1:2:3:4:5:6");
        assert_eq!(k("::ffff:192.0.2.7", 48), "192.0.2.7");
        assert_eq!(k("192.0.2.7", 48), "192.0.2.7");
    }

    #[test]
    fn the_hashing_block_is_an_ipv4_slash_24_and_the_ipv6_prefix() {
        let b = |s: &str, p| network_block(s.parse().unwrap(), p).to_string();
        assert_eq!(b("192.0.2.7", 48), "192.0.2.0");
        assert_eq!(b("::ffff:192.0.2.7", 48), "192.0.2.0");
        assert_eq!(b("2001:db8:77:1:2:3:4:5", 48), "2001:db8:77::");
        assert_eq!(b("2001:db8:77:1234:2:3:4:5", 56), "2001:db8:77:1200::");
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
        assert_eq!(signup_network(None, DEFAULT_V6_PREFIX), None);
    }
}

//! The client's address behind a reverse proxy: the headers `X-Forwarded-For` and `Forwarded`
//! (RFC 7239) are believed only from the proxies of [`crate::Config::trusted_proxies`]
//! (`--trusted-proxy CIDR`). Every per-address limit, and the access check of `/metrics`, use the
//! address found here, keyed by [`client_key`] (an IPv6 client by its /64); without a trusted proxy every player behind it would share its address, and
//! one abuser would lock them all out.

use crate::app::App;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};

/// The address the connection came from, before [`resolve_client`] replaced `ConnectInfo` with
/// the client's (a request extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerAddr(pub SocketAddr);

/// Whether `ip` is one of the `trusted` proxies (an IPv4-mapped IPv6 address counts as its IPv4
/// address).
pub fn is_trusted(trusted: &[IpNet], ip: IpAddr) -> bool {
    let ip = canonical(ip);
    trusted.iter().any(|net| net.contains(&ip))
}

/// The key every per-client limit and counter counts `ip` under: an IPv6 client by its /64 (the
/// network address, the host bits zero), since one home or server line is given a whole /64 and
/// can rotate through its addresses at will; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) as
/// its IPv4 address; an IPv4 address as it is. The rate limiter, the connection, WebSocket and
/// game counters, the log-in and sign-up limits and the known-address lists all use it; logs and
/// the access check of `/metrics` use the real address (docs/deploy.md).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => IpAddr::V6(std::net::Ipv6Addr::from(
            v6.to_bits() & !((1u128 << 64) - 1),
        )),
        v4 => v4,
    }
}

/// `::ffff:a.b.c.d` as `a.b.c.d`; every other address as it is.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The client's address of a request that came from `peer`.
///
/// When `peer` is not a trusted proxy it is the client, and the headers are ignored (anyone can
/// write them). When it is, the hops of `X-Forwarded-For` (every such header, in order), or of
/// `Forwarded`'s `for=` parameters when there is no `X-Forwarded-For`, are read from the right
/// (the hop nearest to the server) to the left, while the hop reached so far is a trusted proxy:
/// the client is the first hop that is not, so that a client cannot name an address of its choice
/// by sending a header of its own (the proxy appends to it). A hop that is not an address
/// (`unknown`, an obfuscated name, garbage) ends the walk at the proxy that wrote it.
pub fn client_addr(trusted: &[IpNet], peer: IpAddr, headers: &HeaderMap) -> IpAddr {
    if !is_trusted(trusted, peer) {
        return peer;
    }
    let hops = forwarded_for(headers);
    let mut client = canonical(peer);
    for hop in hops.iter().rev() {
        if !is_trusted(trusted, client) {
            break;
        }
        match hop {
            Some(ip) => client = canonical(*ip),
            None => break,
        }
    }
    client
}

/// The outermost layer: when the connection comes from a trusted proxy
/// ([`crate::Config::trusted_proxies`]), replace the request's `ConnectInfo` with the client's
/// address read from the forwarding headers ([`client_addr`]; port 0), keeping the
/// connection's own as [`PeerAddr`]. Every per-address limit reads `ConnectInfo`. Without
/// `ConnectInfo` (a router called in process) the request is left as it is.
pub async fn resolve_client(State(app): State<App>, mut req: Request, next: Next) -> Response {
    if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>().copied() {
        req.extensions_mut().insert(PeerAddr(peer));
        let trusted = &app.config.trusted_proxies;
        if forwarded_by_an_untrusted_local_proxy(trusted, peer.ip(), req.headers())
            && !WARNED_UNTRUSTED_PROXY.swap(true, std::sync::atomic::Ordering::Relaxed)
        {
            tracing::warn!(
                peer = %peer.ip(),
                "a request from this machine carries X-Forwarded-For or Forwarded, but no \
                 --trusted-proxy is set: behind a reverse proxy every client then has the \
                 proxy's address (one shared limit, no sign-up network); set --trusted-proxy \
                 to the proxy's address (warned once)"
            );
        }
        if !trusted.is_empty() {
            let ip = client_addr(trusted, peer.ip(), req.headers());
            if ip != peer.ip() {
                req.extensions_mut()
                    .insert(ConnectInfo(SocketAddr::new(ip, 0)));
            }
        }
    }
    next.run(req).await
}

/// Whether the start-up warning of a reverse proxy not named by `--trusted-proxy` has been
/// logged (once per process).
static WARNED_UNTRUSTED_PROXY: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Whether a request looks forwarded by a reverse proxy on the server's own machine that is not
/// trusted: no `--trusted-proxy` is set, the `peer` is a loopback address and the request carries
/// `X-Forwarded-For` or `Forwarded` (issue 41: every client would then have the proxy's address).
/// A cheap and reliable sign: a client on the machine itself rarely sends these headers.
pub fn forwarded_by_an_untrusted_local_proxy(
    trusted: &[IpNet],
    peer: IpAddr,
    headers: &HeaderMap,
) -> bool {
    trusted.is_empty()
        && canonical(peer).is_loopback()
        && (headers.contains_key("x-forwarded-for")
            || headers.contains_key(axum::http::header::FORWARDED))
}

/// The hops named by `X-Forwarded-For`, or by `Forwarded` when there is no `X-Forwarded-For`,
/// from the left (the first client) to the right (the nearest proxy); `None` for a hop that is
/// not an address.
fn forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let xff: Vec<_> = headers.get_all("x-forwarded-for").iter().collect();
    if !xff.is_empty() {
        return xff
            .into_iter()
            .flat_map(|v| v.as_bytes().split(|&b| b == b',').map(hop_bytes))
            .collect();
    }
    headers
        .get_all(axum::http::header::FORWARDED)
        .iter()
        .flat_map(|v| {
            v.as_bytes().split(|&b| b == b',').map(|element| {
                std::str::from_utf8(element).ok().and_then(|element| {
                    element
                        .split(';')
                        .filter_map(|pair| pair.split_once('='))
                        .find(|(k, _)| k.trim().eq_ignore_ascii_case("for"))
                        .and_then(|(_, v)| parse_hop(v.trim().trim_matches('"')))
                })
            })
        })
        .collect()
}

/// One comma-separated hop of a header value, as bytes: a hop that is not UTF-8 is not an
/// address (`None`). Each hop is read on its own, so that bytes a client wrote into its own part
/// of the header cannot hide the hops the proxies appended after it.
fn hop_bytes(hop: &[u8]) -> Option<IpAddr> {
    std::str::from_utf8(hop)
        .ok()
        .and_then(|h| parse_hop(h.trim()))
}

/// One hop: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `[2001:db8::1]` or
/// `[2001:db8::1]:4711`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(sa) = hop.parse::<SocketAddr>() {
        return Some(sa.ip());
    }
    hop.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .and_then(|h| h.parse::<IpAddr>().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_ipv6_client_is_keyed_by_its_slash_64() {
        assert_eq!(client_key(ip("2001:db8::1")), ip("2001:db8::"));
        assert_eq!(
            client_key(ip("2001:db8:0:0:ffff:ffff:ffff:ffff")),
            ip("2001:db8::")
        );
        assert_eq!(client_key(ip("2001:db8:0:1::1")), ip("2001:db8:0:1::"));
        assert_eq!(client_key(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_key(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_key(ip("::1")), ip("::"));
    }

    #[test]
    fn headers_from_an_untrusted_peer_are_ignored() {
        let t = nets(&["10.0.0.0/8"]);
        let h = headers(&[("x-forwarded-for", "1.2.3.4"), ("forwarded", "for=5.6.7.8")]);
        assert_eq!(client_addr(&t, ip("203.0.113.9"), &h), ip("203.0.113.9"));
        assert_eq!(client_addr(&[], ip("127.0.0.1"), &h), ip("127.0.0.1"));
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        let t = nets(&["10.0.0.0/8", "127.0.0.1/32"]);
        // The client sent a forged first hop; the proxies appended the real ones.
        let h = headers(&[
            ("x-forwarded-for", "6.6.6.6, 198.51.100.7"),
            ("x-forwarded-for", "10.1.1.1"),
        ]);
        assert_eq!(client_addr(&t, ip("127.0.0.1"), &h), ip("198.51.100.7"));
        // Every hop trusted: the leftmost.
        let h = headers(&[("x-forwarded-for", "10.0.0.5")]);
        assert_eq!(client_addr(&t, ip("10.0.0.1"), &h), ip("10.0.0.5"));
        // Garbage stops at the proxy that wrote it.
        let h = headers(&[("x-forwarded-for", "1.1.1.1, unknown")]);
        assert_eq!(client_addr(&t, ip("10.0.0.1"), &h), ip("10.0.0.1"));
        // No header: the proxy.
        assert_eq!(
            client_addr(&t, ip("10.0.0.1"), &HeaderMap::new()),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn a_client_s_non_ascii_hop_does_not_hide_the_hop_its_proxy_appended() {
        // nginx's `$proxy_add_x_forwarded_for` appends the client's address to whatever the
        // client sent, bytes above 0x7F included: the client is still the appended hop, not the
        // proxy (which would open /metrics to it and share the proxy's limits).
        let t = nets(&["127.0.0.1/32"]);
        let mut h = HeaderMap::new();
        h.append(
            "x-forwarded-for",
            axum::http::HeaderValue::from_bytes(b"\x80, 203.0.113.5").unwrap(),
        );
        assert_eq!(client_addr(&t, ip("127.0.0.1"), &h), ip("203.0.113.5"));
        let mut h = HeaderMap::new();
        h.append(
            "forwarded",
            axum::http::HeaderValue::from_bytes(b"for=\"\xff\", for=203.0.113.6").unwrap(),
        );
        assert_eq!(client_addr(&t, ip("127.0.0.1"), &h), ip("203.0.113.6"));
    }

    #[test]
    fn forwarded_is_read_without_x_forwarded_for() {
        let t = nets(&["10.0.0.0/8"]);
        let h = headers(&[(
            "forwarded",
            "for=192.0.2.60;proto=https, For=\"[2001:db8:cafe::17]:4711\"",
        )]);
        assert_eq!(client_addr(&t, ip("10.0.0.1"), &h), ip("2001:db8:cafe::17"));
        let h = headers(&[("forwarded", "for=192.0.2.43:80;by=10.0.0.1")]);
        assert_eq!(client_addr(&t, ip("10.0.0.1"), &h), ip("192.0.2.43"));
        // An IPv4-mapped peer is matched as IPv4.
        assert_eq!(client_addr(&t, ip("::ffff:10.0.0.1"), &h), ip("192.0.2.43"));
    }

    #[test]
    fn a_loopback_peer_sending_forwarding_headers_without_a_trusted_proxy_is_flagged() {
        let mut xff = HeaderMap::new();
        xff.insert("x-forwarded-for", "203.0.113.9".parse().unwrap());
        let mut fwd = HeaderMap::new();
        fwd.insert(
            axum::http::header::FORWARDED,
            "for=203.0.113.9".parse().unwrap(),
        );
        let none = HeaderMap::new();
        let t: Vec<IpNet> = vec!["127.0.0.1/32".parse().unwrap()];
        let flagged = |t: &[IpNet], peer: &str, h: &HeaderMap| {
            forwarded_by_an_untrusted_local_proxy(t, ip(peer), h)
        };
        assert!(flagged(&[], "127.0.0.1", &xff));
        assert!(flagged(&[], "::1", &fwd));
        assert!(flagged(&[], "::ffff:127.0.0.1", &xff));
        // A trusted proxy set, a peer elsewhere (a client's own header), or no header: not.
        assert!(!flagged(&t, "127.0.0.1", &xff));
        assert!(!flagged(&[], "203.0.113.9", &xff));
        assert!(!flagged(&[], "127.0.0.1", &none));
    }
}

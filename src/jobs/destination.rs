//! Where webhooks may go, checked at the one lookup that the connection then uses.
//!
//! The webhook agent resolves names through [`CheckedResolver`]: it asks the system resolver
//! once, refuses the whole delivery if any answer is an address the configuration forbids
//! (loopback, private ranges, link-local, ...), and hands ureq exactly the addresses it
//! checked. ureq connects only to what the resolver returned, so a DNS answer that changes
//! between a check and the connection (DNS rebinding) cannot slip through. Proxies from the
//! environment are ignored (`crate::outbound`); with `[webhooks] proxy`, the receiver's name
//! is still resolved and checked here and the proxy is asked for the checked address.

use std::fmt;

use ureq::Agent;
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::domain::webhooks::{Destinations, check_address};

/// A destination the configuration forbids; carried through ureq's error as `Other`.
#[derive(Debug)]
pub struct Refused(pub String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// Resolves through `inner` and lets only allowed addresses through.
#[derive(Debug)]
pub struct CheckedResolver<R = DefaultResolver> {
    allow: Destinations,
    inner: R,
    /// The configured proxy's host, the one name looked up unchecked (the operator chose it).
    exempt: Option<String>,
}

impl CheckedResolver {
    /// The system resolver, checked against `allow`.
    pub fn new(allow: Destinations) -> Self {
        Self::with(allow, DefaultResolver::default())
    }
}

impl<R: Resolver> CheckedResolver<R> {
    /// `inner`, checked against `allow`.
    pub fn with(allow: Destinations, inner: R) -> Self {
        CheckedResolver {
            allow,
            inner,
            exempt: None,
        }
    }
}

impl<R: Resolver> Resolver for CheckedResolver<R> {
    fn resolve(
        &self,
        uri: &Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let addrs = self.inner.resolve(uri, config, timeout)?;
        if self.exempt.is_some() && uri.host() == self.exempt.as_deref() {
            return Ok(addrs);
        }
        for a in &addrs {
            check_address(a.ip(), self.allow).map_err(|r| {
                ureq::Error::Other(Box::new(Refused(format!("{} ({})", r.describe(), a.ip()))))
            })?;
        }
        Ok(addrs)
    }
}

/// An agent with `config` whose every connection goes only where `allow` permits (but for
/// the configured proxy's host, `exempt`).
pub fn agent(config: Config, allow: Destinations, exempt: Option<String>) -> Agent {
    let resolver = CheckedResolver {
        exempt,
        ..CheckedResolver::new(allow)
    };
    agent_with(config, resolver)
}

/// An agent resolving through `resolver`.
pub fn agent_with(config: Config, resolver: impl Resolver) -> Agent {
    Agent::with_parts(config, DefaultConnector::new(), resolver)
}

/// The forbidden destination behind a failed call, if that is why it failed.
pub fn refused(e: &ureq::Error) -> Option<&Refused> {
    match e {
        ureq::Error::Other(inner) => inner.downcast_ref::<Refused>(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::{SocketAddr, TcpListener};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Answers every lookup with `addr`, counting the lookups.
    #[derive(Debug)]
    struct Fixed {
        addr: SocketAddr,
        lookups: Arc<AtomicUsize>,
    }

    impl Resolver for Fixed {
        fn resolve(
            &self,
            _: &Uri,
            _: &Config,
            _: NextTimeout,
        ) -> Result<ResolvedSocketAddrs, ureq::Error> {
            self.lookups.fetch_add(1, Ordering::SeqCst);
            let mut v = self.empty();
            v.push(self.addr);
            Ok(v)
        }
    }

    fn config() -> Config {
        crate::outbound::agent(std::time::Duration::from_secs(2), "test").build()
    }

    #[test]
    fn the_checked_lookup_is_the_one_the_connection_uses() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = [0u8; 1024];
            let _ = s.read(&mut buf);
            s.write_all(b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n")
                .unwrap();
        });
        let lookups = Arc::new(AtomicUsize::new(0));
        let allow = Destinations {
            private: false,
            loopback: true,
        };
        let resolver = Fixed {
            addr,
            lookups: lookups.clone(),
        };
        let agent = agent_with(config(), CheckedResolver::with(allow, resolver));
        let resp = agent
            .post("http://receiver.example/in")
            .send(&b"{}"[..])
            .unwrap();
        assert_eq!(resp.status().as_u16(), 204);
        server.join().unwrap();
        assert_eq!(lookups.load(Ordering::SeqCst), 1, "one lookup, checked");
    }

    #[test]
    fn a_name_that_leads_to_a_forbidden_address_is_never_connected() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let lookups = Arc::new(AtomicUsize::new(0));
        let allow = Destinations {
            private: false,
            loopback: false,
        };
        let resolver = Fixed {
            addr: listener.local_addr().unwrap(),
            lookups,
        };
        let agent = agent_with(config(), CheckedResolver::with(allow, resolver));
        let err = agent
            .post("http://rebound.example/in")
            .send(&b"{}"[..])
            .unwrap_err();
        let why = refused(&err).expect("refused by the resolver");
        assert!(why.0.contains("127.0.0.1"), "{why}");
        assert!(listener.accept().is_err(), "nothing connected");
    }
}

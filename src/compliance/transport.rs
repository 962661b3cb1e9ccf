//! How adapters reach an authority: one HTTP POST, behind a trait that tests can replace.
//!
//! The one distinction that matters for safety is whether a request may have reached the
//! authority. A refused or unresolvable connection sent nothing ([`TransportError::NotSent`],
//! safe to retry); a reset, a timeout or a broken answer after connecting may have been
//! processed ([`TransportError::NoAnswer`], an Unknown outcome). Connections are not reused,
//! so a stale pooled connection can never turn a harmless retry into an Unknown.

use std::io::ErrorKind;
use std::time::Duration;

/// An HTTP answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Body, as text.
    pub body: String,
    /// `Retry-After`, when given (capped at a day).
    pub retry_after: Option<Duration>,
    /// The `name=value` of every `Set-Cookie`, in order.
    pub cookies: Vec<String>,
}

/// Why no answer came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// The request never left (no connection could be made).
    NotSent(String),
    /// The request may have been delivered, but no complete answer came back.
    NoAnswer(String),
}

/// The log's record of one call: `request` and the answer as `redact` leaves them.
pub fn exchange(
    operation: &str,
    request: String,
    result: &Result<Reply, TransportError>,
    started_at: chrono::DateTime<chrono::Utc>,
    clock: std::time::Instant,
    redact: impl Fn(&str) -> String,
) -> crate::compliance::Exchange {
    crate::compliance::Exchange {
        operation: operation.to_string(),
        request: Some(request),
        response: result.as_ref().ok().map(|r| redact(&r.body)),
        http_status: result.as_ref().ok().map(|r| r.status),
        error: result.as_ref().err().map(|e| match e {
            TransportError::NotSent(m) => format!("not sent: {m}"),
            TransportError::NoAnswer(m) => format!("no answer: {m}"),
        }),
        started_at,
        duration_ms: clock.elapsed().as_millis() as i64,
    }
}

/// Posts a body to a URL, or reads one.
pub trait Transport: Send + Sync {
    /// One POST with these headers; blocking.
    fn post(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Result<Reply, TransportError>;

    /// One GET with these headers; blocking.
    fn get(&self, url: &str, headers: &[(&str, &str)]) -> Result<Reply, TransportError>;
}

/// The real transport: ureq, no connection reuse, a whole-call timeout.
pub struct HttpTransport {
    agent: ureq::Agent,
}

impl HttpTransport {
    /// A transport whose calls give up after `timeout`.
    pub fn new(timeout: Duration) -> HttpTransport {
        HttpTransport::with_tls(timeout, ureq::tls::TlsConfig::default())
    }

    /// A transport that presents the company certificate and also trusts its extra anchors
    /// (beside the public roots).
    pub fn with_client_certificate(
        timeout: Duration,
        c: &crate::compliance::cis::Credentials,
    ) -> Result<HttpTransport, String> {
        use base64::Engine;
        use ureq::tls::{Certificate, ClientCert, PrivateKey, RootCerts, TlsConfig};
        let chain: Vec<Certificate<'static>> = c
            .chain
            .iter()
            .map(|d| Certificate::from_der(d).to_owned())
            .collect();
        // ureq takes a PKCS#8 key as PEM (its key-kind type is private).
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            base64::engine::general_purpose::STANDARD.encode(&c.key_pkcs8)
        );
        let key = PrivateKey::from_pem(pem.as_bytes())
            .map_err(|e| format!("the certificate's private key cannot be used for TLS: {e}"))?;
        let mut tls =
            TlsConfig::builder().client_cert(Some(ClientCert::new_with_certs(&chain, key)));
        if !c.extra_roots.is_empty() {
            let roots = webpki_root_certs::TLS_SERVER_ROOT_CERTS
                .iter()
                .map(|d| Certificate::from_der(d.as_ref()).to_owned())
                .chain(
                    c.extra_roots
                        .iter()
                        .map(|d| Certificate::from_der(d).to_owned()),
                );
            tls = tls.root_certs(RootCerts::from(roots.collect::<Vec<_>>()));
        }
        Ok(HttpTransport::with_tls(timeout, tls.build()))
    }

    fn with_tls(timeout: Duration, tls: ureq::tls::TlsConfig) -> HttpTransport {
        let agent = crate::outbound::agent(timeout, "compliance")
            .max_idle_connections(0)
            .max_idle_connections_per_host(0)
            .tls_config(tls)
            .build()
            .into();
        HttpTransport { agent }
    }
}

/// Whether a ureq error means nothing was sent.
fn classify(e: ureq::Error) -> TransportError {
    use ureq::Error as E;
    use ureq::Timeout as T;
    let not_sent = match &e {
        E::HostNotFound | E::ConnectionFailed | E::BadUri(_) | E::Tls(_) => true,
        E::Timeout(T::Resolve | T::Connect) => true,
        E::Io(io) => matches!(
            io.kind(),
            ErrorKind::ConnectionRefused
                | ErrorKind::HostUnreachable
                | ErrorKind::NetworkUnreachable
                | ErrorKind::AddrNotAvailable
        ),
        _ => false,
    };
    if not_sent {
        TransportError::NotSent(e.to_string())
    } else {
        TransportError::NoAnswer(e.to_string())
    }
}

impl Transport for HttpTransport {
    fn post(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Result<Reply, TransportError> {
        let mut req = self.agent.post(url);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        read(req.send(body).map_err(classify)?)
    }

    fn get(&self, url: &str, headers: &[(&str, &str)]) -> Result<Reply, TransportError> {
        let mut req = self.agent.get(url);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        read(req.call().map_err(classify)?)
    }
}

/// An answer read whole; a body that breaks off is no answer.
fn read(mut resp: ureq::http::Response<ureq::Body>) -> Result<Reply, TransportError> {
    let status = resp.status().as_u16();
    let retry_after = crate::outbound::retry_after(&resp);
    let cookies = resp
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .map(|v| v.trim().to_string())
        .filter(|v| v.contains('='))
        .collect();
    let body = resp
        .body_mut()
        .with_config()
        .limit(64 * 1024 * 1024)
        .read_to_string()
        .map_err(|e| TransportError::NoAnswer(format!("the answer broke off: {e}")))?;
    Ok(Reply {
        status,
        body,
        retry_after,
        cookies,
    })
}

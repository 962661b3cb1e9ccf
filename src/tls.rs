//! HTTPS, when `[server] tls_cert` and `tls_key` name a PEM certificate chain and its key:
//! both are read and checked against each other when the server starts (a wrong file is a
//! plain-words refusal to start, never a failure at the first request), and every cookie
//! innkeep sets then carries `Secure`.
//!
//! The acceptor is ours rather than poem's `rustls` feature, which brings a second crypto
//! library (aws-lc) into the binary beside the ring that everything else uses. Like poem's,
//! it answers each connection at once and runs the TLS handshake inside the connection's
//! own task, on its first read or write: a client that stalls its handshake holds only its
//! own connection, never the accept loop.

use std::io;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use poem::http::uri::Scheme;
use poem::listener::Acceptor;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Endpoint, IntoResponse, Request, Response};
use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_rustls::server::TlsStream;

/// Reads and checks the certificate chain and key; the configuration to serve them with
/// (HTTP/2 and HTTP/1.1 offered by ALPN).
pub fn load(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, String> {
    let read = |p: &Path, what: &str| {
        std::fs::read(p).map_err(|e| format!("cannot read the TLS {what} {} ({e})", p.display()))
    };
    let (cert_pem, key_pem) = (read(cert, "certificate")?, read(key, "key")?);
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{} is not a PEM certificate ({e})", cert.display()))?;
    if chain.is_empty() {
        return Err(format!(
            "{} holds no certificate (-----BEGIN CERTIFICATE-----)",
            cert.display()
        ));
    }
    let private = PrivateKeyDer::from_pem_slice(&key_pem)
        .map_err(|e| format!("{} is not a PEM private key ({e})", key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            format!(
                "the TLS key {} does not go with the certificate {} ({e})",
                key.display(),
                cert.display()
            )
        })?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Wraps an acceptor's connections in TLS.
pub struct TlsAcceptor<A> {
    inner: A,
    tls: tokio_rustls::TlsAcceptor,
}

impl<A> TlsAcceptor<A> {
    pub fn new(inner: A, config: Arc<ServerConfig>) -> TlsAcceptor<A> {
        TlsAcceptor {
            inner,
            tls: tokio_rustls::TlsAcceptor::from(config),
        }
    }
}

impl<A: Acceptor> Acceptor for TlsAcceptor<A> {
    type Io = Lazy<A::Io>;

    fn local_addr(&self) -> Vec<LocalAddr> {
        self.inner.local_addr()
    }

    async fn accept(&mut self) -> io::Result<(Self::Io, LocalAddr, RemoteAddr, Scheme)> {
        let (io, local, remote, _) = self.inner.accept().await?;
        let handshake = Lazy::Handshaking(Box::new(self.tls.accept(io)));
        Ok((handshake, local, remote, Scheme::HTTPS))
    }
}

/// A TLS connection whose handshake finishes on its first use.
pub enum Lazy<IO> {
    Handshaking(Box<tokio_rustls::Accept<IO>>),
    Ready(Box<TlsStream<IO>>),
    Failed,
}

impl<IO: AsyncRead + AsyncWrite + Unpin> Lazy<IO> {
    /// Drives the handshake; `Ready(Ok(stream))` once it is done.
    fn ready(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<&mut TlsStream<IO>>> {
        if let Lazy::Handshaking(accept) = self {
            match Pin::new(accept).poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Ok(stream)) => *self = Lazy::Ready(Box::new(stream)),
                Poll::Ready(Err(e)) => {
                    *self = Lazy::Failed;
                    return Poll::Ready(Err(e));
                }
            }
        }
        match self {
            Lazy::Ready(stream) => Poll::Ready(Ok(stream)),
            _ => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the TLS handshake failed",
            ))),
        }
    }
}

/// Polls `f` on the stream once the handshake is done.
macro_rules! when_ready {
    ($self:ident, $cx:ident, |$s:ident| $f:expr) => {
        match $self.get_mut().ready($cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Ready(Ok($s)) => $f,
        }
    };
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncRead for Lazy<IO> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        when_ready!(self, cx, |s| Pin::new(s).poll_read(cx, buf))
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Lazy<IO> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        when_ready!(self, cx, |s| Pin::new(s).poll_write(cx, buf))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        when_ready!(self, cx, |s| Pin::new(s).poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        when_ready!(self, cx, |s| Pin::new(s).poll_shutdown(cx))
    }
}

/// Serves `ep` with `Secure` on every cookie it sets.
pub async fn secure_cookies<E: Endpoint>(
    ep: std::sync::Arc<E>,
    req: Request,
) -> poem::Result<Response> {
    let mut resp = ep.call(req).await?.into_response();
    let cookies: Vec<String> = resp
        .headers()
        .get_all(poem::http::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(|v| {
            if v.contains("; Secure") {
                v.to_string()
            } else {
                format!("{v}; Secure")
            }
        })
        .collect();
    let headers = resp.headers_mut();
    headers.remove(poem::http::header::SET_COOKIE);
    for c in cookies {
        if let Ok(v) = c.parse() {
            headers.append(poem::http::header::SET_COOKIE, v);
        }
    }
    Ok(resp)
}

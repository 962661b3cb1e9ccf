//! HTTPS, when `[server] tls_cert` and `tls_key` name a PEM certificate chain and its key:
//! both are read and checked against each other when the server starts (a wrong file is a
//! plain-words refusal to start, never a failure at the first request), and every cookie
//! innkeep sets then carries `Secure`.

use std::path::Path;

use poem::listener::{RustlsCertificate, RustlsConfig};
use poem::{Endpoint, IntoResponse, Request, Response};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Reads and checks the certificate chain and key; the config poem serves them with.
pub fn load(cert: &Path, key: &Path) -> Result<RustlsConfig, String> {
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
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    rustls::ServerConfig::builder_with_provider(provider)
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
    Ok(RustlsConfig::new().fallback(RustlsCertificate::new().cert(cert_pem).key(key_pem)))
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

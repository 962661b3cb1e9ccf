//! The company's application certificate: read from its PKCS#12 file once at start, with
//! the private key that seals receipts (the ZKI) and signs requests, and the TLS material
//! for the client-certificate connection to CIS.

use std::path::Path;

use chrono::{DateTime, Utc};
use rsa::RsaPrivateKey;
use rsa::pkcs8::DecodePrivateKey;
use rsa::traits::PublicKeyParts;
use x509_cert::Certificate;
use x509_cert::der::{Decode, Encode};

/// The certificate, its key and the trust anchors for CIS.
pub struct Credentials {
    /// The private key (RSA).
    pub key: RsaPrivateKey,
    /// The key as PKCS#8 DER, for TLS.
    pub key_pkcs8: Vec<u8>,
    /// The company certificate first, then the rest of the chain, as DER.
    pub chain: Vec<Vec<u8>>,
    /// The certificate's subject (RFC 4514).
    pub subject: String,
    /// Its issuer (RFC 4514), for `X509IssuerName`.
    pub issuer: String,
    /// Its serial number in decimal, for `X509SerialNumber`.
    pub serial: String,
    /// When it expires.
    pub not_after: DateTime<Utc>,
    /// Extra trust anchors (DER) for the service's TLS certificate.
    pub extra_roots: Vec<Vec<u8>>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("subject", &self.subject)
            .field("issuer", &self.issuer)
            .field("serial", &self.serial)
            .field("not_after", &self.not_after)
            .finish_non_exhaustive()
    }
}

/// Reads the PKCS#12 file (and the optional PEM trust anchors); the error says what is
/// wrong in words an operator can act on.
pub fn load(p12: &Path, password: &str, ca: Option<&Path>) -> Result<Credentials, String> {
    let bytes = std::fs::read(p12).map_err(|e| {
        format!(
            "cannot read compliance.fiscal.certificate {}: {e}",
            p12.display()
        )
    })?;
    let store = p12_keystore::KeyStore::from_pkcs12(&bytes, password).map_err(|e| {
        format!(
            "cannot open compliance.fiscal.certificate {} ({e}); check that it is a PKCS#12 (.p12/.pfx) file and that certificate_password is right",
            p12.display()
        )
    })?;
    let (_, chain) = store.private_key_chain().ok_or_else(|| {
        format!(
            "compliance.fiscal.certificate {} holds no private key",
            p12.display()
        )
    })?;
    let key = RsaPrivateKey::from_pkcs8_der(chain.key()).map_err(|e| {
        format!(
            "the private key in {} is not an RSA key: {e}",
            p12.display()
        )
    })?;
    let mut certs: Vec<Vec<u8>> = chain.chain().iter().map(|c| c.as_der().to_vec()).collect();
    let leaf_at = certs
        .iter()
        .position(|der| public_modulus(der).is_some_and(|n| n == key.n().to_bytes_be()))
        .ok_or_else(|| format!("{} holds no certificate for its private key", p12.display()))?;
    let leaf = certs.remove(leaf_at);
    certs.insert(0, leaf);
    let cert = Certificate::from_der(&certs[0]).map_err(|e| e.to_string())?;
    let tbs = &cert.tbs_certificate;
    let not_after = DateTime::<Utc>::from(tbs.validity.not_after.to_system_time());
    let serial = rsa::BigUint::from_bytes_be(tbs.serial_number.as_bytes()).to_string();
    let extra_roots = match ca {
        Some(path) => read_pem_certs(path)?,
        None => Vec::new(),
    };
    Ok(Credentials {
        subject: tbs.subject.to_string(),
        issuer: tbs.issuer.to_string(),
        serial,
        not_after,
        key_pkcs8: chain.key().to_vec(),
        key,
        chain: certs,
        extra_roots,
    })
}

/// The RSA modulus of a DER certificate's public key, if it has one.
fn public_modulus(der: &[u8]) -> Option<Vec<u8>> {
    use rsa::pkcs8::DecodePublicKey;
    let cert = Certificate::from_der(der).ok()?;
    let spki = cert.tbs_certificate.subject_public_key_info.to_der().ok()?;
    let public = rsa::RsaPublicKey::from_public_key_der(&spki).ok()?;
    Some(public.n().to_bytes_be())
}

/// The certificates in a PEM file, as DER.
fn read_pem_certs(path: &Path) -> Result<Vec<Vec<u8>>, String> {
    let what = format!("compliance.fiscal.ca_certificate {}", path.display());
    let pem = std::fs::read(path).map_err(|e| format!("cannot read {what}: {e}"))?;
    let mut out = Vec::new();
    for item in ureq::tls::parse_pem(&pem) {
        if let ureq::tls::PemItem::Certificate(c) = item.map_err(|e| format!("{what}: {e}"))? {
            out.push(c.der().to_vec());
        }
    }
    if out.is_empty() {
        return Err(format!("{what} holds no PEM certificate"));
    }
    Ok(out)
}

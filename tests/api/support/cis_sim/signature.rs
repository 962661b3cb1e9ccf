//! The simulator's check of an enveloped XML signature, done as XML-DSig prescribes: the
//! algorithms, the reference to the request's `Id`, the SHA-1 digest of the exclusive
//! canonical form without the signature, the certificate (which must be the TLS client
//! certificate, with its serial number), and RSA-SHA1 over the canonical `SignedInfo`.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use rsa::pkcs1v15::{Signature, VerifyingKey};
use rsa::pkcs8::DecodePublicKey;
use rsa::signature::Verifier;
use sha1::{Digest, Sha1};
use x509_cert::der::{Decode, Encode};

use super::{DSIG, c14n};

/// Checks the enveloped signature of `req` as XML-DSig prescribes.
pub fn verify(req: roxmltree::Node, client_cert: &[u8]) -> Result<(), String> {
    let is_sig = |n: roxmltree::Node| {
        n.tag_name().name() == "Signature" && n.tag_name().namespace() == Some(DSIG)
    };
    let sig = req.children().find(|n| is_sig(*n)).ok_or("no Signature")?;
    let find = |name: &str| {
        sig.descendants()
            .find(|n| n.tag_name().name() == name && n.tag_name().namespace() == Some(DSIG))
            .ok_or(format!("no {name} in the Signature"))
    };
    let algo = |name: &str| find(name).map(|n| n.attribute("Algorithm").unwrap_or("").to_string());
    if algo("CanonicalizationMethod")? != "http://www.w3.org/2001/10/xml-exc-c14n#"
        || algo("SignatureMethod")? != format!("{DSIG}rsa-sha1")
        || algo("DigestMethod")? != format!("{DSIG}sha1")
    {
        return Err("unexpected algorithms".into());
    }
    let transforms: Vec<String> = find("Transforms")?
        .children()
        .filter(|n| n.is_element())
        .map(|n| n.attribute("Algorithm").unwrap_or("").to_string())
        .collect();
    if transforms
        != [
            format!("{DSIG}enveloped-signature"),
            "http://www.w3.org/2001/10/xml-exc-c14n#".to_string(),
        ]
    {
        return Err(format!("unexpected transforms {transforms:?}"));
    }
    let uri = find("Reference")?
        .attribute("URI")
        .unwrap_or("")
        .to_string();
    if uri != format!("#{}", req.attribute("Id").unwrap_or("?")) {
        return Err(format!("the Reference {uri} is not the request's Id"));
    }
    let canonical = c14n::canonical(req, &is_sig);
    let digest = B64.encode(Sha1::digest(canonical.as_bytes()));
    let claimed = find("DigestValue")?.text().unwrap_or("").trim().to_string();
    if digest != claimed {
        return Err(format!("digest {claimed} is not {digest}"));
    }
    let cert_b64: String = find("X509Certificate")?
        .text()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let cert_der = B64.decode(cert_b64).map_err(|e| e.to_string())?;
    if cert_der != client_cert {
        return Err("the signing certificate is not the TLS client certificate".into());
    }
    let cert = x509_cert::Certificate::from_der(&cert_der).map_err(|e| e.to_string())?;
    let serial =
        rsa::BigUint::from_bytes_be(cert.tbs_certificate.serial_number.as_bytes()).to_string();
    if find("X509SerialNumber")?.text() != Some(serial.as_str()) {
        return Err("X509SerialNumber is not the certificate's".into());
    }
    let spki = cert
        .tbs_certificate
        .subject_public_key_info
        .to_der()
        .map_err(|e| e.to_string())?;
    let public = rsa::RsaPublicKey::from_public_key_der(&spki).map_err(|e| e.to_string())?;
    let signed_info = c14n::canonical(find("SignedInfo")?, &|_| false);
    let value: String = find("SignatureValue")?
        .text()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let value = B64.decode(value).map_err(|e| e.to_string())?;
    let signature = Signature::try_from(value.as_slice()).map_err(|e| e.to_string())?;
    VerifyingKey::<Sha1>::new(public)
        .verify(signed_info.as_bytes(), &signature)
        .map_err(|e| format!("RSA-SHA1 over SignedInfo does not verify: {e}"))
}

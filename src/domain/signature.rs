//! Standard Webhooks signatures (API.md section 9).
//!
//! `webhook-signature: v1,<base64 HMAC-SHA256>` over `{webhook-id}.{webhook-timestamp}.{body}`,
//! keyed with the base64-decoded part of the secret after `whsec_`. During a rotation both
//! secrets sign, space-separated.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The prefix of a signing secret.
pub const PREFIX: &str = "whsec_";

/// A secret from 32 random bytes: `whsec_` + their base64.
pub fn secret_of(random: [u8; 32]) -> String {
    format!("{PREFIX}{}", STANDARD.encode(random))
}

/// One `v1,` signature, or `None` for a malformed secret.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix(PREFIX)?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

/// The header value: one signature per secret, space-separated.
pub fn header(secrets: &[&str], id: &str, timestamp: i64, body: &[u8]) -> String {
    secrets
        .iter()
        .filter_map(|s| sign(s, id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_webhooks_reference_vector() {
        // From the Standard Webhooks specification's examples.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        let sig = sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).unwrap();
        assert_eq!(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn rotation_signs_with_both() {
        let (a, b) = (secret_of([1; 32]), secret_of([2; 32]));
        let h = header(&[&a, &b], "evt_1", 10, b"{}");
        assert_eq!(h.split(' ').count(), 2);
        assert!(h.split(' ').all(|s| s.starts_with("v1,")));
        assert_eq!(header(&["not-a-secret"], "evt_1", 10, b"{}"), "");
    }
}

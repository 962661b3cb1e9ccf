//! Secrets: random tokens, their stored hashes, argon2id for passwords and client secrets,
//! and the PKCE S256 check.
//!
//! Tokens and codes are high-entropy random strings, so a plain SHA-256 is enough to store
//! them; passwords and client secrets may be weak or long-lived, so they get argon2id.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};

/// `n` random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    OsRng.fill_bytes(&mut buf);
    buf
}

/// A password made for a person to read out and type: 16 characters in groups of four
/// (`xk7m-…`), from 31 that cannot be mistaken for each other (no 0/o, 1/l/i); about 79 bits.
pub fn readable_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut out = String::new();
    while out.chars().filter(|c| *c != '-').count() < 16 {
        for b in random_bytes::<32>() {
            let i = usize::from(b & 31);
            let n = out.chars().filter(|c| *c != '-').count();
            if i < ALPHABET.len() && n < 16 {
                if n > 0 && n % 4 == 0 {
                    out.push('-');
                }
                out.push(char::from(ALPHABET[i]));
            }
        }
    }
    out
}

/// Writes a new file only its owner can read (fails if it exists), durably.
pub fn write_private(path: &std::path::Path, contents: &[u8]) -> std::io::Result<()> {
    if path.exists() {
        return Err(std::io::ErrorKind::AlreadyExists.into());
    }
    crate::durable::write_private(path, contents)
}

/// The 32-byte secret key in `path`: read, or on the first start generated and written
/// (owner-only). A key file of another length is an error rather than silently replaced.
pub fn load_or_create_key(path: &std::path::Path) -> Result<[u8; 32], String> {
    match std::fs::read(path) {
        Ok(bytes) => <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| {
            format!(
                "the key file {} is damaged (it must hold 32 bytes); restore it from a backup, or delete it to make a new one",
                path.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = random_bytes::<32>();
            write_private(path, &key)
                .map_err(|e| format!("cannot write the key file {}: {e}", path.display()))?;
            Ok(key)
        }
        Err(e) => Err(format!("cannot read the key file {}: {e}", path.display())),
    }
}

/// A random token with a readable prefix: `prefix_` + 43 base64url characters (256 bits).
pub fn token(prefix: &str) -> String {
    format!("{prefix}_{}", URL_SAFE_NO_PAD.encode(random_bytes::<32>()))
}

/// The stored form of a token or code: hex SHA-256.
pub fn token_hash(token: &str) -> String {
    crate::domain::digest::sha256_hex(token.as_bytes())
}

/// An argon2id hash (PHC string) of a password or client secret.
pub fn hash_password(password: &str) -> Result<String, String> {
    let salt = SaltString::encode_b64(&random_bytes::<16>()).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Whether `password` matches the stored argon2id hash.
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A hash to verify against when the account does not exist, so that timing does not tell.
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password("not a real password").unwrap_or_default())
}

/// PKCE S256 (RFC 7636 section 4.6): BASE64URL(SHA256(verifier)) == challenge.
pub fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    let valid = (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    valid
        && constant_time_eq(
            &URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())),
            challenge,
        )
}

/// The PKCE S256 challenge of a verifier (RFC 7636 section 4.2).
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Compares without leaking where the strings differ.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_themselves() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong horse", &h));
        assert!(!verify_password("x", "not a hash"));
        let made = readable_password();
        assert_eq!(made.len(), 19, "{made}");
        assert_eq!(made.matches('-').count(), 3, "{made}");
        assert!(made.chars().all(|c| c == '-' || c.is_ascii_alphanumeric()));
        assert!(!made.contains(['0', 'o', '1', 'l', 'i']), "{made}");
        assert_ne!(made, readable_password());
    }

    #[test]
    fn pkce_s256_matches_the_rfc_example() {
        // RFC 7636 appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert!(pkce_matches(
            verifier,
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        ));
        assert!(!pkce_matches(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXx",
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        ));
        assert!(!pkce_matches(
            "short",
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        ));
    }

    #[test]
    fn tokens_are_random_and_hash_stably() {
        let (a, b) = (token("rt"), token("rt"));
        assert_ne!(a, b);
        assert!(a.starts_with("rt_") && a.len() == 46);
        assert_eq!(token_hash(&a), token_hash(&a));
        assert_eq!(token_hash(&a).len(), 64);
    }
}

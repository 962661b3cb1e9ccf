//! Access tokens whose signature was already verified, by the SHA-256 of the token.
//!
//! Verifying an Ed25519 signature is the largest single cost of an API request; a client
//! sends the same token for its whole lifetime, so the claims are kept until the token's
//! own expiry. Only the signature check is saved: expiry is checked on every hit, and
//! revocation (the token, its client or its staff member) is read on every request by the
//! guard. The cache is bounded; when full, expired entries go, and if that is not enough
//! it starts again empty (a miss only costs a verification).

use std::collections::HashMap;
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use super::tokens::AccessClaims;

/// The most tokens kept.
const CAPACITY: usize = 10_000;

/// Verified tokens' claims.
#[derive(Default)]
pub struct VerifiedTokens {
    claims: Mutex<HashMap<[u8; 32], AccessClaims>>,
}

/// The cache key of a token.
pub fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl VerifiedTokens {
    /// The claims of the token with `digest`, if it was verified and is not expired at `now`
    /// (unix seconds; a token is good up to and including its `exp`).
    pub fn get(&self, digest: &[u8; 32], now: i64) -> Option<AccessClaims> {
        let map = self.claims.lock().unwrap_or_else(|p| p.into_inner());
        map.get(digest).filter(|c| c.exp >= now).cloned()
    }

    /// Remembers that the token with `digest` verified to `claims`.
    pub fn put(&self, digest: [u8; 32], claims: &AccessClaims, now: i64) {
        let mut map = self.claims.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= CAPACITY {
            map.retain(|_, c| c.exp >= now);
            if map.len() >= CAPACITY {
                map.clear();
            }
        }
        map.insert(digest, claims.clone());
    }

    /// Forgets every token (when the signing keys change).
    pub fn clear(&self) {
        self.claims
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(jti: &str, exp: i64) -> AccessClaims {
        AccessClaims {
            iss: "i".into(),
            sub: "s".into(),
            aud: "a".into(),
            exp,
            iat: 0,
            jti: jti.into(),
            client_id: "c".into(),
            scope: String::new(),
        }
    }

    #[test]
    fn a_hit_holds_until_expiry_and_the_cache_stays_bounded() {
        let cache = VerifiedTokens::default();
        let d = digest("token");
        assert!(cache.get(&d, 100).is_none());
        cache.put(d, &claims("one", 200), 100);
        assert_eq!(cache.get(&d, 200).map(|c| c.jti), Some("one".into()));
        assert!(
            cache.get(&d, 201).is_none(),
            "expired claims are never served"
        );
        assert!(cache.get(&digest("other"), 100).is_none());
        for i in 0..CAPACITY + 5 {
            cache.put(digest(&i.to_string()), &claims("x", 300), 100);
        }
        assert!(cache.claims.lock().map(|m| m.len()).unwrap_or(0) <= CAPACITY);
        cache.clear();
        assert!(cache.get(&digest("1"), 100).is_none());
    }
}

//! The server's signing keys: Ed25519 (EdDSA), one active, older ones kept for verification.
//!
//! The first start generates a key. Private keys are PKCS#8 PEM files in `keys/` inside the
//! data directory, readable by the owner only; their public halves and `kid`s are rows in
//! `signing_keys`, served as the JWKS. `innkeep keys rotate` adds a key and retires the
//! previous one, which stays in the JWKS until every token it signed has expired.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::EncodePrivateKey;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header};
use serde::Serialize;
use serde_json::{Value, json};

use crate::auth::secrets;
use crate::db::Db;
use crate::error::{AppError, AppResult};
use crate::store;

/// The JWT `typ` of access tokens (RFC 9068).
pub const ACCESS_TOKEN_TYP: &str = "at+jwt";

struct Loaded {
    active_kid: String,
    signing: EncodingKey,
    verifying: Vec<(String, DecodingKey, String)>,
}

/// The loaded keys.
pub struct KeyStore {
    dir: PathBuf,
    max_token_age: Duration,
    state: RwLock<Option<Loaded>>,
}

fn key_path(dir: &Path, kid: &str) -> PathBuf {
    dir.join(format!("{kid}.pem"))
}

fn pem(der: &[u8]) -> String {
    let body = STANDARD.encode(der);
    let lines: Vec<&str> = body
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).unwrap_or(""))
        .collect();
    format!(
        "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
        lines.join("\n")
    )
}

/// Generates a key and writes its private half to `keys/` (0600). Returns its `kid` and
/// public key; `service::oauth::keys::rotate` records it as the one that signs.
pub async fn write_new(data_dir: &Path) -> AppResult<(String, String)> {
    let dir = data_dir.join("keys");
    let kid = crate::ids::new("key");
    let signing = SigningKey::from_bytes(&crate::auth::secrets::random_bytes::<32>());
    let der = signing
        .to_pkcs8_der()
        .map_err(|e| AppError::internal(e.to_string()))?;
    let public = URL_SAFE_NO_PAD.encode(signing.verifying_key().as_bytes());
    let path = key_path(&dir, &kid);
    let contents = pem(der.as_bytes());
    tokio::task::spawn_blocking(move || -> AppResult<()> {
        crate::durable::prepare_private_dir(&dir)?;
        secrets::write_private(&path, contents.as_bytes()).map_err(|e| {
            AppError::internal(format!(
                "cannot write the signing key {}: {e}",
                path.display()
            ))
        })
    })
    .await
    .map_err(AppError::internal)??;
    Ok((kid, public))
}

impl KeyStore {
    /// A key store over `data_dir/keys`, not loaded yet (`reload` loads it). Keys retired
    /// more than `max_token_age` ago no longer verify anything and are left out.
    pub fn new(data_dir: &Path, max_token_age: Duration) -> Arc<KeyStore> {
        Arc::new(KeyStore {
            dir: data_dir.join("keys"),
            max_token_age,
            state: RwLock::new(None),
        })
    }

    /// Re-reads the keys (after `innkeep keys rotate`, or on an unknown `kid`).
    /// Returns false when there is no active key yet.
    pub async fn reload(&self, db: &Db) -> AppResult<bool> {
        let since = crate::clock::format_instant(
            chrono::Utc::now() - chrono::Duration::from_std(self.max_token_age).unwrap_or_default(),
        );
        let records = db
            .read(move |c| store::clients::live_keys(c, &since))
            .await?;
        let Some(active) = records.iter().find(|k| k.retired_at.is_none()).cloned() else {
            return Ok(false);
        };
        let path = key_path(&self.dir, &active.kid);
        let key_name = active.kid.clone();
        let pem = tokio::task::spawn_blocking(move || std::fs::read(&path))
            .await
            .map_err(AppError::internal)?
            .map_err(|e| {
                AppError::internal(format!(
                    "cannot read the signing key keys/{}.pem: {e}; run `innkeep keys rotate` to make a new one",
                    active.kid
                ))
            })?;
        let signing = EncodingKey::from_ed_pem(&pem).map_err(|e| {
            AppError::internal(format!(
                "the signing key keys/{}.pem is damaged ({e}); restore it from a backup, or run \
                 `innkeep keys rotate` to make a new one (tokens signed with it stop working)",
                key_name
            ))
        })?;
        let mut verifying = Vec::new();
        for k in records {
            let key = DecodingKey::from_ed_components(&k.public_key).map_err(AppError::internal)?;
            verifying.push((k.kid, key, k.public_key));
        }
        let loaded = Loaded {
            active_kid: active.kid,
            signing,
            verifying,
        };
        if let Ok(mut state) = self.state.write() {
            *state = Some(loaded);
        }
        Ok(true)
    }

    /// Signs claims as an access token with the active key.
    pub fn sign<C: Serialize>(&self, claims: &C) -> AppResult<String> {
        let state = self
            .state
            .read()
            .map_err(|_| AppError::internal("key store poisoned"))?;
        let loaded = state
            .as_ref()
            .ok_or_else(|| AppError::internal("no signing key loaded"))?;
        let mut header = Header::new(Algorithm::EdDSA);
        header.typ = Some(ACCESS_TOKEN_TYP.into());
        header.kid = Some(loaded.active_kid.clone());
        jsonwebtoken::encode(&header, claims, &loaded.signing).map_err(AppError::internal)
    }

    /// The key that verifies tokens with this `kid`.
    pub fn decoding_key(&self, kid: &str) -> Option<DecodingKey> {
        let state = self.state.read().ok()?;
        state
            .as_ref()?
            .verifying
            .iter()
            .find(|(k, _, _)| k == kid)
            .map(|(_, key, _)| key.clone())
    }

    /// The `kid` that signs new tokens.
    pub fn active_kid(&self) -> Option<String> {
        self.state
            .read()
            .ok()?
            .as_ref()
            .map(|l| l.active_kid.clone())
    }

    /// The JSON Web Key Set (RFC 7517) of every key that may still verify a token.
    pub fn jwks(&self) -> Value {
        let keys: Vec<Value> = match self.state.read() {
            Ok(state) => state
                .as_ref()
                .map(|l| {
                    l.verifying
                        .iter()
                        .map(|(kid, _, x)| {
                            json!({"kty": "OKP", "crv": "Ed25519", "x": x, "kid": kid, "use": "sig", "alg": "EdDSA"})
                        })
                        .collect()
                })
                .unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        json!({ "keys": keys })
    }
}

//! Access tokens: RFC 9068 JWTs (`typ` `at+jwt`), signed EdDSA with the active key.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde::{Deserialize, Serialize};

use super::AuthServer;
use super::keys::ACCESS_TOKEN_TYP;
use crate::domain::scopes::ScopeSet;
use crate::error::AppResult;

/// The claims of an access token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessClaims {
    /// Issuer.
    pub iss: String,
    /// The staff member (`usr_…`) or, for client credentials, the client (`cli_…`).
    pub sub: String,
    /// Audience: this API.
    pub aud: String,
    /// Expiry (unix seconds).
    pub exp: i64,
    /// Issued at (unix seconds).
    pub iat: i64,
    /// Token id, for revocation.
    pub jti: String,
    /// The client the token was issued to.
    pub client_id: String,
    /// Granted scopes, space-separated.
    pub scope: String,
}

/// An access token about to be minted.
#[derive(Debug, Clone)]
pub struct NextToken {
    /// Its `jti`.
    pub jti: String,
    /// Its `iat` (unix seconds).
    pub iat: i64,
    /// Its `exp` (unix seconds).
    pub exp: i64,
}

impl NextToken {
    /// Its expiry, as stored.
    pub fn expires_text(&self) -> String {
        crate::clock::format_instant(
            chrono::DateTime::from_timestamp(self.exp, 0).unwrap_or_default(),
        )
    }
}

/// A valid access token, as the guard verified it.
#[derive(Debug, Clone)]
pub struct Verified {
    /// The token's claims.
    pub claims: AccessClaims,
    /// The client's own request rate limit; `None` for the configured default.
    pub rate: Option<crate::domain::limits::Rate>,
    /// Who acts (the staff member the token was issued to, or the client itself) with the
    /// token's scopes: what the use cases are handed.
    pub principal: crate::model::Principal,
}

/// Why a token was refused (the text goes into `WWW-Authenticate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invalid {
    /// Not a JWT, wrong `typ`, wrong algorithm, missing claims.
    Malformed,
    /// Signed by a key this server does not know.
    UnknownKey,
    /// Signature does not verify.
    BadSignature,
    /// Past `exp`.
    Expired,
    /// Wrong `aud`.
    WrongAudience,
    /// Wrong `iss`.
    WrongIssuer,
}

impl Invalid {
    /// A plain-words description.
    pub fn describe(self) -> &'static str {
        match self {
            Invalid::Malformed => "The access token is malformed.",
            Invalid::UnknownKey => {
                "The access token was signed by a key this server does not know."
            }
            Invalid::BadSignature => "The access token's signature is not valid.",
            Invalid::Expired => "The access token has expired; get a new one.",
            Invalid::WrongAudience => "The access token is meant for another audience.",
            Invalid::WrongIssuer => "The access token was issued by another server.",
        }
    }
}

impl AuthServer {
    /// Mints an access token; returns it with its claims.
    pub fn mint(
        &self,
        client_id: &str,
        subject: &str,
        scope: &ScopeSet,
    ) -> AppResult<(String, AccessClaims)> {
        self.mint_as(&self.next_token(), client_id, subject, scope)
    }

    /// The id and issue time of an access token about to be minted, chosen before a grant's
    /// transaction so that the transaction can record the token under its login.
    pub fn next_token(&self) -> NextToken {
        let iat = chrono::Utc::now().timestamp();
        NextToken {
            jti: crate::ids::new("jti"),
            iat,
            exp: iat + self.access_ttl.as_secs() as i64,
        }
    }

    /// Mints the access token `next` for a client and subject.
    pub fn mint_as(
        &self,
        next: &NextToken,
        client_id: &str,
        subject: &str,
        scope: &ScopeSet,
    ) -> AppResult<(String, AccessClaims)> {
        let claims = AccessClaims {
            iss: self.issuer.clone(),
            sub: subject.to_string(),
            aud: self.audience.clone(),
            exp: next.exp,
            iat: next.iat,
            jti: next.jti.clone(),
            client_id: client_id.to_string(),
            scope: scope.to_string(),
        };
        Ok((self.keys.sign(&claims)?, claims))
    }

    /// Verifies a token's form, signature, expiry, audience and issuer (the signature once
    /// per token: see [`super::verified`]).
    pub fn verify(&self, token: &str) -> Result<AccessClaims, Invalid> {
        let now = chrono::Utc::now().timestamp();
        let digest = super::verified::digest(token);
        if let Some(claims) = self.verified.get(&digest, now) {
            return Ok(claims);
        }
        let claims = self.verify_signed(token)?;
        self.verified.put(digest, &claims, now);
        Ok(claims)
    }

    fn verify_signed(&self, token: &str) -> Result<AccessClaims, Invalid> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| Invalid::Malformed)?;
        if header.alg != Algorithm::EdDSA
            || !header
                .typ
                .as_deref()
                .is_some_and(|t| t.eq_ignore_ascii_case(ACCESS_TOKEN_TYP))
        {
            return Err(Invalid::Malformed);
        }
        let kid = header.kid.ok_or(Invalid::Malformed)?;
        let key = self.keys.decoding_key(&kid).ok_or(Invalid::UnknownKey)?;
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.leeway = 0;
        validation.set_audience(&[&self.audience]);
        validation.set_issuer(&[&self.issuer]);
        validation.set_required_spec_claims(&["exp", "iat", "iss", "aud", "sub"]);
        jsonwebtoken::decode::<AccessClaims>(token, &key, &validation)
            .map(|data| data.claims)
            .map_err(|e| match e.kind() {
                ErrorKind::ExpiredSignature => Invalid::Expired,
                ErrorKind::InvalidSignature => Invalid::BadSignature,
                ErrorKind::InvalidAudience => Invalid::WrongAudience,
                ErrorKind::InvalidIssuer => Invalid::WrongIssuer,
                _ => Invalid::Malformed,
            })
    }
}

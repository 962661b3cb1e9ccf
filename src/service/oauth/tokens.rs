//! What happens to tokens after they are issued: revocation (RFC 7009), the per-request
//! validity check, and introspection (RFC 7662).

use serde_json::{Value, json};

use super::OAuthError;
use crate::auth::AuthServer;
use crate::auth::secrets;
use crate::clock::format_instant;
use crate::domain::enums::ActorKind;
use crate::domain::limits::Rate;
use crate::error::AppError;
use crate::model::Actor;
use crate::service::Services;
use crate::store::{self, clients::Client};

/// Revokes a refresh token (and its login) or an access token of `client`. Unknown tokens
/// are not an error (RFC 7009 section 2.2).
pub async fn revoke(
    auth: &AuthServer,
    svc: &Services,
    client: &Client,
    token: &str,
) -> Result<(), OAuthError> {
    let db = svc.db();
    let (hash, now, client_id) = (
        secrets::token_hash(token),
        crate::clock::now_text(),
        client.id.clone(),
    );
    let access = auth.verify(token).ok().filter(|c| c.client_id == client.id);
    db.write(move |tx| {
        if let Some(t) = store::grants::get_refresh(tx, &hash)?
            && t.client_id == client_id
        {
            store::grants::revoke_family(tx, &t.family_id, &now)?;
        }
        if let Some(claims) = access {
            let expires =
                format_instant(chrono::DateTime::from_timestamp(claims.exp, 0).unwrap_or_default());
            store::grants::revoke_access(tx, &claims.jti, &expires)?;
        }
        Ok(())
    })
    .await?;
    Ok(())
}

/// What the guard needs to know of a caller whose token verified.
#[derive(Debug, Clone)]
pub struct Standing {
    /// The client's own request rate limit (`None`: the configured default).
    pub rate: Option<Rate>,
    /// Who acts: the staff member the token was issued to, or the client itself.
    pub actor: Actor,
}

/// Whether a verified access token is still good: not revoked, its client not revoked,
/// its staff member not disabled. When it is, returns the client's own rate limit and who
/// acts (a staff member when the token's subject is one, else the client), read in the
/// same query.
pub async fn standing(
    svc: &Services,
    jti: &str,
    client: &str,
    subject: &str,
) -> Result<Option<Standing>, AppError> {
    let db = svc.db();
    let (jti, client, subject) = (jti.to_string(), client.to_string(), subject.to_string());
    db.read(move |c| {
        let row = store::clients::standing(c, &jti, &client, &subject)?;
        Ok(
            row.map(|(per_second, burst, client_name, username)| Standing {
                rate: Rate::from_columns(per_second, burst),
                actor: match username {
                    Some(name) => Actor {
                        kind: ActorKind::Staff,
                        id: subject.clone(),
                        name,
                    },
                    None => Actor {
                        kind: ActorKind::Client,
                        id: client.clone(),
                        name: client_name,
                    },
                },
            }),
        )
    })
    .await
}

/// RFC 7662 introspection of an access or refresh token, for the client `asking`: it learns
/// about its own tokens, or about any with the `admin` scope; anything else is inactive to it.
pub async fn introspect(
    auth: &AuthServer,
    svc: &Services,
    token: &str,
    asking: &Client,
) -> Result<Value, OAuthError> {
    let answer = introspect_any(auth, svc, token).await?;
    let admin = crate::domain::scopes::ScopeSet::parse(&asking.scopes)
        .unwrap_or_default()
        .contains(crate::domain::scopes::Scope::Admin);
    let own = answer["client_id"].as_str() == Some(asking.id.as_str());
    Ok(if own || admin || answer["active"] == json!(false) {
        answer
    } else {
        json!({"active": false})
    })
}

async fn introspect_any(
    auth: &AuthServer,
    svc: &Services,
    token: &str,
) -> Result<Value, OAuthError> {
    let db = svc.db();
    if let Ok(c) = auth.verify(token) {
        if standing(svc, &c.jti, &c.client_id, &c.sub).await?.is_none() {
            return Ok(json!({"active": false}));
        }
        return Ok(json!({
            "active": true, "token_type": "access_token", "scope": c.scope, "client_id": c.client_id,
            "sub": c.sub, "aud": c.aud, "iss": c.iss, "exp": c.exp, "iat": c.iat, "jti": c.jti,
        }));
    }
    let hash = secrets::token_hash(token);
    let now = crate::clock::now_text();
    let t = db
        .read(move |c| store::grants::get_refresh(c, &hash))
        .await?;
    Ok(match t {
        Some(t)
            if t.used_at.is_none()
                && t.revoked_at.is_none()
                && t.idle_expires_at >= now
                && t.family_expires_at >= now =>
        {
            let exp = chrono::DateTime::parse_from_rfc3339(
                &t.idle_expires_at.min(t.family_expires_at.clone()),
            )
            .map(|d| d.timestamp())
            .unwrap_or_default();
            json!({"active": true, "token_type": "refresh_token", "scope": t.scope, "client_id": t.client_id,
                   "sub": t.subject, "exp": exp, "iss": auth.issuer})
        }
        _ => json!({"active": false}),
    })
}

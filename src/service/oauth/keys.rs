//! The signing keys' use cases: making a new key the one that signs (written to `keys/`,
//! then recorded), and opening the key store at start-up, generating the first key on a new
//! installation.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::auth::keys::{KeyStore, write_new};
use crate::db::Db;
use crate::error::AppResult;
use crate::service::Services;
use crate::store;

/// Generates a key, stores it, and makes it the one that signs. Returns its `kid`.
pub async fn rotate(db: &Db, data_dir: &Path) -> AppResult<String> {
    let (kid, public) = write_new(data_dir).await?;
    let at = crate::clock::now_text();
    let k = kid.clone();
    db.write(move |tx| store::clients::add_key(tx, &k, &public, &at))
        .await?;
    Ok(kid)
}

/// Re-reads the keys (after `innkeep keys rotate`, or on an unknown `kid`); false when
/// there is no active key yet.
pub async fn reload(svc: &Services, keys: &KeyStore) -> AppResult<bool> {
    keys.reload(svc.db()).await
}

/// Loads the keys, generating the first one on a new installation.
pub async fn open(db: &Db, data_dir: &Path, max_token_age: Duration) -> AppResult<Arc<KeyStore>> {
    let keys = KeyStore::new(data_dir, max_token_age);
    if !keys.reload(db).await? {
        rotate(db, data_dir).await?;
        keys.reload(db).await?;
    }
    Ok(keys)
}

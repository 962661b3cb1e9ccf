//! The keys that sign links sent to guests (`link_keys`), made on first use.

use crate::db::Tx;
use crate::error::AppResult;

/// The key named `name`; `fresh` stored as it when there is none yet.
pub fn get_or_insert(tx: &Tx, name: &str, fresh: &[u8]) -> AppResult<Vec<u8>> {
    use rusqlite::OptionalExtension;
    if let Some(k) = tx
        .prepare_cached("SELECT key FROM link_keys WHERE name = ?1")?
        .query_row([name], |r| r.get::<_, Vec<u8>>(0))
        .optional()?
    {
        return Ok(k);
    }
    tx.prepare_cached("INSERT INTO link_keys (name, key) VALUES (?1, ?2)")?
        .execute((name, fresh))?;
    Ok(fresh.to_vec())
}

//! The one shape every maintenance prune takes: delete at most a limit of a table's rows
//! that have aged past a cutoff, found by their key, so that a pass works in bounded write
//! jobs (`service::maintenance`).

use crate::db::Tx;
use crate::error::AppResult;

/// Which rows of a table have aged out, and how to find them.
pub(crate) struct Aged {
    /// The table.
    pub table: &'static str,
    /// The column that names a row: `rowid`, or the primary key of a table without one.
    pub key: &'static str,
    /// The condition that makes a row old, on the cutoff `?1`.
    pub older: &'static str,
    /// The order they go in, oldest first; empty for any order.
    pub order: &'static str,
}

impl Aged {
    /// The query for the keys of at most `?2` aged rows (cutoff `?1`).
    pub(crate) fn keys_sql(&self) -> String {
        let Aged {
            table,
            key,
            older,
            order,
        } = self;
        let order = if order.is_empty() {
            String::new()
        } else {
            format!(" ORDER BY {order}")
        };
        format!("SELECT {key} FROM {table} WHERE {older}{order} LIMIT ?2")
    }

    /// Deletes at most `limit` of the rows older than `cutoff`; how many went.
    pub(crate) fn delete(&self, tx: &Tx, cutoff: &str, limit: usize) -> AppResult<usize> {
        let sql = format!(
            "DELETE FROM {} WHERE {} IN ({})",
            self.table,
            self.key,
            self.keys_sql()
        );
        Ok(tx.prepare_cached(&sql)?.execute((cutoff, limit as i64))?)
    }
}

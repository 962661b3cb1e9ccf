//! Keyset pagination that stays stable while records change.
//!
//! Lists are ordered by a sort column (`arrival`, `sort_key`, `code`, ...) and then `id`.
//! Plain keyset paging repeats or skips a record whose sort key changes between pages. To
//! prevent that, every change of a sort key logs the old key in `list_moves`, and a cursor
//! remembers `as_of`, the newest move it has seen. Later pages place each record by its key
//! *as of the first page*: records that did not move are read through the ordered index;
//! records that moved since are read from the log with their old key, and the two ordered
//! streams are merged. Filters apply to current values.

use rusqlite::types::Value;
use rusqlite::{Connection, Row, params_from_iter};

use crate::db::Tx;
use crate::error::AppResult;

/// Where a page starts: after the record with this sort key and id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// Sort key of the last record returned.
    pub key: String,
    /// Id of the last record returned.
    pub id: String,
}

/// One list query.
pub struct ListQuery {
    /// The `list_moves.entity` name, for example `reservation`.
    pub entity: &'static str,
    /// Table, aliased `t` in the SQL.
    pub table: &'static str,
    /// Sort column of `t` (text).
    pub sort: &'static str,
    /// The columns of `t` selected: `t.*`, or a list the row mapper reads by position.
    pub columns: &'static str,
    /// Extra computed columns, each starting with a comma (`, EXISTS(...) AS occupied`).
    pub extra_columns: &'static str,
    /// `AND`-ed SQL conditions over `t`.
    pub conditions: Vec<String>,
    /// Parameters of `conditions`, in order.
    pub params: Vec<Value>,
}

impl ListQuery {
    /// A query over `table` ordered by `sort`, id.
    pub fn new(entity: &'static str, table: &'static str, sort: &'static str) -> ListQuery {
        ListQuery {
            entity,
            table,
            sort,
            columns: "t.*",
            extra_columns: "",
            conditions: Vec::new(),
            params: Vec::new(),
        }
    }

    /// Adds a condition with its parameters.
    pub fn filter(&mut self, sql: impl Into<String>, params: impl IntoIterator<Item = Value>) {
        self.conditions.push(sql.into());
        self.params.extend(params);
    }

    fn where_clause(&self) -> String {
        if self.conditions.is_empty() {
            "1".to_string()
        } else {
            self.conditions.join(" AND ")
        }
    }
}

/// The newest entry of the sort-key log: a new cursor's `as_of`.
pub fn current_as_of(conn: &Connection) -> AppResult<i64> {
    Ok(
        conn.query_row("SELECT COALESCE(MAX(seq), 0) FROM list_moves", [], |r| {
            r.get(0)
        })?,
    )
}

/// Logs that `id`'s sort key was `old_key` until now (call when it changes).
pub fn record_move(tx: &Tx, entity: &str, id: &str, old_key: &str) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO list_moves (entity, entity_id, old_key, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute((entity, id, old_key, tx.now_text()))?;
    Ok(())
}

/// Reads up to `limit` records after `after`, placed as of `as_of`. Each item comes with
/// its position, from which the next cursor is made.
pub fn fetch<T>(
    conn: &Connection,
    q: &ListQuery,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
    map: impl Fn(&Row) -> rusqlite::Result<T>,
) -> AppResult<Vec<(T, Position)>> {
    let moved_since: bool = conn
        .prepare_cached("SELECT EXISTS(SELECT 1 FROM list_moves WHERE entity = ?1 AND seq > ?2)")?
        .query_row((q.entity, as_of), |r| r.get(0))?;
    let (table, sort, extra, cond) = (q.table, q.sort, q.extra_columns, q.where_clause());
    let columns = q.columns;
    let mut params: Vec<Value> = Vec::new();
    let after_sql = |key_expr: &str, params: &mut Vec<Value>| match after {
        Some(p) => {
            params.push(Value::Text(p.key.clone()));
            params.push(Value::Text(p.id.clone()));
            format!(" AND ({key_expr}, t.id) > (?, ?)")
        }
        None => String::new(),
    };
    let sql = if !moved_since {
        params.extend(q.params.iter().cloned());
        let after_cond = after_sql(&format!("t.{sort}"), &mut params);
        params.push(Value::Integer(limit as i64));
        format!(
            "SELECT {columns}{extra}, t.{sort} AS pos_ FROM {table} t \
             WHERE {cond}{after_cond} ORDER BY t.{sort}, t.id LIMIT ?"
        )
    } else {
        params.extend(q.params.iter().cloned());
        let after_a = after_sql(&format!("t.{sort}"), &mut params);
        params.push(Value::Integer(as_of));
        params.push(Value::Integer(limit as i64));
        params.push(Value::Text(q.entity.to_string()));
        params.push(Value::Integer(as_of));
        params.push(Value::Integer(as_of));
        params.extend(q.params.iter().cloned());
        let after_b = after_sql("mv.old_key", &mut params);
        params.push(Value::Integer(limit as i64));
        format!(
            "SELECT * FROM (SELECT {columns}{extra}, t.{sort} AS pos_ FROM {table} t \
               WHERE {cond}{after_a} AND NOT EXISTS (SELECT 1 FROM list_moves m \
                 WHERE m.entity_id = t.id AND m.seq > ?) \
               ORDER BY t.{sort}, t.id LIMIT ?) \
             UNION ALL \
             SELECT * FROM (SELECT {columns}{extra}, mv.old_key AS pos_ FROM list_moves mv \
               JOIN {table} t ON t.id = mv.entity_id \
               WHERE mv.entity = ? AND mv.seq > ? AND mv.seq = (SELECT MIN(m2.seq) \
                 FROM list_moves m2 WHERE m2.entity_id = mv.entity_id AND m2.seq > ?) \
               AND {cond}{after_b}) \
             ORDER BY pos_, id LIMIT ?"
        )
    };
    let mut stmt = conn.prepare_cached(&sql)?;
    // `pos_` is the last column (a name would be looked for through every column's name,
    // on every row).
    let pos = stmt.column_count() - 1;
    let rows = stmt.query_map(params_from_iter(params), |row| {
        let item = map(row)?;
        let position = Position {
            key: row.get(pos)?,
            id: row.get("id")?,
        };
        Ok((item, position))
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

/// Deletes at most `limit` of the sort-key log entries older than `cutoff` (no live cursor
/// needs them); returns how many.
pub fn prune_moves(tx: &Tx, cutoff: &str, limit: usize) -> AppResult<usize> {
    super::Aged {
        table: "list_moves",
        key: "seq",
        older: "created_at < ?1",
        order: "seq",
    }
    .delete(tx, cutoff, limit)
}

//! Reading the event feed.

use crate::db::Db;
use crate::error::AppResult;
use crate::model::EventPage;
use crate::store;

/// Up to `limit` events after sequence `after`, optionally only of `types`
/// (exact names, `prefix.*` or `*`).
pub async fn list(db: &Db, after: i64, limit: usize, types: Vec<String>) -> AppResult<EventPage> {
    db.read(move |c| {
        let mut data = store::events::list(c, after, limit + 1, &types)?;
        let has_more = data.len() > limit;
        data.truncate(limit);
        let next_after = data.last().map_or(after, |e| e.sequence);
        Ok(EventPage {
            data,
            next_after,
            has_more,
        })
    })
    .await
}

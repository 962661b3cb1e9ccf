//! Reading the event feed, with the checks that keep a client from silently skipping or
//! repeating events (API.md section 8): a stale `feed_id`, an `after` older than what is
//! kept, and an `after` beyond the newest event are errors, never an empty or shifted page.

use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, Kind};
use crate::model::EventPage;
use crate::model::Principal;
use crate::service::Services;
use crate::store;

/// One read of the feed.
#[derive(Debug, Clone, Default)]
pub struct FeedQuery {
    /// Only events after this sequence; `None` starts at the oldest kept event.
    pub after: Option<i64>,
    /// Page size.
    pub limit: usize,
    /// Exact names, `prefix.*` or `*`; empty for all.
    pub types: Vec<String>,
    /// The `feed_id` the client's position belongs to, when it sent one.
    pub feed_id: Option<String>,
}

/// Up to `limit` events after `after`, checked against the feed's identity and extent.
pub async fn list(svc: &Services, p: &Principal, q: FeedQuery) -> AppResult<EventPage> {
    p.require(Scope::EventsRead)?;
    let db = svc.db();
    db.read(move |c| {
        let feed_id = store::events::feed_id(c)?;
        if let Some(sent) = q.feed_id.as_deref().filter(|s| *s != feed_id) {
            return Err(AppError::conflict(
                "feed_reset",
                format!(
                    "The event feed was reset (feed {sent:?} ended; the current feed is {feed_id:?}), \
                     for example because the database was restored from a backup. Sequence numbers \
                     of the old feed mean nothing in the new one: reconcile your copy from the \
                     list endpoints (by id), then read the new feed from after=0 with its feed_id."
                ),
            )
            .with_extension("feed_id", feed_id.into()));
        }
        let (oldest, newest) = store::events::extent(c)?;
        let after = match q.after {
            None => 0,
            Some(after) => check_position(after, oldest, newest)?,
        };
        let mut data = store::events::list(c, after, q.limit + 1, &q.types)?;
        let has_more = data.len() > q.limit;
        data.truncate(q.limit);
        let next_after = data.last().map_or(after, |e| e.sequence);
        Ok(EventPage {
            data,
            next_after,
            has_more,
            feed_id,
        })
    })
    .await
}

/// `after` itself when the feed still holds everything after it.
fn check_position(after: i64, oldest: Option<i64>, newest: i64) -> AppResult<i64> {
    if after > newest {
        return Err(AppError::conflict(
            "cursor_ahead",
            format!(
                "after={after} is beyond the newest event ({newest}). This position did not come \
                 from this feed: check that you are talking to the right server, and send the \
                 feed_id you stored with it."
            ),
        )
        .with_extension("newest_sequence", newest.into()));
    }
    // With nothing kept, everything up to `newest` was pruned.
    let first_kept = oldest.unwrap_or(newest + 1);
    if after < first_kept - 1 {
        return Err(AppError::new(
            Kind::Gone,
            "events_expired",
            format!(
                "Events after {after} are no longer kept (events are kept for a limited time); \
                 the oldest available is {first_kept}. Reconcile your copy from the list \
                 endpoints, then read on with after={}.",
                first_kept - 1
            ),
        )
        .with_extension("oldest_sequence", first_kept.into())
        .with_extension("resume_after", (first_kept - 1).into()));
    }
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: AppResult<i64>) -> &'static str {
        r.map_or_else(|e| e.code, |_| "ok")
    }

    #[test]
    fn positions_inside_the_kept_range_are_accepted() {
        assert_eq!(check_position(0, Some(1), 10).unwrap(), 0);
        assert_eq!(check_position(4, Some(5), 10).unwrap(), 4);
        assert_eq!(check_position(10, Some(5), 10).unwrap(), 10);
        assert_eq!(check_position(0, None, 0).unwrap(), 0);
        assert_eq!(check_position(7, None, 7).unwrap(), 7);
    }

    #[test]
    fn pruned_and_future_positions_are_refused() {
        assert_eq!(code(check_position(3, Some(5), 10)), "events_expired");
        assert_eq!(code(check_position(0, Some(2), 10)), "events_expired");
        assert_eq!(code(check_position(6, None, 7)), "events_expired");
        assert_eq!(code(check_position(11, Some(5), 10)), "cursor_ahead");
        assert_eq!(code(check_position(1, None, 0)), "cursor_ahead");
    }
}

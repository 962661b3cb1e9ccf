//! The daily backup's use cases: queueing the day's backup once its time has come, recording
//! how it went (retried an hour later, five tries in all), and when the last good one was
//! taken, for `/metrics`, the admin pages and the operator.

use chrono::NaiveTime;

use crate::db::Db;
use crate::domain::enums::JobKind;
use crate::error::AppResult;
use crate::store;

/// Every daily backup job's subject starts with this, then the day (`backup-2026-11-25`).
pub const SUBJECT: &str = "backup-";

/// Tries of one day's backup before it is left failed.
const TRIES: i64 = 5;

/// Queues today's backup when `at` (in the property's time zone) has passed and it is not
/// queued yet; whether it queued one.
pub async fn schedule(db: &Db, at: NaiveTime) -> AppResult<bool> {
    db.write(move |tx| {
        let tz = store::settings::get(tx)?.time_zone;
        let local = tx.clock().local_now_in(&tz);
        let subject = format!("{SUBJECT}{}", local.date());
        if local.time() < at || store::jobs::exists_for_subject(tx, &subject)? {
            return Ok(false);
        }
        store::jobs::enqueue(tx, JobKind::Backup, &subject, "{}", &tx.now_text())?;
        Ok(true)
    })
    .await
}

/// Records a run of backup job `id` (its `attempts` so far): done, or tried again in an hour,
/// or failed after the last try.
pub async fn record(db: &Db, id: i64, attempts: i64, outcome: Result<(), String>) -> AppResult<()> {
    db.write(move |tx| match &outcome {
        Ok(()) => store::jobs::finish(tx, id),
        Err(why) if attempts < TRIES => {
            let later = crate::clock::format_instant(tx.clock().now() + chrono::Duration::hours(1));
            store::jobs::retry_at(tx, id, &later, why)
        }
        Err(why) => store::jobs::fail(tx, id, why),
    })
    .await
}

/// How many seconds ago the last good scheduled backup finished, if one did.
pub async fn last_good_age(svc: &crate::service::Services) -> AppResult<Option<i64>> {
    let now = svc.db().clock().now();
    let at = svc
        .db()
        .read(|c| store::jobs::last_done(c, SUBJECT))
        .await?;
    Ok(at
        .and_then(|at| chrono::DateTime::parse_from_rfc3339(&at).ok())
        .map(|at| (now - at.with_timezone(&chrono::Utc)).num_seconds().max(0)))
}

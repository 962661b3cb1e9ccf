//! The job queue as operators see it: listing jobs and putting failed ones back.

use crate::db::Db;
use crate::domain::enums::JobStatus;
use crate::error::{AppError, AppResult};
use crate::store::{self, jobs::Job};

/// Jobs, newest first, optionally of one status.
pub async fn list(db: &Db, status: Option<String>, limit: usize) -> AppResult<Vec<Job>> {
    if let Some(s) = &status
        && JobStatus::parse(s).is_none()
    {
        return Err(AppError::invalid_field(
            "status",
            "invalid_value",
            format!("must be one of {}", JobStatus::NAMES.join(", ")),
        ));
    }
    db.read(move |c| store::jobs::list(c, status.as_deref(), limit))
        .await
}

/// Puts one failed job (or, without an id, every failed job) back in the queue, due now.
/// Returns how many. Retrying a job that is not failed is refused with the reason.
pub async fn retry(db: &Db, id: Option<i64>) -> AppResult<usize> {
    db.write(move |tx| {
        if let Some(id) = id {
            match store::jobs::get(tx, id)? {
                None => return Err(AppError::not_found("job", &id.to_string())),
                Some(j) if j.status != JobStatus::Failed => {
                    return Err(AppError::conflict(
                        "job_not_failed",
                        format!("job {id} is {}; only failed jobs can be retried", j.status),
                    ));
                }
                Some(_) => {}
            }
        }
        store::jobs::requeue_failed(tx, id)
    })
    .await
}

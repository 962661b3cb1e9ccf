//! Sending guest registrations from the queue.
//!
//! One job per submission. A run: (1) nothing to do unless the submission is `queued` or
//! `retrying`; (2) rows of a day the authority no longer takes go to `manual_required`;
//! (3) authenticate (a cached token is reused); (4) mark the submission `sending` and count
//! the attempt, committed *before* the rows leave; (5) send; (6) record every exchange and
//! the outcome. A run that finds the submission still `sending` knows that a previous
//! process died with the rows in flight: that is an Unknown outcome, never a blind resend.
//! A send refused for an expired token is repeated once with a fresh token (the refusal,
//! logged, shows that nothing was stored). A submission about a reservation waits while an
//! earlier one about it is still on its way: a check-out never overtakes its check-in.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::{Handler, blocking};
use crate::compliance::{Outcome, RegistrationScheme};
use crate::db::Db;
use crate::domain::enums::{JobKind, RowStatus, SubmissionStatus};
use crate::error::AppResult;
use crate::service::authority;
use crate::store::{self, jobs::Job};

/// The registration handler.
pub struct RegistrationHandler {
    scheme: Arc<dyn RegistrationScheme>,
}

impl RegistrationHandler {
    /// A handler sending through `scheme`.
    pub fn new(scheme: Arc<dyn RegistrationScheme>) -> RegistrationHandler {
        RegistrationHandler { scheme }
    }
}

impl Handler for RegistrationHandler {
    fn kind(&self) -> &'static str {
        JobKind::Registration.as_str()
    }

    fn run<'a>(&'a self, db: &'a Db, job: Job) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            if let Err(e) = self.send(db, &job).await {
                tracing::error!(error = %e, submission = %job.subject_id, "recording a registration attempt failed; it will run again");
            }
        })
    }
}

impl RegistrationHandler {
    async fn send(&self, db: &Db, job: &Job) -> AppResult<()> {
        let (id, job_id) = (job.subject_id.clone(), job.id);
        let clock = db.clock().clone();
        let found = db
            .read(move |c| {
                let tz = store::settings::get(c)?.time_zone;
                let sub = store::submissions::get(c, &id)?;
                let behind = match &sub {
                    Some(s) => {
                        store::submissions::earlier_open(c, &s.subject_id, &s.id, &s.created_at.0)?
                    }
                    None => false,
                };
                Ok((sub, clock.today_in(&tz), behind))
            })
            .await?;
        let (Some(sub), today, behind) = found else {
            return authority::finish_job(db, job_id).await;
        };
        let scheme = self.scheme.clone();
        match sub.status {
            SubmissionStatus::Queued | SubmissionStatus::Retrying => {}
            SubmissionStatus::Sending => {
                let why = "innkeep stopped while these rows were being sent, so whether the authority stored them is unknown";
                return authority::registration_outcome(
                    db,
                    job_id,
                    &sub,
                    scheme,
                    vec![authority::note(why)],
                    Outcome::Unknown { reason: why.into() },
                )
                .await;
            }
            _ => return authority::finish_job(db, job_id).await,
        }
        if behind {
            let outcome = Outcome::Retry {
                reason: "waits for the earlier submission about this stay to be answered first \
                         (when its outcome is unknown, settle it in the compliance centre)"
                    .into(),
                after: Some(std::time::Duration::from_secs(30)),
            };
            return authority::registration_outcome(db, job_id, &sub, scheme, Vec::new(), outcome)
                .await;
        }
        if let Some(day) = sub.record_date
            && let Err(why) = scheme.sendable(day.0, today)
        {
            return authority::registration_outcome(
                db,
                job_id,
                &sub,
                scheme,
                vec![authority::note(why.clone())],
                Outcome::Unknown { reason: why },
            )
            .await;
        }
        let lines: Vec<String> = sub
            .rows
            .iter()
            .filter(|r| r.status == RowStatus::Pending)
            .map(|r| r.line.clone())
            .collect();
        let mut sent = sub.clone();
        sent.attempts += 1;
        let mut fresh = false;
        loop {
            let s = scheme.clone();
            let log = match blocking(move || s.authenticate(fresh)).await? {
                Ok(log) => log,
                Err((log, outcome)) => {
                    return authority::registration_outcome(db, job_id, &sub, scheme, log, outcome)
                        .await;
                }
            };
            authority::mark_sending(db, &sub, sent.attempts, log).await?;
            let (s, l) = (scheme.clone(), lines.clone());
            let (mut log, outcome) = blocking(move || s.submit(&l)).await?;
            if matches!(outcome, Outcome::Reauthenticate { .. }) && !fresh {
                log.push(authority::note("the authority refused the token before processing the rows; sending them again with a new token"));
                authority::log(db, &sent.id, sent.attempts, log).await?;
                fresh = true;
                continue;
            }
            return authority::registration_outcome(db, job_id, &sent, scheme, log, outcome).await;
        }
    }
}

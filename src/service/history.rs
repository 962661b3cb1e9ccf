//! The audit trail of one reservation, guest or invoice: who did what, when, with the
//! fields it changed (recorded by `store::history` with every event and every change that has
//! no event of its own).

use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult};
use crate::model::HistoryEntry;
use crate::model::Principal;
use crate::service::Services;
use crate::service::{Page, PageRequest, page};
use crate::store;

/// The records that have a history endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// `res_…`
    Reservation,
    /// `gst_…`
    Guest,
    /// `inv_…`
    Invoice,
}

impl Subject {
    /// The scope that reads the record.
    fn scope(self) -> Scope {
        match self {
            Subject::Reservation => Scope::ReservationsRead,
            Subject::Guest => Scope::GuestsRead,
            Subject::Invoice => Scope::InvoicesRead,
        }
    }

    /// The resource's name in a 404.
    fn name(self) -> &'static str {
        match self {
            Subject::Reservation => "reservation",
            Subject::Guest => "guest",
            Subject::Invoice => "invoice",
        }
    }
}

/// A page of a record's history, oldest first; 404 for an unknown record.
pub async fn list(
    svc: &Services,
    p: &Principal,
    subject: Subject,
    id: String,
    req: PageRequest,
) -> AppResult<Page<HistoryEntry>> {
    p.require(subject.scope())?;
    let db = svc.db();
    let probe = id.clone();
    let exists = db
        .read(move |c| {
            Ok(match subject {
                Subject::Reservation => store::reservations::get(c, &probe)?.is_some(),
                Subject::Guest => store::guests::get(c, &probe)?.is_some(),
                Subject::Invoice => store::invoices::get(c, &probe)?.is_some(),
            })
        })
        .await?;
    if !exists {
        return Err(AppError::not_found(subject.name(), &id));
    }
    page(db, req, move |c, after, as_of, limit| {
        store::history::list(c, &id, after, as_of, limit)
    })
    .await
}

//! The compliance centre (screen 10): what the national systems still have to accept, most
//! urgent first; the code tables loaded and a new one imported; the schemes in force and the
//! fiscal certificate's subject and expiry. The compliance scope.

use chrono::{DateTime, Utc};

use crate::domain::enums::SubmissionStatus;
use crate::domain::scopes::Scope;
use crate::error::AppResult;
use crate::model::{Principal, Submission};
use crate::service::{PageRequest, Services, registration, submissions};
use crate::store;

/// Submissions listed (those not yet accepted, most urgent first).
const OPEN_SHOWN: usize = 500;

/// A code table as loaded.
#[derive(Debug, Clone)]
pub struct LoadedTable {
    /// Its name, such as `Luoghi`.
    pub table: String,
    /// Rows loaded.
    pub rows: i64,
    /// The file it came from.
    pub source: String,
    /// When.
    pub imported_at: String,
}

/// What the centre shows.
#[derive(Debug, Clone)]
pub struct Centre {
    /// Submissions not yet accepted: overdue first, then due within a day, then by deadline.
    pub open: Vec<Submission>,
    /// What each open submission is about, in words, by subject id: a booking's code and
    /// guest ("QX6K86, Anna Rossi") or an invoice's number.
    pub subjects: std::collections::HashMap<String, String>,
    /// The guest-registration scheme in force (`none` when off).
    pub registration: String,
    /// The fiscal scheme in force.
    pub fiscal: String,
    /// The e-invoice scheme in force (`none` when off).
    pub einvoice: String,
    /// Where each open e-invoice stands, by invoice id.
    pub einvoices: std::collections::HashMap<String, crate::domain::enums::EInvoiceStatus>,
    /// The fiscal certificate: subject and expiry.
    pub certificate: Option<(String, DateTime<Utc>)>,
    /// The code tables loaded.
    pub tables: Vec<LoadedTable>,
}

/// The centre's data.
pub async fn centre(svc: &Services, p: &Principal) -> AppResult<Centre> {
    p.require(Scope::Compliance)?;
    let waiting: Vec<String> = SubmissionStatus::ALL
        .iter()
        .filter(|s| **s != SubmissionStatus::Accepted)
        .map(|s| s.as_str().to_string())
        .collect();
    let page =
        submissions::list(svc, p, Vec::new(), waiting, PageRequest::first(OPEN_SHOWN)).await?;
    let mut open: Vec<Submission> = page.items.into_iter().map(|(s, _)| s).collect();
    open.sort_by(|a, b| {
        (!a.overdue, !a.due_soon, &a.due_at.0).cmp(&(!b.overdue, !b.due_soon, &b.due_at.0))
    });
    let ids: Vec<String> = open.iter().map(|s| s.subject_id.clone()).collect();
    let (subjects, einvoices) = svc
        .db()
        .read(move |c| {
            let mut named = std::collections::HashMap::new();
            let mut einvoices = std::collections::HashMap::new();
            for id in ids {
                if let Some(e) = store::einvoices::get(c, &id)? {
                    einvoices.insert(id.clone(), e.status);
                }
                let name = if id.starts_with("inv_") {
                    store::invoices::get(c, &id)?.map(|i| i.number)
                } else {
                    match store::reservations::get(c, &id)? {
                        Some(r) => Some(match store::guests::get(c, &r.primary_guest_id)? {
                            Some(g) => format!("{}, {} {}", r.code, g.first_name, g.last_name),
                            None => r.code,
                        }),
                        None => None,
                    }
                };
                if let Some(n) = name {
                    named.insert(id, n);
                }
            }
            Ok((named, einvoices))
        })
        .await?;
    let tables = svc
        .db()
        .read(store::codes::versions)
        .await?
        .into_iter()
        .map(|t| LoadedTable {
            table: t.table,
            rows: t.rows,
            source: t.source,
            imported_at: t.imported_at,
        })
        .collect();
    let c = svc.compliance();
    Ok(Centre {
        open,
        subjects,
        registration: c.registration.name().to_string(),
        fiscal: c.fiscal.name().to_string(),
        einvoice: c.einvoice.name().to_string(),
        einvoices,
        certificate: c.fiscal.certificate(),
        tables,
    })
}

/// Imports an official code table from the file a person uploaded; how many rows.
pub async fn import_table(
    svc: &Services,
    p: &Principal,
    table: &str,
    text: String,
    source: String,
) -> AppResult<usize> {
    p.require(Scope::Compliance)?;
    let n = registration::import_table(svc.db(), table, text, source).await?;
    tracing::info!(by = %p.actor.name, table, rows = n, "code table imported from the desk");
    Ok(n)
}

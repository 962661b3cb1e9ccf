//! `innkeep export guests|reservations|invoices`: everything of one kind as CSV, for a
//! spreadsheet, an accountant or another innkeep. Guests and reservations come out with the
//! import's own columns (the innkeep ids as `external_id`), so an export imports unchanged.

use std::path::PathBuf;

use super::admin::with_services;
use crate::config::Loaded;
use crate::domain::money::format_amount;
use crate::domain::spreadsheet::neutralise;
use crate::error::AppResult;
use crate::model::{Guest, Invoice, Principal, Reservation};
use crate::service::{Services, every, guests, invoices, reservations, room_types, rooms};

/// What `innkeep export` writes.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ExportWhat {
    /// Every guest.
    Guests,
    /// Every reservation.
    Reservations,
    /// Every invoice and credit note.
    Invoices,
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

fn guest_row(g: &Guest) -> Vec<String> {
    let b = g.birth_place.as_ref();
    let d = g.document.as_ref();
    let a = g.address.as_ref();
    vec![
        g.id.clone(),
        g.first_name.clone(),
        g.last_name.clone(),
        opt(&g.email),
        opt(&g.phone),
        opt(&g.birth_date.map(|d| d.0)),
        opt(&g.gender.map(|x| x.as_str())),
        opt(&g.nationality),
        opt(&g.tax_code),
        opt(&b.and_then(|b| b.country.as_ref().map(|c| c.0.clone()))),
        opt(&b.and_then(|b| b.municipality.as_ref().map(|c| c.0.clone()))),
        opt(&b.and_then(|b| b.region.as_ref().map(|c| c.0.clone()))),
        opt(&d.map(|d| d.kind.as_str())),
        opt(&d.map(|d| d.number.0.clone())),
        opt(&d.and_then(|d| d.issuing_country.as_ref().map(|c| c.0.clone()))),
        opt(&d.and_then(|d| d.issuing_place.as_ref().map(|c| c.0.clone()))),
        opt(&d.and_then(|d| d.expiry_date.map(|x| x.0))),
        opt(&a.and_then(|a| a.line1.as_ref().map(|c| c.0.clone()))),
        opt(&a.and_then(|a| a.line2.as_ref().map(|c| c.0.clone()))),
        opt(&a.and_then(|a| a.city.as_ref().map(|c| c.0.clone()))),
        opt(&a.and_then(|a| a.postal_code.as_ref().map(|c| c.0.clone()))),
        opt(&a.and_then(|a| a.region.as_ref().map(|c| c.0.clone()))),
        opt(&a.and_then(|a| a.country.as_ref().map(|c| c.0.clone()))),
        opt(&g.notes),
    ]
}

async fn table(
    svc: &Services,
    p: &Principal,
    what: ExportWhat,
) -> AppResult<(Vec<String>, Vec<Vec<String>>)> {
    use crate::service::import::{GUEST_COLUMNS, RESERVATION_COLUMNS};
    let head = |cols: &[(&str, &str)], extra: &[&str]| {
        cols.iter()
            .map(|(c, _)| c.to_string())
            .chain(extra.iter().map(|c| c.to_string()))
            .collect()
    };
    match what {
        ExportWhat::Guests => {
            let all = every(|req| guests::list(svc, p, Default::default(), req)).await?;
            Ok((
                head(GUEST_COLUMNS, &[]),
                all.iter().map(guest_row).collect(),
            ))
        }
        ExportWhat::Reservations => {
            let types = every(|req| room_types::list(svc, p, req)).await?;
            let rooms = every(|req| rooms::list(svc, p, Default::default(), req)).await?;
            let code = |id: &str| {
                types
                    .iter()
                    .find(|t| t.id == id)
                    .map(|t| t.code.clone())
                    .unwrap_or_default()
            };
            let number = |id: &Option<String>| {
                id.as_ref()
                    .and_then(|id| rooms.iter().find(|r| &r.id == id))
                    .map(|r| r.number.clone())
                    .unwrap_or_default()
            };
            let list: Vec<Reservation> =
                every(|req| reservations::list(svc, p, Default::default(), req)).await?;
            let rows = list
                .iter()
                .map(|r| {
                    vec![
                        r.id.clone(),
                        r.primary_guest_id.clone(),
                        code(&r.room_type_id),
                        number(&r.room_id),
                        r.arrival.0.to_string(),
                        r.departure.0.to_string(),
                        r.adults.to_string(),
                        r.children.to_string(),
                        format_amount(r.nightly_rate),
                        r.currency.clone(),
                        r.source.as_str().to_string(),
                        opt(&r.notes),
                        r.status.as_str().to_string(),
                        r.code.clone(),
                    ]
                })
                .collect();
            Ok((head(RESERVATION_COLUMNS, &["code"]), rows))
        }
        ExportWhat::Invoices => {
            let list: Vec<Invoice> =
                every(|req| invoices::list(svc, p, Default::default(), req)).await?;
            let rows = list
                .iter()
                .map(|i| {
                    vec![
                        i.number.clone(),
                        i.kind.as_str().to_string(),
                        i.status.as_str().to_string(),
                        i.issue_date.0.to_string(),
                        i.bill_to.name.0.clone(),
                        opt(&i
                            .bill_to
                            .vat_id
                            .as_ref()
                            .or(i.bill_to.tax_id.as_ref())
                            .map(|t| t.0.clone())),
                        opt(&i.guest_id),
                        opt(&i.reservation_id),
                        i.currency.clone(),
                        format_amount(i.totals.net),
                        format_amount(i.totals.tax),
                        format_amount(i.totals.gross),
                        format_amount(i.paid_amount),
                        opt(&i.payment_method.map(|m| m.as_str())),
                        i.id.clone(),
                        opt(&i.bill_to.kind.map(|k| k.as_str())),
                        opt(&i.bill_to.tax_code.as_ref().map(|t| t.0.clone())),
                    ]
                })
                .collect();
            let head = [
                "number",
                "kind",
                "status",
                "issue_date",
                "bill_to",
                "tax_id",
                "guest_id",
                "reservation_id",
                "currency",
                "net",
                "tax",
                "total",
                "paid",
                "payment_method",
                "id",
                "bill_to_kind",
                "tax_code",
            ];
            Ok((head.iter().map(|h| h.to_string()).collect(), rows))
        }
    }
}

/// Runs `innkeep export`.
pub fn run(l: &Loaded, what: ExportWhat, output: Option<&PathBuf>) -> Result<(), String> {
    let (head, rows) = with_services(l, Default::default(), async |svc, p| {
        table(svc, p, what).await
    })?;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&head).map_err(|e| e.to_string())?;
    for r in &rows {
        // A cell a spreadsheet would run as a formula is written as text (`innkeep import`
        // reads it back exactly).
        w.write_record(r.iter().map(|c| neutralise(c).into_owned()))
            .map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    match output {
        None => {
            use std::io::Write;
            std::io::stdout()
                .write_all(&bytes)
                .map_err(|e| e.to_string())
        }
        Some(file) => {
            crate::durable::write_private(file, &bytes)
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            eprintln!(
                "{} rows written to {} (readable by you only: it is personal data).",
                rows.len(),
                file.display()
            );
            Ok(())
        }
    }
}

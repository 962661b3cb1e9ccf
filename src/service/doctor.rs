//! What `innkeep doctor` asks the database: the facts behind its checks, read only; and
//! its one repair, `--recount`, which puts the running totals of nights sold and bookings
//! made right.

use chrono::{DateTime, Utc};

use crate::error::AppResult;
use crate::model::{Principal, Submission};
use crate::service::{Services, backups, compliance_centre};
use crate::store;

/// The database's side of the checks.
#[derive(Debug)]
pub struct Facts {
    /// Jobs that gave up: (id, kind, subject, last error).
    pub failed_jobs: Vec<(i64, String, String, Option<String>)>,
    /// Submissions past their legal deadline and not yet accepted.
    pub overdue: Vec<Submission>,
    /// Webhook endpoints switched off: (url, why).
    pub disabled_webhooks: Vec<(String, Option<String>)>,
    /// Seconds since the last good scheduled backup, if any.
    pub last_backup_age: Option<i64>,
    /// When the newest event was recorded (by this PC's clock at the time).
    pub newest_event_at: Option<String>,
    /// The fiscal certificate in use: subject and expiry.
    pub certificate: Option<(String, DateTime<Utc>)>,
    /// Whether invoices wait for the numbering to be confirmed after a restore.
    pub numbering_held: bool,
    /// For a registration scheme that fetches its code tables: its name, how many tables it
    /// keeps, how many are loaded, and when the oldest was fetched.
    pub tables: Option<(String, usize, usize, Option<String>)>,
    /// The e-invoice scheme in force (`none` when off).
    pub einvoice: String,
    /// E-invoices not yet fiscalized, by status.
    pub einvoices: Vec<(crate::domain::enums::EInvoiceStatus, i64)>,
    /// The day close: the last day closed, the first whose certificate does not verify,
    /// and the property's today (none before the first close).
    pub days: Option<DaysClosed>,
    /// The compliance calendar from a week ago to two weeks ahead.
    pub duties: Vec<crate::model::ComplianceDuty>,
    /// The nights whose running totals of nights sold differ from a fresh count of the
    /// reservations (none when all is well).
    pub nights_off: Vec<store::nights_sold::Difference>,
    /// The days, sources and sites whose running totals of bookings made differ from a
    /// fresh count of the reservations (none when all is well).
    pub bookings_off: Vec<store::bookings_made::Difference>,
}

/// Where the day close stands.
#[derive(Debug)]
pub struct DaysClosed {
    /// The last day closed.
    pub last: chrono::NaiveDate,
    /// The first day whose certificate does not verify.
    pub broken: Option<chrono::NaiveDate>,
    /// Today at the property.
    pub today: chrono::NaiveDate,
}

/// Reads the facts.
pub async fn facts(svc: &Services, p: &Principal) -> AppResult<Facts> {
    let db = svc.db();
    let failed_jobs = db
        .read(|c| store::jobs::list(c, Some("failed"), 1000))
        .await?
        .into_iter()
        .map(|j| (j.id, j.kind, j.subject_id, j.last_error))
        .collect();
    let disabled_webhooks = db
        .read(store::webhooks::all)
        .await?
        .into_iter()
        .filter(|e| !e.webhook.enabled)
        .map(|e| (e.webhook.url, e.webhook.disabled_reason))
        .collect();
    let newest_event_at = db.read(store::events::newest_at).await?;
    let centre = compliance_centre::centre(svc, p).await?;
    let overdue = centre.open.into_iter().filter(|s| s.overdue).collect();
    let numbering_held = crate::service::numbering::standing(svc, p)
        .await?
        .hold
        .is_some();
    let scheme = svc.compliance().registration.clone();
    let tables = if scheme.enabled() && scheme.fetches_tables() {
        let name = scheme.name();
        let loaded: Vec<_> = db
            .read(store::codes::versions)
            .await?
            .into_iter()
            .filter(|t| t.scheme == name)
            .collect();
        let oldest = loaded.iter().map(|t| t.imported_at.clone()).min();
        let kept = scheme.table_names().len();
        Some((name.to_string(), kept, loaded.len(), oldest))
    } else {
        None
    };
    let einvoices = db.read(store::einvoices::open_counts).await?;
    let clock = db.clock().clone();
    let days = db
        .read(move |c| {
            let Some((last, _)) = store::day_closes::last(c)? else {
                return Ok(None);
            };
            Ok(Some(DaysClosed {
                last,
                broken: crate::service::day_close::first_broken(c)?,
                today: clock.today_in(&store::settings::get(c)?.time_zone),
            }))
        })
        .await?;
    let today = db
        .read(store::settings::time_zone)
        .await
        .map(|tz| db.clock().today_in(&tz))?;
    let window = (
        crate::model::Date(today - chrono::Days::new(7)),
        crate::model::Date(today + chrono::Days::new(15)),
    );
    let duties = crate::service::calendar::calendar(svc, p, window)
        .await?
        .duties;
    let nights_off = db.read(store::nights_sold::differences).await?;
    let bookings_off = db.read(store::bookings_made::differences).await?;
    Ok(Facts {
        nights_off,
        bookings_off,
        duties,
        days,
        einvoice: svc.compliance().einvoice.name().to_string(),
        einvoices,
        tables,
        failed_jobs,
        overdue,
        disabled_webhooks,
        last_backup_age: backups::last_good_age(svc).await?,
        newest_event_at,
        certificate: centre.certificate,
        numbering_held,
    })
}

/// Puts the running totals of nights sold and of bookings made right where they differ
/// from a fresh count of the reservations; returns how many nights, and how many rows of
/// bookings made (a day, source and site each), were off.
///
/// The fresh counts are read outside any write (they read every stay: seconds on a large
/// database, which would hold up the server's writes). What a total is off by, read in one
/// snapshot of the totals and the reservations together, stays what it is off by after any
/// later booking, because every write of a reservation adds its own change to the totals
/// in its own transaction; so the repair adds each difference in a short write. A change of
/// the time zone meanwhile, which counts the bookings made again, stops the repair.
pub async fn recount(svc: &Services, p: &Principal) -> AppResult<(usize, usize)> {
    p.require(crate::domain::scopes::Scope::Admin)?;
    let (nights, bookings, zone) = svc
        .db()
        .read(|c| {
            Ok((
                store::nights_sold::differences(c)?,
                store::bookings_made::differences(c)?,
                store::settings::time_zone(c)?,
            ))
        })
        .await?;
    if nights.is_empty() && bookings.is_empty() {
        return Ok((0, 0));
    }
    let mut fix = Vec::with_capacity(nights.len());
    for (night, kept, counted) in &nights {
        let date = night.parse::<chrono::NaiveDate>().map_err(|e| {
            crate::error::AppError::internal(format!("a night of nights_sold, {night:?}: {e}"))
        })?;
        fix.push((date, counted.0 - kept.0, counted.1 - kept.1));
    }
    let off = (nights.len(), bookings.len());
    svc.db()
        .write(move |tx| {
            // A new time zone counts the bookings made again on other days, unlike a
            // booking, which adds its own change: what was read is then no longer off.
            if store::settings::time_zone(tx)? != zone {
                return Err(crate::error::AppError::conflict(
                    "time_zone_changed",
                    "The property's time zone changed while the totals were being counted; \
                     nothing was changed. Run `innkeep doctor --recount` again.",
                ));
            }
            store::nights_sold::add(tx, &fix)?;
            for (day, source, site, kept, counted) in &bookings {
                let by: [i64; 6] = std::array::from_fn(|i| counted[i] - kept[i]);
                store::bookings_made::add_counts(tx, day, source, site, by)?;
            }
            Ok(())
        })
        .await?;
    tracing::info!(
        nights = off.0,
        bookings = off.1,
        "running totals counted again"
    );
    Ok(off)
}

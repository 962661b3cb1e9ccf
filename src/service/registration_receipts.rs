//! Alloggiati Web's receipts: the Polizia di Stato's signed PDF of each day's registrations,
//! fetched the day after they were accepted (the service keeps them 30 days), kept five
//! years, listed in the compliance centre and put in the inspection pack. Scope
//! `compliance`.

use std::sync::Arc;

use crate::compliance::RegistrationScheme;
use crate::db::Db;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, Kind};
use crate::model::{Date, Principal};
use crate::service::Services;
use crate::store;

/// How far back the service still gives receipts.
const KEPT_THERE_DAYS: u64 = 30;

/// Fetches every receipt due (days of the last 30, today excepted, whose guests were
/// accepted and whose receipt is not kept yet): how many were kept.
pub async fn fetch_due(db: &Db, scheme: Arc<dyn RegistrationScheme>) -> AppResult<usize> {
    if !scheme.enabled() || !scheme.gives_receipts() {
        return Ok(0);
    }
    let clock = db.clock().clone();
    let days = db
        .read(move |c| {
            let today = clock.today_in(&store::settings::get(c)?.time_zone);
            let from = today - chrono::Days::new(KEPT_THERE_DAYS);
            store::receipts::wanted(c, &from.to_string(), &today.to_string())
        })
        .await?;
    let mut kept = 0;
    for day in days {
        let Ok(date) = day.parse::<chrono::NaiveDate>() else {
            continue;
        };
        let s = scheme.clone();
        let (_, fetched) = tokio::task::spawn_blocking(move || s.fetch_receipt(date))
            .await
            .map_err(AppError::internal)?;
        let pdf = fetched.map_err(|why| {
            AppError::new(
                Kind::Conflict,
                "receipt_unavailable",
                format!(
                    "the receipt of {day} could not be fetched from {}: {why}",
                    scheme.name()
                ),
            )
        })?;
        if let Some(pdf) = pdf {
            let name = scheme.name();
            db.write(move |tx| store::receipts::keep(tx, &day, name, &pdf))
                .await?;
            kept += 1;
        }
    }
    Ok(kept)
}

/// A receipt kept, for a list.
#[derive(Debug, Clone)]
pub struct Receipt {
    /// The day it covers.
    pub day: String,
    /// When it was fetched.
    pub fetched_at: String,
    /// Its size.
    pub bytes: i64,
    /// Its SHA-256.
    pub sha256: String,
}

/// The receipts kept from `from` to `to` (exclusive), newest first.
pub async fn list(
    svc: &Services,
    p: &Principal,
    (from, to): (Date, Date),
) -> AppResult<Vec<Receipt>> {
    p.require(Scope::Compliance)?;
    let rows = svc
        .db()
        .read(move |c| store::receipts::list(c, &from.0.to_string(), &to.0.to_string()))
        .await?;
    Ok(rows
        .into_iter()
        .map(|(day, _, sha256, fetched_at, bytes)| Receipt {
            day,
            fetched_at,
            bytes,
            sha256,
        })
        .collect())
}

/// `day`'s receipt (404 when none is kept).
pub async fn get(svc: &Services, p: &Principal, day: Date) -> AppResult<Vec<u8>> {
    p.require(Scope::Compliance)?;
    svc.db()
        .read(move |c| store::receipts::get(c, &day.0.to_string()))
        .await?
        .ok_or_else(|| AppError::not_found("registration receipt", &day.0.to_string()))
}

//! What a day close finds, inside its transaction: the day's figures, the cash drawer and
//! the checks, computed from the same reads as the reports so the certificate and the
//! reports can never disagree.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use rusqlite::Connection;

use crate::domain::day_close::{self, CheckName};
use crate::domain::report;
use crate::error::AppResult;
use crate::model::{CashCount, DayCheck, DayFigures, DayPending, PaymentTotal};
use crate::store;

/// The day in the property's clock: the day and its instants `[start, end)`.
pub struct Day {
    /// The property-local day.
    pub date: NaiveDate,
    /// Its first instant (UTC).
    pub start: String,
    /// The next day's first instant (UTC).
    pub end: String,
}

impl Day {
    /// `date` in `time_zone`.
    pub fn new(date: NaiveDate, time_zone: &str) -> Day {
        let (start, end) = crate::clock::day_bounds(date, time_zone);
        Day { date, start, end }
    }
}

/// The day's payments by method, and the cash among them (payments less refunds).
pub fn payments(conn: &Connection, day: &Day) -> AppResult<(Vec<PaymentTotal>, i64)> {
    let mut methods: BTreeMap<String, PaymentTotal> = BTreeMap::new();
    for (_, method, amount) in store::reports::payments(conn, &day.start, &day.end)? {
        methods
            .entry(method.clone())
            .or_insert_with(|| PaymentTotal::new(method))
            .add(amount);
    }
    let cash = methods.get("cash").map_or(0, |t| t.net);
    Ok((methods.into_values().collect(), cash))
}

/// The day's figures (its night's occupancy as the occupancy report counts it), with the
/// day's `payments` by method (read once by the caller, which also counts the cash).
pub fn figures(conn: &Connection, day: &Day, payments: Vec<PaymentTotal>) -> AppResult<DayFigures> {
    let next = day.date.succ_opt().unwrap_or(day.date);
    let sold = store::nights_sold::between(conn, &day.date.to_string(), &next.to_string())?;
    let rooms = store::reports::rooms(conn)?;
    let night = report::total(&report::nights(day.date, next, rooms, &sold));
    let (arrivals, departures, no_shows, in_house) = store::day_closes::counts(conn, day.date)?;
    let (invoices_issued, invoiced, credit_notes_issued, credited) =
        store::day_closes::issued(conn, day.date)?;
    Ok(DayFigures {
        rooms_available: night.rooms_available,
        rooms_sold: night.rooms_sold,
        room_revenue: night.room_revenue,
        adr: night.adr(),
        revpar: night.revpar(),
        occupancy_tenths: night.occupancy_tenths(),
        arrivals,
        departures,
        no_shows,
        in_house,
        invoices_issued,
        invoiced,
        credit_notes_issued,
        credited,
        payments,
    })
}

fn check(check: CheckName, faults: Vec<String>, fine: String) -> DayCheck {
    DayCheck {
        check,
        passed: faults.is_empty(),
        detail: if faults.is_empty() {
            fine
        } else {
            faults.join("; ")
        },
    }
}

/// Whether a submission is a guest registration (else a fiscal document).
fn registers(p: &DayPending) -> bool {
    use crate::domain::enums::SubmissionKind::*;
    matches!(p.kind, GuestRegistration | GuestDeparture | GuestWithdrawal)
}

/// Whether a submission is still on its way (not refused, not waiting for a person).
fn waits(p: &DayPending) -> bool {
    use crate::domain::enums::SubmissionStatus::*;
    matches!(p.status, Queued | Sending | Retrying | Unknown)
}

/// The checks, as the year in a box makes them: every night of the stays checked out that
/// day billed once, the books balanced, the numbering gapless, nothing at an authority
/// past its deadline or refused, the cash as recorded.
pub fn checks(
    conn: &Connection,
    day: &Day,
    pending: &[DayPending],
    cash: &CashCount,
) -> AppResult<Vec<DayCheck>> {
    let stays = store::day_closes::checked_out(conn, &day.start, &day.end)?;
    let books = store::day_closes::books(conn)?;
    let series = store::day_closes::series(conn)?;
    let stuck = |registration: bool| -> Vec<String> {
        pending
            .iter()
            .filter(|p| registers(p) == registration)
            .filter(|p| p.overdue || !waits(p))
            .map(|p| {
                format!(
                    "{} {} {}",
                    p.submission_id,
                    p.status,
                    if p.overdue { "past its deadline" } else { "" }
                )
                .trim_end()
                .to_string()
            })
            .collect()
    };
    let waiting = |registration: bool| {
        let n = pending
            .iter()
            .filter(|p| registers(p) == registration)
            .count();
        format!("none refused or late; {n} still inside the deadline")
    };
    let cash_faults = match cash.difference {
        Some(0) => Vec::new(),
        Some(d) => vec![format!(
            "counted {} against {} recorded: {d:+}",
            cash.counted.unwrap_or_default(),
            cash.recorded
        )],
        None => vec!["the cash was not counted".to_string()],
    };
    Ok(vec![
        check(
            CheckName::NightsBilledOnce,
            day_close::unbilled(&stays),
            format!("{} stays checked out, every night billed once", stays.len()),
        ),
        check(
            CheckName::MoneyBalances,
            books.faults(),
            format!(
                "invoiced {} - credited {} = paid {} + outstanding {}",
                books.invoiced, books.credited, books.paid, books.outstanding
            ),
        ),
        check(
            CheckName::NumberingGapless,
            day_close::gaps(&series),
            format!("{} series without a gap", series.len()),
        ),
        check(CheckName::RegistrationsAccepted, stuck(true), waiting(true)),
        check(
            CheckName::FiscalDocumentsSettled,
            stuck(false),
            waiting(false),
        ),
        check(
            CheckName::CashAgrees,
            cash_faults,
            format!("{} counted, as recorded", cash.recorded),
        ),
    ])
}

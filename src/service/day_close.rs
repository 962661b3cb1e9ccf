//! The day close (the night audit): the arrivals that did not come become no-shows with
//! their fee, the rooms in the house turn dirty, the cash counted is set against the cash
//! recorded, Italy's cash register closes its day, and a certificate of the day's figures
//! and checks is written, hash-chained to the day before. The day is then locked: nothing
//! changes the nights of a closed day. Scope `night_audit` (or `admin`).

use chrono::NaiveDate;
use poem_openapi::types::{ParseFromJSON, ToJSON};
use rusqlite::Connection;

use super::day_figures::{self, Day};
use crate::domain::day_close::{self, Link, NotNow};
use crate::domain::events::EventType;
use crate::domain::scopes::Scope;
use crate::error::{AppError, AppResult, FieldError};
use crate::model::{
    CashCount, Date, DayCertificate, DayClose, DayCloseInput, DayClosePlan, Instant, Principal,
};
use crate::refusal::DayRefusal;
use crate::service::{Page, PageRequest, Services, fail_on};
use crate::store::page::Position;
use crate::store::{self, day_closes::Named};

fn allowed(p: &Principal) -> AppResult<()> {
    p.require_either(Scope::NightAudit, Scope::Admin)
}

/// The day to close: `asked`, or the one after the last closed; refused unless it is over
/// and next in order.
fn resolve(conn: &Connection, today: NaiveDate, asked: Option<Date>) -> AppResult<NaiveDate> {
    let last = store::day_closes::last(conn)?.map(|(d, _)| d);
    let day = asked.map_or_else(|| day_close::next_day(today, last), |d| d.0);
    day_close::may_close(day, today, last).map_err(|e| match e {
        NotNow::NotOver => AppError::from(DayRefusal::NotOver { day }),
        NotNow::NotNext(next) => AppError::from(DayRefusal::NotNext { next }),
    })?;
    Ok(day)
}

/// Refuses a change of the nights `[arrival, departure)` (`before`: the stay as it was) that
/// touches a closed day: the nights up to the last day closed must stay as they were.
pub(crate) fn closed_nights_kept(
    conn: &Connection,
    before: Option<(NaiveDate, NaiveDate)>,
    after: (NaiveDate, NaiveDate),
) -> AppResult<()> {
    let Some((last, _)) = store::day_closes::last(conn)? else {
        return Ok(());
    };
    let open = last + chrono::Days::new(1);
    let closed = |(a, d): (NaiveDate, NaiveDate)| (a < open).then(|| (a, d.min(open)));
    if before.and_then(closed) != closed(after) {
        return Err(DayRefusal::Closed { last }.into());
    }
    Ok(())
}

/// `GET /v1/day-close`: what closing the next day would do now.
pub async fn plan(svc: &Services, p: &Principal) -> AppResult<DayClosePlan> {
    allowed(p)?;
    let clock = svc.db().clock().clone();
    svc.db()
        .read(move |c| {
            let settings = store::settings::get(c)?;
            let today = clock.today_in(&settings.time_zone);
            let last = store::day_closes::last(c)?.map(|(d, _)| d);
            let date = day_close::next_day(today, last);
            let day = Day::new(date, &settings.time_zone);
            Ok(DayClosePlan {
                date: Date(date),
                last_closed: last.map(Date),
                ready: day_close::may_close(date, today, last).is_ok(),
                currency: settings.currency,
                arrivals_waiting: store::day_closes::named(c, Named::Waiting, date)?,
                departures_open: store::day_closes::named(c, Named::Overdue, date)?,
                rooms_to_clean: store::day_closes::in_house_rooms(c)?
                    .into_iter()
                    .map(|(_, n)| n)
                    .collect(),
                cash_recorded: day_figures::payments(c, &day)?.1,
                pending: store::day_closes::pending(c, &day.end, &clock.now_text())?,
            })
        })
        .await
}

/// `POST /v1/day-close`: closes the day and returns its certificate.
pub async fn close(svc: &Services, p: &Principal, input: DayCloseInput) -> AppResult<DayClose> {
    allowed(p)?;
    let asked = input.date;
    let clock = svc.db().clock().clone();
    svc.db()
        .read(move |c| {
            let tz = store::settings::get(c)?.time_zone;
            resolve(c, clock.today_in(&tz), asked)
        })
        .await?;
    let fiscal = svc.compliance().fiscal.clone();
    let cash_register = if fiscal.name() == crate::compliance::rt::NAME {
        let said = tokio::task::spawn_blocking(move || fiscal.close_day())
            .await
            .map_err(|e| AppError::internal(format!("the daily closure stopped: {e}")))?;
        Some(said)
    } else {
        None
    };
    let actor = p.actor.clone();
    let c = svc.compliance().clone();
    svc.db()
        .write(move |tx| {
            let settings = store::settings::get(tx)?;
            let date = resolve(tx, tx.clock().today_in(&settings.time_zone), asked)?;
            let day = Day::new(date, &settings.time_zone);
            let waiting = store::day_closes::named(tx, Named::Waiting, date)?;
            let mut errs = Vec::new();
            let mut no_shows = Vec::new();
            let asked: Vec<String> = input
                .no_shows
                .iter()
                .flatten()
                .map(|i| i.0.clone())
                .collect();
            for (i, id) in asked.iter().enumerate() {
                match waiting.iter().find(|w| &w.reservation_id == id) {
                    Some(w)
                        if !no_shows
                            .iter()
                            .any(|n: &crate::model::DayReservation| &n.reservation_id == id) =>
                    {
                        no_shows.push(w.clone())
                    }
                    Some(_) => {}
                    None => errs.push(
                        FieldError::new(
                            format!("no_shows[{i}]"),
                            "not_waiting",
                            format!("{id} is not a confirmed arrival of {date}"),
                        )
                        .said(
                            "problem-not-waiting",
                            vec![("date", crate::domain::said::Value::Day(date))],
                        ),
                    ),
                }
            }
            fail_on(errs)?;
            for n in &mut no_shows {
                let old = store::reservations::get(tx, &n.reservation_id)?
                    .ok_or_else(|| AppError::not_found("reservation", &n.reservation_id))?;
                n.fee = Some(crate::service::reservations::no_show_in(tx, &actor, &c, &old)?.1);
            }
            let now = Instant(tx.now_text());
            let mut rooms_dirty = Vec::new();
            for (id, number) in store::day_closes::in_house_rooms(tx)? {
                crate::service::stays::mark_dirty(tx, &id, &now)?;
                rooms_dirty.push(number);
            }
            let (by_method, recorded) = day_figures::payments(tx, &day)?;
            let counted = input.cash_counted.map(i64::from);
            let cash = CashCount {
                recorded,
                counted,
                difference: counted.map(|c| c - recorded),
            };
            let pending = store::day_closes::pending(tx, &day.end, &now.0)?;
            let cash_register = match cash_register {
                Some(Ok(said)) => {
                    store::calendar::register_closed(tx, &date.to_string(), &said)?;
                    Some(said)
                }
                Some(Err(why)) => Some(format!("not closed: {why}")),
                None => None,
            };
            let certificate = DayCertificate {
                date: Date(date),
                currency: settings.currency,
                closed_at: now,
                closed_by: actor.name.clone(),
                figures: day_figures::figures(tx, &day, by_method)?,
                checks: day_figures::checks(tx, &day, &pending, &cash)?,
                cash,
                arrivals_kept: waiting
                    .into_iter()
                    .filter(|w| {
                        !no_shows
                            .iter()
                            .any(|n| n.reservation_id == w.reservation_id)
                    })
                    .collect(),
                no_shows,
                departures_open: store::day_closes::named(tx, Named::Overdue, date)?,
                rooms_dirty,
                pending,
                cash_register,
                note: input.note.map(|n| n.0).filter(|n| !n.trim().is_empty()),
                previous_hash: store::day_closes::last(tx)?.map(|(_, h)| h),
            };
            let body = certificate.to_json().unwrap_or_default().to_string();
            let closed = DayClose {
                id: crate::ids::new("day"),
                hash: day_close::seal(&body),
                created_at: certificate.closed_at.clone(),
                updated_at: certificate.closed_at.clone(),
                version: 1,
                certificate,
                verified: true,
            };
            store::day_closes::insert(tx, &closed.id, date, &body, &closed.hash)?;
            let data = closed.to_json().unwrap_or_default();
            store::events::record(tx, &actor, EventType::DayClosed, &closed.id, &data)?;
            Ok(closed)
        })
        .await
}

/// Closed days, oldest first, a page at a time (each flagged with whether the chain up to it
/// verifies, which reads the whole chain: a day a year is a few hundred rows).
pub async fn list(svc: &Services, p: &Principal, req: PageRequest) -> AppResult<Page<DayClose>> {
    allowed(p)?;
    svc.db()
        .read(move |c| {
            let as_of = match req.as_of {
                Some(a) => a,
                None => crate::store::page::current_as_of(c)?,
            };
            let after = req.after.as_ref().map(|a| a.key.clone());
            let mut items: Vec<(DayClose, Position)> = read_chain(store::day_closes::chain(c)?)?
                .into_iter()
                .rev()
                .map(|d| {
                    let key = d.certificate.date.0.to_string();
                    let id = d.id.clone();
                    (d, Position { key, id })
                })
                .filter(|(_, p)| after.as_ref().is_none_or(|a| &p.key > a))
                .take(req.limit + 1)
                .collect();
            let more = items.len() > req.limit;
            items.truncate(req.limit);
            Ok(Page { items, as_of, more })
        })
        .await
}

/// One closed day (404 when the day is not closed).
pub async fn get(svc: &Services, p: &Principal, date: Date) -> AppResult<DayClose> {
    allowed(p)?;
    svc.db()
        .read(move |c| {
            read_chain(store::day_closes::chain(c)?)?
                .into_iter()
                .find(|d| d.certificate.date == date)
                .ok_or_else(|| AppError::not_found("day close", &date.0.to_string()))
        })
        .await
}

/// The stored chain read back, newest first: each certificate parsed, each flagged with
/// whether every link up to it verifies.
fn read_chain(stored: Vec<store::day_closes::Stored>) -> AppResult<Vec<DayClose>> {
    let mut parsed = Vec::with_capacity(stored.len());
    for (id, date, body, hash) in stored {
        let value: serde_json::Value = serde_json::from_str(&body)
            .map_err(|e| AppError::internal(format!("day certificate {}: {e}", date.0)))?;
        let certificate = DayCertificate::parse_from_json(Some(value)).map_err(|e| {
            AppError::internal(format!("day certificate {}: {}", date.0, e.message()))
        })?;
        parsed.push((id, body, hash, certificate));
    }
    let links: Vec<Link<'_>> = parsed
        .iter()
        .map(|(_, body, hash, c)| Link {
            day: c.date.0,
            previous: c.previous_hash.as_deref(),
            hash,
            body,
        })
        .collect();
    let broken = day_close::broken(&links);
    let mut out: Vec<DayClose> = parsed
        .into_iter()
        .map(|(id, _, hash, certificate)| DayClose {
            id,
            verified: broken.is_none_or(|b| certificate.date.0 < b),
            created_at: certificate.closed_at.clone(),
            updated_at: certificate.closed_at.clone(),
            version: 1,
            certificate,
            hash,
        })
        .collect();
    out.reverse();
    Ok(out)
}

/// The first closed day whose certificate does not verify (for `innkeep doctor`).
pub fn first_broken(conn: &Connection) -> AppResult<Option<NaiveDate>> {
    Ok(read_chain(store::day_closes::chain(conn)?)?
        .into_iter()
        .filter(|d| !d.verified)
        .map(|d| d.certificate.date.0)
        .min())
}

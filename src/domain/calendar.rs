//! The compliance calendar's rules: every statutory duty of a property over a range of
//! days, its deadline and its state, from what innkeep sent and what the authorities
//! answered (registrations, receipts, e-invoices and their payment reports, by the day
//! they were due), the cash register's daily closures, the fiscal certificate's expiry,
//! and in Italy the duties innkeep does not file itself (the ISTAT monthly movement, the
//! city-tax return), listed with their dates so that none is forgotten.

use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};

string_enum! {
    /// A statutory duty.
    pub enum Duty {
        /// Guests registered with the police or the tourist board (within 24 h).
        GuestRegistration = "guest_registration",
        /// Guests' departures reported (Croatia).
        GuestDeparture = "guest_departure",
        /// Registrations withdrawn after an undone check-in (Croatia).
        GuestWithdrawal = "guest_withdrawal",
        /// Fiscal receipts (Croatia: within their window).
        FiscalReceipt = "fiscal_receipt",
        /// Changes of an issued receipt's payment method (Croatia).
        FiscalPaymentChange = "fiscal_payment_change",
        /// E-invoices sent through the intermediary.
        Einvoice = "einvoice",
        /// E-invoices' payments reported (Croatia: by the 20th of the next month).
        EinvoicePayments = "einvoice_payments",
        /// The telematic cash register's daily closure (Italy).
        CashRegisterClosure = "cash_register_closure",
        /// The monthly ISTAT C/59 movement of guests, through the regional platform (Italy).
        IstatMovement = "istat_movement",
        /// The annual city-tax return of the year before (Italy: by 30 June).
        CityTaxReturn = "city_tax_return",
        /// The fiscal certificate renewed before it expires.
        CertificateRenewal = "certificate_renewal",
    }
}

string_enum! {
    /// Where a duty stands.
    pub enum DutyState {
        /// Done, with its proof.
        Done = "done",
        /// On its way, inside its deadline.
        Pending = "pending",
        /// Past its deadline and not done.
        Overdue = "overdue",
        /// An authority refused it: someone must correct and send again.
        Refused = "refused",
        /// Not due yet.
        Upcoming = "upcoming",
        /// Filed by the hotel outside innkeep: listed with its date, innkeep cannot prove it.
        Manual = "manual",
    }
}

/// One duty on the calendar (`count` things of one kind due on one day, or one filing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    /// Which.
    pub duty: Duty,
    /// The day, month (`2026-11`) or year it covers.
    pub period: String,
    /// The deadline, a property-local day.
    pub due: NaiveDate,
    /// Where it stands.
    pub state: DutyState,
    /// How many things it covers, and how many are done.
    pub count: i64,
    /// Of those, accepted.
    pub done: i64,
}

/// A submission as the calendar reads it: its duty, its deadline's local day, its status
/// (as stored: `accepted`, `rejected`, `manual_required`, or on its way) and whether its
/// deadline has passed.
pub struct Sent<'a> {
    /// The duty it fulfils.
    pub duty: Duty,
    /// The deadline's local day.
    pub due: NaiveDate,
    /// Its status.
    pub status: &'a str,
    /// Whether the deadline has passed.
    pub late: bool,
}

/// The submissions grouped by duty and deadline day, each group's state its worst
/// member's: refused, then overdue, then pending, else done.
pub fn submitted(sent: &[Sent<'_>]) -> Vec<Due> {
    let mut groups: BTreeMap<(NaiveDate, Duty), (i64, i64, DutyState)> = BTreeMap::new();
    for s in sent {
        let state = match s.status {
            "accepted" => DutyState::Done,
            "rejected" | "manual_required" => DutyState::Refused,
            _ if s.late => DutyState::Overdue,
            _ => DutyState::Pending,
        };
        let g = groups
            .entry((s.due, s.duty))
            .or_insert((0, 0, DutyState::Done));
        g.0 += 1;
        g.1 += i64::from(state == DutyState::Done);
        if rank(state) > rank(g.2) {
            g.2 = state;
        }
    }
    groups
        .into_iter()
        .map(|((due, duty), (count, done, state))| Due {
            duty,
            period: due.to_string(),
            due,
            state,
            count,
            done,
        })
        .collect()
}

fn rank(s: DutyState) -> u8 {
    match s {
        DutyState::Done | DutyState::Upcoming | DutyState::Manual => 0,
        DutyState::Pending => 1,
        DutyState::Overdue => 2,
        DutyState::Refused => 3,
    }
}

/// The first day of the month after `d`'s.
fn next_month(d: NaiveDate) -> NaiveDate {
    let first = d.with_day(1).unwrap_or(d);
    first
        .checked_add_months(chrono::Months::new(1))
        .unwrap_or(first)
}

/// The day of the month the ISTAT movement of a month is due, in the next month.
/// UNVERIFIED: the regional platforms set their own day (most ask for the month by the 5th
/// or the 10th of the next; some want the data daily). innkeep says the 5th, the earliest
/// we found, so that no region's deadline passes unseen; change it here.
pub const ISTAT_DAY: u32 = 5;

/// Italy's duties innkeep does not file, over `[from, to)`: the ISTAT movement of each
/// month (due on [`ISTAT_DAY`] of the next) and the city-tax return of each year (due 30
/// June of the next, as the decree of the Ministry of Economy of 29 April 2022 sets), each
/// listed where its deadline falls in the range.
pub fn italian_filings(from: NaiveDate, to: NaiveDate, today: NaiveDate) -> Vec<Due> {
    let mut out = Vec::new();
    let mut month = from.with_day(1).unwrap_or(from);
    // The month before `from` is due inside the range.
    month = month
        .checked_sub_months(chrono::Months::new(1))
        .unwrap_or(month);
    while month < to {
        let due = next_month(month).with_day(ISTAT_DAY).unwrap_or(month);
        if due >= from && due < to {
            out.push(filing(
                Duty::IstatMovement,
                format!("{}", month.format("%Y-%m")),
                due,
                today,
            ));
        }
        month = next_month(month);
    }
    for year in from.year() - 1..=to.year() {
        if let Some(due) = NaiveDate::from_ymd_opt(year + 1, 6, 30)
            && due >= from
            && due < to
        {
            out.push(filing(Duty::CityTaxReturn, year.to_string(), due, today));
        }
    }
    out
}

fn filing(duty: Duty, period: String, due: NaiveDate, today: NaiveDate) -> Due {
    Due {
        duty,
        period,
        due,
        state: if due < today {
            DutyState::Manual
        } else {
            DutyState::Upcoming
        },
        count: 1,
        done: 0,
    }
}

/// The cash register's closure of each day of `[from, to)` before `today`: done where a
/// day close recorded the register's closure (`closed`), else pending on the day itself
/// and overdue after it.
pub fn closures(
    from: NaiveDate,
    to: NaiveDate,
    today: NaiveDate,
    closed: &[NaiveDate],
) -> Vec<Due> {
    from.iter_days()
        .take_while(|d| *d < to && *d <= today)
        .map(|d| {
            let done = closed.contains(&d);
            Due {
                duty: Duty::CashRegisterClosure,
                period: d.to_string(),
                due: d,
                state: match (done, d < today) {
                    (true, _) => DutyState::Done,
                    (false, true) => DutyState::Overdue,
                    (false, false) => DutyState::Pending,
                },
                count: 1,
                done: i64::from(done),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn submissions_group_by_day_and_duty_with_the_worst_state() {
        let sent = [
            Sent {
                duty: Duty::GuestRegistration,
                due: d("2026-11-02"),
                status: "accepted",
                late: true,
            },
            Sent {
                duty: Duty::GuestRegistration,
                due: d("2026-11-02"),
                status: "rejected",
                late: true,
            },
            Sent {
                duty: Duty::FiscalReceipt,
                due: d("2026-11-02"),
                status: "retrying",
                late: false,
            },
            Sent {
                duty: Duty::FiscalReceipt,
                due: d("2026-11-01"),
                status: "queued",
                late: true,
            },
        ];
        let got = submitted(&sent);
        assert_eq!(got.len(), 3);
        assert_eq!(
            (got[0].duty, got[0].state),
            (Duty::FiscalReceipt, DutyState::Overdue)
        );
        assert_eq!(
            (got[1].duty, got[1].state, got[1].count, got[1].done),
            (Duty::GuestRegistration, DutyState::Refused, 2, 1)
        );
        assert_eq!(got[2].state, DutyState::Pending);
    }

    #[test]
    fn italian_filings_fall_where_their_deadlines_do() {
        let got = italian_filings(d("2026-06-01"), d("2026-08-01"), d("2026-07-03"));
        let names: Vec<(Duty, &str, NaiveDate, DutyState)> = got
            .iter()
            .map(|x| (x.duty, x.period.as_str(), x.due, x.state))
            .collect();
        assert_eq!(
            names,
            [
                (
                    Duty::IstatMovement,
                    "2026-05",
                    d("2026-06-05"),
                    DutyState::Manual
                ),
                (
                    Duty::IstatMovement,
                    "2026-06",
                    d("2026-07-05"),
                    DutyState::Upcoming
                ),
                (
                    Duty::CityTaxReturn,
                    "2025",
                    d("2026-06-30"),
                    DutyState::Manual
                ),
            ]
        );
    }

    #[test]
    fn closures_are_done_where_a_day_close_recorded_them() {
        let got = closures(
            d("2026-11-01"),
            d("2026-12-01"),
            d("2026-11-03"),
            &[d("2026-11-01")],
        );
        let states: Vec<DutyState> = got.iter().map(|x| x.state).collect();
        assert_eq!(
            states,
            [DutyState::Done, DutyState::Overdue, DutyState::Pending]
        );
    }
}

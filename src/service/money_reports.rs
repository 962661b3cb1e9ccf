//! The money reports: revenue invoiced by department and VAT rate, and payments by day and
//! method (the cash drawer). Each reads in one read transaction over at most a year.

use std::collections::BTreeMap;

use crate::domain::scopes::Scope;
use crate::error::AppResult;
use crate::model::{
    Amounts, Date, DepartmentRevenue, PaymentDay, PaymentTotal, PaymentsReport, Principal,
    RevenueReport, VatRevenue,
};
use crate::service::Services;
use crate::service::reports::check_range;
use crate::store;

fn add(a: &mut Amounts, (net, tax, gross): (i64, i64, i64)) {
    a.net += net;
    a.tax += tax;
    a.gross += gross;
}

/// The department of an invoice line of `kind`, its extra's code when it has one.
fn department(kind: &str, extra: Option<&str>) -> String {
    match (kind, extra) {
        ("accommodation", _) => "rooms".into(),
        ("city_tax", _) => "city_tax".into(),
        ("advance", _) => "advances".into(),
        (_, Some(code)) => format!("extra:{code}"),
        _ => "other".into(),
    }
}

/// Rooms first, then the city tax, the extras by code, other charges, advances.
fn order(d: &str) -> (u8, &str) {
    match d {
        "rooms" => (0, d),
        "city_tax" => (1, d),
        "other" => (3, d),
        "advances" => (4, d),
        _ => (2, d),
    }
}

/// Revenue invoiced from `from` to `to` (issue dates, exclusive).
pub async fn revenue(
    svc: &Services,
    p: &Principal,
    (from, to): (Date, Date),
) -> AppResult<RevenueReport> {
    p.require(Scope::ReportsRead)?;
    check_range(from.0, to.0)?;
    let (lines, currency) = svc
        .db()
        .read(move |c| {
            let lines = store::reports::revenue_lines(c, &from.0.to_string(), &to.0.to_string())?;
            Ok((lines, store::settings::get(c)?.currency))
        })
        .await?;
    let mut departments: BTreeMap<String, (Option<String>, Amounts)> = BTreeMap::new();
    let mut vat: BTreeMap<i64, Amounts> = BTreeMap::new();
    let mut total = Amounts::default();
    for (kind, code, name, rate, net, tax, gross) in lines {
        let d = departments
            .entry(department(&kind, code.as_deref()))
            .or_insert_with(|| (name.clone(), Amounts::default()));
        add(&mut d.1, (net, tax, gross));
        add(vat.entry(rate).or_default(), (net, tax, gross));
        add(&mut total, (net, tax, gross));
    }
    let mut departments: Vec<DepartmentRevenue> = departments
        .into_iter()
        .map(|(department, (name, amounts))| DepartmentRevenue {
            name: name.filter(|_| department.starts_with("extra:")),
            department,
            amounts,
        })
        .collect();
    departments.sort_by(|a, b| order(&a.department).cmp(&order(&b.department)));
    Ok(RevenueReport {
        from,
        to,
        currency,
        departments,
        vat: vat
            .into_iter()
            .map(|(tax_rate, amounts)| VatRevenue { tax_rate, amounts })
            .collect(),
        total,
    })
}

/// The instants (UTC) a day before `from` and a day after `to`: every instant of the
/// property-local days between lies inside, whatever the time zone.
fn widened((from, to): (Date, Date)) -> (String, String) {
    let wide = |d: chrono::NaiveDate| format!("{d}T00:00:00Z");
    (
        wide(from.0 - chrono::Days::new(1)),
        wide(to.0 + chrono::Days::new(1)),
    )
}

/// What `read` finds between the instants a day either side of `from` and `to` (UTC; the
/// caller places each on its property-local day), and the settings.
async fn around<T: Send + 'static>(
    svc: &Services,
    (from, to): (Date, Date),
    read: fn(&rusqlite::Connection, &str, &str) -> AppResult<Vec<T>>,
) -> AppResult<(Vec<T>, crate::model::Settings)> {
    svc.db()
        .read(move |c| {
            let (wide_from, wide_to) = widened((from, to));
            let found = read(c, &wide_from, &wide_to)?;
            Ok((found, store::settings::get(c)?))
        })
        .await
}

/// Payments and refunds recorded from `from` to `to` (property-local days, exclusive).
pub async fn payments(
    svc: &Services,
    p: &Principal,
    (from, to): (Date, Date),
) -> AppResult<PaymentsReport> {
    p.require(Scope::ReportsRead)?;
    check_range(from.0, to.0)?;
    let (rows, settings) = around(svc, (from, to), store::reports::payments).await?;
    let mut days: BTreeMap<(chrono::NaiveDate, String), PaymentDay> = BTreeMap::new();
    let mut methods: BTreeMap<String, PaymentTotal> = BTreeMap::new();
    for (at, method, amount) in rows {
        let Some((day, _)) = crate::clock::local_time(&at, &settings.time_zone) else {
            continue;
        };
        if day < from.0 || day >= to.0 {
            continue;
        }
        days.entry((day, method.clone()))
            .or_insert_with(|| PaymentDay {
                date: Date(day),
                taken: PaymentTotal::new(method.clone()),
            })
            .taken
            .add(amount);
        methods
            .entry(method.clone())
            .or_insert_with(|| PaymentTotal::new(method))
            .add(amount);
    }
    Ok(PaymentsReport {
        from,
        to,
        currency: settings.currency,
        days: days.into_values().collect(),
        methods: methods.into_values().collect(),
    })
}

/// The bookings made from `from` to `to` (property-local days, exclusive), by source and
/// booking site, with cancellations, no-shows, nights, room revenue and lead time: read
/// from their running totals, a row a day and source (`store::bookings_made`).
pub async fn bookings(
    svc: &Services,
    p: &Principal,
    (from, to): (Date, Date),
) -> AppResult<crate::model::BookingsReport> {
    p.require(Scope::ReportsRead)?;
    check_range(from.0, to.0)?;
    let (rows, currency) = svc
        .db()
        .read(move |c| {
            let (first, next) = (from.0.to_string(), to.0.to_string());
            let rows = store::bookings_made::between(c, &first, &next)?;
            Ok((rows, store::settings::get(c)?.currency))
        })
        .await?;
    Ok(crate::model::BookingsReport {
        from,
        to,
        currency,
        rows: rows
            .into_iter()
            .map(
                |(source, channel, [made, cancelled, no_shows, nights, revenue, lead])| {
                    crate::model::BookingsRow {
                        source,
                        channel,
                        bookings: made,
                        cancelled,
                        no_shows,
                        nights,
                        room_revenue: revenue,
                        lead_time_days: (lead * 10 / made.max(1)) as f64 / 10.0,
                    }
                },
            )
            .collect(),
    })
}

/// `r` as CSV: a row per department, then per VAT rate, then the total (`section`,
/// `key`, net, VAT, gross in major units).
pub fn revenue_csv(r: &RevenueReport) -> String {
    let m = crate::domain::money::format_amount;
    let mut out = String::from("section,key,net,tax,gross,currency\r\n");
    let mut row = |section: &str, key: &str, a: &Amounts| {
        out.push_str(&format!(
            "{section},{key},{},{},{},{}\r\n",
            m(a.net),
            m(a.tax),
            m(a.gross),
            r.currency
        ));
    };
    for d in &r.departments {
        row("department", &d.department, &d.amounts);
    }
    for v in &r.vat {
        row("vat", &v.tax_rate.to_string(), &v.amounts);
    }
    row("total", "", &r.total);
    out
}

/// `r` as CSV: a row per day and method, then each method's total (day `total`).
pub fn payments_csv(r: &PaymentsReport) -> String {
    let m = crate::domain::money::format_amount;
    let mut out = String::from("date,method,received,refunded,net,count,currency\r\n");
    let rows = r
        .days
        .iter()
        .map(|d| (d.date.0.to_string(), &d.taken))
        .chain(r.methods.iter().map(|t| ("total".to_string(), t)));
    for (date, t) in rows {
        out.push_str(&format!(
            "{date},{},{},{},{},{},{}\r\n",
            t.method,
            m(t.received),
            m(t.refunded),
            m(t.net),
            t.count,
            r.currency
        ));
    }
    out
}

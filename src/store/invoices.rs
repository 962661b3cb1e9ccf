//! Invoices, their lines, number series and payments. List order: issue date, number.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row};

use super::nested_text;
use super::page::{self, ListQuery, Position};
use crate::db::Tx;
use crate::domain::enums::{InvoiceStatus, LineKind};
use crate::error::{AppError, AppResult};
use crate::model::{Date, Invoice, InvoiceLine, Payment, Totals, tax_breakdown};

const LINES: &str = ", (SELECT json_group_array(json_array(position, description, quantity, unit_price, \
    tax_rate, net_amount, tax_amount, gross_amount, service_date, kind, kpd_code)) FROM (SELECT * FROM invoice_lines \
    WHERE invoice_id = t.id ORDER BY position)) AS lines_json";

type LineRow = (
    i64,
    String,
    i64,
    i64,
    i64,
    i64,
    i64,
    i64,
    Option<String>,
    String,
    Option<String>,
);

fn map(row: &Row) -> rusqlite::Result<Invoice> {
    let r = super::Named::new(row);
    let text: String = r.get("lines_json")?;
    let rows: Vec<LineRow> = serde_json::from_str(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    })?;
    let lines: Vec<InvoiceLine> = rows
        .into_iter()
        .map(
            |(
                position,
                description,
                quantity,
                unit_price,
                tax_rate,
                net,
                tax,
                gross,
                date,
                kind,
                kpd,
            )| {
                InvoiceLine {
                    position,
                    description,
                    quantity,
                    unit_price,
                    tax_rate,
                    net_amount: net,
                    tax_amount: tax,
                    gross_amount: gross,
                    service_date: date.and_then(|d| Date::parse(&d).ok()),
                    kind: LineKind::parse(&kind).unwrap_or(LineKind::Charge),
                    kpd_code: kpd,
                }
            },
        )
        .collect();
    let missing = |what: &str| rusqlite::Error::InvalidColumnName(what.to_string());
    Ok(Invoice {
        id: r.get("id")?,
        number: r.get("number")?,
        series: r.get("series")?,
        kind: r.get("kind")?,
        status: r.get("status")?,
        reservation_id: r.get("reservation_id")?,
        guest_id: r.get("guest_id")?,
        bill_to: r.nested("bill_to")?.ok_or_else(|| missing("bill_to"))?,
        seller: r.nested("seller")?,
        issue_date: r.get("issue_date")?,
        issued_at: r.get("created_at")?,
        operator_mark: r.get("operator_mark")?,
        currency: r.get("currency")?,
        payment_method: r.get("payment_method")?,
        totals: Totals {
            net: r.get("net")?,
            tax: r.get("tax")?,
            gross: r.get("gross")?,
        },
        tax_breakdown: tax_breakdown(&lines),
        lines,
        corrects_invoice_id: r.get("corrects_invoice_id")?,
        reissues_invoice_id: r.get("reissues_invoice_id")?,
        reason: r.get("reason")?,
        paid_amount: r.get("paid_amount")?,
        fiscal: r.nested("fiscal")?.ok_or_else(|| missing("fiscal"))?,
        version: r.get("version")?,
        created_at: r.get("created_at")?,
        updated_at: r.get("updated_at")?,
    })
}

/// The next number of a series (1, 2, 3, ...), inside the issuing transaction: if that
/// transaction rolls back, so does the increment, and no number is skipped.
pub fn next_seq(tx: &Tx, series: &str) -> AppResult<i64> {
    Ok(tx
        .prepare_cached(
            "INSERT INTO invoice_series (series, last_seq) VALUES (?1, 1)
             ON CONFLICT (series) DO UPDATE SET last_seq = last_seq + 1 RETURNING last_seq",
        )?
        .query_row([series], |r| r.get(0))?)
}

/// Whether a corrected invoice already replaces the invoice `id`.
pub fn reissued(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM invoices WHERE reissues_invoice_id = ?1")?
        .query_row([id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// One invoice with its lines.
pub fn get(conn: &Connection, id: &str) -> AppResult<Option<Invoice>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT t.*{LINES} FROM invoices t WHERE t.id = ?1"
        ))?
        .query_row([id], map)
        .optional()?)
}

/// Stores a new invoice and its lines; `charges[i]` is the folio charge line `i` bills.
pub fn insert(tx: &Tx, inv: &Invoice, seq: i64, charges: &[Option<String>]) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO invoices (id, series, seq, number, kind, status, reservation_id, guest_id, bill_to,
             issue_date, currency, payment_method, net, tax, gross, paid_amount, corrects_invoice_id,
             reason, fiscal, version, created_at, updated_at, seller, operator_mark, reissues_invoice_id)
         VALUES (:id, :series, :seq, :number, :kind, :status, :reservation_id, :guest_id, :bill_to,
             :issue_date, :currency, :payment_method, :net, :tax, :gross, :paid_amount,
             :corrects_invoice_id, :reason, :fiscal, :version, :created_at, :updated_at, :seller,
             :operator_mark, :reissues_invoice_id)",
    )?
    .execute(rusqlite::named_params! {
        ":id": &inv.id, ":series": &inv.series, ":seq": seq, ":number": &inv.number,
        ":kind": inv.kind, ":status": inv.status, ":reservation_id": &inv.reservation_id,
        ":guest_id": &inv.guest_id, ":bill_to": nested_text(&Some(inv.bill_to.clone())),
        ":issue_date": inv.issue_date, ":currency": &inv.currency, ":payment_method": inv.payment_method,
        ":net": inv.totals.net, ":tax": inv.totals.tax, ":gross": inv.totals.gross,
        ":paid_amount": inv.paid_amount, ":corrects_invoice_id": &inv.corrects_invoice_id,
        ":reason": &inv.reason, ":fiscal": nested_text(&Some(inv.fiscal.clone())),
        ":version": inv.version, ":created_at": &inv.created_at.0, ":updated_at": &inv.updated_at.0,
        ":seller": nested_text(&inv.seller), ":operator_mark": &inv.operator_mark,
        ":reissues_invoice_id": &inv.reissues_invoice_id,
    })?;
    let mut stmt = tx.prepare_cached(
        "INSERT INTO invoice_lines (invoice_id, position, description, quantity, unit_price, tax_rate,
             net_amount, tax_amount, gross_amount, service_date, charge_id, kind, kpd_code)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?;
    for (l, charge) in inv
        .lines
        .iter()
        .zip(charges.iter().chain(std::iter::repeat(&None)))
    {
        stmt.execute(rusqlite::params![
            &inv.id,
            l.position,
            &l.description,
            l.quantity,
            l.unit_price,
            l.tax_rate,
            l.net_amount,
            l.tax_amount,
            l.gross_amount,
            l.service_date,
            charge,
            l.kind.as_str(),
            &l.kpd_code,
        ])?;
    }
    Ok(())
}

/// Changes what may change on an issued invoice: status, paid amount, payment method (the
/// law's change of payment method), fiscal record, version.
pub fn update_state(tx: &Tx, inv: &Invoice) -> AppResult<()> {
    let n = tx
        .prepare_cached(
            "UPDATE invoices SET status = ?2, paid_amount = ?3, version = ?4, updated_at = ?5,
                 fiscal = ?6, payment_method = ?7
             WHERE id = ?1",
        )?
        .execute((
            &inv.id,
            inv.status,
            inv.paid_amount,
            inv.version,
            &inv.updated_at.0,
            nested_text(&Some(inv.fiscal.clone())),
            inv.payment_method,
        ))?;
    if n == 1 {
        Ok(())
    } else {
        Err(AppError::internal(format!("invoice {} vanished", inv.id)))
    }
}

/// Records a payment.
pub fn insert_payment(tx: &Tx, p: &Payment) -> AppResult<()> {
    tx.prepare_cached(
        "INSERT INTO payments (id, invoice_id, amount, kind, method, reference, paid_at,
             created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
    )?
    .execute((
        &p.id,
        &p.invoice_id,
        p.amount,
        p.kind,
        p.method,
        &p.reference,
        &p.paid_at.0,
    ))?;
    Ok(())
}

/// Invoice list filters.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct InvoiceFilter {
    /// Issued on or after.
    pub issued_from: Option<Date>,
    /// Issued on or before.
    pub issued_to: Option<Date>,
    /// Any of these statuses.
    pub status: Vec<InvoiceStatus>,
    /// For this guest.
    pub guest_id: Option<String>,
    /// For this reservation.
    pub reservation_id: Option<String>,
}

/// A page of invoices.
pub fn list(
    conn: &Connection,
    f: &InvoiceFilter,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Invoice, Position)>> {
    let mut q = ListQuery::new("invoice", "invoices", "sort_key");
    q.extra_columns = LINES;
    filtered(&mut q, f);
    page::fetch(conn, &q, after, as_of, limit, map)
}

/// An invoice as a list of them shows it: no lines, parties or fiscal particulars.
#[derive(Debug, Clone)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// Its number.
    pub number: String,
    /// Invoice or credit note.
    pub kind: crate::domain::enums::InvoiceKind,
    /// Its date.
    pub issue_date: Date,
    /// The name it is addressed to.
    pub bill_to: String,
    /// Its status.
    pub status: InvoiceStatus,
    /// Its gross total, minor units.
    pub gross: i64,
    /// Paid so far, minor units.
    pub paid_amount: i64,
    /// ISO 4217.
    pub currency: String,
}

/// A page of invoices as a list shows them ([`Listed`]): the same invoices, order and
/// positions as [`list`], reading only what the list shows (reading every invoice whole,
/// its lines and its parties' particulars, was most of the desk's invoices page).
pub fn listed(
    conn: &Connection,
    f: &InvoiceFilter,
    after: Option<&Position>,
    as_of: i64,
    limit: usize,
) -> AppResult<Vec<(Listed, Position)>> {
    let mut q = ListQuery::new("invoice", "invoices", "sort_key");
    q.columns = "t.id, t.number, t.kind, t.issue_date, json_extract(t.bill_to, '$.name') \
                 AS bill_to_name, t.status, t.gross, t.paid_amount, t.currency";
    filtered(&mut q, f);
    page::fetch(conn, &q, after, as_of, limit, |r| {
        Ok(Listed {
            id: r.get(0)?,
            number: r.get(1)?,
            kind: r.get(2)?,
            issue_date: r.get(3)?,
            bill_to: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
            status: r.get(5)?,
            gross: r.get(6)?,
            paid_amount: r.get(7)?,
            currency: r.get(8)?,
        })
    })
}

/// Adds the conditions of `f` to `q`.
fn filtered(q: &mut ListQuery, f: &InvoiceFilter) {
    if let Some(d) = f.issued_from {
        q.filter("t.issue_date >= ?", [Value::Text(d.to_string())]);
    }
    if let Some(d) = f.issued_to {
        q.filter("t.issue_date <= ?", [Value::Text(d.to_string())]);
    }
    match f.status.as_slice() {
        [] => {}
        [one] => q.filter("t.status = ?", [Value::Text(one.as_str().into())]),
        many => q.filter(
            format!("+t.status IN ({})", vec!["?"; many.len()].join(", ")),
            many.iter().map(|s| Value::Text(s.as_str().into())),
        ),
    }
    if let Some(g) = &f.guest_id {
        q.filter("t.guest_id = ?", [Value::Text(g.clone())]);
    }
    if let Some(r) = &f.reservation_id {
        q.filter("t.reservation_id = ?", [Value::Text(r.clone())]);
    }
}

//! The checks at the end of the year, on what the server answers (its lists), what the
//! simulated authorities received and what the webhook receiver got, against what the run
//! did: every night sold invoiced exactly once at its plan's price for the night, extras and
//! city tax billed once, each deposit invoiced as an advance and deducted or given back, the
//! money
//! balancing to the cent, gapless invoice and receipt numbers, every receipt fiscalized,
//! every check-in registered, every event delivered.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::NaiveDate;
use serde_json::Value;

use crate::api::gross;
use crate::hotel::CITY_TAX;
use crate::run::{State, Stay};

/// What the books say, and what does not add up.
#[derive(Debug, Default)]
pub struct Books {
    pub nights_sold: i64,
    pub invoices: usize,
    pub credit_notes: usize,
    pub invoiced: i64,
    pub credited: i64,
    pub paid: i64,
    /// Cancellation and no-show fees the plans charged.
    pub fees: i64,
    /// Deposits paid at booking.
    pub deposits: i64,
    pub outstanding: i64,
    pub series: BTreeMap<String, usize>,
    /// Invoices outside the fiscal system (bank transfers), and receipts fiscalized.
    pub outside_fiscal: usize,
    pub receipts: usize,
    /// E-invoices delivered and fiscalized, and their payments reported.
    pub einvoices: usize,
    /// Italy: the cash register's daily closures, each equal to the day's takings.
    pub closures: usize,
    pub payments_reported: usize,
    pub payments_waiting: usize,
    pub failures: Vec<String>,
}

impl Books {
    pub fn fail(&mut self, what: String) {
        if self.failures.len() < 50 {
            self.failures.push(what);
        }
    }
}

/// One accommodation line: nights, from, to, price of each.
type Nights = (i64, NaiveDate, NaiveDate, i64);

/// Checks the invoices against the stays and the payments the run made (`paid_by_run`).
pub fn check_invoices(
    stays: &[Stay],
    invoices: &[Value],
    paid_by_run: i64,
    rebilled: &HashMap<String, String>,
) -> Books {
    let mut b = Books::default();
    let mut nights: HashMap<&str, Vec<Nights>> = HashMap::new();
    let mut extras: HashMap<&str, i64> = HashMap::new();
    let mut city_tax: HashMap<&str, i64> = HashMap::new();
    // Advances invoiced less those deducted, by booking.
    let mut advances: HashMap<&str, i64> = HashMap::new();
    let by_id: HashMap<&str, &Value> = invoices.iter().map(|i| (text(&i["id"]), i)).collect();
    let mut numbers: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    // An invoice reversed and issued again carries its stay's lines on the new one.
    let reissued: HashSet<&str> = invoices
        .iter()
        .filter_map(|i| i["reissues_invoice_id"].as_str())
        .collect();
    for inv in invoices {
        let (g, paid) = (gross(inv), inv["paid_amount"].as_i64().unwrap_or_default());
        b.paid += paid;
        let seq = text(&inv["number"])
            .rsplit('-')
            .next()
            .and_then(|n| n.parse().ok());
        numbers
            .entry(text(&inv["series"]).to_string())
            .or_default()
            .push(seq.unwrap_or(-1));
        if inv["kind"] == "credit_note" {
            b.credit_notes += 1;
            b.credited -= g;
            let original = by_id.get(text(&inv["corrects_invoice_id"]));
            if original.is_none_or(|o| gross(o) != -g || o["status"] != "cancelled") {
                b.fail(format!(
                    "credit note {} does not reverse its invoice",
                    inv["number"]
                ));
            }
            continue;
        }
        b.invoices += 1;
        b.invoiced += g;
        if inv["status"] == "issued" {
            b.outstanding += g - paid;
        }
        let Some(res) = inv["reservation_id"].as_str() else {
            continue;
        };
        if reissued.contains(text(&inv["id"])) {
            continue;
        }
        for l in inv["lines"].as_array().into_iter().flatten() {
            let (desc, amount) = (
                text(&l["description"]),
                l["gross_amount"].as_i64().unwrap_or(0),
            );
            if l["kind"] == "accommodation" {
                match accommodation(desc, &l["quantity"]) {
                    Some((q, from, to)) => {
                        let price = l["unit_price"].as_i64().unwrap_or(-1);
                        nights.entry(res).or_default().push((q, from, to, price));
                    }
                    None => b.fail(format!("accommodation line not understood: {desc}")),
                }
            } else if l["kind"] == "city_tax" {
                *city_tax.entry(res).or_default() += amount;
            } else if l["kind"] == "advance" {
                // A reversed advance invoice is the deposit given back; the deduction on a
                // disputed bill the run billed again (`rebilled`: in Croatia outside the
                // stay, the deduction with it) still deducted the deposit.
                let again = rebilled.contains_key(text(&inv["id"]));
                if inv["status"] != "cancelled" || (amount < 0 && again) {
                    *advances.entry(res).or_default() += amount;
                }
            } else {
                *extras.entry(res).or_default() += amount;
            }
        }
    }
    if b.invoiced - b.credited != b.paid + b.outstanding {
        b.fail(format!(
            "invoiced {} - credited {} != paid {} + outstanding {}",
            b.invoiced, b.credited, b.paid, b.outstanding
        ));
    }
    if b.paid != paid_by_run {
        b.fail(format!(
            "payments recorded {} but the run paid {paid_by_run}",
            b.paid
        ));
    }
    for (series, mut seqs) in numbers {
        seqs.sort_unstable();
        if seqs.iter().enumerate().any(|(k, &n)| n != k as i64 + 1) {
            b.fail(format!("series {series} is not gapless: {seqs:?}"));
        }
        b.series.insert(series, seqs.len());
    }
    let known: HashSet<&str> = stays.iter().map(|s| s.id.as_str()).collect();
    for res in nights.keys().filter(|r| !known.contains(*r)) {
        b.fail(format!(
            "nights invoiced on {res}, which the run never booked"
        ));
    }
    for s in stays {
        let id = s.id.as_str();
        let billed = nights.get(id).cloned().unwrap_or_default();
        // A deposit stands until the stay's bill deducts it or it is given back.
        let open = if matches!(s.state, State::Confirmed | State::InHouse) {
            s.deposit
        } else {
            0
        };
        let advanced = advances.get(id).copied().unwrap_or(0);
        if advanced != open {
            b.fail(format!(
                "{id} ({:?}): deposit {} paid, {open} still to deduct, but the invoices hold {advanced}",
                s.state, s.deposit
            ));
        }
        b.deposits += s.deposit;
        if matches!(s.state, State::Cancelled | State::NoShow) {
            let want = fee(s);
            if extras.get(id).copied().unwrap_or(0) != want {
                b.fail(format!(
                    "{id} ({:?}): its plan's fee is {want}, billed {:?}",
                    s.state,
                    extras.get(id)
                ));
            }
            b.fees += want;
        }
        if s.state != State::Out {
            if !billed.is_empty() {
                b.fail(format!(
                    "{id} ({:?}) has nights invoiced: {billed:?}",
                    s.state
                ));
            }
            continue;
        }
        let stayed = (s.departure - s.plan.arrival).num_days();
        if !tiles(&billed, s.plan.arrival, s.departure) {
            b.fail(format!(
                "{id}: {stayed} nights from {} to {}, invoiced {billed:?}",
                s.plan.arrival, s.departure
            ));
        }
        for &(_, from, to, price) in &billed {
            let mut night = from;
            while night < to {
                let want = night_price(s, night);
                if want != price {
                    b.fail(format!(
                        "{id}: the night of {night} costs {want}, billed {price}"
                    ));
                }
                night = night.succ_opt().unwrap_or(to);
            }
        }
        b.nights_sold += stayed;
        if extras.get(id).copied().unwrap_or(0) != s.extras {
            b.fail(format!(
                "{id}: extras {} but invoiced {:?}",
                s.extras,
                extras.get(id)
            ));
        }
        let want = expected_city_tax(s, stayed);
        if city_tax.get(id).copied().unwrap_or(0) != want {
            b.fail(format!(
                "{id}: city tax {want} but invoiced {:?}",
                city_tax.get(id)
            ));
        }
    }
    b
}

/// Whether the lines cover the nights from `arrival` to `departure` exactly once, in runs
/// that follow each other.
fn tiles(lines: &[Nights], arrival: NaiveDate, departure: NaiveDate) -> bool {
    let mut sorted = lines.to_vec();
    sorted.sort_by_key(|l| l.1);
    let mut at = arrival;
    for &(q, from, to, _) in &sorted {
        if from != at || (to - from).num_days() != q || q < 1 {
            return false;
        }
        at = to;
    }
    at == departure
}

/// What the hotel's calendar asks for a night of `s`: the flexible plan's price for the
/// room type, or the plan's share of it.
fn night_price(s: &Stay, night: NaiveDate) -> i64 {
    crate::plan::plan_price(s.plan.room_type, s.plan.rate_plan, night)
}

/// What the plan charges a stay that was cancelled (the flexible plan nothing, as the run
/// cancels a day or more ahead; the non-refundable one the whole stay; a booking site's
/// booking nothing, the site applies its own policy) or never came (the first night).
fn fee(s: &Stay) -> i64 {
    if s.channel && s.state == State::Cancelled {
        return 0;
    }
    let nights = (0..s.plan.nights).map(|i| night_price(s, s.plan.arrival + chrono::Days::new(i)));
    match (s.state, crate::plan::RATE_PLANS[s.plan.rate_plan].2) {
        (State::NoShow, _) => night_price(s, s.plan.arrival),
        (State::Cancelled, Some(_)) => nights.sum(),
        _ => 0,
    }
}

/// Persons 12 or older on arrival × nights (at most 7) × 1.80.
fn expected_city_tax(s: &Stay, nights: i64) -> i64 {
    let (amount, max_nights, exempt_under) = CITY_TAX;
    let children_taxed = s
        .plan
        .children
        .iter()
        .filter(|born| s.plan.arrival.years_since(**born).unwrap_or(0) as i64 >= exempt_under)
        .count();
    (s.plan.adults + children_taxed) as i64 * nights.min(max_nights) * amount
}

/// The accommodation line, Croatian (`Smještaj, soba 101: 3 noćenja od 10.12.2026. do
/// 13.12.2026.`) or Italian (`Pernottamento, camera 101: 3 notti dal 10/12/2026 al
/// 13/12/2026`).
fn accommodation(desc: &str, quantity: &Value) -> Option<(i64, NaiveDate, NaiveDate)> {
    let (from, to, format) = match desc.rsplit_once(" od ") {
        Some((_, rest)) => {
            let (a, b) = rest.split_once(" do ")?;
            (a, b, "%d.%m.%Y.")
        }
        None => {
            let (a, b) = desc.rsplit_once(" dal ")?.1.split_once(" al ")?;
            (a, b, "%d/%m/%Y")
        }
    };
    let day = |s: &str| NaiveDate::parse_from_str(s.trim(), format).ok();
    Some((quantity.as_i64()?, day(from)?, day(to)?))
}

/// Every invoice fiscalized, its receipt received once by the authority (matched by the
/// protective code), receipt numbers gapless within each year of issue.
pub fn check_receipts(b: &mut Books, invoices: &[Value], received: &[(String, String)]) {
    let numbers: HashMap<&str, &str> = received
        .iter()
        .map(|(zki, n)| (zki.as_str(), n.as_str()))
        .collect();
    let by_id: HashMap<&str, &Value> = invoices.iter().map(|i| (text(&i["id"]), i)).collect();
    let mut years: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for inv in invoices {
        let f = &inv["fiscal"];
        if f["scheme"] == "hr-eracun" {
            // An e-invoice: fiscalized through the intermediary (see `einvoices`).
            continue;
        }
        // Since 2026 every receipt to a person is fiscalized, bank transfers too; a credit
        // note follows the invoice it reverses.
        let covered = match by_id.get(text(&inv["corrects_invoice_id"])) {
            Some(original) => original["fiscal"]["status"] != "not_required",
            None => true,
        };
        let want = if covered {
            "fiscalized"
        } else {
            "not_required"
        };
        if f["status"] != want {
            b.fail(format!(
                "invoice {}: fiscal status {}, not {want}",
                inv["number"], f["status"]
            ));
        }
        if !covered {
            b.outside_fiscal += 1;
            continue;
        }
        match numbers.get(text(&f["local_proof"])) {
            Some(n) => {
                b.receipts += 1;
                years
                    .entry(text(&inv["issue_date"]).chars().take(4).collect())
                    .or_default()
                    .push(
                        n.split('/')
                            .next()
                            .and_then(|x| x.parse().ok())
                            .unwrap_or(-1),
                    )
            }
            None => b.fail(format!(
                "invoice {}: no receipt reached the authority",
                inv["number"]
            )),
        }
    }
    for (year, mut seqs) in years {
        seqs.sort_unstable();
        if seqs.iter().enumerate().any(|(k, &n)| n != k as i64 + 1) {
            b.fail(format!(
                "receipt numbers of {year} are not gapless: {seqs:?}"
            ));
        }
    }
}

/// Every stay that was checked in has its registration accepted; the authority holds
/// `held.0` records, one per guest of those stays, and (where it is told of departures)
/// `held.1` of them checked out, every guest of a stay that left.
pub fn check_registrations(
    b: &mut Books,
    stays: &[Stay],
    reservations: &[Value],
    held: (usize, Option<usize>),
) {
    let by_id: HashMap<&str, &Value> = reservations.iter().map(|r| (text(&r["id"]), r)).collect();
    let mut guests = 0;
    let mut left = 0;
    for s in stays
        .iter()
        .filter(|s| matches!(s.state, State::InHouse | State::Out))
    {
        guests += s.guests.len();
        if s.state == State::Out {
            left += s.guests.len();
        }
        let status = by_id
            .get(s.id.as_str())
            .map(|r| &r["registration"]["status"]);
        if status.is_none_or(|st| st != "accepted") {
            b.fail(format!("{}: registration {status:?}", s.id));
        }
    }
    for s in stays {
        let server = by_id.get(s.id.as_str()).map(|r| text(&r["status"]));
        let want = match s.state {
            State::Confirmed => "confirmed",
            State::InHouse => "checked_in",
            State::Out => "checked_out",
            State::Cancelled => "cancelled",
            State::NoShow => "no_show",
        };
        if server != Some(want) {
            b.fail(format!(
                "{}: the run has {want}, the server {server:?}",
                s.id
            ));
        }
    }
    let (rows, out) = held;
    if rows != guests {
        b.fail(format!(
            "the authority holds {rows} check-ins for {guests} guests checked in"
        ));
    }
    if let Some(out) = out
        && out != left
    {
        b.fail(format!(
            "the authority has {out} guests checked out, the run {left}"
        ));
    }
}

/// Every registration and departure was answered, and accepted before its deadline (24
/// hours after arrival or departure).
pub fn check_deadlines(b: &mut Books, submissions: &[Value]) {
    for s in submissions
        .iter()
        .filter(|s| text(&s["kind"]).starts_with("guest_"))
    {
        if s["status"] != "accepted" {
            b.fail(format!(
                "{}: {} {}",
                text(&s["id"]),
                text(&s["kind"]),
                s["status"]
            ));
        } else if text(&s["updated_at"]) > text(&s["due_at"]) {
            b.fail(format!(
                "{}: {} accepted at {}, after its deadline {}",
                text(&s["id"]),
                text(&s["kind"]),
                text(&s["updated_at"]),
                text(&s["due_at"])
            ));
        }
    }
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

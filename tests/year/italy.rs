//! The Italian year's fiscal checks: every invoice has exactly one fiscal document, a
//! receipt the cash register printed (matched by its document number, its total and its
//! payments) or a FatturaPA SdI accepted (the file the intermediary holds, as issued, free
//! of SdI's errors); no document without its invoice; and each day's closure of the register
//! equal to the cash and card payments the run recorded that day.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::NaiveDate;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::api::gross;
use crate::books::Books;
use crate::support::rt_sim::{Closure, Doc};
use crate::support::sdi_sim::Sent;

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// The register's document of an `authority_reference` like `0021-0034 24/11/2026 99SEA…`:
/// its closure (Z) number and its number within the day.
fn document(reference: &str) -> Option<(u32, u32)> {
    let (z, n) = reference.split(' ').next()?.split_once('-')?;
    Some((z.parse().ok()?, n.parse().ok()?))
}

/// Receipts against the register's documents; the closures, one per day in order, against
/// `takings` (cash and card per day).
pub fn check_receipts(
    b: &mut Books,
    invoices: &[Value],
    docs: &[Doc],
    closures: &[Closure],
    takings: &BTreeMap<NaiveDate, (i64, i64)>,
) {
    let printed: HashMap<(u32, u32), &Doc> = docs.iter().map(|d| ((d.z, d.number), d)).collect();
    let mut matched = HashSet::new();
    for inv in invoices {
        let f = &inv["fiscal"];
        let number = text(&inv["number"]);
        match text(&f["scheme"]) {
            "it-sdi" => continue,
            "it-rt" => {}
            other => {
                b.fail(format!("invoice {number}: fiscal scheme {other:?}"));
                continue;
            }
        }
        if f["status"] != "fiscalized" {
            b.fail(format!(
                "receipt {number}: {} ({})",
                f["status"], f["last_error"]
            ));
            continue;
        }
        let Some(doc) = document(text(&f["authority_reference"])).and_then(|k| printed.get(&k))
        else {
            b.fail(format!(
                "receipt {number}: the register printed no document {}",
                f["authority_reference"]
            ));
            continue;
        };
        if !matched.insert((doc.z, doc.number)) {
            b.fail(format!("receipt {number}: its document is another's too"));
        }
        let (g, paid) = (gross(inv), inv["paid_amount"].as_i64().unwrap_or_default());
        // A credit note is the register's refund of the receipt it reverses, in amounts
        // above zero.
        let credit = inv["kind"] == "credit_note";
        let sign = if credit { -1 } else { 1 };
        if credit != doc.refund_of.is_some() {
            b.fail(format!("receipt {number}: refund of {:?}", doc.refund_of));
        }
        if doc.total != g.abs()
            || sign * (doc.paid.0 + doc.paid.1) != paid
            || sign * doc.paid.2 != g - paid
        {
            b.fail(format!(
                "receipt {number}: {g} paid {paid}, the register printed {} paid {:?}",
                doc.total, doc.paid
            ));
        }
        b.receipts += 1;
    }
    if matched.len() != docs.len() {
        b.fail(format!(
            "the register printed {} documents for {} receipts",
            docs.len(),
            matched.len()
        ));
    }
    if closures.len() != takings.len() {
        b.fail(format!(
            "{} daily closures for {} days",
            closures.len(),
            takings.len()
        ));
    }
    for (c, (day, (cash, card))) in closures.iter().zip(takings) {
        if (c.cash, c.electronic) != (*cash, *card) {
            b.fail(format!(
                "{day}: closure {} took cash {} and electronic {}, the desk recorded cash {cash} and card {card}",
                c.z, c.cash, c.electronic
            ));
        }
    }
    b.closures = closures.len();
}

/// E-invoices against the files the intermediary took.
pub fn check_einvoices(b: &mut Books, invoices: &[Value], sent: &[Sent]) {
    let mut files: HashMap<&str, Vec<&Sent>> = HashMap::new();
    for s in sent {
        files.entry(s.number.as_str()).or_default().push(s);
    }
    for inv in invoices
        .iter()
        .filter(|i| i["fiscal"]["scheme"] == "it-sdi")
    {
        let (f, number) = (&inv["fiscal"], text(&inv["number"]));
        if f["status"] != "fiscalized" || f["einvoice"]["status"] != "fiscalized" {
            b.fail(format!(
                "e-invoice {number}: {} / {} ({})",
                f["status"], f["einvoice"]["status"], f["last_error"]
            ));
        }
        let held = files.get(number).map_or(&[][..], Vec::as_slice);
        let [file] = held else {
            b.fail(format!(
                "e-invoice {number}: the intermediary holds {} files",
                held.len()
            ));
            continue;
        };
        let sha: String = Sha256::digest(file.xml.as_bytes())
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect();
        if sha != text(&f["einvoice"]["sha256"]) {
            b.fail(format!("e-invoice {number}: SdI holds another document"));
        }
        let advance = inv["lines"]
            .as_array()
            .is_some_and(|l| l.iter().all(|l| l["kind"] == "advance"));
        let kind = match (inv["kind"] == "credit_note", advance) {
            (true, _) => "TD04",
            (false, true) => "TD02",
            (false, false) => "TD01",
        };
        if file.kind != kind || !file.errors.is_empty() {
            b.fail(format!(
                "e-invoice {number}: {} with SdI's errors {:?}",
                file.kind, file.errors
            ));
        }
        b.einvoices += 1;
    }
    if sent.len() != b.einvoices {
        b.fail(format!(
            "{} files sent to SdI, {} e-invoices issued",
            sent.len(),
            b.einvoices
        ));
    }
}

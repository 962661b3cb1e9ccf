//! Epson's fiscal-printer XML (the `fpmate.cgi` service of its RT models), as certified
//! middleware and point-of-sale modules that drive real printers send it
//! (docs/research/it-rt.md §1): a SOAP envelope holding one `printerFiscalReceipt`,
//! `printerFiscalReport` or `printerCommand`; prices VAT-inclusive with a decimal comma; the
//! department selecting the VAT rate; one `printRecTotal` per means of payment; a return
//! announced by a `REFUND` message naming the original document. Pure: builds requests and
//! reads answers.
//!
//! **Unverified** (Epson's manual was not reachable; the shapes come from code that drives
//! real printers): that every firmware takes the decimal comma (the certified middleware
//! sends it; others send a dot), the byte layout of directIO 1387's answer, and whether
//! `zRepNumber` in a receipt's answer is the closure the document belongs to. Each is one
//! function here to change.

use super::{DocId, Means, Receipt};
use crate::compliance::eracun::xml::escape;

const ENVELOPE: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>";
const END: &str = "</s:Body></s:Envelope>";

/// Minor units with a decimal comma: `9000` is `90,00`.
pub fn amount(minor: i64) -> String {
    let m = minor.unsigned_abs();
    format!("{},{:02}", m / 100, m % 100)
}

/// A line's text as the printer takes it: ASCII, at most 38 characters.
pub fn text(s: &str) -> String {
    let ascii: String = s
        .chars()
        .map(|c| {
            if c.is_ascii() && !c.is_control() {
                c.to_string()
            } else {
                deunicode::deunicode_char(c).unwrap_or("?").to_string()
            }
        })
        .collect();
    ascii
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(38)
        .collect()
}

/// The request that prints `r`: a sale, or a return of the document it names.
pub fn receipt(r: &Receipt) -> String {
    let mut x = String::from(ENVELOPE);
    x.push_str("<printerFiscalReceipt>");
    if let Some(d) = &r.refund_of {
        x.push_str(&format!(
            "<printRecMessage operator=\"1\" messageType=\"4\" message=\"REFUND {:04} {:04} {} {}\"/>",
            d.z,
            d.number,
            d.date.format("%d%m%Y"),
            escape(&d.serial)
        ));
    }
    x.push_str("<beginFiscalReceipt operator=\"1\"/>");
    for l in &r.lines {
        let tag = if r.refund_of.is_some() {
            "printRecRefund"
        } else {
            "printRecItem"
        };
        if l.unit_price < 0 && r.refund_of.is_none() {
            // An allowance: a discount on its department.
            x.push_str(&format!(
                "<printRecItemAdjustment operator=\"1\" adjustmentType=\"3\" description=\"{}\" amount=\"{}\" department=\"{}\" justification=\"1\"/>",
                escape(&text(&l.description)),
                amount(l.unit_price * l.quantity),
                l.department
            ));
            continue;
        }
        x.push_str(&format!(
            "<{tag} operator=\"1\" description=\"{}\" quantity=\"{},000\" unitPrice=\"{}\" department=\"{}\" justification=\"1\"/>",
            escape(&text(&l.description)),
            l.quantity.abs(),
            amount(l.unit_price),
            l.department
        ));
    }
    if let Some(c) = &r.customer {
        let command = if c.len() == 11 { "1060" } else { "1061" };
        x.push_str(&format!(
            "<directIO command=\"{command}\" data=\"01{}\"/>",
            escape(c)
        ));
    }
    for p in &r.payments {
        let (kind, index, name) = match p.means {
            Means::Cash => (0, 0, "Contanti"),
            Means::Electronic => (2, 1, "Pagamento elettronico"),
            Means::NotCollected => (5, 0, "Non riscosso"),
        };
        x.push_str(&format!(
            "<printRecTotal operator=\"1\" description=\"{name}\" payment=\"{}\" paymentType=\"{kind}\" index=\"{index}\" justification=\"1\"/>",
            amount(p.amount)
        ));
    }
    x.push_str("<endFiscalReceipt operator=\"1\"/></printerFiscalReceipt>");
    x.push_str(END);
    x
}

/// The request that closes the day (the Z report), after which the register transmits the
/// day's takings to the Agenzia delle Entrate.
pub fn close_day() -> String {
    format!(
        "{ENVELOPE}<printerFiscalReport><printZReport operator=\"1\"/></printerFiscalReport>{END}"
    )
}

/// The request that reads the last document the register issued (directIO 1387), to learn
/// after a lost answer whether a receipt printed.
pub fn last_document() -> String {
    format!(
        "{ENVELOPE}<printerCommand><directIO command=\"1387\" data=\"01\"/></printerCommand>{END}"
    )
}

/// A register's answer: whether it did it, its code and status, and the `addInfo` fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// `success="true"`.
    pub success: bool,
    /// The error code (`EPTR_REC_EMPTY`, ...), when it failed.
    pub code: String,
    /// The status number.
    pub status: String,
    /// The `addInfo` children, by name.
    pub info: Vec<(String, String)>,
}

impl Answer {
    /// One `addInfo` field.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.info
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads an answer; `None` when it is not one.
pub fn answer(body: &str) -> Option<Answer> {
    let doc = roxmltree::Document::parse(body).ok()?;
    let r = doc.descendants().find(|n| n.has_tag_name("response"))?;
    let info = r
        .descendants()
        .find(|n| n.has_tag_name("addInfo"))
        .map(|a| {
            a.children()
                .filter(|c| c.is_element())
                .map(|c| {
                    (
                        c.tag_name().name().to_string(),
                        c.text().unwrap_or("").trim().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Answer {
        success: r.attribute("success") == Some("true"),
        code: r.attribute("code").unwrap_or("").to_string(),
        status: r.attribute("status").unwrap_or("").to_string(),
        info,
    })
}

/// The last document from directIO 1387's `responseData`: its identity and total.
pub fn last_from(response_data: &str, serial_fallback: &str) -> Option<(DocId, i64)> {
    let d = response_data;
    if d.len() < 40 || !d.is_ascii() {
        return None;
    }
    let total = d[2..11].parse::<i64>().ok()?;
    let date = chrono::NaiveDate::parse_from_str(&d[20..26], "%d%m%y").ok()?;
    let z = d[32..36].parse().ok()?;
    let number = d[36..40].parse().ok()?;
    let serial = d
        .get(40..51)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(serial_fallback)
        .to_string();
    Some((
        DocId {
            serial,
            z,
            number,
            date,
        },
        total,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_texts_and_answers() {
        assert_eq!(amount(9000), "90,00");
        assert_eq!(amount(5), "0,05");
        assert_eq!(
            text("Pernottamento, camera 12: 2 notti dal 22/11 al 24/11"),
            "Pernottamento, camera 12: 2 notti dal "
        );
        assert_eq!(text("Caffè €"), "Caffe EUR");
        let a = answer("<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body><response success=\"false\" code=\"EPTR_REC_EMPTY\" status=\"3\"><addInfo><printerStatus>30110</printerStatus></addInfo></response></soapenv:Body></soapenv:Envelope>").unwrap();
        assert!(!a.success);
        assert_eq!(
            (a.code.as_str(), a.get("printerStatus")),
            ("EPTR_REC_EMPTY", Some("30110"))
        );
        let data = format!(
            "01{:09}{:09}241126103000{:04}{:04}99SEA0040101{:08}1",
            17400, 1582, 21, 34, 0
        );
        let (id, total) = last_from(&data, "X").unwrap();
        assert_eq!(id.serial, "99SEA004010");
        assert_eq!((id.z, id.number, total), (21, 34, 17400));
        assert_eq!(id.date.to_string(), "2026-11-24");
    }
}

//! A telematic cash register simulator speaking the subset of Epson's fiscal-printer XML
//! innkeep uses (docs/research/it-rt.md §1): `POST /cgi-bin/fpmate.cgi` with a SOAP
//! envelope holding `printerFiscalReceipt` (sales and returns), `printerFiscalReport`
//! (`printZReport`) or `printerCommand` (`directIO` 1387, the last document). Strict where a
//! register is: the receipt must open and close, use programmed departments, write amounts
//! with a decimal comma, keep descriptions within 38 characters, and be paid exactly; a
//! return must name an existing document of this register, once. It numbers documents
//! within the day, closes the day (the Z number moves on and the day's totals reset), and
//! on demand is out of paper (`EPTR_REC_EMPTY`, status 3) or loses its answer after printing.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use poem::web::Data;
use poem::{EndpointExt, Response, Route, handler, post};

pub const SERIAL: &str = "99SEA004010";
/// The departments programmed: 22 %, 10 %, 4 %, 5 %, outside VAT.
const DEPARTMENTS: [u32; 5] = [1, 2, 3, 4, 11];

/// A document the register printed.
#[derive(Debug, Clone)]
pub struct Doc {
    pub z: u32,
    pub number: u32,
    pub total: i64,
    /// Cash, electronic, not collected.
    pub paid: (i64, i64, i64),
    pub customer: Option<String>,
    pub refund_of: Option<(u32, u32)>,
    pub lines: usize,
}

/// A closed day: its Z number and the sales' cash and electronic takings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closure {
    pub z: u32,
    pub cash: i64,
    pub electronic: i64,
}

#[derive(Default)]
struct State {
    docs: Mutex<Vec<Doc>>,
    closures: Mutex<Vec<Closure>>,
    paper_out: Mutex<bool>,
    lose_next: Mutex<Option<Duration>>,
    refused: Mutex<Vec<String>>,
}

pub struct Sim {
    pub addr: SocketAddr,
    state: Arc<State>,
    _server: super::sim_server::Served,
}

impl Sim {
    pub async fn start() -> Sim {
        let state = Arc::new(State::default());
        let app = Route::new()
            .at("/cgi-bin/fpmate.cgi", post(fpmate))
            .data(state.clone());
        let server = crate::support::sim_server::serve(app).await;
        Sim {
            addr: server.addr,
            state,
            _server: server,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn set_paper_out(&self, out: bool) {
        *self.state.paper_out.lock().unwrap() = out;
    }

    /// The next receipt prints, and its answer comes after `d`.
    pub fn lose_next_answer(&self, d: Duration) {
        *self.state.lose_next.lock().unwrap() = Some(d);
    }

    pub fn docs(&self) -> Vec<Doc> {
        self.state.docs.lock().unwrap().clone()
    }

    pub fn closures(&self) -> Vec<Closure> {
        self.state.closures.lock().unwrap().clone()
    }

    /// What the register refused, in order (its codes and why).
    pub fn refused(&self) -> Vec<String> {
        self.state.refused.lock().unwrap().clone()
    }
}

fn reply(success: bool, code: &str, status: u32, info: &str) -> Response {
    Response::builder().content_type("text/xml; charset=utf-8").body(format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body><response success=\"{success}\" code=\"{code}\" status=\"{status}\"><addInfo>{info}</addInfo></response></soapenv:Body></soapenv:Envelope>"
    ))
}

/// Minor units from `90,00`; `None` unless written with a comma and two decimals.
fn cents(v: &str) -> Option<i64> {
    let (a, b) = v.split_once(',')?;
    (b.len() == 2).then_some(())?;
    Some(a.parse::<i64>().ok()? * 100 + b.parse::<i64>().ok()?)
}

fn current_z(state: &State) -> u32 {
    21 + state.closures.lock().unwrap().len() as u32
}

#[handler]
async fn fpmate(state: Data<&Arc<State>>, body: String) -> Response {
    let state = state.0.clone();
    let Ok(doc) = roxmltree::Document::parse(&body) else {
        return reply(false, "PARSER_ERROR", 0, "");
    };
    let find = |name: &str| doc.descendants().find(|n| n.has_tag_name(name));
    if find("printZReport").is_some() {
        let z = current_z(&state);
        let docs = state.docs.lock().unwrap();
        let (mut cash, mut electronic) = (0, 0);
        for d in docs.iter().filter(|d| d.z == z) {
            let sign = if d.refund_of.is_some() { -1 } else { 1 };
            cash += sign * d.paid.0;
            electronic += sign * d.paid.1;
        }
        drop(docs);
        state.closures.lock().unwrap().push(Closure {
            z,
            cash,
            electronic,
        });
        return reply(
            true,
            "",
            2,
            &format!(
                "<zRepNumber>{z}</zRepNumber><dailyAmount>{},{:02}</dailyAmount>",
                (cash + electronic) / 100,
                (cash + electronic) % 100
            ),
        );
    }
    if let Some(d) = find("directIO").filter(|d| d.attribute("command") == Some("1387")) {
        let _ = d;
        let docs = state.docs.lock().unwrap();
        let Some(last) = docs.last() else {
            return reply(false, "", 12, "");
        };
        let data = format!(
            "01{:09}{:09}{}103000{:04}{:04}{SERIAL}0{:08}1",
            last.total, 0, "241126", last.z, last.number, 0
        );
        return reply(true, "", 2, &format!("<responseData>{data}</responseData>"));
    }
    let Some(_) = find("printerFiscalReceipt") else {
        return reply(false, "Non valid XML command", 0, "");
    };
    let refuse = |code: &str, status: u32, why: String| {
        state
            .refused
            .lock()
            .unwrap()
            .push(format!("{code} {status}: {why}"));
        reply(false, code, status, "<printerStatus>00110</printerStatus>")
    };
    if *state.paper_out.lock().unwrap() {
        return refuse("EPTR_REC_EMPTY", 3, "out of paper".into());
    }
    if find("beginFiscalReceipt").is_none() || find("endFiscalReceipt").is_none() {
        return refuse("INCOMPLETE FILE", 11, "no begin or end".into());
    }
    let mut total = 0;
    let mut lines = 0;
    for n in doc.descendants().filter(|n| {
        n.has_tag_name("printRecItem")
            || n.has_tag_name("printRecRefund")
            || n.has_tag_name("printRecItemAdjustment")
    }) {
        let dept: u32 = n
            .attribute("department")
            .and_then(|d| d.parse().ok())
            .unwrap_or(0);
        if !DEPARTMENTS.contains(&dept) {
            return refuse("", 22, format!("department {dept} is not programmed"));
        }
        let description = n.attribute("description").unwrap_or("");
        if description.chars().count() > 38 {
            return refuse("", 13, format!("description too long: {description}"));
        }
        if n.has_tag_name("printRecItemAdjustment") {
            let Some(a) = n.attribute("amount").and_then(cents) else {
                return refuse("", 13, "amount".into());
            };
            total -= a;
            continue;
        }
        let qty = n
            .attribute("quantity")
            .and_then(|q| q.strip_suffix(",000"))
            .and_then(|q| q.parse::<i64>().ok());
        let price = n.attribute("unitPrice").and_then(cents);
        let (Some(qty), Some(price)) = (qty, price) else {
            return refuse(
                "",
                13,
                format!(
                    "quantity or price not as the register writes them: {:?}",
                    n.attributes().collect::<Vec<_>>()
                ),
            );
        };
        total += qty * price;
        lines += 1;
    }
    let mut paid = (0, 0, 0);
    for t in doc
        .descendants()
        .filter(|n| n.has_tag_name("printRecTotal"))
    {
        let Some(a) = t.attribute("payment").and_then(cents) else {
            return refuse("", 13, "payment".into());
        };
        match t.attribute("paymentType") {
            Some("0") => paid.0 += a,
            Some("2") => paid.1 += a,
            Some("5") => paid.2 += a,
            other => return refuse("", 16, format!("payment type {other:?}")),
        }
    }
    if paid.0 + paid.1 + paid.2 != total {
        return refuse(
            "",
            24,
            format!("paid {} of {total}", paid.0 + paid.1 + paid.2),
        );
    }
    let refund_of = match doc
        .descendants()
        .find(|n| n.has_tag_name("printRecMessage") && n.attribute("messageType") == Some("4"))
    {
        None => None,
        Some(m) => {
            let text = m.attribute("message").unwrap_or("");
            let parts: Vec<&str> = text.split_whitespace().collect();
            let ok = parts.len() == 5 && parts[0] == "REFUND" && parts[4] == SERIAL;
            let (z, n) = (
                parts.get(1).and_then(|v| v.parse().ok()),
                parts.get(2).and_then(|v| v.parse().ok()),
            );
            let (true, Some(z), Some(n)) = (ok, z, n) else {
                return refuse("", 12, format!("no such document: {text}"));
            };
            let docs = state.docs.lock().unwrap();
            if !docs
                .iter()
                .any(|d| d.z == z && d.number == n && d.refund_of.is_none())
            {
                return refuse("", 12, format!("no such document: {text}"));
            }
            if docs.iter().any(|d| d.refund_of == Some((z, n))) {
                return refuse("", 40, "already returned".into());
            }
            Some((z, n))
        }
    };
    let customer = doc
        .descendants()
        .find(|n| {
            n.has_tag_name("directIO") && matches!(n.attribute("command"), Some("1060" | "1061"))
        })
        .and_then(|n| n.attribute("data"))
        .map(|d| d.trim_start_matches("01").to_string());
    let z = current_z(&state);
    let printed = {
        let mut docs = state.docs.lock().unwrap();
        let number = docs.iter().filter(|d| d.z == z).count() as u32 + 1;
        let d = Doc {
            z,
            number,
            total,
            paid,
            customer,
            refund_of,
            lines,
        };
        docs.push(d.clone());
        d
    };
    let lost = state.lose_next.lock().unwrap().take();
    if let Some(wait) = lost {
        tokio::time::sleep(wait).await;
    }
    reply(
        true,
        "",
        2,
        &format!(
            "<lastCommand>74</lastCommand><printerStatus>20110</printerStatus><fiscalReceiptNumber>{}</fiscalReceiptNumber><fiscalReceiptAmount>{},{:02}</fiscalReceiptAmount><fiscalReceiptDate>24/11/2026</fiscalReceiptDate><fiscalReceiptTime>10:30</fiscalReceiptTime><zRepNumber>{}</zRepNumber>",
            printed.number,
            total / 100,
            total % 100,
            printed.z
        ),
    )
}

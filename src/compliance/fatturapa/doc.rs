//! The FatturaPA document (format FPR12, schema 1.2.3), written from an issued invoice by a
//! pure function.
//!
//! How innkeep's invoice maps (docs/research/it-sdi.md has the sources):
//! - lines are `DettaglioLinee` at their net amount (`PrezzoTotale`), with the net unit price
//!   to 8 decimals so that unit price × quantity equals the total (SdI check 00423);
//! - the summary (`DatiRiepilogo`) has one block per VAT rate: the taxable amount is the rate's
//!   gross total divided by (1 + rate), rounded half up, and the tax the rest, so the
//!   document's total is exactly what the guest paid and tax = taxable × rate within a cent
//!   (check 00421); where the lines' own rounded nets add up to a few cents more or less,
//!   the difference is the block's `Arrotondamento` (check 00422 then holds exactly);
//! - lines outside VAT carry rate 0.00 and a `Natura`: the city tax N1 (excluded under art.
//!   15 DPR 633/72: collected on the municipality's behalf), other zero-rate lines the
//!   property's chosen code;
//! - a credit note is a TD04 with positive amounts, linked to the invoice it reverses
//!   (`DatiFattureCollegate`); the reason is its `Causale`;
//! - a deposit's advance invoice is a TD02 (every line an advance, at the accommodation's
//!   VAT rate: an *acconto* is taxed when paid, art. 6 c.4 DPR 633/72); the stay's invoice
//!   deducts it with a negative line at the same rate, so its VAT is only what is left;
//! - the stamp duty (*bollo*, €2.00, virtual) is declared when the amounts outside VAT pass
//!   €77.47; innkeep declares it, it does not charge it to the guest.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::compliance::eracun::xml::{Xml, money};
use crate::domain::enums::{InvoiceKind, LineKind};
use crate::domain::money::div_round;
use crate::model::{Invoice, InvoiceLine};

/// The namespace of FatturaPA 1.2.
pub const NS: &str = "http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2";
/// The stamp duty's threshold: amounts outside VAT above €77.47 (DPR 642/72).
pub const BOLLO_THRESHOLD: i64 = 7747;
/// The stamp duty on such an invoice.
pub const BOLLO: i64 = 200;
/// The legal reference written with the city tax's N1.
pub const N1_REFERENCE: &str = "Escluse ex art. 15 DPR 633/72";

/// How a party is named: a company's name, or a person's given and family names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    /// `Denominazione`.
    Company(String),
    /// `Nome` and `Cognome`.
    Person(String, String),
}

/// A party as the document names it.
#[derive(Debug, Clone)]
pub struct Party {
    /// Its name.
    pub name: Name,
    /// Its VAT id: country and code.
    pub vat: Option<(String, String)>,
    /// Its codice fiscale.
    pub tax_code: Option<String>,
    /// Street and number.
    pub street: String,
    /// Postal code (`00000` abroad).
    pub cap: String,
    /// Town.
    pub city: String,
    /// Province (two letters, Italy only).
    pub province: Option<String>,
    /// ISO country code.
    pub country: String,
}

/// How an invoice is paid, as `DatiPagamento` says.
#[derive(Debug, Clone)]
pub struct Payment {
    /// `MP01` cash, `MP05` transfer, `MP08` card.
    pub means: &'static str,
    /// The amount (minor units).
    pub amount: i64,
    /// When it is due, for an invoice still to pay.
    pub due: Option<NaiveDate>,
    /// Where to pay it.
    pub iban: Option<String>,
}

/// Everything the document holds besides the invoice.
#[derive(Debug, Clone)]
pub struct Document<'a> {
    /// The invoice or credit note.
    pub invoice: &'a Invoice,
    /// Who transmits to SdI: country and tax id.
    pub transmitter: (String, String),
    /// The transmission's number (`ProgressivoInvio`), unique per transmitter.
    pub progressive: String,
    /// The buyer's recipient code (`0000000` when none, `XXXXXXX` abroad).
    pub recipient_code: String,
    /// The buyer's certified e-mail, when it has no code.
    pub pec: Option<String>,
    /// The seller.
    pub seller: Party,
    /// The seller's tax regime (`RF01` ordinary).
    pub regime: String,
    /// The buyer.
    pub buyer: Party,
    /// The stay: arrival and departure.
    pub period: Option<(NaiveDate, NaiveDate)>,
    /// For a credit note: the invoice's number and date.
    pub corrects: Option<(String, NaiveDate)>,
    /// The `Natura` of the city tax (`N1`).
    pub city_tax_natura: String,
    /// The `Natura` of other lines at rate 0.
    pub zero_natura: String,
    /// Whether the city tax counts toward the stamp duty's threshold.
    pub bollo_on_city_tax: bool,
    /// How it is paid, when known.
    pub payment: Option<Payment>,
}

/// Text as a Latin-1 field of at most `max` characters: other characters transliterated,
/// control characters and runs of spaces folded.
pub fn latin(s: &str, max: usize) -> String {
    fold(s, max, 0xFF)
}

/// Text as a Basic Latin (ASCII) field of at most `max` characters.
pub fn ascii(s: &str, max: usize) -> String {
    fold(s, max, 0x7F)
}

fn fold(s: &str, max: usize, top: u32) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_control() || c.is_whitespace() {
            out.push(' ');
        } else if (c as u32) <= top {
            out.push(c);
        } else {
            out.push_str(deunicode::deunicode_char(c).unwrap_or("?"));
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    words.join(" ").chars().take(max).collect()
}

/// A rate in basis points as FatturaPA's percentage: `1000` is `10.00`.
pub fn rate(bp: i64) -> String {
    format!("{}.{:02}", bp / 100, bp % 100)
}

/// `minor / qty` in units with 8 decimals: `10909 / 1` is `109.09000000`.
pub fn unit_price(minor: i64, qty: i64) -> String {
    let q = div_round(i128::from(minor) * 1_000_000, i128::from(qty.max(1)));
    let sign = if q < 0 { "-" } else { "" };
    let a = q.unsigned_abs();
    format!("{sign}{}.{:08}", a / 100_000_000, a % 100_000_000)
}

/// Whether a line is outside VAT.
fn natura<'d>(d: &'d Document<'_>, l: &InvoiceLine) -> Option<&'d str> {
    match (l.tax_rate, l.kind) {
        (0, LineKind::CityTax) => Some(&d.city_tax_natura),
        (0, _) => Some(&d.zero_natura),
        _ => None,
    }
}

/// One summary block: gross, and the lines' nets, in the document's sign.
#[derive(Default)]
struct Block {
    gross: i64,
    nets: i64,
}

/// The summary's taxable amount, tax and rounding of one block at `bp`.
pub fn summary(gross: i64, nets: i64, bp: i64) -> (i64, i64, i64) {
    let taxable = i64::try_from(div_round(
        i128::from(gross) * 10_000,
        i128::from(10_000 + bp),
    ))
    .unwrap_or(gross);
    (taxable, gross - taxable, taxable - nets)
}

/// Writes the document.
pub fn write(d: &Document<'_>) -> String {
    let inv = d.invoice;
    let credit = inv.kind == InvoiceKind::CreditNote;
    let sign = if credit { -1 } else { 1 };
    let mut x = Xml::new();
    x.open(
        "p:FatturaElettronica",
        &[("versione", "FPR12"), ("xmlns:p", NS)],
    );
    header(&mut x, d);
    x.open("FatturaElettronicaBody", &[]);
    let mut blocks: BTreeMap<(i64, Option<&str>), Block> = BTreeMap::new();
    for l in &inv.lines {
        let b = blocks.entry((l.tax_rate, natura(d, l))).or_default();
        b.gross += sign * l.gross_amount;
        b.nets += sign * l.net_amount;
    }
    let total: i64 = blocks.values().map(|b| b.gross).sum();
    let outside: i64 = inv
        .lines
        .iter()
        .filter(|l| l.tax_rate == 0 && (d.bollo_on_city_tax || l.kind != LineKind::CityTax))
        .map(|l| sign * l.gross_amount)
        .sum();
    x.open("DatiGenerali", &[])
        .open("DatiGeneraliDocumento", &[]);
    x.leaf("TipoDocumento", kind(inv, credit))
        .leaf("Divisa", &inv.currency)
        .leaf("Data", &inv.issue_date.0.to_string())
        .leaf("Numero", &ascii(&inv.number, 20));
    if outside > BOLLO_THRESHOLD {
        x.open("DatiBollo", &[])
            .leaf("BolloVirtuale", "SI")
            .leaf("ImportoBollo", &money(BOLLO))
            .close("DatiBollo");
    }
    x.leaf("ImportoTotaleDocumento", &money(total));
    if let Some(reason) = &inv.reason {
        x.leaf("Causale", &latin(reason, 200));
    }
    x.close("DatiGeneraliDocumento");
    if let Some((number, date)) = &d.corrects {
        x.open("DatiFattureCollegate", &[])
            .leaf("IdDocumento", &ascii(number, 20))
            .leaf("Data", &date.to_string())
            .close("DatiFattureCollegate");
    }
    x.close("DatiGenerali").open("DatiBeniServizi", &[]);
    for (i, l) in inv.lines.iter().enumerate() {
        line(&mut x, d, i + 1, l, sign);
    }
    for ((bp, nat), b) in &blocks {
        let (taxable, tax, rounding) = summary(b.gross, b.nets, *bp);
        x.open("DatiRiepilogo", &[]).leaf("AliquotaIVA", &rate(*bp));
        if let Some(n) = nat {
            x.leaf("Natura", n);
        }
        if rounding != 0 {
            x.leaf("Arrotondamento", &money(rounding));
        }
        x.leaf("ImponibileImporto", &money(taxable))
            .leaf("Imposta", &money(tax));
        if nat.is_none() {
            x.leaf("EsigibilitaIVA", "I");
        } else if *nat == Some(N1_NATURA) {
            x.leaf("RiferimentoNormativo", N1_REFERENCE);
        }
        x.close("DatiRiepilogo");
    }
    x.close("DatiBeniServizi");
    if let Some(p) = d.payment.as_ref().filter(|p| p.amount > 0) {
        x.open("DatiPagamento", &[])
            .leaf("CondizioniPagamento", "TP02")
            .open("DettaglioPagamento", &[])
            .leaf("ModalitaPagamento", p.means);
        if let Some(due) = p.due {
            x.leaf("DataScadenzaPagamento", &due.to_string());
        }
        x.leaf("ImportoPagamento", &money(p.amount));
        if let Some(iban) = &p.iban {
            x.leaf("IBAN", iban);
        }
        x.close("DettaglioPagamento").close("DatiPagamento");
    }
    x.close("FatturaElettronicaBody")
        .close("p:FatturaElettronica");
    x.finish()
}

const N1_NATURA: &str = "N1";

/// The document's type: TD04 for a credit note, TD02 for an advance invoice (every line
/// bills an advance: a deposit received before the stay), TD01 otherwise.
fn kind(inv: &Invoice, credit: bool) -> &'static str {
    if credit {
        "TD04"
    } else if !inv.lines.is_empty() && inv.lines.iter().all(|l| l.kind == LineKind::Advance) {
        "TD02"
    } else {
        "TD01"
    }
}

/// The unit a line's quantity counts: nights, person-nights, pieces.
fn unit(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Accommodation => "notti",
        LineKind::CityTax => "pers-notte",
        LineKind::Charge | LineKind::Advance => "pz",
    }
}

fn line(x: &mut Xml, d: &Document<'_>, n: usize, l: &InvoiceLine, sign: i64) {
    // The quantity is never negative; an allowance carries its sign on the price.
    let (qty, net) = if l.quantity < 0 {
        (-l.quantity, -sign * l.net_amount)
    } else {
        (l.quantity, sign * l.net_amount)
    };
    x.open("DettaglioLinee", &[])
        .leaf("NumeroLinea", &n.to_string())
        .leaf("Descrizione", &latin(&l.description, 1000))
        .leaf("Quantita", &format!("{qty}.00"))
        .leaf("UnitaMisura", unit(l.kind));
    if let (LineKind::Accommodation, Some((from, to))) = (l.kind, d.period) {
        x.leaf("DataInizioPeriodo", &from.to_string())
            .leaf("DataFinePeriodo", &to.to_string());
    }
    x.leaf("PrezzoUnitario", &unit_price(net, qty))
        .leaf("PrezzoTotale", &money(net))
        .leaf("AliquotaIVA", &rate(l.tax_rate));
    if let Some(n) = natura(d, l) {
        x.leaf("Natura", n);
    }
    x.close("DettaglioLinee");
}

fn party(x: &mut Xml, p: &Party, seller: Option<&str>) {
    x.open("DatiAnagrafici", &[]);
    if let Some((country, code)) = &p.vat {
        x.open("IdFiscaleIVA", &[])
            .leaf("IdPaese", country)
            .leaf("IdCodice", &ascii(code, 28))
            .close("IdFiscaleIVA");
    }
    if let Some(cf) = &p.tax_code {
        x.leaf("CodiceFiscale", cf);
    }
    x.open("Anagrafica", &[]);
    match &p.name {
        Name::Company(n) => {
            x.leaf("Denominazione", &latin(n, 80));
        }
        Name::Person(given, family) => {
            x.leaf("Nome", &latin(given, 60))
                .leaf("Cognome", &latin(family, 60));
        }
    }
    x.close("Anagrafica");
    if let Some(regime) = seller {
        x.leaf("RegimeFiscale", regime);
    }
    x.close("DatiAnagrafici").open("Sede", &[]);
    x.leaf("Indirizzo", &latin(&p.street, 60))
        .leaf("CAP", &p.cap)
        .leaf("Comune", &latin(&p.city, 60));
    if let Some(pr) = &p.province {
        x.leaf("Provincia", pr);
    }
    x.leaf("Nazione", &p.country).close("Sede");
}

fn header(x: &mut Xml, d: &Document<'_>) {
    x.open("FatturaElettronicaHeader", &[])
        .open("DatiTrasmissione", &[])
        .open("IdTrasmittente", &[])
        .leaf("IdPaese", &d.transmitter.0)
        .leaf("IdCodice", &d.transmitter.1)
        .close("IdTrasmittente")
        .leaf("ProgressivoInvio", &d.progressive)
        .leaf("FormatoTrasmissione", "FPR12")
        .leaf("CodiceDestinatario", &d.recipient_code);
    if let Some(pec) = &d.pec {
        x.leaf("PECDestinatario", pec);
    }
    x.close("DatiTrasmissione").open("CedentePrestatore", &[]);
    party(x, &d.seller, Some(&d.regime));
    x.close("CedentePrestatore")
        .open("CessionarioCommittente", &[]);
    party(x, &d.buyer, None);
    x.close("CessionarioCommittente")
        .close("FatturaElettronicaHeader");
}

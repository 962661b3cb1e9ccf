//! What SdI checks of a FatturaPA, as this simulator does it: the official 1.2.3 schema
//! (code 00200), and the arithmetic, written here independently of innkeep's builder from
//! the technical rules as the research notes give them: a line's total is its unit price ×
//! quantity within a cent (00423); a summary's taxable amount is its lines' totals plus its
//! rounding within a euro (00422); its tax is taxable × rate within a cent (00421); a line
//! at rate 0 names its Natura and a taxed one does not (00400/00401); an Italian buyer has a
//! codice fiscale or a partita IVA (00417). Amounts are read as exact decimals.

use std::collections::BTreeMap;

use roxmltree::{Document, Node};

/// An SdI error: code and description.
pub type Error = (String, String);

fn cents8(s: &str) -> i128 {
    // Units with up to 8 decimals, as 1e-8 units.
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (a, b) = s.split_once('.').unwrap_or((s, ""));
    let frac = format!("{b:0<8}");
    let v = a.parse::<i128>().unwrap_or(0) * 100_000_000 + frac[..8].parse::<i128>().unwrap_or(0);
    if neg { -v } else { v }
}

fn child<'a>(n: Node<'a, 'a>, name: &str) -> Option<Node<'a, 'a>> {
    n.children().find(|c| c.has_tag_name(name))
}

fn text<'a>(n: Node<'a, 'a>, name: &str) -> Option<&'a str> {
    child(n, name).and_then(|c| c.text())
}

/// Every error SdI would discard the file for.
pub fn check(xml: &str) -> Vec<Error> {
    let schema_text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/compliance/it-fatturapa/fatturapa-1.2.3.xsd"
    ))
    .unwrap();
    let schema_doc = Document::parse(schema_text.trim_start_matches('\u{feff}')).unwrap();
    let Ok(doc) = Document::parse(xml) else {
        return vec![(
            "00200".into(),
            "File non conforme al formato: XML non ben formato".into(),
        )];
    };
    let problems = innkeep::compliance::xsd::Schema::new(&schema_doc)
        .validate("FatturaElettronica", doc.root_element());
    if !problems.is_empty() {
        return vec![(
            "00200".into(),
            format!("File non conforme al formato: {}", problems.join("; ")),
        )];
    }
    let mut errors = Vec::new();
    let buyer = doc
        .descendants()
        .find(|n| n.has_tag_name("CessionarioCommittente"))
        .unwrap();
    let ids = child(buyer, "DatiAnagrafici").unwrap();
    if child(ids, "IdFiscaleIVA").is_none() && child(ids, "CodiceFiscale").is_none() {
        errors.push(("00417".into(), "1.4.1.1 e 1.4.1.2 non valorizzati".into()));
    }
    for body in doc
        .descendants()
        .filter(|n| n.has_tag_name("DatiBeniServizi"))
    {
        let mut per_group: BTreeMap<(String, String), i128> = BTreeMap::new();
        for l in body.children().filter(|n| n.has_tag_name("DettaglioLinee")) {
            let price = cents8(text(l, "PrezzoUnitario").unwrap_or("0"));
            let qty = cents8(text(l, "Quantita").unwrap_or("1.00"));
            let total = cents8(text(l, "PrezzoTotale").unwrap_or("0"));
            // price × qty, in 1e-8 units.
            let computed = price * qty / 100_000_000;
            if (computed - total).abs() > 1_000_000 {
                errors.push((
                    "00423".into(),
                    format!(
                        "2.2.1.11 non calcolato secondo le regole: riga {}",
                        text(l, "NumeroLinea").unwrap_or("?")
                    ),
                ));
            }
            let rate = text(l, "AliquotaIVA").unwrap_or("").to_string();
            let natura = text(l, "Natura").unwrap_or("").to_string();
            if cents8(&rate) == 0 && natura.is_empty() {
                errors.push((
                    "00400".into(),
                    "2.2.1.14 non presente a fronte di 2.2.1.12 pari a zero".into(),
                ));
            }
            if cents8(&rate) != 0 && !natura.is_empty() {
                errors.push((
                    "00401".into(),
                    "2.2.1.14 presente a fronte di 2.2.1.12 diversa da zero".into(),
                ));
            }
            *per_group.entry((rate, natura)).or_default() += total;
        }
        for r in body.children().filter(|n| n.has_tag_name("DatiRiepilogo")) {
            let rate = text(r, "AliquotaIVA").unwrap_or("").to_string();
            let natura = text(r, "Natura").unwrap_or("").to_string();
            let taxable = cents8(text(r, "ImponibileImporto").unwrap_or("0"));
            let tax = cents8(text(r, "Imposta").unwrap_or("0"));
            let rounding = cents8(text(r, "Arrotondamento").unwrap_or("0"));
            let lines = per_group.remove(&(rate.clone(), natura)).unwrap_or(0);
            if (lines + rounding - taxable).abs() >= 100_000_000 {
                errors.push((
                    "00422".into(),
                    format!("2.2.2.5 non calcolato secondo le regole: aliquota {rate}"),
                ));
            }
            // taxable × rate / 100, rounded to the cent, against the stated tax.
            let expected = taxable * cents8(&rate) / 100_000_000 / 100;
            let expected_cents = (expected + 500_000 * expected.signum()) / 1_000_000;
            if (expected_cents - tax / 1_000_000).abs() > 1 {
                errors.push((
                    "00421".into(),
                    format!("2.2.2.6 non calcolato secondo le regole: aliquota {rate}"),
                ));
            }
        }
        for ((rate, _), _) in per_group {
            errors.push((
                "00419".into(),
                format!(
                    "2.2.2 non presente in corrispondenza di almeno un valore di 2.2.1.12: {rate}"
                ),
            ));
        }
    }
    errors
}

#[test]
fn the_arithmetic_checks_catch_a_wrong_tax() {
    let ok = r#"<p:FatturaElettronica versione="FPR12" xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2"><FatturaElettronicaHeader><DatiTrasmissione><IdTrasmittente><IdPaese>IT</IdPaese><IdCodice>01234567890</IdCodice></IdTrasmittente><ProgressivoInvio>00001</ProgressivoInvio><FormatoTrasmissione>FPR12</FormatoTrasmissione><CodiceDestinatario>0000000</CodiceDestinatario></DatiTrasmissione><CedentePrestatore><DatiAnagrafici><IdFiscaleIVA><IdPaese>IT</IdPaese><IdCodice>00743110157</IdCodice></IdFiscaleIVA><Anagrafica><Denominazione>H</Denominazione></Anagrafica><RegimeFiscale>RF01</RegimeFiscale></DatiAnagrafici><Sede><Indirizzo>Via Roma 1</Indirizzo><CAP>50100</CAP><Comune>Firenze</Comune><Nazione>IT</Nazione></Sede></CedentePrestatore><CessionarioCommittente><DatiAnagrafici><CodiceFiscale>RCCMNL83S18D969H</CodiceFiscale><Anagrafica><Denominazione>R</Denominazione></Anagrafica></DatiAnagrafici><Sede><Indirizzo>Via Milano 2</Indirizzo><CAP>20100</CAP><Comune>Milano</Comune><Nazione>IT</Nazione></Sede></CessionarioCommittente></FatturaElettronicaHeader><FatturaElettronicaBody><DatiGenerali><DatiGeneraliDocumento><TipoDocumento>TD01</TipoDocumento><Divisa>EUR</Divisa><Data>2026-11-27</Data><Numero>1</Numero></DatiGeneraliDocumento></DatiGenerali><DatiBeniServizi><DettaglioLinee><NumeroLinea>1</NumeroLinea><Descrizione>N</Descrizione><Quantita>3.00</Quantita><PrezzoUnitario>109.09090909</PrezzoUnitario><PrezzoTotale>327.27</PrezzoTotale><AliquotaIVA>10.00</AliquotaIVA></DettaglioLinee><DatiRiepilogo><AliquotaIVA>10.00</AliquotaIVA><ImponibileImporto>327.27</ImponibileImporto><Imposta>32.73</Imposta></DatiRiepilogo></DatiBeniServizi></FatturaElettronicaBody></p:FatturaElettronica>"#;
    assert_eq!(check(ok), Vec::<Error>::new());
    let codes = |xml: String| check(&xml).into_iter().map(|e| e.0).collect::<Vec<_>>();
    assert_eq!(
        codes(ok.replace("<Imposta>32.73", "<Imposta>33.73")),
        ["00421"]
    );
    assert_eq!(
        codes(ok.replace("<PrezzoTotale>327.27", "<PrezzoTotale>300.27")),
        ["00423", "00422"]
    );
    assert_eq!(
        codes(ok.replace("<Quantita>3.00", "<Quantita>3")),
        ["00200"]
    );
}

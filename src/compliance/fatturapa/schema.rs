//! The FatturaPA 1.2.3 schema, embedded, and the check every document passes before it is
//! sealed.

use std::sync::LazyLock;

use crate::compliance::xsd::Schema;

/// The schema's version.
pub const VERSION: &str = "1.2.3";

/// The schema's text, packed (`crate::packed`) and unpacked at the first check.
static XSD: LazyLock<String> = LazyLock::new(|| {
    crate::packed::text(crate::packed::packed!(
        "assets/compliance/it-fatturapa/fatturapa-1.2.3.xsd"
    ))
});

/// The schema, parsed once (`None` only if the embedded file were broken: every document
/// is then refused, never passed unchecked).
static DOC: LazyLock<Option<roxmltree::Document<'static>>> =
    LazyLock::new(|| roxmltree::Document::parse(XSD.trim_start_matches('\u{feff}')).ok());

/// The schema's declarations, indexed once.
static SCHEMA: LazyLock<Option<Schema<'static>>> = LazyLock::new(|| DOC.as_ref().map(Schema::new));

/// Every way `document` breaks the FatturaPA schema (none when it conforms).
pub fn problems(document: &str) -> Vec<String> {
    let doc = match roxmltree::Document::parse(document) {
        Ok(d) => d,
        Err(e) => return vec![format!("not well-formed XML: {e}")],
    };
    match SCHEMA.as_ref() {
        Some(schema) => schema.validate("FatturaElettronica", doc.root_element()),
        None => vec!["the embedded FatturaPA schema could not be read".into()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<p:FatturaElettronica versione="FPR12" xmlns:p="http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2"><FatturaElettronicaHeader><DatiTrasmissione><IdTrasmittente><IdPaese>IT</IdPaese><IdCodice>01234567890</IdCodice></IdTrasmittente><ProgressivoInvio>00001</ProgressivoInvio><FormatoTrasmissione>FPR12</FormatoTrasmissione><CodiceDestinatario>0000000</CodiceDestinatario></DatiTrasmissione><CedentePrestatore><DatiAnagrafici><IdFiscaleIVA><IdPaese>IT</IdPaese><IdCodice>00743110157</IdCodice></IdFiscaleIVA><Anagrafica><Denominazione>Hotel Esempio S.r.l.</Denominazione></Anagrafica><RegimeFiscale>RF01</RegimeFiscale></DatiAnagrafici><Sede><Indirizzo>Via Roma 1</Indirizzo><CAP>50100</CAP><Comune>Firenze</Comune><Provincia>FI</Provincia><Nazione>IT</Nazione></Sede></CedentePrestatore><CessionarioCommittente><DatiAnagrafici><CodiceFiscale>RCCMNL83S18D969H</CodiceFiscale><Anagrafica><Nome>Emanuele</Nome><Cognome>Rocca</Cognome></Anagrafica></DatiAnagrafici><Sede><Indirizzo>Via Milano 2</Indirizzo><CAP>20100</CAP><Comune>Milano</Comune><Nazione>IT</Nazione></Sede></CessionarioCommittente></FatturaElettronicaHeader><FatturaElettronicaBody><DatiGenerali><DatiGeneraliDocumento><TipoDocumento>TD01</TipoDocumento><Divisa>EUR</Divisa><Data>2026-11-27</Data><Numero>2026/123</Numero><ImportoTotaleDocumento>120.00</ImportoTotaleDocumento></DatiGeneraliDocumento></DatiGenerali><DatiBeniServizi><DettaglioLinee><NumeroLinea>1</NumeroLinea><Descrizione>Pernottamento</Descrizione><Quantita>1.00</Quantita><PrezzoUnitario>109.09090909</PrezzoUnitario><PrezzoTotale>109.09</PrezzoTotale><AliquotaIVA>10.00</AliquotaIVA></DettaglioLinee><DatiRiepilogo><AliquotaIVA>10.00</AliquotaIVA><ImponibileImporto>109.09</ImponibileImporto><Imposta>10.91</Imposta><EsigibilitaIVA>I</EsigibilitaIVA></DatiRiepilogo></DatiBeniServizi></FatturaElettronicaBody></p:FatturaElettronica>"#;

    #[test]
    fn a_correct_invoice_passes() {
        assert_eq!(problems(MINIMAL), Vec::<String>::new());
    }

    #[test]
    fn the_schema_catches_what_sdi_would_refuse_as_00200() {
        let cases = [
            ("<CAP>20100</CAP>", "<CAP>2010</CAP>", "CAP"),
            (
                "<AliquotaIVA>10.00</AliquotaIVA></DettaglioLinee>",
                "<AliquotaIVA>10</AliquotaIVA></DettaglioLinee>",
                "AliquotaIVA",
            ),
            ("<Nome>Emanuele</Nome>", "", "Cognome"),
            (
                "<TipoDocumento>TD01</TipoDocumento>",
                "<TipoDocumento>TD99</TipoDocumento>",
                "TipoDocumento",
            ),
            (
                "<Divisa>EUR</Divisa><Data>2026-11-27</Data>",
                "<Data>2026-11-27</Data><Divisa>EUR</Divisa>",
                "Divisa",
            ),
            ("versione=\"FPR12\"", "", "versione"),
            (
                "<Descrizione>Pernottamento</Descrizione>",
                "<Descrizione>Notte €</Descrizione>",
                "Descrizione",
            ),
            (
                "<NumeroLinea>1</NumeroLinea>",
                "<NumeroLinea>0</NumeroLinea>",
                "NumeroLinea",
            ),
            ("<Data>2026-11-27</Data>", "<Data>2026-02-30</Data>", "Data"),
        ];
        for (from, to, at) in cases {
            assert!(MINIMAL.contains(from), "{from}");
            let broken = MINIMAL.replacen(from, to, 1);
            let found = problems(&broken);
            assert!(
                found.iter().any(|p| p.contains(at)),
                "{to:?} should break {at}: {found:?}"
            );
        }
    }

    #[test]
    fn every_pattern_of_the_schema_compiles() {
        for p in DOC
            .as_ref()
            .unwrap()
            .descendants()
            .filter(|n| n.has_tag_name(("http://www.w3.org/2001/XMLSchema", "pattern")))
        {
            let v = p.attribute("value").unwrap();
            assert!(crate::compliance::xsd::regex_of(v).is_ok(), "{v}");
        }
    }
}

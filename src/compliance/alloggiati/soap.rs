//! SOAP 1.1 envelopes of the Alloggiati Web service (`service.wsdl`, namespace and
//! SOAPAction prefix `AlloggiatiService/`), and the classification of its answers.

use roxmltree::{Document, Node};

use crate::compliance::{Outcome, RowResult};

/// The service namespace.
pub const NS: &str = "AlloggiatiService";
const SOAP_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";

/// Escapes text for an XML element.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// A request envelope for `operation` with these child elements (already XML).
pub fn envelope(operation: &str, children: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\
         <soap:Envelope xmlns:soap=\"{SOAP_NS}\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body>\
         <{operation} xmlns=\"{NS}\">{children}</{operation}></soap:Body></soap:Envelope>"
    )
}

/// `<name>text</name>`, escaped.
pub fn element(name: &str, text: &str) -> String {
    format!("<{name}>{}</{name}>", escape(text))
}

/// The `ElencoSchedine` of a Send or Test.
pub fn schedine(lines: &[String]) -> String {
    let mut out = String::from("<ElencoSchedine>");
    for l in lines {
        out.push_str(&element("string", l));
    }
    out.push_str("</ElencoSchedine>");
    out
}

/// An `EsitoOperazioneServizio`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Esito {
    /// Whether the operation succeeded.
    pub ok: bool,
    /// `ErroreCod`.
    pub code: String,
    /// `ErroreDes` and `ErroreDettaglio`, joined.
    pub description: String,
}

impl Esito {
    fn read(node: Node) -> Esito {
        let text = |n: &str| {
            child(node, n)
                .and_then(|c| c.text())
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let detail = [text("ErroreDes"), text("ErroreDettaglio")]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(": ");
        Esito {
            ok: text("esito") == "true",
            code: text("ErroreCod"),
            description: detail,
        }
    }

    /// The error in one line.
    pub fn describe(&self) -> String {
        match (self.code.is_empty(), self.description.is_empty()) {
            (true, true) => "refused without a reason".into(),
            (true, false) => self.description.clone(),
            (false, true) => format!("error {}", self.code),
            (false, false) => format!("error {}: {}", self.code, self.description),
        }
    }

    /// Whether the error is about the token or the credentials (nothing was processed).
    pub fn is_authentication(&self) -> bool {
        let d = self.description.to_ascii_lowercase();
        d.contains("token") || d.contains("autentica") || d.contains("authentica")
    }
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children()
        .find(|c| c.is_element() && c.tag_name().name() == name)
}

/// What a body came to: the response element, or a SOAP fault.
pub enum Parsed<'a, 'i> {
    /// The `<{operation}Response>` element.
    Response(Node<'a, 'i>),
    /// `faultcode` and `faultstring`.
    Fault(String, String),
}

/// Finds the response element of `operation` (or a fault) in a SOAP body.
pub fn parse<'a, 'i>(doc: &'a Document<'i>, operation: &str) -> Result<Parsed<'a, 'i>, String> {
    let body = doc
        .descendants()
        .find(|n| {
            n.is_element()
                && n.tag_name().name() == "Body"
                && n.tag_name().namespace() == Some(SOAP_NS)
        })
        .ok_or("the answer has no SOAP Body")?;
    if let Some(fault) = child(body, "Fault") {
        let text = |n: &str| {
            child(fault, n)
                .and_then(|c| c.text())
                .unwrap_or("")
                .trim()
                .to_string()
        };
        return Ok(Parsed::Fault(text("faultcode"), text("faultstring")));
    }
    let want = format!("{operation}Response");
    child(body, &want)
        .map(Parsed::Response)
        .ok_or_else(|| format!("the answer has no {want}"))
}

/// The CSV of a `TabellaResponse` (`TabellaResult` the outcome, `CSV` the table), or the
/// refusal.
pub fn table(resp: Node) -> Result<String, Esito> {
    match child(resp, "TabellaResult").map(Esito::read) {
        Some(e) if !e.ok => Err(e),
        None => Err(Esito {
            ok: false,
            code: String::new(),
            description: "the answer has no TabellaResult".into(),
        }),
        Some(_) => Ok(child(resp, "CSV")
            .and_then(|c| c.text())
            .unwrap_or("")
            .to_string()),
    }
}

/// The PDF of a `RicevutaResponse` (`RicevutaResult` the outcome, `PDF` base64), none
/// when there is no receipt for the day (`ERRORE_RECUPERO_RICEVUTA`), or the refusal.
pub fn receipt(resp: Node) -> Result<Option<Vec<u8>>, Esito> {
    use base64::Engine;
    match child(resp, "RicevutaResult").map(Esito::read) {
        Some(e) if !e.ok && e.description.contains("ERRORE_RECUPERO_RICEVUTA") => Ok(None),
        Some(e) if !e.ok => Err(e),
        None => Err(Esito {
            ok: false,
            code: String::new(),
            description: "the answer has no RicevutaResult".into(),
        }),
        Some(_) => {
            let text: String = child(resp, "PDF")
                .and_then(|c| c.text())
                .unwrap_or("")
                .split_whitespace()
                .collect();
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .map(Some)
                .map_err(|e| Esito {
                    ok: false,
                    code: String::new(),
                    description: format!("the receipt is not base64: {e}"),
                })
        }
    }
}

/// A token from a `GenerateTokenResponse`: (token, expires), or the refusal.
pub fn token(resp: Node) -> Result<(String, String), Esito> {
    let esito = child(resp, "result").map(Esito::read);
    let info = child(resp, "GenerateTokenResult");
    let token = info
        .and_then(|i| child(i, "token"))
        .and_then(|t| t.text())
        .unwrap_or("");
    let expires = info
        .and_then(|i| child(i, "expires"))
        .and_then(|t| t.text())
        .unwrap_or("");
    match esito {
        Some(e) if !e.ok => Err(e),
        _ if token.is_empty() || expires.is_empty() => Err(Esito {
            ok: false,
            code: String::new(),
            description: "no token in the answer".into(),
        }),
        _ => Ok((token.to_string(), expires.trim().to_string())),
    }
}

/// Classifies a `SendResponse` or `TestResponse` for `rows` rows.
pub fn outcome(resp: Node, operation: &str, rows: usize, reference: String) -> Outcome {
    let overall = child(resp, &format!("{operation}Result")).map(Esito::read);
    let result = child(resp, "result");
    let details: Vec<Esito> = result
        .and_then(|r| child(r, "Dettaglio"))
        .map(|d| {
            d.children()
                .filter(|c| c.is_element())
                .map(Esito::read)
                .collect()
        })
        .unwrap_or_default();
    match overall {
        Some(e) if !e.ok && e.is_authentication() => {
            return Outcome::Reauthenticate {
                reason: e.describe(),
            };
        }
        Some(e) if !e.ok && details.is_empty() => {
            return Outcome::Rejected {
                reason: e.describe(),
                rows: Vec::new(),
            };
        }
        None => {
            return Outcome::Unknown {
                reason: format!("the answer has no {operation}Result"),
            };
        }
        _ => {}
    }
    if details.len() != rows {
        return Outcome::Unknown {
            reason: format!(
                "the answer has {} row results for {rows} rows",
                details.len()
            ),
        };
    }
    let results: Vec<RowResult> = details
        .iter()
        .map(|d| RowResult {
            accepted: d.ok,
            error: (!d.ok).then(|| d.describe()),
        })
        .collect();
    let accepted = results.iter().filter(|r| r.accepted).count();
    if accepted == rows {
        Outcome::Accepted {
            authority_reference: reference,
        }
    } else if accepted == 0 {
        let reason = results
            .iter()
            .filter_map(|r| r.error.clone())
            .collect::<Vec<_>>()
            .join("; ");
        Outcome::Rejected {
            reason,
            rows: results,
        }
    } else {
        Outcome::Partial {
            rows: results,
            authority_reference: reference,
        }
    }
}

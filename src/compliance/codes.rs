//! Code tables: imported, versioned data from the authorities' own files, not Rust enums
//! (authorities change them). This module parses the files (pure); `store::codes` keeps them.
//!
//! Alloggiati Web publishes its tables through `Tabella(tipo)` as `;`-separated CSV with a
//! header line: `Luoghi` is `Codice;Descrizione;Provincia;DataFineVal` (Italian
//! municipalities, and foreign states with `Provincia` = `ES`); `Tipi_Documento` is
//! `Codice;Descrizione`. Names are looked up by their [`name_key`].

use crate::domain::rules::Rule;
use crate::domain::said::Value;

/// The Alloggiati table of places (municipalities and states).
pub use crate::model::codes::{CodeRow, name_key};

pub const PLACES: &str = "Luoghi";
/// The Alloggiati table of document types.
pub const DOCUMENT_TYPES: &str = "Tipi_Documento";
/// The tables `innkeep compliance import-table` accepts.
pub const TABLES: [&str; 2] = [PLACES, DOCUMENT_TYPES];
/// `Provincia` of a foreign state in `Luoghi`.
pub const STATE_PROVINCE: &str = "ES";

/// The ISO 3166-1 alpha-2 to Alloggiati state-name crosswalk, shipped with innkeep.
const ISO_STATES: &str = include_str!("../../assets/compliance/it-alloggiati/iso-states.csv");

/// The official name of a table, matched case-insensitively (`luoghi` → `Luoghi`).
pub fn table_name(given: &str) -> Option<&'static str> {
    TABLES
        .into_iter()
        .find(|t| t.eq_ignore_ascii_case(given.trim()))
}

/// The state name the Alloggiati tables use for an ISO country, when innkeep knows it.
pub fn iso_state_name(iso: &str) -> Option<&'static str> {
    ISO_STATES
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(';'))
        .find(|(code, _)| code.eq_ignore_ascii_case(iso))
        .map(|(_, name)| name)
}

/// Parses an official CSV table, checking its header and every row; errors name the line.
pub fn parse_table(table: &str, text: &str) -> Result<Vec<CodeRow>, Rule> {
    let expected: &[&str] = if table == PLACES {
        &["Codice", "Descrizione", "Provincia", "DataFineVal"]
    } else {
        &["Codice", "Descrizione"]
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let header = reader
        .headers()
        .map_err(|e| line_rule(1, format!("cannot read the header line: {e}")))?
        .clone();
    let given: Vec<&str> = header.iter().collect();
    if given.len() < expected.len()
        || !expected
            .iter()
            .zip(&given)
            .all(|(a, b)| a.eq_ignore_ascii_case(b))
    {
        let (expected, given) = (expected.join(";"), given.join(";"));
        return Err(Rule::new(
            "invalid_table",
            format!("line 1: the header must be {expected} (it is {given})"),
        )
        .said(
            "problem-table-header",
            vec![
                ("line", Value::Num(1)),
                ("expected", Value::Text(expected)),
                ("given", Value::Text(given)),
            ],
        ));
    }
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| line_rule(line, e.to_string()))?;
        if record.iter().all(str::is_empty) {
            continue;
        }
        let field = |n: usize| record.get(n).unwrap_or("").to_string();
        let row = CodeRow {
            code: field(0),
            description: field(1),
            province: field(2),
            valid_to: field(3),
        };
        check_row(table, &row).map_err(|(why, key, value)| {
            let mut values = vec![("line", Value::Num(line as i64))];
            values.extend(value);
            Rule::new("invalid_table", format!("line {line}: {why}")).said(key, values)
        })?;
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(
            Rule::new("invalid_table", "the file has no rows").said("problem-table-empty", vec![])
        );
    }
    Ok(rows)
}

/// A line's problem in words (English), the catalogue key that says it, and its value.
type RowProblem = (String, &'static str, Option<(&'static str, Value)>);

/// A line the CSV reader could not read, in its own words.
fn line_rule(line: usize, why: String) -> Rule {
    Rule::new("invalid_table", format!("line {line}: {why}")).said(
        "problem-table-line",
        vec![("line", Value::Num(line as i64)), ("why", Value::Text(why))],
    )
}

fn check_row(table: &str, row: &CodeRow) -> Result<(), RowProblem> {
    let named = |name, s: &String| Some((name, Value::Text(s.clone())));
    if row.description.is_empty() {
        return Err((
            "Descrizione is empty".into(),
            "problem-table-description",
            None,
        ));
    }
    if table == PLACES {
        if row.code.len() != 9 || !row.code.bytes().all(|b| b.is_ascii_digit()) {
            return Err((
                format!("Codice {:?} must be 9 digits", row.code),
                "problem-table-place-code",
                named("code", &row.code),
            ));
        }
        if row.province.len() != 2 || !row.province.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err((
                format!(
                    "Provincia {:?} must be two capital letters (ES for a foreign state)",
                    row.province
                ),
                "problem-table-province",
                named("province", &row.province),
            ));
        }
        if !row.valid_to.is_empty()
            && chrono::NaiveDate::parse_from_str(&row.valid_to, "%d/%m/%Y").is_err()
        {
            return Err((
                format!("DataFineVal {:?} must be dd/mm/yyyy or empty", row.valid_to),
                "problem-table-valid-to",
                named("date", &row.valid_to),
            ));
        }
    } else if row.code.is_empty()
        || row.code.len() > 5
        || !row.code.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        return Err((
            format!("Codice {:?} must be 1 to 5 letters or digits", row.code),
            "problem-table-code",
            named("code", &row.code),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_keys_transliterate() {
        assert_eq!(name_key("Müller-Lüdenscheidt"), "MULLER LUDENSCHEIDT");
        assert_eq!(name_key("  D’Annunzio  "), "D'ANNUNZIO");
        assert_eq!(name_key("Łódź"), "LODZ");
        assert_eq!(name_key("Straße"), "STRASSE");
        assert_eq!(name_key("Niccolò"), "NICCOLO");
    }

    #[test]
    fn places_parse_and_bad_lines_are_named() {
        let ok =
            "Codice;Descrizione;Provincia;DataFineVal\n412058091;ROMA;RM;\n100000215;FRANCIA;ES;\n";
        let rows = parse_table(PLACES, ok).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].province, "ES");
        let bad = "Codice;Descrizione;Provincia;DataFineVal\n412058091;ROMA;RM;\n12;X;RM;\n";
        assert!(
            parse_table(PLACES, bad)
                .unwrap_err()
                .message
                .starts_with("line 3:")
        );
        let header = "Code;Name\nIDENT;CARTA\n";
        assert!(
            parse_table(DOCUMENT_TYPES, header)
                .unwrap_err()
                .message
                .contains("header")
        );
    }

    #[test]
    fn shipped_samples_parse() {
        let places = include_str!("../../assets/compliance/it-alloggiati/Luoghi.sample.csv");
        let docs = include_str!("../../assets/compliance/it-alloggiati/Tipi_Documento.sample.csv");
        assert!(parse_table(PLACES, places).unwrap().len() > 10);
        assert_eq!(parse_table(DOCUMENT_TYPES, docs).unwrap().len(), 4);
        assert_eq!(iso_state_name("fr"), Some("FRANCIA"));
        assert_eq!(table_name("tipi_documento"), Some(DOCUMENT_TYPES));
    }
}

//! eVisitor's look-ups (`GET Rest/Htz/<Browse>/`, `{"Records":[…]}`) as innkeep keeps them
//! in its code tables, under the browse's own name. Each row keeps the value sent to eVisitor
//! as its `code` and what it is found by as its `description`: a country is found by its
//! ISO alpha-2 code (the guest's), a settlement by its name. Inactive rows are left out.

use serde_json::Value as Json;

use crate::model::codes::CodeRow;

/// The scheme's name in the code tables.
pub const SCHEME: &str = "hr-evisitor";
/// Countries: code = `CodeThreeLetters`, description = `CodeTwoLetters`, province = `EU`
/// for a member state.
pub const COUNTRIES: &str = "CountryLookup";
/// Document types: `Code`, `Name` (the browse's name is spelt so).
pub const DOCUMENT_TYPES: &str = "DocumentTtypeLookup";
/// Croatian settlements: code = description = `Name`, province = `ZIPCode`.
pub const SETTLEMENTS: &str = "SettlementLookup";
/// The tourist-tax categories the facility may use: `Code`, `Name`.
pub const TAX_CATEGORIES: &str = "TTPaymentCategoryLookup2";
/// Arrival organisations: `CodeMI`, `Name`.
pub const ARRIVALS: &str = "ArrivalOrganisationLookup";
/// Offered service types: `Name`, `Name`.
pub const SERVICES: &str = "OfferedServiceTypeLookup";
/// Border crossings: `CodeMI`, `Name`.
pub const BORDER_CROSSINGS: &str = "BorderCrossingHRlookup";
/// The facilities the account sees (`FacilityBrowse`): used to find the facility's ID.
pub const FACILITIES: &str = "FacilityBrowse";
/// Province of an EU member state in [`COUNTRIES`].
pub const EU: &str = "EU";

/// The tables innkeep keeps, in the order they are fetched.
pub const TABLES: [&str; 7] = [
    COUNTRIES,
    DOCUMENT_TYPES,
    SETTLEMENTS,
    TAX_CATEGORIES,
    ARRIVALS,
    SERVICES,
    BORDER_CROSSINGS,
];

/// The official name of a table, matched case-insensitively.
pub fn table_name(given: &str) -> Option<&'static str> {
    TABLES
        .into_iter()
        .find(|t| t.eq_ignore_ascii_case(given.trim()))
}

fn text(r: &Json, key: &str) -> String {
    match &r[key] {
        Json::String(s) => s.trim().to_string(),
        Json::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

/// The records of a browse answer, or why they cannot be read.
pub fn records(body: &str) -> Result<Vec<Json>, String> {
    let doc: Json = serde_json::from_str(body.trim_start_matches('\u{feff}'))
        .map_err(|e| format!("the answer is not JSON ({e})"))?;
    match doc.get("Records") {
        Some(Json::Array(rows)) => Ok(rows.clone()),
        _ => Err("the answer has no Records list".into()),
    }
}

/// A browse answer as rows of `table`; rows without the value sent are an error that says
/// which.
pub fn parse(table: &str, body: &str) -> Result<Vec<CodeRow>, String> {
    let (code, description) = match table {
        COUNTRIES => ("CodeThreeLetters", "CodeTwoLetters"),
        SETTLEMENTS | SERVICES => ("Name", "Name"),
        ARRIVALS | BORDER_CROSSINGS => ("CodeMI", "Name"),
        DOCUMENT_TYPES | TAX_CATEGORIES => ("Code", "Name"),
        other => return Err(format!("{other} is not a table innkeep keeps")),
    };
    let mut rows = Vec::new();
    for (n, r) in records(body)?.iter().enumerate() {
        if r["Active"] == Json::Bool(false) {
            continue;
        }
        let row = CodeRow {
            code: text(r, code),
            description: text(r, description),
            province: match table {
                COUNTRIES if r["IsEUMember"] == Json::Bool(true) => EU.to_string(),
                SETTLEMENTS => text(r, "ZIPCode"),
                _ => String::new(),
            },
            valid_to: String::new(),
        };
        if row.code.is_empty() {
            return Err(format!("record {} of {table} has no {code}", n + 1));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(format!("{table} came back empty"));
    }
    Ok(rows)
}

/// The `filters` query of a browse: `[{"Property","Operation":"equal","Value"}]`.
pub fn filter(pairs: &[(&str, &str)]) -> String {
    let list: Vec<Json> = pairs
        .iter()
        .map(|(p, v)| serde_json::json!({"Property": p, "Operation": "equal", "Value": v}))
        .collect();
    serde_urlencoded::to_string([("filters", Json::Array(list).to_string())]).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countries_are_found_by_iso_code_and_carry_eu_membership() {
        let body = r#"{"Records":[
            {"ID":"a","Active":true,"CodeThreeLetters":"DEU","CodeTwoLetters":"DE","IsEUMember":true,"NameNational":"Njemačka"},
            {"ID":"b","Active":true,"CodeThreeLetters":"USA","CodeTwoLetters":"US","IsEUMember":false},
            {"ID":"c","Active":false,"CodeThreeLetters":"YUG","CodeTwoLetters":"YU","IsEUMember":false}]}"#;
        let rows = parse(COUNTRIES, body).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (
                rows[0].code.as_str(),
                rows[0].description.as_str(),
                rows[0].province.as_str()
            ),
            ("DEU", "DE", "EU")
        );
        assert_eq!(rows[1].province, "");
    }

    #[test]
    fn a_record_without_its_code_is_refused_by_number() {
        let err = parse(ARRIVALS, r#"{"Records":[{"Name":"Osobno"}]}"#).unwrap_err();
        assert_eq!(err, "record 1 of ArrivalOrganisationLookup has no CodeMI");
        assert!(parse(ARRIVALS, "<html>").unwrap_err().contains("not JSON"));
    }

    #[test]
    fn filters_are_url_encoded_json() {
        assert_eq!(
            filter(&[("Code", "0000022")]),
            "filters=%5B%7B%22Operation%22%3A%22equal%22%2C%22Property%22%3A%22Code%22%2C%22Value%22%3A%220000022%22%7D%5D"
        );
    }
}

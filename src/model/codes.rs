//! The vocabulary of the national code tables, shared by the adapters that read them and the
//! store that keeps them: a row as imported, a place found by name, the name key both sides
//! match on, and [`CodeLookup`], the read-only view an adapter is handed so that it never
//! touches the database itself.

use crate::error::AppResult;

/// One row of a code table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRow {
    /// The code sent to the authority.
    pub code: String,
    /// Its description, as the authority spells it.
    pub description: String,
    /// For places: the province (`ES` for a foreign state); empty otherwise.
    pub province: String,
    /// For places: the last day it was valid (`dd/mm/yyyy`), empty while current.
    pub valid_to: String,
}

/// A place found by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The code.
    pub code: String,
    /// Its province (`ES` for a state).
    pub province: String,
    /// Empty while current.
    pub valid_to: String,
}

/// The imported code tables as an adapter sees them: lookups only. The service hands one
/// over the transaction it runs in; a test can hand over a vector.
pub trait CodeLookup {
    /// Rows of `table` whose name key is `key`, current ones first.
    fn by_name(&self, scheme: &str, table: &str, key: &str) -> AppResult<Vec<Found>>;
    /// Whether `code` is in `table`.
    fn exists(&self, scheme: &str, table: &str, code: &str) -> AppResult<bool>;
}

/// A name reduced to the letters the authorities accept: accents and other scripts are
/// transliterated (`Müller` → `MULLER`, `Łódź` → `LODZ`, `ß` → `SS`), letters upper-cased,
/// typographic apostrophes made plain, anything else a space; runs of spaces collapse.
pub fn name_key(s: &str) -> String {
    let plain = deunicode::deunicode(s).to_ascii_uppercase();
    let mut out = String::with_capacity(plain.len());
    for c in plain.chars() {
        let c = match c {
            'A'..='Z' | '\'' => c,
            '`' => '\'',
            _ => ' ',
        };
        if c == ' ' && (out.is_empty() || out.ends_with(' ')) {
            continue;
        }
        out.push(c);
    }
    out.trim_end().to_string()
}
